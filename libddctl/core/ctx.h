/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The library context. struct ddctl_ctx is defined in core/ctx.c alone:
 * the other layers read and keep their state in it through these calls.
 */
#ifndef DDCTL_CORE_CTX_H
#define DDCTL_CORE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include <ddctl/ddctl.h>

#include "core/log.h"

/* The functions of libddctl.sym; everything else stays inside. */
#define DDCTL_EXPORT __attribute__((visibility("default")))

struct kmod_ctx;

/* The backend as set (ddctl_set_backend()); AUTO resolves per call. */
enum ddctl_backend ctx_get_backend_setting(const struct ddctl_ctx *ctx);
/* Was the control file named (ddctl_set_control_path()), not found? */
bool ctx_control_path_is_set(const struct ddctl_ctx *ctx);
/* ddctl_set_write_capture()'s file, or NULL: writes go to the kernel. */
const char *ctx_get_write_capture(const struct ddctl_ctx *ctx);
/* The prefix of every configuration path: ddctl_set_config_root(), else , else "". */
const char *ctx_get_config_root(const struct ddctl_ctx *ctx);

/* Was the kernel's release named (ddctl_set_kernel()), not found? */
bool ctx_kernel_is_set(const struct ddctl_ctx *ctx);

/* Kernel features once known (ddctl_get_features() caches them here). */
bool ctx_get_known_features(const struct ddctl_ctx *ctx, unsigned int *features);

/* The libkmod context, NULL until ctx_set_kmod(); the ctx unrefs it. */
struct kmod_ctx *ctx_get_kmod(const struct ddctl_ctx *ctx);
void ctx_set_kmod(struct ddctl_ctx *ctx, struct kmod_ctx *kmod);

/* The dyndbg netlink family: its id (0: absent), whether it was probed. */
unsigned int ctx_get_nl_family(const struct ddctl_ctx *ctx);
void ctx_set_nl_family(struct ddctl_ctx *ctx, unsigned int id);
bool ctx_get_nl_probed(const struct ddctl_ctx *ctx);
void ctx_set_nl_probed(struct ddctl_ctx *ctx);
/* What the family's GET_FEATURES reported (all 0 until it was asked). */
void ctx_set_nl_features(struct ddctl_ctx *ctx, uint32_t queries_max,
			 uint32_t features, uint32_t valid_flags);
void ctx_get_nl_features(const struct ddctl_ctx *ctx, uint32_t *queries_max,
			 uint32_t *features, uint32_t *valid_flags);
/* The sequence number of the next netlink request. */
uint32_t ctx_next_nl_seq(struct ddctl_ctx *ctx);

#endif
