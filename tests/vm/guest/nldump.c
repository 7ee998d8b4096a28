// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * nldump: one DYNDBG_CMD_GET dump of the kernel's structured "dyndbg"
 * generic netlink family (uapi v3), optionally filtered by one query,
 * printed in the control file's format, so the VM suite can test the
 * kernel's dump (that it ends, that each site comes once, that the filter
 * selects the right sites, NLM_F_DUMP_INTR) without ddctl's own filtering
 * or retries in between.
 *
 *   nldump [MATCH-SPEC]     the filter parsed by ddctl's parser (match-specs
 *                           only), sent as a nested query, not checked
 *   nldump -r SPEC          the filter a raw nested query (guest/nlraw.h)
 *
 * Done once: a dump the kernel marks NLM_F_DUMP_INTR fails with EINTR
 * ("Interrupted system call"). The generation the dump's messages carried
 * goes to stderr ("generation=N"). Exit status 0 when the dump ended
 * without an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dyndbg.h"
#include "model/queryset.h"
#include "nlraw.h"

static void put_parsed(struct nlmsghdr *nlh, const void *arg, uint32_t valid)
{
	nl_put_query(nlh, arg, valid, false);
}

int main(int argc, char **argv)
{
	bool raw = argc == 3 && !strcmp(argv[1], "-r");
	struct nl_dump_state st = { 0 };
	struct ddctl_queryset *set = NULL;
	struct ddctl_ctx *ctx;
	int r = 0;

	if (argc > 3 || (argc == 3 && !raw)) {
		fprintf(stderr, "usage: nldump [MATCH-SPEC] | nldump -r SPEC\n");
		return 2;
	}
	if (ddctl_new(&ctx) < 0)
		return 1;
	if (raw) {
		r = nl_dump_once(ctx, nlraw_put_filter, argv[2], &st);
	} else if (argc == 2) {
		r = ddctl_queryset_new(ctx, &set);
		if (!r)
			r = ddctl_queryset_parse(set, argv[1], DDCTL_PARSE_MATCH_ONLY);
		if (!r && set->count != 1)
			r = -EINVAL;
		if (!r)
			r = nl_dump_once(ctx, put_parsed, &set->queries[0], &st);
		ddctl_queryset_unref(set);
	} else {
		r = nl_dump_once(ctx, NULL, NULL, &st);
	}
	if (r < 0)
		fprintf(stderr, "nldump: %s\n", strerror(-r));
	else if (st.sb.buf)
		fputs(st.sb.buf, stdout);
	fprintf(stderr, "generation=%u\n", st.generation);
	strbuf_release(&st.sb);
	ddctl_unref(ctx);
	return r < 0;
}
