/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The followed callsite of a kernel log line that its decoration does not name. */
#ifndef DDCTL_CLI_OPS_ATTRIBUTE_H
#define DDCTL_CLI_OPS_ATTRIBUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/*
 * The site of @idx that printed @text when its decoration (@decoration,
 * the flags the session added) did not parse: the kernel cut it (Linux
 * 6.1's 64-byte prefix), or printed none (netdev_dbg() of a device without
 * a parent). *@message: what to show of @text. False: no site fits.
 */
bool attribute_by_text(const struct ddctl_kmsg_index *idx, unsigned int decoration,
		       const char *text, size_t *site, const char **message);

#endif
