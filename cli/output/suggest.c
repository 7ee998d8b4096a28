// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Did you mean: the closest of a list of names to a word that is none. */
#include <stdio.h>
#include <string.h>

#include "output/suggest.h"

/* Edit distance with transpositions (optimal string alignment), capped. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[33][33];

	if (la > 32 || lb > 32)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* " (did you mean 'list'?)" for the closest of @candidates, or "". */
const char *cli_suggest(const char *word, const char *const *candidates)
{
	static char buf[80];
	size_t best = 3, d;
	const char *found = NULL;

	for (; *candidates; candidates++) {
		d = distance(word, *candidates);
		if (d < best && d < strlen(word)) {
			best = d;
			found = *candidates;
		}
	}
	if (!found)
		return "";
	snprintf(buf, sizeof(buf), " (did you mean '%s'?)", found);
	return buf;
}
