// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * When a session ends by itself: the time box (--for DURATION), the rate
 * guard (--max-rate N/s: more lines than N over the last second of the
 * kernel's clock, counted in tenths of a second) and the line budget
 * (--max-lines N). follow and run feed it every followed line; set --for
 * uses the time box alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/guard.h"
#include "output/message.h"

#define MAX_DURATION_USEC (366ULL * 86400 * 1000000) /* a year */
#define MAX_RATE 1000000000ULL
#define MAX_LINES 1000000000000000ULL

static long long mono_usec(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int cli_parse_duration(const char *s, unsigned long long *usec)
{
	static const struct { const char *unit; double usec; } units[] = {
		{ "", 1e6 }, { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "sec", 1e6 },
		{ "m", 60e6 }, { "min", 60e6 }, { "h", 3600e6 }, { "d", 86400e6 },
	};
	double v;
	char *end;
	size_t i;

	if (!s || strspn(s, "0123456789.") == 0)
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return -EINVAL;
	v *= units[i].usec;
	if (!(v >= 1) || v > (double)MAX_DURATION_USEC)
		return -EINVAL;
	*usec = (unsigned long long)v;
	return 0;
}

/* A whole number, then @suffix or nothing; at most @max, 0 only if @zero. */
static int parse_whole(const char *s, const char *suffix, unsigned long long max,
		       bool zero, unsigned long long *n)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*n = strtoull(s, &end, 10);
	if (errno || (*end && (!suffix || strcmp(end, suffix))) || *n > max || (!*n && !zero))
		return -EINVAL;
	return 0;
}

int cli_guard_init(struct cli *cli, const struct cli_opts *opts, bool rate,
		   struct session_guard *g)
{
	memset(g, 0, sizeof(*g));
	g->max_rate = rate ? GUARD_DEFAULT_RATE : 0;
	if (opts->duration && cli_parse_duration(opts->duration, &g->for_usec) < 0) {
		cli_error(cli, "--for: a duration above zero and at most a year (30s, 500ms, 5min, 2h, 1d; a bare number is seconds), not '%s'\n",
			  opts->duration);
		return EXIT_USAGE;
	}
	if (opts->max_rate && parse_whole(opts->max_rate, "/s", MAX_RATE, true, &g->max_rate) < 0) {
		cli_error(cli, "--max-rate: lines a second, N or N/s (0 turns the guard off), not '%s'\n",
			  opts->max_rate);
		return EXIT_USAGE;
	}
	if (opts->max_lines && parse_whole(opts->max_lines, NULL, MAX_LINES, false, &g->max_lines) < 0) {
		cli_error(cli, "--max-lines: a number of lines (1 or more), not '%s'\n",
			  opts->max_lines);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

long long cli_guard_start(struct session_guard *g)
{
	struct timespec t;

	if (!g->for_usec)
		return 0;
	g->deadline = mono_usec() + (long long)g->for_usec;
	clock_gettime(CLOCK_REALTIME, &t);
	return (long long)t.tv_sec + (long long)((g->for_usec + 999999) / 1000000);
}

bool cli_guard_line(struct session_guard *g, unsigned long long usec)
{
	unsigned long long s = usec / GUARD_SLOT_USEC, sum = 0;
	size_t i = s % GUARD_SLOTS, j;

	g->lines++;
	if (g->max_lines && g->lines >= g->max_lines) {
		g->end = GUARD_LINES;
		return true;
	}
	if (!g->max_rate || usec < g->from_usec)
		return false;
	if (g->slot[i] != s) {
		g->slot[i] = s;
		g->count[i] = 0;
	}
	g->count[i]++;
	for (j = 0; j < GUARD_SLOTS; j++)
		if (g->slot[j] <= s && g->slot[j] + GUARD_SLOTS > s)
			sum += g->count[j];
	g->peak = sum > g->peak ? sum : g->peak;
	if (sum <= g->max_rate)
		return false;
	g->end = GUARD_RATE;
	return true;
}

bool cli_guard_expired(struct session_guard *g)
{
	if (!g->deadline || mono_usec() < g->deadline)
		return false;
	g->end = GUARD_TIME;
	return true;
}

struct timespec *cli_guard_wait(const struct session_guard *g,
				const struct timespec *dflt, struct timespec *ts)
{
	long long left;

	if (!g->deadline) {
		if (!dflt)
			return NULL;
		*ts = *dflt;
		return ts;
	}
	left = g->deadline - mono_usec();
	left = left < 0 ? 0 : left;
	if (dflt && (long long)dflt->tv_sec * 1000000 + dflt->tv_nsec / 1000 < left) {
		*ts = *dflt;
		return ts;
	}
	ts->tv_sec = (time_t)(left / 1000000);
	ts->tv_nsec = (long)(left % 1000000) * 1000;
	return ts;
}

void cli_guard_report(struct cli *cli, const struct session_guard *g)
{
	switch (g->end) {
	case GUARD_TIME:
		cli_note(cli, "the time is up (--for %.6gs): stopping\n",
			 (double)g->for_usec / 1e6);
		break;
	case GUARD_RATE:
		cli_warn(cli, "rate guard: the followed callsites printed %llu lines within a second (--max-rate %llu/s): restoring them at once\n",
			 g->peak, g->max_rate);
		break;
	case GUARD_LINES:
		cli_note(cli, "%llu line%s (--max-lines): stopping\n", g->lines,
			 g->lines == 1 ? "" : "s");
		break;
	case GUARD_RUNNING:
		break;
	}
}

const char *cli_guard_end_name(const struct session_guard *g)
{
	static const char *const names[] = {
		[GUARD_RUNNING] = NULL, [GUARD_TIME] = "time",
		[GUARD_RATE] = "max-rate", [GUARD_LINES] = "max-lines",
	};

	return names[g->end];
}
