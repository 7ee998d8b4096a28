/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_KERNEL_FEATURES_H
#define DDCTL_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

struct ddctl_ctx;

/* The negation answer cached in @dir for boot @boot: 1, 0 or -ENOENT. */
int features_cache_read(const char *dir, const char *boot);
/* Keep @negation for boot @boot in @dir; quietly nothing when not root. */
int features_cache_write(const char *dir, const char *boot, int negation);
/* The DDCTL_FEATURE_* of a kernel whose family's GET_FEATURES said @family_features. */
unsigned int features_of_family(uint32_t family_features);
/*
 * ddctl_get_features(); without @may_write (a --check) nothing is written
 * anywhere: no negation probe into the control file, no cache; negation
 * is then what the cache says, else taken as missing.
 */
int features_get(struct ddctl_ctx *ctx, bool may_write, unsigned int *features);

#endif
