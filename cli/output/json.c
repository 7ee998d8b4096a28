// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The JSON writer every command prints through. Hand-written rather than a
 * library: no new dependency for a few hundred bytes of output per line,
 * and the bytes stay exactly what scripts already parse (compact, members
 * in the order written, strings always valid UTF-8).
 */
#include <stdio.h>

#include "output/escape.h"
#include "output/json.h"

/* --pretty: every writer indents (set once, before any output). */
static bool pretty;

void json_set_pretty(bool on)
{
	pretty = on;
}

void json_init(struct json_writer *w, FILE *f)
{
	*w = (struct json_writer){ .f = f };
}

/* --pretty: a new line, indented to @depth. */
static void indent(struct json_writer *w, unsigned int depth)
{
	fputc('\n', w->f);
	while (depth--)
		fputs("  ", w->f);
}

/* The separator before a member or an element; none after a key. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->depth)
		return;
	if (!w->first[w->depth - 1])
		fputc(',', w->f);
	if (pretty)
		indent(w, w->depth);
	else if (w->lines[w->depth - 1])
		fputc('\n', w->f);
	w->first[w->depth - 1] = false;
}

static void begin(struct json_writer *w, char c, bool lines)
{
	before_value(w);
	fputc(c, w->f);
	if (w->depth < JSON_MAX_DEPTH) {
		w->first[w->depth] = true;
		w->lines[w->depth] = lines;
	}
	w->depth++;
}

static void end(struct json_writer *w, char c)
{
	unsigned int d = --w->depth;

	if (d < JSON_MAX_DEPTH && pretty && !w->first[d])
		indent(w, d);
	else if (d < JSON_MAX_DEPTH && w->lines[d] && !w->first[d])
		fputc('\n', w->f);
	fputc(c, w->f);
	if (!w->depth)
		fputc('\n', w->f);
}

void json_begin_object(struct json_writer *w)
{
	begin(w, '{', false);
}

void json_end_object(struct json_writer *w)
{
	end(w, '}');
}

void json_begin_array(struct json_writer *w)
{
	begin(w, '[', false);
}

void json_begin_array_lines(struct json_writer *w)
{
	begin(w, '[', true);
}

void json_end_array(struct json_writer *w)
{
	end(w, ']');
}

/*
 * A string, always valid UTF-8: a byte that does not start a valid UTF-8
 * sequence becomes \u00XX (the code point of that byte in Latin-1).
 */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', f);
	while (*p) {
		n = utf8_len(p);
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (n == 0 || *p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	fputc('"', f);
}

void json_key(struct json_writer *w, const char *key)
{
	before_value(w);
	put_string(w->f, key);
	fputs(pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void json_string(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	before_value(w);
	put_string(w->f, s);
}

void json_int(struct json_writer *w, long long v)
{
	before_value(w);
	fprintf(w->f, "%lld", v);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
	before_value(w);
	fprintf(w->f, "%llu", v);
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->f);
}

/* A callsite's identity: "file", "line", "module", "function". */
void json_site(struct json_writer *w, const struct ddctl_site *site)
{
	json_key(w, "file");
	json_string(w, ddctl_site_get_file(site));
	json_key(w, "line");
	json_uint(w, ddctl_site_get_line(site));
	json_key(w, "module");
	json_string(w, ddctl_site_get_module(site));
	json_key(w, "function");
	json_string(w, ddctl_site_get_function(site));
}
