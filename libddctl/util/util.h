/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Small helpers every layer uses: no ddctl types here (this folder is a
 * library of its own, ddctl_util_dep, that the tool can link too).
 */
#ifndef DDCTL_UTIL_H
#define DDCTL_UTIL_H

#include <stdbool.h>
#include <stdlib.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Cleanup attributes: the variable is released when it goes out of scope. */
#define _cleanup_(fn) __attribute__((cleanup(fn)))
#define _cleanup_free_ _cleanup_(freep)

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* Kernel ctype: isspace() includes 0xa0. */
static inline bool dd_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

#endif
