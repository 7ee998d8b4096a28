// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl persist: the configuration as dyndbg= modprobe options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/config.h"
#include "ops/input.h"
#include "output/json.h"
#include "output/message.h"

struct written {
	struct json_writer w;
	bool file; /* "file" has its value and "modules" is open */
};

static void print_module(struct written *wr, const char *module, const char *options)
{
	json_begin_object(&wr->w);
	json_key(&wr->w, "module");
	json_string(&wr->w, module);
	json_key(&wr->w, "options");
	json_string(&wr->w, options);
	json_end_object(&wr->w);
}

/* The file "modules" belongs to: the source of the first of ddctl's own. */
static void open_modules(struct written *wr, const char *file)
{
	json_string(&wr->w, file);
	json_key(&wr->w, "modules");
	json_begin_array(&wr->w);
	wr->file = true;
}

static int own_options(const char *module, const char *options,
		       const char *source, void *data)
{
	struct written *wr = data;

	if (strcmp(source, "modprobe.d")) { /* ddctl's own file */
		if (!wr->file)
			open_modules(wr, source);
		print_module(wr, module, options);
	}
	return 0;
}

/* The "options MODULE ..." lines of @text as JSON members; @text is cut up. */
static void print_options_lines(struct written *wr, char *text)
{
	char *line, *save = NULL, *opts, module[256];
	int end;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* the options follow the module's own word, not a match inside "options" */
		if (sscanf(line, "options %255s%n", module, &end) != 1)
			continue;
		opts = line + end;
		print_module(wr, module, opts + strspn(opts, " "));
	}
}

/*
 * persist --json: {"file":PATH,"modules":[{"module":M,"options":O}]}, from
 * @text (what is or would be written) or else the file ddctl wrote.
 */
static void print_json(struct cli *cli, const char *path, char *text)
{
	struct written wr = { .file = false };
	char *own = NULL;

	json_init(&wr.w, stdout);
	json_begin_object(&wr.w);
	json_key(&wr.w, "file");
	if (!path && !text) {
		ddctl_module_foreach_persistent(cli->ctx, own_options, &wr);
	} else {
		open_modules(&wr, path);
		if (!text)
			text = own = cli_read_file(path);
		if (text)
			print_options_lines(&wr, text);
		free(own);
	}
	if (!wr.file)
		open_modules(&wr, NULL);
	json_end_array(&wr.w);
	json_end_object(&wr.w);
}

/* persist --check: the text that would be written, written nowhere. */
static int persist_check(struct cli *cli, struct ddctl_queryset *set,
			 const char *path)
{
	char *text = NULL;
	int r = ddctl_config_format_modprobe(set, &text);

	if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	if (cli->json)
		print_json(cli, path, text);
	else
		printf("would write %s:\n%s", path ? path : "/etc/modprobe.d/ddctl.conf", text);
	free(text);
	return EXIT_OK;
}

int cmd_persist(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv)
{
	struct ddctl_queryset *set = NULL;
	int r, st;

	st = cli_load_config(cli, &set);
	if (st)
		return st;
	if (cli->check) {
		st = persist_check(cli, set, argc ? argv[0] : NULL);
		ddctl_queryset_unref(set);
		return st;
	}
	r = ddctl_config_write_modprobe(set, argc ? argv[0] : NULL);
	ddctl_queryset_unref(set);
	if (r < 0)
		return EXIT_REFUSED;
	if (cli->json)
		print_json(cli, argc ? argv[0] : NULL, NULL);
	return EXIT_OK;
}
