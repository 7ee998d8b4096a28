// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Wildcard matching exactly as the kernel's match_wildcard() (lib/parser.c). */
#include <string.h>

#include "model/wildcard.h"

bool dd_match_wildcard(const char *pattern, const char *str)
{
	const char *s = str;
	const char *p = pattern;
	bool star = false;

	while (*s) {
		switch (*p) {
		case '?':
			s++;
			p++;
			break;
		case '*':
			star = true;
			str = s;
			if (!*++p)
				return true;
			pattern = p;
			break;
		default:
			if (*s == *p) {
				s++;
				p++;
			} else {
				if (!star)
					return false;
				str++;
				s = str;
				p = pattern;
			}
			break;
		}
	}
	if (*p == '*')
		++p;
	return !*p;
}

bool dd_has_wildcard(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}
