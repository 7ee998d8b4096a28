/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The dyndbg netlink commands (kernel/dyndbg.c). */
#ifndef DDCTL_KERNEL_DYNDBG_H
#define DDCTL_KERNEL_DYNDBG_H

#include <stdbool.h>
#include <stdint.h>

#include <ddctl/ddctl.h>

#include "kernel/backend.h"

#include "util/strbuf.h"

struct nlattr;
struct nlmsghdr;

/*
 * The text one exec takes at most (whole canonical queries): its
 * attributes, at most ~40 bytes a query more than its text, stay well
 * inside the socket's send buffer at QUERIES_MAX queries.
 */
#define NL_EXEC_TEXT_MAX 65536
/* A dump that NLM_F_DUMP_INTR cut is done again this many times. */
#define NL_DUMP_RETRIES 3

/* A dump's text and the generation its messages carried. */
struct nl_dump_state {
	struct strbuf sb;
	unsigned int generation;
};

/* Has the kernel the dyndbg family (uapi v3)? Asked once per context. */
bool dyndbg_present(struct ddctl_ctx *ctx);
/* Can the family carry @q (its flags too when @flags)? See dyndbg.c. */
int nl_query_check(struct ddctl_ctx *ctx, const struct ddctl_query *q,
		   bool flags, char **why);
/* @q as a nested DYNDBG_A_QUERY; @valid: the kernel's flags for '='. */
void nl_put_query(struct nlmsghdr *nlh, const struct ddctl_query *q,
		  uint32_t valid, bool flags);
/* A kernel's nested query as control-file text (one or two lines). */
int nl_query_format(const struct nlattr *nest, uint32_t valid, struct strbuf *sb);
/* EXEC of @n parsed queries; nl_exec() parses @queries text first. */
int nl_exec_queries(struct ddctl_ctx *ctx, const struct ddctl_query *qs,
		    size_t n, bool dry_run, struct backend_result *res,
		    char **errmsg);
int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct backend_result *res, char **errmsg);
int nl_exec_parse(const struct nlmsghdr *nlh, void *data);
/* One dump message into a struct nl_dump_state. */
int nl_get_parse(const struct nlmsghdr *nlh, void *data);
/* Puts a dump's filter (a nested DYNDBG_A_QUERY) into @nlh. */
typedef void (*nl_put_filter_fn)(struct nlmsghdr *nlh, const void *arg,
				 uint32_t valid);
/*
 * One dump appended to @st, its filter put by @put(@arg) (NULL: every
 * site), not done again: -EINTR when NLM_F_DUMP_INTR cut it (the guest's
 * nldump uses it to see the kernel's own answer).
 */
int nl_dump_once(struct ddctl_ctx *ctx, nl_put_filter_fn put, const void *arg,
		 struct nl_dump_state *st);
/*
 * The callsites in control-file text, filtered by one match-spec query
 * @filter (NULL: all), its generation in *@generation (may be NULL); a
 * dump cut by NLM_F_DUMP_INTR is done again, NL_DUMP_RETRIES times, then
 * -EAGAIN.
 */
int nl_dump_gen(struct ddctl_ctx *ctx, const char *filter, char **text,
		unsigned int *generation);
int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text);

#endif
