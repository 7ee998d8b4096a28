// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Benchmark: libddctl at distribution scale. On Debian
 * 12's real 30,392-site control file (tests/fixtures/debian-6.1-control.txt.xz)
 * and on generated 10^5 (and, with --huge, 10^6) site tables: single
 * queries, a 10^4-query set, restoring a save, negation expansion and the
 * writes it needs. Every time is also given as a ratio against `grep -c`
 * over the same file, measured in the same run. Prints numbers; asserts
 * nothing.
 *
 * Usage: bench-scale [--huge] FIXTURE.xz
 */
#include <stdbool.h>
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

static void die(const char *what)
{
	fprintf(stderr, "bench-scale: %s\n", what);
	exit(1);
}

/* The best of @runs `grep -c PATTERN FILE`, fork and exec included. */
static double grep_time(const char *pattern, const char *path, int runs)
{
	char cmd[8192];
	double best = 1e9, t0;

	snprintf(cmd, sizeof(cmd), "grep -c '%s' %s > /dev/null", pattern, path);
	while (runs--) {
		t0 = now();
		if (system(cmd) < 0)
			die("grep");
		if (now() - t0 < best)
			best = now() - t0;
	}
	return best;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n = 0;

	if (!f || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0)
		die("cannot read the table");
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		die("cannot read the table");
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		die("cannot write a temporary file");
}

/* The writes a text needs: whole queries, at most 4095 bytes each. */
static unsigned int count_writes(const char *text)
{
	const char *p = text, *end, *nl;
	unsigned int n = 0;

	while (*p) {
		for (end = p; (nl = strchr(end, '\n')) && (size_t)(nl + 1 - p) <= 4095;)
			end = nl + 1;
		p = end == p ? p + strlen(p) : end;
		n++;
	}
	return n;
}

static char *set_text(struct ddctl_queryset *set)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < ddctl_queryset_get_count(set); i++)
		len += strlen(ddctl_query_get_canonical(ddctl_queryset_get_query(set, i))) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < ddctl_queryset_get_count(set); i++) {
		strcat(s, ddctl_query_get_canonical(ddctl_queryset_get_query(set, i)));
		strcat(s, "\n");
	}
	return s;
}

static struct ddctl_queryset *parse(struct ddctl_ctx *ctx, const char *text)
{
	struct ddctl_queryset *set = NULL;

	if (ddctl_queryset_new(ctx, &set) < 0 || ddctl_queryset_parse(set, text, 0) < 0)
		die(set && ddctl_queryset_get_error(set, NULL, NULL, NULL) ?
		    ddctl_queryset_get_error(set, NULL, NULL, NULL) : "parse");
	return set;
}

/* parse + plan (+ expansion when negated): best of 3, in seconds. */
static double time_query(struct ddctl_ctx *ctx, struct ddctl_table *t,
			 const char *text, unsigned int *matched, size_t *changes)
{
	double best = 1e9, t0;
	int run;

	for (run = 0; run < 3; run++) {
		struct ddctl_queryset *set, *x = NULL;
		struct ddctl_plan *plan = NULL;

		t0 = now();
		set = parse(ctx, text);
		if (ddctl_plan_new(set, t, &plan) < 0)
			die("plan");
		if (ddctl_query_is_negated(ddctl_queryset_get_query(set, 0)) &&
		    ddctl_queryset_expand(set, t, &x) < 0)
			die("expand");
		if (now() - t0 < best)
			best = now() - t0;
		*matched = ddctl_plan_get_matched(plan, 0);
		*changes = ddctl_plan_get_change_count(plan);
		ddctl_queryset_unref(x);
		ddctl_plan_unref(plan);
		ddctl_queryset_unref(set);
	}
	return best;
}

/* A control file of @n sites: 200 sites a module, 20 a file, ~5 a function. */
static char *generate(size_t n)
{
	size_t cap = n * 120 + 64, len = 0, i;
	char *s = malloc(cap);

	if (!s)
		die("no memory");
	len += (size_t)sprintf(s, "# filename:lineno [module]function flags format\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len,
			"drivers/d%zu/m%zu/f%zu.c:%zu [mod_%zu]fn_%zu_%zu =_ \"msg %zu: %%d\\n\"\n",
			i / 20000, i / 200, i / 20, 10 + i % 20 * 7, i / 200, i / 200, i / 5,
			i);
	return s;
}

