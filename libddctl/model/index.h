/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The table's index (model/index.c): the sites a query matches, touching only candidates. */
#ifndef DDCTL_MODEL_INDEX_H
#define DDCTL_MODEL_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include <ddctl/ddctl.h>

enum dd_key {
	DD_KEY_MODULE,
	DD_KEY_FILE,
	DD_KEY_FUNC,
	DD_KEY_NR,
};

struct dd_index;

struct dd_sites {
	size_t *idx; /* site indices, in no particular order */
	size_t n, alloc;
};

int index_query_sites(struct ddctl_table *t, const struct ddctl_query *q,
		      struct dd_sites *out);
bool index_has_value(struct ddctl_table *t, enum dd_key key, const char *value);
/* the value ids of @key per site: sorting by them sorts by the strings */
const size_t *index_ranks(struct ddctl_table *t, enum dd_key key);
/* the distinct values of @key, sorted; a site's rank indexes them */
const char *const *index_values(struct ddctl_table *t, enum dd_key key, size_t *n);

#endif
