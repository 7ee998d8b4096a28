/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The dyndbg notifications (kernel/monitor.c). */
#ifndef DDCTL_KERNEL_MONITOR_H
#define DDCTL_KERNEL_MONITOR_H

#include <ddctl/ddctl.h>

#include <stdint.h>

struct mnl_socket;
struct nlmsghdr;
struct strbuf;

/*
 * A CHANGE_NTF into @ev, its queries as text in @sb (emptied first; the
 * event's queries point into it); @valid: the kernel's flags (0: pmflts),
 * whose full selector reads as '='.
 */
int nl_event_parse(const struct nlmsghdr *nlh, uint32_t valid,
		   struct ddctl_event *ev, struct strbuf *sb);
/* A monitor on @nl, which it then owns (tests hand it a socket pair). */
int nl_monitor_new_socket(struct ddctl_ctx *ctx, struct mnl_socket *nl,
			  struct ddctl_monitor **out);

#endif
