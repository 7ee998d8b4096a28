/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The kernel's limits (lib/dynamic_debug.c, Linux 6.12). */
#ifndef DDCTL_MODEL_LIMITS_H
#define DDCTL_MODEL_LIMITS_H

#define DD_MAXWORDS 9
#define DD_MAXPAIRS ((DD_MAXWORDS - 1) / 2) /* match-specs beside the flags */
#define DD_WRITE_MAX 4095
/*
 * Every flag bit a control file can show: pmflts, and 'd' (Linux 7.2,
 * DDCTL_FLAG_STACK), which queries set on the kernels that have it.
 */
#define DD_FLAGS_ALL 0x7fu

#endif
