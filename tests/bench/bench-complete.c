// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Shell completion on a generated table (100,000 sites by default): the
 * time to build the candidate lists once per table read, and per lookup.
 * Prints numbers; asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shell.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* 500 modules, 10 files each, 6 functions per file, sites spread over them. */
static char *generate(size_t sites, size_t *len)
{
	size_t i, alloc = sites * 120 + 64, n = 0;
	char *buf = malloc(alloc);

	if (!buf)
		return NULL;
	n += (size_t)snprintf(buf, alloc, "# filename:lineno [module]function flags format\n");
	for (i = 0; i < sites; i++) {
		size_t mod = i * 500 / sites, file = i * 5000 / sites,
		       func = i * 30000 / sites;

		n += (size_t)snprintf(buf + n, alloc - n,
				      "drivers/sub%03zu/mod%03zu/file%05zu.c:%zu [mod%03zu]fn_%03zu_%06zu =_ \"message %zu\\n\"\n",
				      mod % 37, mod, file, i % 4000 + 1, mod, mod,
				      func, i);
	}
	*len = n;
	return buf;
}

static const char *const lines[] = {
	"module mod0", "module mod12", "module mod123", "set module !mod49",
	"func fn_2", "func fn_250_0", "file drivers/sub0", "file drivers/sub001/mod038/",
	"module mod001 +", "list mo", "", "module mod001 func fn_001_0000",
};

int main(int argc, char **argv)
{
	static const char *const commands[] = { "set", "check", "list", "begin", "commit", NULL };
	static const char *const query[] = { "set", "check", "list", NULL };
	size_t sites = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	unsigned int rounds = 2000, r;
	struct ddctl_table *table = NULL;
	struct ddctl_ctx *ctx = NULL;
	struct completer *comp = NULL;
	char *const *cands;
	size_t len, i, start, n = 0;
	double t0, t1;
	char *text;

	text = generate(sites, &len);
	if (!text || ddctl_new(&ctx) < 0 ||
	    ddctl_table_new_from_buffer(ctx, text, len, &table) < 0 ||
	    completer_new(ctx, commands, query, &comp) < 0) {
		fprintf(stderr, "bench-complete: setup failed\n");
		return 1;
	}
	t0 = now_ms();
	completer_set_table(comp, table);
	t1 = now_ms();
	printf("sites %zu: candidate lists built in %.2f ms (once per table read)\n",
	       ddctl_table_get_count(table), t1 - t0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		t0 = now_ms();
		for (r = 0; r < rounds; r++)
			n = completer_complete(comp, lines[i], strlen(lines[i]),
					       &start, &cands);
		t1 = now_ms();
		printf("%-36s %6zu candidates %9.2f us/lookup\n", lines[i], n,
		       (t1 - t0) * 1e3 / rounds);
	}
	completer_free(comp);
	ddctl_table_unref(table);
	ddctl_unref(ctx);
	free(text);
	return 0;
}