/* A state to save: every third site on, with one of four flag sets. */
static char *saved_state(struct ddctl_ctx *ctx, struct ddctl_table *t)
{
	static const char *const words[] = { "+p", "+pf", "+pl", "+pmt" };
	size_t n = ddctl_table_get_count(t), i, cap = n * 24 + 64, len = 0;
	char *q = malloc(cap), *text = NULL;
	struct ddctl_queryset *set;
	struct ddctl_plan *plan = NULL;
	struct ddctl_table *state = NULL;

	if (!q)
		die("no memory");
	q[0] = '\0';
	for (i = 0; i < n; i += 3) {
		const struct ddctl_site *s = ddctl_table_get_site(t, i);

		len += (size_t)snprintf(q + len, cap - len, "func %s line %u %s\n",
					ddctl_site_get_function(s), ddctl_site_get_line(s),
					words[i / 3 % 4]);
	}
	set = parse(ctx, q);
	if (ddctl_plan_new(set, t, &plan) < 0 || ddctl_table_new_from_plan(plan, &state) < 0 ||
	    ddctl_table_format_script(state, &text) < 0)
		die("save");
	ddctl_table_unref(state);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	free(q);
	return text;
}

/* Restore @save onto @t (all off): parse, the restoring set, its plan. */
static void bench_restore(struct ddctl_ctx *ctx, size_t sites, const char *dir)
{
	char path[4096], *text = generate(sites), *save, *text2;
	struct ddctl_table *t = NULL;
	struct ddctl_queryset *script, *set = NULL;
	struct ddctl_plan *plan = NULL;
	double t0, t1, grep;

	snprintf(path, sizeof(path), "%s/gen-%zu.txt", dir, sites);
	write_file(path, text);
	grep = grep_time("mod_1", path, 3);
	if (ddctl_table_new_from_buffer(ctx, text, strlen(text), &t) < 0)
		die("generated table");
	save = saved_state(ctx, t);
	snprintf(path, sizeof(path), "%s/gen-%zu.save", dir, sites);
	write_file(path, save);
	t0 = now();
	script = parse(ctx, save);
	if (ddctl_queryset_new_from_script(ctx, t, script, &set) < 0 ||
	    ddctl_plan_new(set, t, &plan) < 0)
		die("restore");
	t1 = now();
	text2 = set_text(set);
	printf("%-44s %10.2f  %8.2f   (%zu sites, a save of %zu queries, %zu changes, %u writes)\n",
	       sites >= 1000000 ? "restore a 10^6-site save" : "restore a 10^5-site save",
	       (t1 - t0) * 1e3, (t1 - t0) / grep, sites,
	       ddctl_queryset_get_count(script), ddctl_plan_get_change_count(plan),
	       count_writes(text2));
	free(text2);
	printf("%-44s %10.2f\n", "  grep -c on that table", grep * 1e3);
	t0 = now();
	ddctl_plan_unref(plan);
	plan = NULL;
	ddctl_queryset_unref(set);
	set = parse(ctx, "!module mod_1* +p");
	if (ddctl_queryset_expand(set, t, &script) < 0)
		die("expand");
	t1 = now();
	printf("%-44s %10.2f  %8.2f   (%zu sites; %zu queries, %u writes)\n",
	       "  negated --check: !module mod_1* +p", (t1 - t0) * 1e3, (t1 - t0) / grep,
	       sites, ddctl_queryset_get_count(script), count_writes(save = set_text(script)));
	free(save);
	ddctl_queryset_unref(script);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	free(text);
}

/* 10^4 queries naming sites as people and saves do. */
static char *many_queries(struct ddctl_table *t, size_t nq)
{
	size_t n = ddctl_table_get_count(t), i, cap = nq * 160, len = 0;
	char *q = malloc(cap);

	if (!q)
		die("no memory");
	q[0] = '\0';
	for (i = 0; i < nq; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(t, i * 7919 % n);
		const char *fn = ddctl_site_get_function(s);

		switch (i % 6) {
		case 0: len += (size_t)snprintf(q + len, cap - len, "module %s +p\n", ddctl_site_get_module(s)); break;
		case 1: len += (size_t)snprintf(q + len, cap - len, "module %s file %s line %u =pf\n", ddctl_site_get_module(s), ddctl_site_get_file(s), ddctl_site_get_line(s)); break;
		case 2: len += (size_t)snprintf(q + len, cap - len, "func %s -p\n", fn); break;
		case 3: len += (size_t)snprintf(q + len, cap - len, "file %s +l\n", ddctl_site_get_file(s)); break;
		case 4: len += (size_t)snprintf(q + len, cap - len, "func %.4s* module %s +t\n", fn, ddctl_site_get_module(s)); break;
		default: len += (size_t)snprintf(q + len, cap - len, "file %s:%u -l\n", strrchr(ddctl_site_get_file(s), '/') ? strrchr(ddctl_site_get_file(s), '/') + 1 : ddctl_site_get_file(s), ddctl_site_get_line(s)); break;
		}
	}
	return q;
}

