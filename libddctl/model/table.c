// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The control-file reader. Lines look like
 *   lib/foo.c:123 [mod]func =pf "format\n" class:NAME
 * after a "# filename:lineno [module]function flags format" header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libddctl-private.h"
#include "util/read-file.h"

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

/*
 * A flag letter of a control-file line: the query letters plus what newer
 * kernels print, so that their control files read everywhere: 'd'
 * (_DPRINTK_FLAGS_INCL_STACK, Linux 7.2). Queries do not take 'd' (a
 * kernel without it would refuse the write, see dd_flag_from_char()).
 */
static int site_flag_from_char(char c)
{
	return c == 'd' ? (int)DDCTL_FLAG_STACK : dd_flag_from_char(c);
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
	char *out = s;
	size_t i;

	for (; *s; s++) {
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

/* How often @needle occurs in @hay, in one pass (strstr() per match is quadratic under ASan). */
static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (; *hay; hay++)
		if (*hay == *needle && !strncmp(hay, needle, len))
			n++;
	return n;
}

/*
 * Which kernel printed @text: nearly every format ends in a newline, which
 * 6.1+ prints as \n" and older kernels as \012".
 */
static enum escapes detect_escapes(const char *text)
{
	return count_str(text, "\\012\"") > count_str(text, "\\n\"") ?
	       ESCAPES_OCTAL : ESCAPES_SPACE;
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
		id = strtol(s, &end, 10);
		if (end == s || *end || id < 0)
			return -1;
		site->class_name = "";
		site->class_id = (int)id;
		return 0;
	}
	return -1;
}

/* Parse one NUL-terminated line in place. */
static int parse_line(char *line, struct ddctl_site *site, enum escapes style)
{
	char *sp, *colon, *p, *end, *q;
	unsigned long lineno;
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
	lineno = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end || lineno > 0xffffffffUL)
		return -1;
	site->file = line;
	site->line = (unsigned int)lineno;
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

static int table_new(struct ddctl_ctx *ctx, char *buf,
		     struct ddctl_table **out)
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
	return table_new(ctx, copy, table);
}

DDCTL_EXPORT int ddctl_table_read(struct ddctl_ctx *ctx,
				  struct ddctl_table **table)
{
	const char *path;
	char *buf = NULL;
	int r;

	if (ctx->backend == DDCTL_BACKEND_NETLINK) {
		/* -EINTR: a module came or went during the dump; dump again */
		for (int tries = 0; tries < 5; tries++) {
			r = nl_dump(ctx, NULL, &buf);
			if (r != -EINTR)
				break;
		}
		if (r < 0) {
			err(ctx, "cannot dump callsites over netlink: %s\n",
			    r == -ENOENT ? "the kernel has no dyndbg netlink family" :
			    strerror(-r));
			return r;
		}
		return table_new(ctx, buf, table);
	}
	r = ddctl_get_control_path(ctx, &path);
	if (r < 0)
		return r;
	r = read_full_file(path, READ_FILE_TEXT, &buf, NULL);
	if (r < 0) {
		err(ctx, "cannot read %s: %s\n", path, strerror(-r));
		return r;
	}
	return table_new(ctx, buf, table);
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
	index_free(table->index);
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
