/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* One query (model/query.c owns the struct: others read, only query.c writes). */
#ifndef DDCTL_MODEL_QUERY_H
#define DDCTL_MODEL_QUERY_H

#include <stdbool.h>

#include <ddctl/ddctl.h>

/* A match-spec: one keyword of a query. */
enum dd_spec {
	DD_SPEC_FUNC,
	DD_SPEC_FILE,
	DD_SPEC_MODULE,
	DD_SPEC_FORMAT,
	DD_SPEC_CLASS,
	DD_SPEC_NR,
};

struct ddctl_query {
	char *text;
	char *canonical;
	char *spec[DD_SPEC_NR]; /* NULL when absent; format unescaped */
	bool negated[DD_SPEC_NR];
	unsigned int first_line, last_line;
	bool has_flags;
	char op; /* '+', '-', '=' */
	unsigned int flags; /* the letters given */
	unsigned int set_flags, mask; /* new = (old & mask) | set_flags */
};

/* Why a query did not parse: the column and word (malloc'd) and the reason. */
struct query_error {
	int column;
	char *word;
	char *msg;
};

/*
 * Parse one query (no ';') by the rules of kernel @kernel (a release; NULL:
 * the newest): 0, -EINVAL with @e filled (the caller frees its strings),
 * -ENOMEM.
 */
int query_parse(const char *text, unsigned int flags, const char *kernel,
		struct ddctl_query *q, struct query_error *e);
void query_release(struct ddctl_query *q);
int query_build_canonical(struct ddctl_query *q);
/* A deep copy of @from into @to. */
int query_copy(struct ddctl_query *to, const struct ddctl_query *from);
/* Replace match-spec @spec with @value (taken over) and respell the query. */
int query_set_spec(struct ddctl_query *q, enum dd_spec spec, char *value);
/* Positive queries built from parts: @spec's values are taken over. */
int query_init(struct ddctl_query *q, char *const spec[DD_SPEC_NR],
	       unsigned int first_line, unsigned int last_line);
/*
 * A query from its parts (a kernel's structured query): @spec's values
 * copied, negated where @negated says, no flags, respelt (canonical).
 */
int query_new_parts(struct ddctl_query *q, const char *const spec[DD_SPEC_NR],
		    const bool negated[DD_SPEC_NR], unsigned int first_line,
		    unsigned int last_line);
/* Give @q the flags @op ('+', '-', '=') @flags; query_build_canonical() after. */
void query_set_op(struct ddctl_query *q, char op, unsigned int flags);
/* The canonical text of @q with its module match-spec replaced by @module (NULL: none). */
int query_canonical_with_module(const struct ddctl_query *q,
				const char *module, char **out);
/* The flags a site with @flags gets from @q. */
unsigned int query_apply(const struct ddctl_query *q, unsigned int flags);

#endif