int main(int argc, char **argv)
{
	static const char *const single[] = {
		"module cifs +p", "module snd_* +p", "file drivers/net/* +p",
		"file *usb* +pf", "func *probe* +p", "func nfs4_* -p",
		"format error +p", "format ^%s: +p", "line 100-200 +p",
		"!module virtio* -p", "!func *probe* -p", "+p",
	};
	static const char *const negated[] = {
		"!module virtio* +p", "!format error +p", "!func *probe* +p",
	};
	bool huge = argc > 1 && !strcmp(argv[1], "--huge");
	const char *fixture = argc > 1 + huge ? argv[1 + huge] : NULL;
	char dir[] = "/tmp/ddctl-bench-scale-XXXXXX", path[4096], cmd[8192], *text, *q;
	struct ddctl_ctx *ctx = NULL;
	struct ddctl_table *t = NULL;
	struct ddctl_queryset *set, *x;
	struct ddctl_plan *plan = NULL;
	double grep, t0, t1, worst = 0;
	unsigned int matched;
	size_t changes, len, i;

	if (!fixture || !mkdtemp(dir) || ddctl_new(&ctx) < 0)
		die("usage: bench-scale [--huge] FIXTURE.xz");
	ddctl_set_log_fn(ctx, NULL, NULL);
	snprintf(path, sizeof(path), "%s/control", dir);
	snprintf(cmd, sizeof(cmd), "xz -dc '%s' > %s", fixture, path);
	if (system(cmd) != 0)
		die("cannot decompress the fixture");
	grep = grep_time("virtio", path, 5);
	printf("Debian 12 control file: %s\n", fixture);
	printf("%-44s %10s  %8s\n", "what", "ms", "x grep");
	printf("%-44s %10.2f  %8.2f\n", "grep -c virtio (fork+exec incl., best of 5)", grep * 1e3, 1.0);
	text = slurp(path, &len);
	t0 = now();
	ddctl_set_control_path(ctx, path);
	if (ddctl_table_read(ctx, &t) < 0)
		die("cannot read the fixture");
	t1 = now();
	printf("%-44s %10.2f  %8.2f   (%zu sites)\n", "read+parse", (t1 - t0) * 1e3,
	       (t1 - t0) / grep, ddctl_table_get_count(t));
	for (i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
		double d = time_query(ctx, t, single[i], &matched, &changes);

		if (d > worst)
			worst = d;
		snprintf(cmd, sizeof(cmd), "query: %s", single[i]);
		printf("%-44s %10.2f  %8.2f   (matched %u, %zu changes)\n", cmd, d * 1e3,
		       d / grep, matched, changes);
	}
	printf("%-44s %10.2f  %8.2f\n", "slowest single query", worst * 1e3, worst / grep);

	q = many_queries(t, 10000);
	t0 = now();
	set = parse(ctx, q);
	if (ddctl_plan_new(set, t, &plan) < 0)
		die("plan");
	t1 = now();
	printf("%-44s %10.2f  %8.2f   (%zu changes)\n", "10^4-query set: parse+plan", (t1 - t0) * 1e3,
	       (t1 - t0) / grep, ddctl_plan_get_change_count(plan));
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	free(q);

	for (i = 0; i < sizeof(negated) / sizeof(negated[0]); i++) {
		set = parse(ctx, negated[i]);
		t0 = now();
		if (ddctl_queryset_expand(set, t, &x) < 0)
			die("expand");
		t1 = now();
		q = set_text(x);
		snprintf(cmd, sizeof(cmd), "expand: %s", negated[i]);
		printf("%-44s %10.2f  %8.2f   (%zu queries, %zu bytes, %u writes)\n", cmd,
		       (t1 - t0) * 1e3, (t1 - t0) / grep, ddctl_queryset_get_count(x),
		       strlen(q), count_writes(q));
		free(q);
		ddctl_queryset_unref(x);
		ddctl_queryset_unref(set);
	}
	ddctl_table_unref(t);
	free(text);
	unlink(path);

	bench_restore(ctx, 100000, dir);
	if (huge)
		bench_restore(ctx, 1000000, dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		die("cleanup");
	ddctl_unref(ctx);
	return 0;
}
