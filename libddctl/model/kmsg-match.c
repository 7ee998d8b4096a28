// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Kernel log lines matched to callsites by their text: a format turned
 * into a matcher (conversions stand for any text), lines printed without
 * any decoration (netdev_dbg() of a net_device without a parent: bond,
 * bridge, veth print "NAME STATE: message" whatever the flags), and
 * decorations the kernel cut at PREFIX_SIZE - 1 bytes (Linux 6.1's
 * lib/dynamic_debug.c: 64; 128 later).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/kmsg-match.h"
#include "model/table.h"

/* The conversion at @fmt ('%', not "%%"): where the text after it starts. */
static const char *skip_conversion(const char *fmt)
{
	fmt += 1 + strspn(fmt + 1, "#0- +'*.0123456789hlLqjzt");
	if (*fmt == 'p') /* %pS, %pV, %*ph...: letters follow */
		while (fmt[1] >= 'A' && fmt[1] <= 'z' && fmt[1] != '\\')
			fmt++;
	return *fmt ? fmt + 1 : fmt;
}

bool kmsg_format_fits(const char *fmt, const char *msg)
{
	const char *star_f = NULL, *star_m = NULL;
	char esc[8];
	size_t n;

	for (;;) {
		if (*fmt == '%' && fmt[1] != '%' && fmt[1]) {
			fmt = skip_conversion(fmt);
			star_f = fmt;
			star_m = msg;
			continue;
		}
		if (*fmt == '\n' && !fmt[1])
			fmt++;
		if (!*fmt && !*msg)
			return true;
		if (*fmt) {
			unsigned char c = (unsigned char)*fmt;

			if (c < ' ' || c >= 127 || c == '\\')
				snprintf(esc, sizeof(esc), "\\x%02x", c);
			else
				snprintf(esc, sizeof(esc), "%c", c);
			n = strlen(esc);
			if (!strncmp(msg, esc, n)) {
				fmt += 1 + (c == '%');
				msg += n;
				continue;
			}
		}
		if (!star_f || !*star_m)
			return false;
		fmt = star_f; /* the last conversion takes one more byte */
		msg = ++star_m;
	}
}

/* The bytes of @fmt that are no conversion (a trailing newline left out). */
static size_t literal_bytes(const char *fmt)
{
	size_t n = 0;

	while (*fmt) {
		if (*fmt == '%' && fmt[1] != '%' && fmt[1]) {
			fmt = skip_conversion(fmt);
			continue;
		}
		if (*fmt == '\n' && !fmt[1])
			break;
		fmt += 1 + (*fmt == '%' && fmt[1] == '%');
		n++;
	}
	return n;
}

static bool fits_line(const char *fmt, const char *text)
{
	const char *dev = strstr(text, ": ");

	return kmsg_format_fits(fmt, text) || (dev && kmsg_format_fits(fmt, dev + 2));
}

int kmsg_match_message(const struct ddctl_table *t, const size_t *order,
		       size_t n, const char *text, size_t *site)
{
	size_t i, lit, best = 0;
	int found = 0;

	for (i = 0; i < n; i++) {
		const char *fmt = t->sites[order[i]].format;

		lit = literal_bytes(fmt);
		if (!lit || lit < best || !fits_line(fmt, text))
			continue;
		if (lit > best) {
			best = lit;
			found = 0;
		}
		if (!found++)
			*site = order[i];
	}
	return found ? found : -ENOENT;
}

/* The length of @s's decoration with @flags after @tid ("[12] ", "<intr> " or ""). */
static int decoration(const struct ddctl_site *s, unsigned int flags,
		      const char *tid, size_t tid_len, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%.*s%s%s%s%s%s%s", (int)tid_len, tid,
			 flags & DDCTL_FLAG_MODNAME ? s->module : "",
			 flags & DDCTL_FLAG_MODNAME ? ":" : "",
			 flags & DDCTL_FLAG_FUNCNAME ? s->function : "",
			 flags & DDCTL_FLAG_FUNCNAME ? ":" : "",
			 flags & DDCTL_FLAG_SOURCENAME ? s->file : "",
			 flags & DDCTL_FLAG_SOURCENAME ? ":" : "");

	if (n >= 0 && (size_t)n < size && (flags & DDCTL_FLAG_LINENO))
		n += snprintf(buf + n, size - (size_t)n, "%u:", s->line);
	if (n >= 0 && (size_t)n < size && (flags & ~DDCTL_FLAG_TID))
		n += snprintf(buf + n, size - (size_t)n, " ");
	return n;
}

/* "[N] " or "<intr> " at @text: its length, else 0. */
static size_t tid_length(const char *text)
{
	size_t n;

	if (!strncmp(text, "<intr> ", 7))
		return 7;
	if (text[0] != '[')
		return 0;
	n = 1 + strspn(text + 1, "0123456789");
	return n > 1 && text[n] == ']' && text[n + 1] == ' ' ? n + 2 : 0;
}

int kmsg_match_cut(const struct ddctl_table *t, const size_t *order, size_t n,
		   const char *text, unsigned int flags, size_t *site,
		   const char **message)
{
	static const size_t prefix_sizes[] = { 64, 128 };
	size_t tid = flags & DDCTL_FLAG_TID ? tid_length(text) : 0;
	size_t i, k, cut;
	char buf[4096 + 64];
	int len, found;

	for (k = 0; k < sizeof(prefix_sizes) / sizeof(prefix_sizes[0]); k++) {
		cut = prefix_sizes[k] - 1;
		if (strnlen(text, cut) < cut)
			break;
		found = 0;
		for (i = 0; i < n; i++) {
			const struct ddctl_site *s = &t->sites[order[i]];
			size_t mlen = strlen(s->module);

			/* the module name starts the decoration: most sites end here */
			if ((flags & DDCTL_FLAG_MODNAME) &&
			    strncmp(s->module, text + tid, mlen < cut - tid ? mlen : cut - tid))
				continue;
			/* longer than the cut, cut there, the message right after */
			len = decoration(s, flags, text, tid, buf, sizeof(buf));
			if (len < 0 || (size_t)len <= cut || (size_t)len >= sizeof(buf) ||
			    memcmp(buf, text, cut) || !fits_line(s->format, text + cut))
				continue;
			if (!found++)
				*site = order[i];
		}
		if (found) {
			*message = text + cut;
			return found;
		}
	}
	return -ENOENT;
}
