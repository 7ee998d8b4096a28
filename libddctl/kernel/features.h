/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_KERNEL_FEATURES_H
#define DDCTL_KERNEL_FEATURES_H

#include <stdbool.h>

struct ddctl_ctx;

/* The negation answer cached in @dir for boot @boot: 1, 0 or -ENOENT. */
int features_cache_read(const char *dir, const char *boot);
/* Keep @negation for boot @boot in @dir; quietly nothing when not root. */
int features_cache_write(const char *dir, const char *boot, int negation);
/*
 * ddctl_get_features(); without @may_write (a --check) nothing is written
 * anywhere: no negation probe into the control file, no cache; negation
 * is then what the cache says, else taken as missing.
 */
int features_get(struct ddctl_ctx *ctx, bool may_write, unsigned int *features);

#endif
