/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The kernel backends: the control file (kernel/control.c) and the dyndbg
 * generic netlink family (kernel/dyndbg.c), each a struct backend_ops.
 * The transaction (kernel/txn.c) sends, verifies and restores over
 * whichever backend_for_write() (kernel/backends.c) picks, with one loop
 * for both. This header is the interface alone: no .c of its own.
 */
#ifndef DDCTL_KERNEL_BACKEND_H
#define DDCTL_KERNEL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include <ddctl/ddctl.h>

struct ddctl_query;

/* What the kernel reported for the queries of one exec (netlink only). */
struct backend_result {
	size_t nqueries;
	unsigned int *matched, *changed; /* NULL: not wanted */
	size_t reported;
	unsigned int keys_patched, sites_changed;
	unsigned int generation; /* the kernel's after the exec (0: not said) */
};

struct backend;

struct backend_ops {
	const char *name;
	/* the most bytes of whole queries one exec takes */
	size_t max_len;
	/*
	 * the most queries one exec takes (0: no limit but max_len); open()
	 * may set the kernel's own number in struct backend
	 */
	size_t max_queries;
	/*
	 * A refused exec changed nothing, the kernel counts per query and can
	 * do a dry run (netlink); else each query of an exec may have been
	 * applied before a later one was refused (the control file).
	 */
	bool transactional;
	/* what one exec is called in messages: "write", "transaction" */
	const char *exec_name;
	/* the info message when a set took several execs, with their number */
	const char *split_note;
	/* the callsites in the control file's format (malloc'd) */
	int (*read)(struct ddctl_ctx *ctx, char **text);
	/* ready to exec: may log why not */
	int (*open)(struct backend *b);
	/*
	 * @len bytes of whole queries at @text, one per line, and the same
	 * @n queries parsed at @queries (NULL when the text is not a set's
	 * own lines: the control file needs only the text); the kernel's
	 * message in *@errmsg
	 */
	int (*exec)(struct backend *b, const char *text, size_t len,
		    const struct ddctl_query *queries, size_t n, bool dry_run,
		    struct backend_result *res, char **errmsg);
	/*
	 * 0 when the backend can carry query @q of a set (index @idx, from 0),
	 * else -EINVAL with the reason (malloc'd) in *@why; NULL: any query
	 */
	int (*check)(struct backend *b, const struct ddctl_query *q, size_t idx,
		     char **why);
	void (*close)(struct backend *b);
};

struct backend {
	const struct backend_ops *ops;
	struct ddctl_ctx *ctx;
	int fd;              /* the control file, -1 when not open */
	bool reaches_kernel; /* not a capture file */
	size_t max_queries;  /* ops->max_queries, or the kernel's number */
};

extern const struct backend_ops control_backend;
extern const struct backend_ops dyndbg_backend;

static inline int backend_open(struct backend *b, struct ddctl_ctx *ctx,
			       const struct backend_ops *ops)
{
	b->ops = ops;
	b->ctx = ctx;
	b->fd = -1;
	b->reaches_kernel = false;
	b->max_queries = ops->max_queries;
	return ops->open(b);
}

static inline void backend_close(struct backend *b)
{
	if (b->ops)
		b->ops->close(b);
	b->ops = NULL;
}

#endif
