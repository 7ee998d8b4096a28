// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The two parsers of a kernel log line: the /dev/kmsg record
 * ("prio,seq,usec,flags[,caller=..];text\n" and " KEY=VALUE" continuation
 * lines, of which DEVICE= and SUBSYSTEM= are kept) and the decoration dynamic debug puts in front of a message
 * (lib/dynamic_debug.c __dynamic_emit_prefix(), Linux 6.12): "[tid] " or
 * "<intr> ", then "module:", "function:", "file:", "line:" for the flags
 * m, f, s, l, then one space.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/ctx.h"
#include "util/util.h"

#define DIGITS "0123456789"
/* module names (KBUILD_MODNAME) and function names (__func__) */
#define NAME_CHARS DIGITS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-.$"

static bool parse_ull(const char **p, const char *end, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long n = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (n > (~0ULL - 9) / 10)
			return false;
		n = n * 10 + (unsigned long long)(*s - '0');
	}
	*p = s;
	*v = n;
	return true;
}

/*
 * The continuation lines after the text, " KEY=VALUE\n" each (the kernel
 * escapes a newline in a value as "\x0a"): DEVICE= and SUBSYSTEM= are
 * kept, NUL-terminated in place, the others skipped.
 */
static void record_fields(char *p, char *end, struct ddctl_kmsg_record *rec)
{
	while (p < end && *p == ' ') {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end; /* the last line without its newline: buf[len] is ours */
		*nl = '\0';
		if (!strncmp(p + 1, "DEVICE=", 7))
			rec->device = p + 8;
		else if (!strncmp(p + 1, "SUBSYSTEM=", 10))
			rec->subsystem = p + 11;
		p = nl + 1;
	}
}

DDCTL_EXPORT const char *ddctl_kmsg_record_get_device(const struct ddctl_kmsg_record *rec)
{
	return rec->device;
}

DDCTL_EXPORT const char *ddctl_kmsg_record_get_subsystem(const struct ddctl_kmsg_record *rec)
{
	return rec->subsystem;
}

DDCTL_EXPORT int ddctl_kmsg_record_parse(char *buf, size_t len,
					 struct ddctl_kmsg_record *rec)
{
	const char *p = buf, *end = buf + len, *semi;
	unsigned long long prio, seq, usec;
	char *text, *nl;

	semi = memchr(buf, ';', len);
	if (!semi || !parse_ull(&p, semi, &prio) || prio > 0xffffffu * 8 + 7 ||
	    p >= semi || *p++ != ',' || !parse_ull(&p, semi, &seq) ||
	    p >= semi || *p++ != ',' || !parse_ull(&p, semi, &usec))
		return -EBADMSG;
	/* the flags field and whatever newer kernels add (",caller=T1") */
	rec->continuation = false;
	if (p < semi && *p == ',') {
		p++;
		rec->continuation = p < semi && *p == 'c';
	} else if (p != semi) {
		return -EBADMSG;
	}
	text = buf + (semi + 1 - buf);
	nl = memchr(text, '\n', (size_t)(end - text));
	if (!nl)
		nl = buf + len;
	if (memchr(text, '\0', (size_t)(nl - text)))
		return -EBADMSG;
	rec->device = NULL;
	rec->subsystem = NULL;
	if (nl < end)
		record_fields(nl + 1, buf + len, rec);
	*nl = '\0';
	rec->level = (unsigned int)(prio & 7);
	rec->facility = (unsigned int)(prio >> 3);
	rec->seq = seq;
	rec->usec = usec;
	rec->text = text;
	rec->len = (size_t)(nl - text);
	return 0;
}

/*
 * A field of the decoration: up to ':', 1 to 127 bytes of @chars (NULL:
 * anything but a blank).
 */
static const char *prefix_field(const char *p, char *out, const char *chars)
{
	size_t n = 0;

	for (; p[n] && p[n] != ':'; n++)
		if (p[n] == ' ' || (chars && !strchr(chars, p[n])))
			return NULL;
	if (!p[n] || n == 0 || n >= DDCTL_KMSG_FIELD_MAX)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return p + n + 1;
}

static const char *prefix_tid(const char *p, long *tid)
{
	unsigned long long v;
	const char *s = p + 1;

	if (!strncmp(p, "<intr> ", 7)) {
		*tid = 0;
		return p + 7;
	}
	if (*p != '[' || !parse_ull(&s, s + 12, &v) || v > 0x7fffffff ||
	    s[0] != ']' || s[1] != ' ')
		return p;
	*tid = (long)v;
	return s + 2;
}

DDCTL_EXPORT int ddctl_kmsg_prefix_parse(const char *text, unsigned int flags,
					 struct ddctl_kmsg_prefix *prefix)
{
	static const unsigned int order[] = { DDCTL_FLAG_MODNAME,
		DDCTL_FLAG_FUNCNAME, DDCTL_FLAG_SOURCENAME, DDCTL_FLAG_LINENO };
	struct ddctl_kmsg_prefix p = { .tid = -1 };
	const char *s = text;
	char line[DDCTL_KMSG_FIELD_MAX];
	size_t i;

	if (flags & DDCTL_FLAG_TID)
		s = prefix_tid(s, &p.tid);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		char *out = order[i] == DDCTL_FLAG_MODNAME ? p.module :
			    order[i] == DDCTL_FLAG_FUNCNAME ? p.function :
			    order[i] == DDCTL_FLAG_SOURCENAME ? p.file : line;

		if (!(flags & order[i]))
			continue;
		s = prefix_field(s, out, order[i] == DDCTL_FLAG_LINENO ? DIGITS :
				 order[i] == DDCTL_FLAG_SOURCENAME ? NULL : NAME_CHARS);
		if (!s)
			return -ENOMSG;
		p.flags |= order[i];
	}
	if (order[3] & p.flags) {
		unsigned long long v;
		const char *l = line;

		if (!parse_ull(&l, l + strlen(l), &v) || v > 0xffffffffu)
			return -ENOMSG;
		p.line = (unsigned int)v;
	}
	if (p.flags) {
		if (*s != ' ')
			return -ENOMSG;
		s++;
	}
	if (p.tid >= 0)
		p.flags |= DDCTL_FLAG_TID;
	p.message = s;
	*prefix = p;
	return 0;
}
