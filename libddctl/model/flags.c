// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Flag letters: as the kernel prints them, as queries give them, and which
 * kernel release accepts each (lib/dynamic_debug.c's opt_array: Linux 6.1
 * has p m f l t _; 's' came with 6.6, "dyndbg: add source filename to
 * prefix"; 'd' with 7.2).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ctx.h"
#include "model/flags.h"
#include "util/util.h"

static const struct {
	char letter;
	unsigned int bit;
	unsigned int major, minor; /* the first release with it */
	const char *since;
	const char *what;
} flag_table[] = {
	{ 'p', DDCTL_FLAG_PRINT, 0, 0, "", "print the message (pr_debug, dev_dbg, ...)" },
	{ 'm', DDCTL_FLAG_MODNAME, 0, 0, "", "prefix the module name" },
	{ 'f', DDCTL_FLAG_FUNCNAME, 0, 0, "", "prefix the function name" },
	{ 's', DDCTL_FLAG_SOURCENAME, 6, 6, "6.6", "prefix the source file name" },
	{ 'l', DDCTL_FLAG_LINENO, 0, 0, "", "prefix the line number" },
	{ 't', DDCTL_FLAG_TID, 0, 0, "", "prefix the thread id (<intr> in interrupts)" },
	{ 'd', DDCTL_FLAG_STACK, 7, 2, "7.2", "dump the stack after the message" },
	{ '_', 0, 0, 0, "", "no flag: =_ turns every flag off" },
};

/* The kernel prints flags in this order: p m f s l t (7.2: then d). */
DDCTL_EXPORT char *ddctl_flags_format(unsigned int flags, char *buf)
{
	char *p = buf;
	size_t i;

	*p++ = '=';
	for (i = 0; i < ARRAY_SIZE(flag_table); i++)
		if (flag_table[i].bit && (flags & flag_table[i].bit))
			*p++ = flag_table[i].letter;
	if (p == buf + 1)
		*p++ = '_';
	*p = '\0';
	return buf;
}

/* A flag letter's bit; '_' is no flag (0); -1 for anything else. */
int dd_flag_from_char(char c)
{
	size_t i;

	for (i = 0; c && i < ARRAY_SIZE(flag_table); i++)
		if (flag_table[i].letter == c)
			return (int)flag_table[i].bit;
	return -1;
}

unsigned int dd_flags_of_release(const char *release)
{
	unsigned int major, minor, flags = 0;
	size_t i;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		major = minor = ~0u;
	for (i = 0; i < ARRAY_SIZE(flag_table); i++)
		if (major > flag_table[i].major ||
		    (major == flag_table[i].major && minor >= flag_table[i].minor))
			flags |= flag_table[i].bit;
	return flags;
}

const char *dd_flag_since(char c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_table); i++)
		if (flag_table[i].letter == c)
			return flag_table[i].since;
	return "";
}

size_t dd_flags_letters(unsigned int flags, char *buf)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(flag_table); i++)
		if (!flag_table[i].bit || (flags & flag_table[i].bit)) {
			if (n)
				buf[n++] = ' ';
			buf[n++] = flag_table[i].letter;
		}
	buf[n] = '\0';
	return n;
}

DDCTL_EXPORT unsigned int ddctl_get_query_flags(struct ddctl_ctx *ctx)
{
	return dd_flags_of_release(ddctl_get_kernel(ctx));
}

DDCTL_EXPORT int ddctl_flag_get_info(size_t idx, char *letter,
				     unsigned int *bit, const char **what,
				     const char **since)
{
	if (idx >= ARRAY_SIZE(flag_table))
		return -ENOENT;
	*letter = flag_table[idx].letter;
	if (bit)
		*bit = flag_table[idx].bit;
	if (what)
		*what = flag_table[idx].what;
	if (since)
		*since = flag_table[idx].since;
	return 0;
}
