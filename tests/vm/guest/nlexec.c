// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * nlexec: one request to the kernel's structured "dyndbg" generic netlink
 * family (uapi v3), without ddctl's transaction around it (no
 * prediction, no verification, no split), so the VM suite can test the
 * kernel side (net-zero sets, dry runs, QUERIES_MAX, per-query results,
 * the generation, the extack of a bad query).
 *
 *   nlexec [-n] QUERIES        EXEC of QUERIES parsed by ddctl's parser and
 *                              sent as nested attributes; a query ddctl
 *                              refuses (parser, nl_query_check) never
 *                              reaches the kernel (rc=-22, ddctl's message)
 *   nlexec [-n] -r SPEC...     EXEC of one raw nested query per SPEC
 *                              (guest/nlraw.h: "module=x,negate=2,flags=p/p"),
 *                              unchecked: the kernel's own validation
 *   nlexec -F                  GET_FEATURES
 *   -n: dry run
 *
 * EXEC prints "rc=N keys_patched=N sites_changed=N reported=N generation=N",
 * one "query I matched=M changed=C" line per reported query with a
 * count, and "msg=..." with the kernel's extended-ack message. -F prints
 * "rc=N queries_max=N features=N valid_flags=N generation=N". Exit
 * status 0 when the kernel accepted the request.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kernel/dyndbg-nl.h"
#include "kernel/dyndbg.h"
#include "nlraw.h"

/* Room for every query: one per ';' or newline, plus one. */
static size_t count_queries(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == ';' || *s == '\n';
	return n;
}

/* EXEC of one raw nested query per @specs[i]. */
static int exec_raw(struct ddctl_ctx *ctx, char **specs, size_t n, bool dry,
		    struct backend_result *res, char **msg)
{
	size_t size = MNL_SOCKET_BUFFER_SIZE, i;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct nl_family f;
	char *buf;
	int r;

	for (i = 0; i < n; i++)
		size += strlen(specs[i]) + 128;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	r = nl_connect(ctx, false, &nl, &f);
	if (r < 0) {
		free(buf);
		return r;
	}
	nlh = nl_request(ctx, buf, size, f.id, NLM_F_ACK, DYNDBG_CMD_EXEC);
	for (i = 0; i < n && !r; i++)
		r = nlraw_put_query(nlh, specs[i]);
	if (dry)
		mnl_attr_put(nlh, DYNDBG_A_DRY_RUN, 0, NULL);
	if (!r)
		r = nl_talk(nl, nlh, nl_exec_parse, res, msg);
	mnl_socket_close(nl);
	free(buf);
	return r;
}

static int features(struct ddctl_ctx *ctx)
{
	struct nl_features ft;
	char *msg = NULL;
	int r = nlraw_features(ctx, &ft, &msg);

	printf("rc=%d queries_max=%u features=%u valid_flags=%u generation=%u\n",
	       r, ft.queries_max, ft.features, ft.valid_flags, ft.generation);
	if (msg)
		printf("msg=%s\n", msg);
	free(msg);
	return r;
}

int main(int argc, char **argv)
{
	struct backend_result res = { 0 };
	struct ddctl_ctx *ctx;
	bool dry = false, raw = false;
	char *msg = NULL;
	int a = 1, r;
	size_t i;

	for (; a < argc && argv[a][0] == '-' && argv[a][1] && !argv[a][2]; a++) {
		if (argv[a][1] == 'n')
			dry = true;
		else if (argv[a][1] == 'r')
			raw = true;
		else if (argv[a][1] == 'F' && argc == 2)
			break;
		else
			a = argc + 1;
	}
	if (ddctl_new(&ctx) < 0)
		return 1;
	if (a == 1 && argc == 2 && !strcmp(argv[1], "-F")) {
		r = features(ctx);
		ddctl_unref(ctx);
		return r < 0;
	}
	if (a >= argc || (!raw && a != argc - 1)) {
		fprintf(stderr, "usage: nlexec [-n] QUERIES | nlexec [-n] -r SPEC... | nlexec -F\n");
		ddctl_unref(ctx);
		return 2;
	}
	res.nqueries = raw ? (size_t)(argc - a) : count_queries(argv[a]);
	res.matched = calloc(res.nqueries, sizeof(*res.matched));
	res.changed = calloc(res.nqueries, sizeof(*res.changed));
	if (!res.matched || !res.changed)
		return 1;
	if (raw)
		r = exec_raw(ctx, argv + a, argc - a, dry, &res, &msg);
	else
		r = nl_exec(ctx, argv[a], dry, &res, &msg);
	printf("rc=%d keys_patched=%u sites_changed=%u reported=%zu generation=%u\n",
	       r, res.keys_patched, res.sites_changed, res.reported, res.generation);
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
