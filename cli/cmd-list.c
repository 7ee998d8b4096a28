// SPDX-License-Identifier: GPL-2.0-or-later
/* ddctl list: the callsites, optionally those a match-spec selects. */
#include <stdlib.h>
#include <string.h>

#include "ddctl-cli.h"

static bool selected(struct cli *cli, struct ddctl_queryset *filter,
		     const struct ddctl_site *site)
{
	size_t i, n = filter ? ddctl_queryset_get_count(filter) : 0;
	bool any = n == 0;

	if (cli->enabled && !(ddctl_site_get_flags(site) & DDCTL_FLAG_PRINT))
		return false;
	for (i = 0; i < n && !any; i++)
		any = ddctl_query_matches(ddctl_queryset_get_query(filter, i), site);
	return any;
}

static void print_site(struct cli *cli, const struct ddctl_site *site,
		       bool first, int wloc, int wfunc)
{
	char flags[DDCTL_FLAGS_BUFSZ], loc[4096];
	const char *cls = ddctl_site_get_class(site);

	ddctl_flags_format(ddctl_site_get_flags(site), flags);
	if (cli->json) {
		printf("%s\n{", first ? "" : ",");
		json_site_fields(stdout, site);
		printf(",\"flags\":\"%s\",\"format\":", flags);
		json_string(stdout, ddctl_site_get_format(site));
		if (cls) {
			printf(",\"class\":");
			json_string(stdout, cls);
		}
		printf("}");
		return;
	}
	snprintf(loc, sizeof(loc), "%s:%u", ddctl_site_get_file(site),
		 ddctl_site_get_line(site));
	printf("%-7s %-*s [%s]%-*s \"", flags, wloc, loc,
	       ddctl_site_get_module(site), wfunc, ddctl_site_get_function(site));
	print_escaped_format(stdout, ddctl_site_get_format(site));
	printf("\"");
	if (cls && *cls)
		printf(" class:%s", cls);
	else if (cls)
		printf(" class unknown, _id:%d", ddctl_site_get_class_id(site));
	printf("\n");
}

int cmd_list(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *filter = NULL;
	struct ddctl_table *table = NULL;
	size_t i, n, shown = 0;
	int st, wloc = 0, wfunc = 0;
	char *text;

	if (cli->persistent)
		return cli_list_persistent(cli);
	if (argc > 0) {
		text = cli_join_args(argc, argv);
		if (!text)
			return EXIT_REFUSED;
		st = cli_parse_queries(cli, text, DDCTL_PARSE_MATCH_ONLY, &filter);
		free(text);
		if (st)
			return st;
	}
	st = cli_read_table(cli, &table);
	if (st)
		goto out;
	n = ddctl_table_get_count(table);
	for (i = 0; i < n && !cli->json; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);
		int l;

		if (!selected(cli, filter, s))
			continue;
		l = snprintf(NULL, 0, "%s:%u", ddctl_site_get_file(s),
			     ddctl_site_get_line(s));
		wloc = l > wloc ? (l < 48 ? l : 48) : wloc;
		l = (int)strlen(ddctl_site_get_function(s));
		wfunc = l > wfunc ? (l < 32 ? l : 32) : wfunc;
	}
	if (cli->json)
		printf("[");
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);

		if (selected(cli, filter, s))
			print_site(cli, s, shown++ == 0, wloc, wfunc);
	}
	if (cli->json)
		printf("%s]\n", shown ? "\n" : "");
out:
	ddctl_table_unref(table);
	ddctl_queryset_unref(filter);
	return st;
}
