/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* modprobe.d options: the one formatter (persist, sessions' load-time file). */
#ifndef DDCTL_STORE_MODPROBE_H
#define DDCTL_STORE_MODPROBE_H

#include <stdbool.h>

#include <ddctl/ddctl.h>

#include "util/strbuf.h"

/*
 * The queries of @set that name exactly one module (no wildcard, no
 * negation), as one "options MODULE dyndbg=\"Q; Q\"" line per module,
 * appended to @sb; a query holding '"' is left out (logged).
 */
int modprobe_options_text(struct ddctl_queryset *set, struct strbuf *sb);

/* The load-time file of a session (store/modprobe-run.c). */
int modprobe_run_path(struct ddctl_ctx *ctx, long pid, unsigned long long starttime,
		      char *buf, size_t size);
int modprobe_run_write(struct ddctl_ctx *ctx, const char *path,
		       struct ddctl_queryset *set);
int modprobe_run_remove(const char *path);
/* Remove the load-time files of sessions whose process @running says is gone. */
void modprobe_run_clean(struct ddctl_ctx *ctx,
			bool (*running)(long pid, unsigned long long starttime));

#endif
