/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The guest's raw netlink clients (nlexec, nldump): a query of the
 * structured dyndbg family written attribute by attribute, so that the
 * kernel's own checks are reached with what ddctl would never send, and
 * GET_FEATURES.
 */
#ifndef DDCTL_GUEST_NLRAW_H
#define DDCTL_GUEST_NLRAW_H

#include <stdint.h>

#include "kernel/netlink.h"

struct nlmsghdr;

/*
 * One nested DYNDBG_A_QUERY from @spec, "KEY=VALUE,KEY=VALUE...": module,
 * file, func, format, class (strings, sent as given, empty too), line_min,
 * line_max, negate (u32 numbers: negate a mask of enum dyndbg_match),
 * flags=VALUE/SELECTOR (bitfield32; each a number or flag letters of
 * pmfltsd, "_" for none, "all" for 0x7f). 0, or -EINVAL with a message on
 * stderr.
 */
int nlraw_put_query(struct nlmsghdr *nlh, const char *spec);
/* nlraw_put_query() as a dump filter (nl_put_filter_fn): @arg is the spec. */
void nlraw_put_filter(struct nlmsghdr *nlh, const void *arg, uint32_t valid);
/* GET_FEATURES: its reply in @ft; the kernel's message in *@msg. */
int nlraw_features(struct ddctl_ctx *ctx, struct nl_features *ft, char **msg);

#endif
