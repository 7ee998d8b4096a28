// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A table of callsites, parsed from the control file's text. Lines look like
 *   lib/foo.c:123 [mod]func =pf "format\n" class:NAME
 * after a "# filename:lineno [module]function flags format" header.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "model/flags.h"
#include "model/table.h"
#include "util/util.h"

/* A flag letter of a control-file line: every letter any kernel prints ('_', the usual one, first). */
static int site_flag_from_char(char c)
{
	return c == '_' ? 0 : dd_flag_from_char(c);
}

/*
 * How a kernel escapes formats in the control file (ddebug_proc_show()):
 * 6.1 and later seq_escape_str(m, fmt, ESCAPE_SPACE, "\t\r\n\""), which
 * turns only TAB, CR and LF into \t \r \n; earlier kernels
 * seq_escape(m, fmt, "\t\r\n\""), ESCAPE_OCTAL: \011 \015 \012 \042.
 * Every other byte, backslashes and (6.1+) quotes included, is raw. A raw
 * backslash followed by what an escape looks like reads as that escape:
 * the kernel prints both the same way.
 */
enum escapes {
	ESCAPES_SPACE,
	ESCAPES_OCTAL,
};

static void unescape_format(char *s, enum escapes style)
{
	static const char octal[][4] = { "011", "012", "015", "042" };
	static const char octal_to[] = { '\t', '\n', '\r', '"' };
	char *out;
	size_t i;

	/* bytes before the first backslash stay where they are */
	s = strchr(s, '\\');
	if (!s)
		return;
	for (out = s; *s; s++) {
		if (*s != '\\') {
			*out++ = *s;
			continue;
		}
		if (style == ESCAPES_SPACE && (s[1] == 'n' || s[1] == 't' || s[1] == 'r')) {
			*out++ = s[1] == 'n' ? '\n' : s[1] == 't' ? '\t' : '\r';
			s++;
			continue;
		}
		for (i = 0; style == ESCAPES_OCTAL && i < ARRAY_SIZE(octal); i++)
			if (!strncmp(s + 1, octal[i], 3))
				break;
		if (style == ESCAPES_OCTAL && i < ARRAY_SIZE(octal)) {
			*out++ = octal_to[i];
			s += 3;
			continue;
		}
		*out++ = *s;
	}
	*out = '\0';
}

/*
 * Which kernel printed @text: nearly every format ends in a newline, which
 * 6.1+ prints as \n" and older kernels as \012". Both end in a quote, so
 * one pass from quote to quote counts both.
 */
static enum escapes detect_escapes(const char *text)
{
	size_t space = 0, octal = 0, at;
	const char *q;

	for (q = text; (q = strchr(q, '"')); q++) {
		at = (size_t)(q - text);
		if (at >= 2 && q[-2] == '\\' && q[-1] == 'n')
			space++;
		if (at >= 4 && !memcmp(q - 4, "\\012", 4))
			octal++;
	}
	return octal > space ? ESCAPES_OCTAL : ESCAPES_SPACE;
}

static int parse_class(char *s, struct ddctl_site *site)
{
	static const char known[] = " class:";
	static const char unknown[] = " class unknown, _id:";
	char *end;
	long id;

	if (!*s)
		return 0;
	if (!strncmp(s, known, sizeof(known) - 1) && s[sizeof(known) - 1]) {
		site->class_name = s + sizeof(known) - 1;
		return 0;
	}
	if (!strncmp(s, unknown, sizeof(unknown) - 1)) {
		s += sizeof(unknown) - 1;
		errno = 0;
		id = strtol(s, &end, 10);
		/* the kernel's ids are 0..63: a bigger one is no kernel's */
		if (end == s || *end || id < 0 || id > INT_MAX || errno)
			return -1;
		site->class_name = "";
		site->class_id = (int)id;
		return 0;
	}
	return -1;
}

/*
 * A line number: plain decimal digits that fit read here; anything else
 * as strtoul() takes it (signs, spaces, overflow), as always.
 */
