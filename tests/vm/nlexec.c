// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nlexec: send one raw EXEC to the kernel's "dyndbg" generic netlink family,
 * without ddctl's own validation, so the VM suite can test the kernel side
 * (atomicity of a set with a bad query, net-zero sets, dry runs).
 *
 *   nlexec [-n] QUERIES      -n: dry run
 *
 * Prints "rc=N keys_patched=N sites_changed=N", one "query I matched=M
 * changed=C" line per reported query and "msg=..." with the kernel's
 * extended-ack message. Exit status 0 when the kernel accepted the set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libddctl-private.h"

#define MAXQ 256

int main(int argc, char **argv)
{
	unsigned int matched[MAXQ] = { 0 }, changed[MAXQ] = { 0 };
	struct nl_exec_result res = { .nqueries = MAXQ, .matched = matched,
				      .changed = changed };
	struct ddctl_ctx *ctx;
	bool dry = argc > 2 && !strcmp(argv[1], "-n");
	char *msg = NULL;
	size_t i;
	int r;

	if (argc < 2 || (argc == 2 && !strcmp(argv[1], "-n"))) {
		fprintf(stderr, "usage: nlexec [-n] QUERIES\n");
		return 2;
	}
	if (ddctl_new(&ctx) < 0)
		return 1;
	r = nl_exec(ctx, argv[dry ? 2 : 1], dry, &res, &msg);
	printf("rc=%d keys_patched=%u sites_changed=%u\n", r, res.keys_patched,
	       res.sites_changed);
	for (i = 0; i < MAXQ; i++)
		if (matched[i] || changed[i])
			printf("query %zu matched=%u changed=%u\n", i + 1, matched[i],
			       changed[i]);
	if (msg)
		printf("msg=%s\n", msg);
	free(msg);
	ddctl_unref(ctx);
	return r < 0;
}
