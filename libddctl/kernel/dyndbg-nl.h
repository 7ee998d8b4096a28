/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The "dyndbg" generic netlink protocol. The kernel's uapi header, generated
 * from Documentation/netlink/specs/dyndbg.yaml of kernel-patches/ part 2, is
 * carried in libddctl/uapi/linux/dyndbg.h (as iproute2 carries its uapi
 * headers), so ddctl builds on any host.
 */
#ifndef DDCTL_DYNDBG_NL_H
#define DDCTL_DYNDBG_NL_H

#include "uapi/linux/dyndbg.h"

#define DYNDBG_GENL_NAME DYNDBG_FAMILY_NAME
#define DYNDBG_GENL_VERSION DYNDBG_FAMILY_VERSION

#endif