static int parse_lineno(const char *s, unsigned int *line)
{
	unsigned long lineno;
	uint64_t v = 0;
	const char *p;
	char *end;

	for (p = s; *p >= '0' && *p <= '9' && v <= 0xffffffffU; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p != s && !*p && v <= 0xffffffffU) {
		*line = (unsigned int)v;
		return 0;
	}
	lineno = strtoul(s, &end, 10);
	if (end == s || *end || lineno > 0xffffffffUL)
		return -1;
	*line = (unsigned int)lineno;
	return 0;
}

/* Parse one NUL-terminated line in place. */
static int parse_line(char *line, struct ddctl_site *site, enum escapes style)
{
	char *sp, *colon, *p, *q;
	int bit;

	site->class_id = -1;
	sp = strchr(line, ' ');
	if (!sp || sp[1] != '[')
		return -1;
	*sp = '\0';
	colon = strrchr(line, ':');
	if (!colon || colon == line)
		return -1;
	*colon = '\0';
	if (parse_lineno(colon + 1, &site->line) < 0)
		return -1;
	site->file = line;
	p = strrchr(line, '/');
	site->basename = p ? p + 1 : line;

	site->module = sp + 2;
	p = strchr(site->module, ']');
	if (!p)
		return -1;
	*p++ = '\0';
	site->function = p;
	p = strchr(p, ' ');
	if (!p || p[1] != '=')
		return -1;
	*p = '\0';
	p += 2;
	site->flags = 0;
	for (; *p && *p != ' '; p++) {
		bit = site_flag_from_char(*p);
		if (bit < 0)
			return -1;
		site->flags |= (unsigned int)bit;
	}
	if (p[0] != ' ' || p[1] != '"')
		return -1;
	site->format = p + 2;
	q = strrchr(site->format, '"');
	if (!q)
		return -1;
	*q = '\0';
	if (parse_class(q + 1, site) < 0)
		return -1;
	unescape_format((char *)site->format, style);
	return 0;
}

static int table_parse(struct ddctl_table *t)
{
	char *line = t->buf, *nl, shown[81];
	size_t n = 0, lines = 0, alloc = 0, lineno = 0, len;
	enum escapes style = detect_escapes(t->buf);
	char *p;

	for (p = t->buf; (p = strchr(p, '\n')); p++)
		lines++;
	alloc = lines + 1;
	t->sites = calloc(alloc, sizeof(*t->sites));
	if (!t->sites)
		return -ENOMEM;
	for (; *line; line = nl) {
		lineno++;
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = line + strlen(line);
		if (*line == '#' || *line == '\0')
			continue;
		/* the line as read, for the message: parsing cuts it up */
		len = strnlen(line, sizeof(shown) - 1);
		memcpy(shown, line, len);
		shown[len] = '\0';
		if (parse_line(line, &t->sites[n], style) < 0) {
			err(t->ctx, "control file line %zu is not a callsite: %s\n",
			    lineno, shown);
			return -EBADMSG;
		}
		n++;
	}
	t->count = n;
	return 0;
}

int table_new_take(struct ddctl_ctx *ctx, char *buf, struct ddctl_table **out)
{
	struct ddctl_table *t = calloc(1, sizeof(*t));
	int r;

	if (!t) {
		free(buf);
		return -ENOMEM;
	}
	t->refcount = 1;
	t->ctx = ddctl_ref(ctx);
	t->buf = buf;
	r = table_parse(t);
	if (r < 0) {
		ddctl_table_unref(t);
		return r;
	}
	*out = t;
	return 0;
}

DDCTL_EXPORT int ddctl_table_new_from_buffer(struct ddctl_ctx *ctx,
					     const char *buf, size_t len,
					     struct ddctl_table **table)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	if (strlen(copy) != len) {
		err(ctx, "control text contains a NUL byte\n");
		free(copy);
		return -EBADMSG;
	}
	return table_new_take(ctx, copy, table);
}

