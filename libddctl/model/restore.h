/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_RESTORE_H
#define DDCTL_MODEL_RESTORE_H

#include <ddctl/ddctl.h>

/* ddctl_queryset_new_restore() for a set sent at once (compact). */
int restore_set_now(struct ddctl_ctx *ctx, struct ddctl_table *now,
		    struct ddctl_table *want, struct ddctl_queryset **out);

#endif
