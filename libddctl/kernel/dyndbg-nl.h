/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The "dyndbg" generic netlink protocol. The kernel's uapi header, generated
 * from Documentation/netlink/specs/dyndbg.yaml of kernel-patches/ part 2, is
 * carried in libddctl/uapi/linux/dyndbg.h (as iproute2 carries its uapi
 * headers), so ddctl builds on any host. It is the generated header of
 * the structured family (uapi v3, kernel series v3): copied verbatim,
 * never edited by hand.
 */
#ifndef DDCTL_DYNDBG_NL_H
#define DDCTL_DYNDBG_NL_H

#include "uapi/linux/dyndbg.h"

#define DYNDBG_GENL_NAME DYNDBG_FAMILY_NAME
#define DYNDBG_GENL_VERSION DYNDBG_FAMILY_VERSION
/* the split point when GET_FEATURES gives none (the spec's number) */
#ifndef DYNDBG_QUERIES_MAX
#define DYNDBG_QUERIES_MAX 1024
#endif

#endif