DDCTL_EXPORT struct ddctl_table *ddctl_table_ref(struct ddctl_table *table)
{
	if (table)
		table->refcount++;
	return table;
}

DDCTL_EXPORT struct ddctl_table *ddctl_table_unref(struct ddctl_table *table)
{
	if (!table || --table->refcount > 0)
		return table;
	ddctl_unref(table->ctx);
	ddctl_table_unref(table->parent);
	ddctl_table_unref(table->also);
	if (table->index_free)
		table->index_free(table->index);
	free(table->sites);
	free(table->buf);
	free(table);
	return NULL;
}

DDCTL_EXPORT size_t ddctl_table_get_count(const struct ddctl_table *table)
{
	return table->count;
}

DDCTL_EXPORT const struct ddctl_site *
ddctl_table_get_site(const struct ddctl_table *table, size_t idx)
{
	return idx < table->count ? &table->sites[idx] : NULL;
}

DDCTL_EXPORT const char *ddctl_site_get_file(const struct ddctl_site *site)
{
	return site->file;
}

DDCTL_EXPORT unsigned int ddctl_site_get_line(const struct ddctl_site *site)
{
	return site->line;
}

DDCTL_EXPORT const char *ddctl_site_get_module(const struct ddctl_site *site)
{
	return site->module;
}

DDCTL_EXPORT const char *ddctl_site_get_function(const struct ddctl_site *site)
{
	return site->function;
}

DDCTL_EXPORT const char *ddctl_site_get_format(const struct ddctl_site *site)
{
	return site->format;
}

DDCTL_EXPORT unsigned int ddctl_site_get_flags(const struct ddctl_site *site)
{
	return site->flags;
}

DDCTL_EXPORT const char *ddctl_site_get_class(const struct ddctl_site *site)
{
	return site->class_name;
}

DDCTL_EXPORT int ddctl_site_get_class_id(const struct ddctl_site *site)
{
	return site->class_id;
}

int table_derive(struct ddctl_table *from, struct ddctl_table **out)
{
	struct ddctl_table *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->sites = malloc((from->count + 1) * sizeof(*t->sites));
	if (!t->sites) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->sites, from->sites, from->count * sizeof(*t->sites));
	t->count = from->count;
	t->refcount = 1;
	t->ctx = ddctl_ref(from->ctx);
	t->parent = ddctl_table_ref(from->parent ? from->parent : from);
	*out = t;
	return 0;
}

int table_subset(struct ddctl_table *from, const bool *keep,
		 struct ddctl_table **out)
{
	size_t s, n = 0;
	int r = table_derive(from, out);

	for (s = 0; !r && s < from->count; s++)
		if (keep[s])
			(*out)->sites[n++] = from->sites[s];
	if (!r)
		(*out)->count = n;
	return r;
}

int table_concat(struct ddctl_table *a, struct ddctl_table *b,
		 struct ddctl_table **out)
{
	struct ddctl_table *t = NULL;
	struct ddctl_site *sites;
	int r = table_derive(a, &t);

	sites = r ? NULL : realloc(t->sites, (a->count + b->count + 1) * sizeof(*sites));
	if (!sites) {
		ddctl_table_unref(t);
		return r ? r : -ENOMEM;
	}
	memcpy(sites + a->count, b->sites, b->count * sizeof(*sites));
	t->sites = sites;
	t->count = a->count + b->count;
	/* the strings: @a's and @b's, whatever they hang off */
	ddctl_table_unref(t->parent);
	t->parent = ddctl_table_ref(a);
	t->also = ddctl_table_ref(b);
	*out = t;
	return 0;
}

void table_set_site_flags(struct ddctl_table *t, size_t idx, unsigned int flags)
{
	t->sites[idx].flags = flags;
}

void table_set_index(struct ddctl_table *t, void *index,
		     void (*free_fn)(void *index))
{
	t->index = index;
	t->index_free = free_fn;
}
