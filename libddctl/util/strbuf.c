// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* A growable string. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

static int strbuf_grow(struct strbuf *sb, size_t more)
{
	size_t want = sb->len + more + 1;
	char *n;

	if (want <= sb->alloc)
		return 0;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	if (want < 64)
		want = 64;
	n = realloc(sb->buf, want);
	if (!n)
		return -ENOMEM;
	sb->buf = n;
	sb->alloc = want;
	return 0;
}

int strbuf_add(struct strbuf *sb, const char *s, size_t len)
{
	if (strbuf_grow(sb, len) < 0)
		return -ENOMEM;
	memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_adds(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addch(struct strbuf *sb, char c)
{
	return strbuf_add(sb, &c, 1);
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || strbuf_grow(sb, (size_t)n) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

/*
 * Append @word so that the kernel's tokenizer reads it back as one word:
 * quoted when it holds a space or starts with a quote or '#'.
 */
int strbuf_add_word(struct strbuf *sb, const char *word)
{
	bool plain = *word && *word != '"' && *word != '\'' && *word != '#';
	const char *p;

	for (p = word; *p && plain; p++)
		if (dd_isspace((unsigned char)*p))
			plain = false;
	if (plain)
		return strbuf_adds(sb, word);
	if (!strchr(word, '"'))
		return strbuf_addf(sb, "\"%s\"", word);
	if (!strchr(word, '\''))
		return strbuf_addf(sb, "'%s'", word);
	return -EINVAL;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *strbuf_steal(struct strbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = strdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}
