/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The library's messages: to the context's log function, never printed. */
#ifndef DDCTL_CORE_LOG_H
#define DDCTL_CORE_LOG_H

#include <syslog.h>

#include <ddctl/ddctl.h>

void ddctl_log(struct ddctl_ctx *ctx, int priority, const char *file,
	       int line, const char *fn, const char *format, ...)
	__attribute__((format(printf, 6, 7)));

#define ddctl_log_cond(ctx, prio, ...)                                      \
	do {                                                                \
		if ((ctx) && ddctl_get_log_priority(ctx) >= (prio))        \
			ddctl_log(ctx, prio, __FILE__, __LINE__, __func__, \
				  __VA_ARGS__);                             \
	} while (0)

#define err(ctx, ...) ddctl_log_cond(ctx, LOG_ERR, __VA_ARGS__)
#define warn(ctx, ...) ddctl_log_cond(ctx, LOG_WARNING, __VA_ARGS__)
#define info(ctx, ...) ddctl_log_cond(ctx, LOG_INFO, __VA_ARGS__)
#define dbg(ctx, ...) ddctl_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)

#endif
