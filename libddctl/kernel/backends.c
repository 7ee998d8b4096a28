// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Which backend a context uses (kernel/backend.h), and reading the
 * callsites through it.
 */
#include <errno.h>

#include "core/ctx.h"
#include "kernel/backend.h"
#include "kernel/backends.h"
#include "kernel/dyndbg.h"
#include "model/table.h"

const struct backend_ops *backend_for_read(struct ddctl_ctx *ctx)
{
	return ctx_get_backend_setting(ctx) == DDCTL_BACKEND_NETLINK ?
	       &dyndbg_backend : &control_backend;
}

/* Netlink when asked for, or (AUTO) when the kernel has the family and
 * the control file is the kernel's own rather than one given by path. */
static bool use_netlink(struct ddctl_ctx *ctx)
{
	enum ddctl_backend backend = ctx_get_backend_setting(ctx);

	if (backend == DDCTL_BACKEND_CONTROL)
		return false;
	if (backend == DDCTL_BACKEND_AUTO &&
	    (ctx_control_path_is_set(ctx) || ctx_get_write_capture(ctx)))
		return false;
	return backend == DDCTL_BACKEND_NETLINK || dyndbg_present(ctx);
}

static const struct backend_ops *write_override;

void backend_override_for_write(const struct backend_ops *ops)
{
	write_override = ops;
}

const struct backend_ops *backend_for_write(struct ddctl_ctx *ctx)
{
	if (write_override)
		return write_override;
	return use_netlink(ctx) ? &dyndbg_backend : &control_backend;
}

DDCTL_EXPORT enum ddctl_backend ddctl_get_backend(struct ddctl_ctx *ctx)
{
	return use_netlink(ctx) ? DDCTL_BACKEND_NETLINK : DDCTL_BACKEND_CONTROL;
}

DDCTL_EXPORT int ddctl_table_read(struct ddctl_ctx *ctx,
				  struct ddctl_table **table)
{
	char *text = NULL;
	int r = backend_for_read(ctx)->read(ctx, &text);

	return r < 0 ? r : table_new_take(ctx, text, table);
}
