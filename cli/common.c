// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers the commands share. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ddctl-cli.h"

int cli_errno_status(int r)
{
	return r == -EINVAL ? EXIT_USAGE : EXIT_REFUSED;
}

/* "ddctl: [line N: ]message": the shell names the script line. */
void cli_verror(const struct cli *cli, const char *format, va_list args)
{
	fprintf(stderr, "ddctl: ");
	if (cli->line)
		fprintf(stderr, "line %u: ", cli->line);
	vfprintf(stderr, format, args);
}

void cli_error(const struct cli *cli, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	cli_verror(cli, format, args);
	va_end(args);
}

/* How sets reach the kernel. */
const char *cli_backend_name(struct cli *cli)
{
	const char *path;

	if (ddctl_get_control_path(cli->ctx, &path) < 0)
		return "none";
	return ddctl_get_backend(cli->ctx) == DDCTL_BACKEND_NETLINK ? "netlink" : "control-file";
}

int cli_read_table(struct cli *cli, struct ddctl_table **table)
{
	const char *path;
	int r;

	if (cli->table) {
		*table = ddctl_table_ref(cli->table);
		return EXIT_OK;
	}
	r = ddctl_get_control_path(cli->ctx, &path);
	if (r == -ENOENT) {
		cli_error(cli, "no dynamic debug control file: the kernel lacks CONFIG_DYNAMIC_DEBUG, or debugfs is not mounted\n");
		return EXIT_REFUSED;
	}
	if (r == 0)
		r = ddctl_table_read(cli->ctx, table);
	if (r < 0) {
		cli_error(cli, "cannot read %s: %s\n", path, strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

int cli_parse_queries(struct cli *cli, const char *text, unsigned int flags,
		      struct ddctl_queryset **set)
{
	int r = ddctl_queryset_new(cli->ctx, set);

	if (r == 0)
		r = ddctl_queryset_parse(*set, text, flags);
	if (r == -EINVAL) {
		cli_error(cli, "%s\n", ddctl_queryset_get_error(*set, NULL, NULL, NULL));
		return EXIT_USAGE;
	}
	if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/*
 * Arguments are words of one query when none holds a space or ';'
 * (`ddctl set module foo +p`); otherwise each is a query of its own
 * (`ddctl set 'module a +p' 'module b +p'`).
 */
char *cli_join_args(int argc, char **argv)
{
	bool words = true;
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++) {
		len += strlen(argv[i]) + 1;
		if (strpbrk(argv[i], " \t;\n"))
			words = false;
	}
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(s, words ? " " : "\n");
		strcat(s, argv[i]);
	}
	return s;
}

char *cli_read_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	size_t len = 0, alloc = 4096, n;
	char *buf, *tmp;

	if (!f)
		return NULL;
	buf = malloc(alloc);
	while (buf && (n = fread(buf + len, 1, alloc - len - 1, f)) > 0) {
		len += n;
		if (alloc - len < 2) {
			alloc *= 2;
			tmp = realloc(buf, alloc);
			if (!tmp) {
				free(buf);
				buf = NULL;
			}
			buf = tmp;
		}
	}
	if (buf)
		buf[len] = '\0';
	if (f != stdin)
		fclose(f);
	return buf;
}
