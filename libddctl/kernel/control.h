/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_KERNEL_CONTROL_H
#define DDCTL_KERNEL_CONTROL_H

#include <stdbool.h>

#include <ddctl/ddctl.h>

/* Is the context's control file the kernel's (on procfs or debugfs)? */
bool control_is_kernel(struct ddctl_ctx *ctx);
/* Do writes reach the kernel (not a capture file)? */
bool control_writes_kernel(struct ddctl_ctx *ctx);
/* Does the kernel behind @path parse negated match-specs? 1 or 0 (a write the kernel may log). */
int control_probe_negation(struct ddctl_ctx *ctx, const char *path);

#endif
