// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Flag letters: as the kernel prints them and as queries give them. */
#include <string.h>

#include "core/ctx.h"
#include "model/flags.h"
#include "util/util.h"

/* The kernel prints flags in this order: p m f s l t (7.2: then d). */
DDCTL_EXPORT char *ddctl_flags_format(unsigned int flags, char *buf)
{
	static const char order[] = "pmfsltd";
	static const unsigned int bits[] = {
		DDCTL_FLAG_PRINT, DDCTL_FLAG_MODNAME, DDCTL_FLAG_FUNCNAME,
		DDCTL_FLAG_SOURCENAME, DDCTL_FLAG_LINENO, DDCTL_FLAG_TID,
		DDCTL_FLAG_STACK,
	};
	char *p = buf;
	size_t i;

	*p++ = '=';
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (flags & bits[i])
			*p++ = order[i];
	if (p == buf + 1)
		*p++ = '_';
	*p = '\0';
	return buf;
}

/* A flag letter's bit; '_' is no flag (0); -1 for anything else. */
int dd_flag_from_char(char c)
{
	static const char chars[] = "pmflts";
	static const unsigned int bits[] = {
		DDCTL_FLAG_PRINT, DDCTL_FLAG_MODNAME, DDCTL_FLAG_FUNCNAME,
		DDCTL_FLAG_LINENO, DDCTL_FLAG_TID, DDCTL_FLAG_SOURCENAME,
	};
	const char *p = strchr(chars, c);

	if (c && p)
		return (int)bits[p - chars];
	return c == '_' ? 0 : -1;
}
