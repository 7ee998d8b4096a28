/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The dyndbg netlink commands (kernel/dyndbg.c). */
#ifndef DDCTL_KERNEL_DYNDBG_H
#define DDCTL_KERNEL_DYNDBG_H

#include <stdbool.h>

#include <ddctl/ddctl.h>

#include "kernel/backend.h"

struct nlmsghdr;

/* Has the kernel the dyndbg family? Asked once per context. */
bool dyndbg_present(struct ddctl_ctx *ctx);
int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct backend_result *res, char **errmsg);
int nl_exec_parse(const struct nlmsghdr *nlh, void *data);
int nl_get_parse(const struct nlmsghdr *nlh, void *data);
int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text);

#endif
