/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The context's libkmod (kernel/kmod.c). */
#ifndef DDCTL_KERNEL_KMOD_H
#define DDCTL_KERNEL_KMOD_H

#include <libkmod.h>

#include <ddctl/ddctl.h>

/* The context's libkmod context, made on first use (owned by the context). */
int ctx_kmod(struct ddctl_ctx *ctx, struct kmod_ctx **out);

#endif
