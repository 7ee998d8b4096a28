// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Text safe on a terminal: UTF-8 sequences kept, other bytes escaped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/escape.h"

/* The length of the valid UTF-8 sequence at @p (1 for ASCII), or 0. */
size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned int cp;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2, cp = *p & 0x1f;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3, cp = *p & 0x0f;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4, cp = *p & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* How many bytes at @p are printable ASCII, shown as they are. */
static size_t plain_len(const unsigned char *p)
{
	size_t n = 0;

	while (p[n] >= 0x20 && p[n] < 0x7f)
		n++;
	return n;
}

/*
 * The character at @p as the control file shows it (escapes for \n \t
 * \r), other control bytes and bytes that are not UTF-8 as \xNN, into
 * @out (at most 4 bytes and a NUL); returns how many bytes of @p it took.
 */
static size_t escape_one(const unsigned char *p, char *out)
{
	size_t n = utf8_len(p);

	if (*p == '\n')
		strcpy(out, "\\n");
	else if (*p == '\t')
		strcpy(out, "\\t");
	else if (*p == '\r')
		strcpy(out, "\\r");
	else if (n == 0 || *p < 0x20 || *p == 0x7f)
		snprintf(out, 5, "\\x%02x", *p);
	else
		snprintf(out, 5, "%.*s", (int)n, (const char *)p);
	return n ? n : 1;
}

/* The format escaped (escape_one()): safe on a terminal. */
void print_escaped_format(FILE *f, const char *fmt)
{
	const unsigned char *p = (const unsigned char *)fmt;
	char e[5];
	size_t n;

	while (*p) {
		n = plain_len(p);
		if (n) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		p += escape_one(p, e);
		fputs(e, f);
	}
}

/* @s escaped as print_escaped_format() does, in "" with @quote; NULL: no memory. */
char *cli_escape(const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf = malloc(4 * strlen(s) + 3), *out = buf, *fit;
	size_t n;

	if (!buf)
		return NULL;
	if (quote)
		*out++ = '"';
	while (*p) {
		n = plain_len(p);
		if (n) {
			memcpy(out, p, n);
			out += n;
			p += n;
			continue;
		}
		p += escape_one(p, out);
		out += strlen(out);
	}
	if (quote)
		*out++ = '"';
	*out = '\0';
	fit = realloc(buf, (size_t)(out - buf) + 1);
	return fit ? fit : buf;
}
