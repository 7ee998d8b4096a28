// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A status line on the terminal while a split set is written (stock kernels
 * patch each site separately: 30,000 sites take tens of seconds). On stderr,
 * only when it is a terminal, never with --json or --quiet.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "output/progress.h"

static struct timespec start;

static double elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start.tv_sec) +
	       (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

/* The status line before write @done + 1 of @total (gone when all are done). */
void cli_progress_show(unsigned int done, unsigned int total)
{
	if (done == 0)
		clock_gettime(CLOCK_MONOTONIC, &start);
	if (done < total)
		fprintf(stderr, "\r\033[Kddctl: write %u of %u, %.1f s", done + 1,
			total, elapsed());
	else
		fputs("\r\033[K", stderr); /* done: the line goes away */
	fflush(stderr);
}

/* Is there a terminal to show a set's writes on? */
bool cli_progress_wanted(struct cli *cli)
{
	return !cli->json && !cli->quiet && !cli->check && isatty(STDERR_FILENO);
}
