/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_DIFF_H
#define DDCTL_MODEL_DIFF_H

#include <stddef.h>

#include <ddctl/ddctl.h>

/*
 * @fn for each site of @now that differs from @want (matched by identity),
 * in @want's identity order. Builds the tables' indexes (model/index.c).
 */
int table_diff(struct ddctl_table *want, const unsigned int *wflags,
	       struct ddctl_table *now,
	       void (*fn)(size_t want_idx, size_t now_idx, unsigned int want_flags,
			  void *data),
	       void *data);

#endif
