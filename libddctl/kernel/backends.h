/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_KERNEL_BACKENDS_H
#define DDCTL_KERNEL_BACKENDS_H

#include <ddctl/ddctl.h>

#include "kernel/backend.h"

/* The backend that reads callsites: netlink only when asked for. */
const struct backend_ops *backend_for_read(struct ddctl_ctx *ctx);
/* The backend that applies sets: netlink when asked for or (AUTO) present. */
const struct backend_ops *backend_for_write(struct ddctl_ctx *ctx);

/* Tests: the backend every context then applies sets with (NULL: the usual choice). */
void backend_override_for_write(const struct backend_ops *ops);

#endif
