// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl diff A B: two states compared callsite by callsite. A state is a
 * saved script (ddctl save, /run/ddctl/boot.conf) evaluated on the
 * callsites the kernel has now, or '-' for the live state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/input.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"

static int load_state(struct cli *cli, struct ddctl_table *live, const char *what,
		      struct ddctl_table **out)
{
	struct ddctl_queryset *script = NULL;
	int r, st;

	if (!strcmp(what, "-")) {
		*out = ddctl_table_ref(live);
		return EXIT_OK;
	}
	st = cli_parse_file(cli, what, &script, NULL);
	if (st)
		return st;
	r = ddctl_table_new_from_script(live, script, out);
	ddctl_queryset_unref(script);
	if (r < 0) {
		cli_error(cli, "cannot evaluate %s: %s\n", what, strerror(-r));
		return cli_errno_status(r);
	}
	return EXIT_OK;
}

static size_t print_diff(struct cli *cli, struct ddctl_table *a, struct ddctl_table *b)
{
	char fa[DDCTL_FLAGS_BUFSZ], fb[DDCTL_FLAGS_BUFSZ];
	struct json_writer w;
	size_t i, n = 0;

	json_init(&w, stdout);
	if (cli->json) {
		json_begin_object(&w);
		json_key(&w, "differences");
		json_begin_array(&w);
	}
	for (i = 0; i < ddctl_table_get_count(a); i++) {
		const struct ddctl_site *sa = ddctl_table_get_site(a, i);
		unsigned int x = ddctl_site_get_flags(sa);
		unsigned int y = ddctl_site_get_flags(ddctl_table_get_site(b, i));

		if (x == y)
			continue;
		ddctl_flags_format(x, fa);
		ddctl_flags_format(y, fb);
		if (cli->json) {
			json_begin_object(&w);
			json_site(&w, sa);
			json_key(&w, "a");
			json_string(&w, fa);
			json_key(&w, "b");
			json_string(&w, fb);
			json_end_object(&w);
		} else {
			printf("%s:%u [%s]%s %s -> %s\n", ddctl_site_get_file(sa),
			       ddctl_site_get_line(sa), ddctl_site_get_module(sa),
			       ddctl_site_get_function(sa), fa, fb);
		}
		n++;
	}
	if (cli->json) {
		json_end_array(&w);
		json_key(&w, "count");
		json_uint(&w, n);
		json_end_object(&w);
	} else {
		printf("%zu callsite%s differ%s\n", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	}
	return n;
}

int cmd_diff(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv)
{
	struct ddctl_table *live = NULL, *a = NULL, *b = NULL;
	int st;

	st = cli_read_table(cli, &live);
	if (!st)
		st = load_state(cli, live, argv[0], &a);
	if (!st)
		st = load_state(cli, live, argv[1], &b);
	/* as diff(1): 1 when the states differ */
	if (!st && print_diff(cli, a, b) > 0)
		st = EXIT_DIFFER;
	ddctl_table_unref(a);
	ddctl_table_unref(b);
	ddctl_table_unref(live);
	return st;
}
