// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * nlexec: send one EXEC to the kernel's "dyndbg" generic netlink family,
 * without ddctl's transaction around it (no prediction, no verification),
 * so the VM suite can test the kernel side (net-zero sets, dry runs, the
 * query count limit). The queries are parsed by ddctl's parser and sent
 * as structured attributes (uapi v3): a query the parser or the family
 * refuses never reaches the kernel (rc=-22 and ddctl's message).
 *
 *   nlexec [-n] QUERIES      -n: dry run
 *
 * Prints "rc=N keys_patched=N sites_changed=N reported=N", one "query I matched=M
 * changed=C" line per reported query and "msg=..." with the kernel's
 * extended-ack message. Exit status 0 when the kernel accepted the set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dyndbg.h"

/* Room for every query: one per ';' or newline, plus one. */
static size_t count_queries(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == ';' || *s == '\n';
	return n;
}

int main(int argc, char **argv)
{
	struct backend_result res = { 0 };
	struct ddctl_ctx *ctx;
	bool dry = argc > 2 && !strcmp(argv[1], "-n");
	const char *queries;
	char *msg = NULL;
	size_t i;
	int r;

	if (argc < 2 || (argc == 2 && !strcmp(argv[1], "-n"))) {
		fprintf(stderr, "usage: nlexec [-n] QUERIES\n");
		return 2;
	}
	queries = argv[dry ? 2 : 1];
	res.nqueries = count_queries(queries);
	res.matched = calloc(res.nqueries, sizeof(*res.matched));
	res.changed = calloc(res.nqueries, sizeof(*res.changed));
	if (!res.matched || !res.changed || ddctl_new(&ctx) < 0)
		return 1;
	r = nl_exec(ctx, queries, dry, &res, &msg);
	printf("rc=%d keys_patched=%u sites_changed=%u reported=%zu\n", r,
	       res.keys_patched, res.sites_changed, res.reported);
	for (i = 0; i < res.nqueries; i++)
		if (res.matched[i] || res.changed[i])
			printf("query %zu matched=%u changed=%u\n", i + 1,
			       res.matched[i], res.changed[i]);
	if (msg)
		printf("msg=%s\n", msg);
	free(msg);
	free(res.matched);
	free(res.changed);
	ddctl_unref(ctx);
	return r < 0;
}
