/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * A session's end conditions: a time box (--for), the rate guard
 * (--max-rate) and a line budget (--max-lines).
 */
#ifndef DDCTL_CLI_OPS_GUARD_H
#define DDCTL_CLI_OPS_GUARD_H

#include <stdbool.h>
#include <time.h>

#include "cli.h"

/* The rate guard's window: lines per second over the last second. */
#define GUARD_SLOTS 10
#define GUARD_SLOT_USEC 100000ULL
/* follow and run without --max-rate: a flood, not a busy driver */
#define GUARD_DEFAULT_RATE 5000ULL

enum guard_end { GUARD_RUNNING, GUARD_TIME, GUARD_RATE, GUARD_LINES };

struct session_guard {
	unsigned long long for_usec;  /* --for; 0: no time box */
	long long deadline;           /* CLOCK_MONOTONIC usec, once started */
	unsigned long long max_rate;  /* lines a second; 0: off */
	unsigned long long max_lines; /* 0: no budget */
	unsigned long long from_usec; /* lines logged before this do not count for the rate */
	unsigned long long lines, peak;
	unsigned long long count[GUARD_SLOTS];
	unsigned long long slot[GUARD_SLOTS];
	enum guard_end end;
};

/* "30s", "500ms", "5min", "2h", "1d" or seconds: 0 or -EINVAL. */
int cli_parse_duration(const char *s, unsigned long long *usec);
/*
 * The guard from --for, --max-rate and --max-lines (@rate: whether the
 * command has the rate guard, on by default); EXIT_USAGE after saying why.
 */
int cli_guard_init(struct cli *cli, const struct cli_opts *opts, bool rate,
		   struct session_guard *g);
/* The time box starts now; the wall-clock end for the record (0: none). */
long long cli_guard_start(struct session_guard *g);
/* A followed line logged at @usec (the kernel's clock): does the session end? */
bool cli_guard_line(struct session_guard *g, unsigned long long usec);
/* Is the time up? */
bool cli_guard_expired(struct session_guard *g);
/* How long a wait may last (@dflt: NULL for none); NULL: no limit. */
struct timespec *cli_guard_wait(const struct session_guard *g,
				const struct timespec *dflt, struct timespec *ts);
/* Why the session ended, one line on standard error. */
void cli_guard_report(struct cli *cli, const struct session_guard *g);
/* "time", "max-rate", "max-lines" or NULL while it runs. */
const char *cli_guard_end_name(const struct session_guard *g);

#endif
