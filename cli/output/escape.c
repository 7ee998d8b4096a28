// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Text safe on a terminal: UTF-8 sequences kept, other bytes escaped. */
#include <stdio.h>
#include <stdlib.h>

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

/*
 * The format as the control file shows it (escapes for \n \t \r), other
 * control bytes and bytes that are not UTF-8 as \xNN: safe on a terminal.
 */
void print_escaped_format(FILE *f, const char *fmt)
{
	const unsigned char *p = (const unsigned char *)fmt;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (n == 0 || *p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
}

/* @s escaped as print_escaped_format() does, in "" with @quote; NULL: no memory. */
char *cli_escape(const char *s, bool quote)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (quote)
		fputc('"', f);
	print_escaped_format(f, s);
	if (quote)
		fputc('"', f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
