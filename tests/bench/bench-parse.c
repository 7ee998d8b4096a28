// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Benchmark: read + parse + filter a large control file with libddctl, and
 * `grep -c` over the same file, in one run. Prints numbers; asserts nothing.
 *
 * Usage: bench-parse [SITES] [MATCH-SPEC]   (defaults: 100000, "module mod_7*")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ddctl/ddctl.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void generate(const char *path, long sites)
{
	FILE *f = fopen(path, "w");
	long i;

	fprintf(f, "# filename:lineno [module]function flags format\n");
	for (i = 0; i < sites; i++)
		fprintf(f, "drivers/mod_%ld/file_%ld.c:%ld [mod_%ld]func_%ld_%ld =%s \"message %ld: value=%%d\\tstate=%%s\\n\"\n",
			i / 500, (i / 50) % 10, 100 + i % 1000, i / 500, i / 500, i % 50,
			i % 7 ? "_" : "p", i);
	fclose(f);
}

int main(int argc, char **argv)
{
	long sites = argc > 1 ? atol(argv[1]) : 100000;
	const char *spec = argc > 2 ? argv[2] : "module mod_7*";
	char path[] = "/tmp/ddctl-bench-XXXXXX", cmd[512];
	struct ddctl_ctx *ctx;
	struct ddctl_queryset *set;
	double best_parse = 1e9, best_filter = 1e9, best_grep = 1e9, t0;
	size_t matched = 0, i;
	int fd = mkstemp(path), run;

	close(fd);
	generate(path, sites);
	ddctl_new(&ctx);
	ddctl_set_control_path(ctx, path);
	ddctl_queryset_new(ctx, &set);
	if (ddctl_queryset_parse(set, spec, DDCTL_PARSE_MATCH_ONLY) < 0) {
		fprintf(stderr, "bad match-spec\n");
		return 2;
	}
	for (run = 0; run < 5; run++) {
		struct ddctl_table *t = NULL;
		double t1;

		t0 = now();
		ddctl_table_read(ctx, &t);
		t1 = now();
		matched = 0;
		for (i = 0; i < ddctl_table_get_count(t); i++)
			matched += ddctl_query_matches(ddctl_queryset_get_query(set, 0),
						       ddctl_table_get_site(t, i));
		if (t1 - t0 < best_parse)
			best_parse = t1 - t0;
		if (now() - t0 < best_filter)
			best_filter = now() - t0;
		ddctl_table_unref(t);
	}
	snprintf(cmd, sizeof(cmd), "grep -c '\\[mod_7' %s > /dev/null", path);
	for (run = 0; run < 5; run++) {
		t0 = now();
		if (system(cmd) < 0)
			return 1;
		if (now() - t0 < best_grep)
			best_grep = now() - t0;
	}
	printf("control file: %ld sites (%s)\n", sites, path);
	printf("%-34s %10s\n", "what (best of 5)", "ms");
	printf("%-34s %10.2f\n", "libddctl read+parse", best_parse * 1e3);
	printf("%-34s %10.2f  (%zu sites match '%s')\n", "libddctl read+parse+filter",
	       best_filter * 1e3, matched, spec);
	printf("%-34s %10.2f\n", "grep -c (incl. fork+exec)", best_grep * 1e3);
	printf("ratio ddctl/grep: %.2f\n", best_filter / best_grep);
	unlink(path);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
	return 0;
}
