/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A query set (model/queryset.c owns the struct: others read, only queryset.c writes). */
#ifndef DDCTL_MODEL_QUERYSET_H
#define DDCTL_MODEL_QUERYSET_H

#include <stddef.h>

#include <ddctl/ddctl.h>

#include "model/query.h"

struct strbuf;

struct ddctl_queryset {
	int refcount;
	struct ddctl_ctx *ctx;
	struct ddctl_query *queries;
	size_t count, alloc;
	char *error;
	unsigned int error_index, error_column;
	char *error_word;
	char *error_reason; /* the message without the query and word */
};

/* Append @q, which the set takes over (@q is zeroed). */
int queryset_append(struct ddctl_queryset *set, struct ddctl_query *q);
/* Drop the queries from @count on. */
void queryset_truncate(struct ddctl_queryset *set, size_t count);
/* Forget the last parse error (a caller that leaves the bad part out). */
void queryset_clear_error(struct ddctl_queryset *set);
/* A deep copy of @set's queries (not its error). */
int queryset_copy(const struct ddctl_queryset *set, struct ddctl_queryset **out);
/* Respell query @idx with @value (taken over) as match-spec @spec. */
int queryset_set_spec(struct ddctl_queryset *set, size_t idx, enum dd_spec spec,
		      char *value);
/* The canonical queries of @set, one per line. */
int queryset_format(const struct ddctl_queryset *set, struct strbuf *sb);

#endif
