/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A growable string: 0 or -ENOMEM from every adder. */
#ifndef DDCTL_STRBUF_H
#define DDCTL_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, alloc;
};

int strbuf_add(struct strbuf *sb, const char *s, size_t len);
int strbuf_adds(struct strbuf *sb, const char *s);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strbuf_addch(struct strbuf *sb, char c);
/* @word quoted when the kernel's tokenizer needs it */
int strbuf_add_word(struct strbuf *sb, const char *word);
/* empty again, the buffer kept */
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* the buffer (NUL-terminated; NULL when empty), @sb reset */
char *strbuf_steal(struct strbuf *sb);

#endif
