// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The query language, rule for rule as Linux 6.12 lib/dynamic_debug.c
 * parses it (ddebug_exec_queries, ddebug_tokenize, ddebug_parse_query,
 * ddebug_parse_flags), plus negated match-specs: `!module virtio*` and
 * `module !virtio*` for func, file and module, `!format x` for format
 * (`format !x` is the text "!x", as on every kernel).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/flags.h"
#include "model/limits.h"
#include "model/query.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *const spec_names[DD_SPEC_NR] = {
	[DD_SPEC_FUNC] = "func",
	[DD_SPEC_FILE] = "file",
	[DD_SPEC_MODULE] = "module",
	[DD_SPEC_FORMAT] = "format",
	[DD_SPEC_CLASS] = "class",
};

struct word {
	char *s;
	const char *orig; /* as written, before in-place parsing */
	unsigned int column;
};

struct parser {
	unsigned int accepted; /* the flags this kernel takes */
	const char *kernel; /* its release, for messages */
	int err_column;
	char *err_word;
	char *err_msg;
};

static int fail(struct parser *p, const struct word *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, const struct word *w, const char *fmt, ...)
{
	va_list ap;

	if (p->err_msg)
		return -EINVAL;
	va_start(ap, fmt);
	if (vasprintf(&p->err_msg, fmt, ap) < 0)
		p->err_msg = NULL;
	va_end(ap);
	p->err_word = strdup(w ? (w->orig ? w->orig : w->s) : "");
	p->err_column = w ? (int)w->column : 1;
	return -EINVAL;
}

/* ddebug_tokenize(): whitespace-separated words, simple quotes, '#'. */
static int tokenize(struct parser *p, char *buf, struct word *words)
{
	char *start = buf, *end;
	int n = 0;

	while (*buf) {
		while (dd_isspace((unsigned char)*buf))
			buf++;
		if (!*buf || *buf == '#')
			break;
		if (n == DD_MAXWORDS) {
			struct word w = { buf, NULL, (unsigned int)(buf - start) + 1 };

			for (end = buf; *end && !dd_isspace((unsigned char)*end); end++)
				;
			*end = '\0';
			return fail(p, &w,
				    "too many words: a query has at most 4 match-specs and the flags (%d words)",
				    DD_MAXWORDS);
		}
		words[n].column = (unsigned int)(buf - start) + 1;
		words[n].orig = NULL;
		if (*buf == '"' || *buf == '\'') {
			char quote = *buf++;

			for (end = buf; *end && *end != quote; end++)
				;
			if (!*end) {
				words[n].s = buf - 1;
				return fail(p, &words[n], "unclosed quote %c", quote);
			}
		} else {
			for (end = buf; *end && !dd_isspace((unsigned char)*end); end++)
				;
		}
		if (*end)
			*end++ = '\0';
		words[n++].s = buf;
		buf = end;
	}
	return n;
}

static int parse_flags(struct parser *p, struct word *w, struct ddctl_query *q)
{
	const char *s = w->s;
	char letters[16];
	int bit;

	if (*s != '+' && *s != '-' && *s != '=')
		return fail(p, w,
			    "expected flags as the last word, e.g. +p or -pf (an operator + - or = then flag letters: `ddctl help flags`), after keyword-value pairs");
	q->op = *s++;
	for (; *s; s++) {
		bit = dd_flag_from_char(*s);
		if (bit < 0) {
			dd_flags_letters(p->accepted, letters);
			return fail(p, w, "unknown flag '%c' (flags are %s: `ddctl help flags`)",
				    *s, letters);
		}
		if ((unsigned int)bit & ~p->accepted)
			return fail(p, w, "this kernel (%s) has no flag '%c' (Linux %s and later)",
				    p->kernel, *s, dd_flag_since(*s));
		q->flags |= (unsigned int)bit;
	}
	query_set_op(q, q->op, q->flags);
	return 0;
}

void query_set_op(struct ddctl_query *q, char op, unsigned int flags)
{
	q->has_flags = true;
	q->op = op;
	q->flags = flags;
	switch (op) {
	case '=':
		q->set_flags = flags;
		q->mask = 0;
		break;
	case '+':
		q->set_flags = flags;
		q->mask = ~0u;
		break;
	default:
		q->set_flags = 0;
		q->mask = ~flags;
		break;
	}
}

unsigned int query_apply(const struct ddctl_query *q, unsigned int flags)
{
	return ((flags & q->mask) | q->set_flags) & DD_FLAGS_ALL;
}

/* kstrtouint(s, 10): optional '+', digits, at most UINT_MAX. */
static int parse_lineno(const char *s, unsigned int *val)
{
	unsigned long long v = 0;

	if (!*s) {
		*val = 0;
		return 0;
	}
	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > UINT_MAX)
			return -ERANGE;
	}
	if (*s)
		return -EINVAL;
	*val = (unsigned int)v;
	return 0;
}

static int parse_linerange(struct parser *p, struct word *w, char *first,
			   struct ddctl_query *q)
{
	char *last = strchr(first, '-');
	int r;

	if (q->first_line || q->last_line)
		return fail(p, w, "line range given twice");
	if (last)
		*last++ = '\0';
	r = parse_lineno(first, &q->first_line);
	if (r == 0 && last)
		r = parse_lineno(last, &q->last_line);
	if (r == -ERANGE)
		return fail(p, w, "line number out of range");
	if (r < 0)
		return fail(p, w,
			    "bad line number: expected N, N-M, -M or N- with decimal numbers");
	if (!last) {
		q->last_line = q->first_line;
		return 0;
	}
	if (q->last_line == 0)
		q->last_line = UINT_MAX;
	if (q->last_line < q->first_line)
		return fail(p, w, "last line %u is before first line %u",
			    q->last_line, q->first_line);
	return 0;
}

static bool kernel_isalpha(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return c >= 0xc0 && c != 0xd7 && c != 0xf7;
}

static int octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* string_unescape_inplace(UNESCAPE_SPACE | UNESCAPE_OCTAL | UNESCAPE_SPECIAL) */
static void unescape_query_format(char *s)
{
	char *out = s;
	unsigned int num;
	int n;

	while (*s) {
		if (s[0] != '\\' || s[1] == '\0') {
			*out++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': *out++ = '\n'; s++; continue;
		case 'r': *out++ = '\r'; s++; continue;
		case 't': *out++ = '\t'; s++; continue;
		case 'v': *out++ = '\v'; s++; continue;
		case 'f': *out++ = '\f'; s++; continue;
		}
		if (octal_digit(*s) >= 0) {
			const char *start = s;

			num = (unsigned int)octal_digit(*s++);
			while (num < 32 && (n = octal_digit(*s)) >= 0 &&
			       s - start < 3) {
				num = (num << 3) + (unsigned int)n;
				s++;
			}
			*out++ = (char)num;
			continue;
		}
		switch (*s) {
		case '"': *out++ = '"'; s++; continue;
		case '\\': *out++ = '\\'; s++; continue;
		case 'a': *out++ = '\a'; s++; continue;
		case 'e': *out++ = '\033'; s++; continue;
		}
		*out++ = '\\';
		*out++ = *s++;
	}
	*out = '\0';
}

static int set_spec(struct parser *p, struct word *kw, struct ddctl_query *q,
		    enum dd_spec spec, const char *value, bool negated)
{
	if (q->spec[spec])
		return fail(p, kw, "%s given twice in one query",
			    spec_names[spec]);
	q->spec[spec] = strdup(value);
	if (!q->spec[spec])
		return -ENOMEM;
	q->negated[spec] = negated;
	return 0;
}

static int parse_pair(struct parser *p, struct word *kw, struct word *val,
		      struct ddctl_query *q)
{
	const char *key = kw->s;
	char *arg = val->s, *fline;
	bool neg = false;
	int r;

	if (*key == '!') {
		neg = true;
		key++;
	}
	/* "format !x" is the text "!x": formats are negated as "!format x" */
	if (*arg == '!' && arg[1] == '!' && strcmp(key, "format"))
		return fail(p, val, "%s is negated twice", key);
	if (*arg == '!' && (!strcmp(key, "module") || !strcmp(key, "file") ||
			    !strcmp(key, "func"))) {
		if (neg)
			return fail(p, val, "%s is negated twice", key);
		neg = true;
		arg++;
	}
	/* the empty pattern matches no site: its negation selects every one */
	if (neg && !*arg && (!strcmp(key, "module") || !strcmp(key, "file") ||
			     !strcmp(key, "func") || !strcmp(key, "format")))
		return fail(p, val,
			    "a negated %s needs a value: negating the empty pattern selects every site",
			    key);
	if (!strcmp(key, "func"))
		return set_spec(p, kw, q, DD_SPEC_FUNC, arg, neg);
	if (!strcmp(key, "module")) {
		for (fline = arg; *fline; fline++)
			if (*fline == '-')
				*fline = '_';
		return set_spec(p, kw, q, DD_SPEC_MODULE, arg, neg);
	}
	if (!strcmp(key, "format")) {
		unescape_query_format(arg);
		return set_spec(p, kw, q, DD_SPEC_FORMAT, arg, neg);
	}
	if (!strcmp(key, "file")) {
		fline = strchr(arg, ':');
		if (fline && neg)
			return fail(p, val,
				    "a negated file cannot carry :function or :lines; use a separate func or line match-spec");
		if (fline)
			*fline++ = '\0';
		r = set_spec(p, kw, q, DD_SPEC_FILE, arg, neg);
		if (r < 0 || !fline)
			return r;
		if (kernel_isalpha((unsigned char)*fline) || *fline == '*' ||
		    *fline == '?')
			return set_spec(p, val, q, DD_SPEC_FUNC, fline, false);
		return parse_linerange(p, val, fline, q);
	}
	if ((neg || *arg == '!') && (!strcmp(key, "line") || !strcmp(key, "class")))
		return fail(p, neg ? kw : val,
			    "%s cannot be negated (only module, file, func and format can)",
			    key);
	if (!strcmp(key, "line"))
		return parse_linerange(p, val, arg, q);
	if (!strcmp(key, "class"))
		return set_spec(p, kw, q, DD_SPEC_CLASS, arg, false);
	return fail(p, kw,
		    "unknown keyword (expected func, file, module, format, line or class)");
}

static int parse_query(struct parser *p, char *text, unsigned int flags,
		       struct ddctl_query *q)
{
	struct word words[DD_MAXWORDS];
	int n, i, r, nspec;

	n = tokenize(p, text, words);
	if (n < 0)
		return n;
	if (n == 0)
		return fail(p, NULL, "empty query");
	nspec = n;
	if (!(flags & DDCTL_PARSE_MATCH_ONLY)) {
		r = parse_flags(p, &words[n - 1], q);
		if (r < 0)
			return r;
		nspec = n - 1;
	}
	if (nspec % 2)
		return fail(p, &words[nspec - 1],
			    "match-spec has no value: expected keyword-value pairs before the flags");
	for (i = 0; i < nspec; i++) {
		words[i].orig = strdup(words[i].s);
		if (!words[i].orig)
			nspec = i;
	}
	for (i = 0, r = 0; i < nspec && r == 0; i += 2)
		r = parse_pair(p, &words[i], &words[i + 1], q);
	for (i = 0; i < nspec; i++)
		free((char *)words[i].orig);
	return nspec == n - !(flags & DDCTL_PARSE_MATCH_ONLY) ? r : -ENOMEM;
}

void query_release(struct ddctl_query *q)
{
	int i;

	for (i = 0; i < DD_SPEC_NR; i++)
		free(q->spec[i]);
	free(q->text);
	free(q->canonical);
	memset(q, 0, sizeof(*q));
}

/* Write a format so that the kernel unescapes it back to the same bytes. */
static int add_format_word(struct strbuf *sb, const char *fmt)
{
	const unsigned char *s = (const unsigned char *)fmt;
	int r = 0;

	if (!*s)
		return strbuf_adds(sb, "''");
	for (; *s && r == 0; s++) {
		bool plain = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			     (*s >= '0' && *s <= '9') ||
			     (*s != '\\' && *s != '"' && *s != '\'' && *s != ';' &&
			      *s != '#' && *s > ' ' && *s < 0x7f &&
			      !(*s == '!' && (const char *)s == fmt));

		if (plain)
			r = strbuf_addch(sb, (char)*s);
		else
			r = strbuf_addf(sb, "\\%03o", *s);
	}
	return r;
}

/* The line range as the kernel reads it, "" for none. */
static void format_lines(const struct ddctl_query *q, char *buf, size_t size)
{
	if (!q->first_line && !q->last_line)
		buf[0] = '\0';
	else if (q->first_line == q->last_line)
		snprintf(buf, size, "%u", q->first_line);
	else if (q->last_line == UINT_MAX)
		snprintf(buf, size, "%u-", q->first_line);
	else
		snprintf(buf, size, "%u-%u", q->first_line, q->last_line);
}

/*
 * The canonical spelling: module, file, func, format, class, line, then
 * the flags. The kernel takes at most 4 match-specs: over that, the line
 * (else the function) goes into the file word as FILE:LINES (FILE:FUNC),
 * as the kernel reads it; -E2BIG when the query cannot fit at all.
 */
int query_build_canonical(struct ddctl_query *q)
{
	static const enum dd_spec order[] = {
		DD_SPEC_MODULE, DD_SPEC_FILE, DD_SPEC_FUNC, DD_SPEC_FORMAT,
		DD_SPEC_CLASS,
	};
	struct strbuf sb = { 0 };
	char flags[DDCTL_FLAGS_BUFSZ], lines[32];
	const char *file = q->spec[DD_SPEC_FILE], *func = q->spec[DD_SPEC_FUNC];
	bool merge_line = false, merge_func = false;
	size_t i, pairs = 0;
	int r = 0;

	format_lines(q, lines, sizeof(lines));
	for (i = 0; i < ARRAY_SIZE(order); i++)
		pairs += q->spec[order[i]] != NULL;
	pairs += lines[0] != '\0';
	if (pairs > DD_MAXPAIRS && file && !q->negated[DD_SPEC_FILE] &&
	    !strchr(file, ':')) {
		if (lines[0])
			merge_line = true;
		else if (func && !q->negated[DD_SPEC_FUNC] &&
			 (kernel_isalpha((unsigned char)*func) || *func == '*' ||
			  *func == '?'))
			merge_func = true;
		pairs -= merge_line || merge_func;
	}
	if (pairs > DD_MAXPAIRS)
		return -E2BIG;
	for (i = 0; i < ARRAY_SIZE(order) && r == 0; i++) {
		enum dd_spec s = order[i];

		if (!q->spec[s] || (s == DD_SPEC_FUNC && merge_func))
			continue;
		/* strbuf_adds(), not strbuf_addf(): a save restored spells thousands */
		if (q->negated[s])
			r = strbuf_addch(&sb, '!');
		if (r == 0)
			r = strbuf_adds(&sb, spec_names[s]);
		if (r == 0)
			r = strbuf_addch(&sb, ' ');
		if (r == 0 && s == DD_SPEC_FORMAT) {
			r = add_format_word(&sb, q->spec[s]);
		} else if (r == 0 && s == DD_SPEC_FILE && (merge_line || merge_func)) {
			char *word = NULL;

			if (asprintf(&word, "%s:%s", file, merge_line ? lines : func) < 0)
				r = -ENOMEM;
			else
				r = strbuf_add_word(&sb, word);
			free(word);
		} else if (r == 0) {
			r = strbuf_add_word(&sb, q->spec[s]);
		}
		if (r == 0)
			r = strbuf_addch(&sb, ' ');
	}
	if (r == 0 && lines[0] && !merge_line) {
		r = strbuf_adds(&sb, "line ");
		if (r == 0)
			r = strbuf_adds(&sb, lines);
		if (r == 0)
			r = strbuf_addch(&sb, ' ');
	}
	if (r == 0 && q->has_flags) {
		ddctl_flags_format(q->flags, flags);
		flags[0] = q->op;
		if (q->flags == 0)
			flags[1] = '\0';
		r = strbuf_adds(&sb, flags);
	} else if (r == 0 && sb.len) {
		sb.buf[--sb.len] = '\0';
	}
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	free(q->canonical);
	q->canonical = strbuf_steal(&sb);
	return q->canonical ? 0 : -ENOMEM;
}

/* A deep copy of @from into @to. */
int query_copy(struct ddctl_query *to, const struct ddctl_query *from)
{
	int i;

	*to = *from;
	to->text = from->text ? strdup(from->text) : NULL;
	to->canonical = from->canonical ? strdup(from->canonical) : NULL;
	for (i = 0; i < DD_SPEC_NR; i++)
		to->spec[i] = from->spec[i] ? strdup(from->spec[i]) : NULL;
	for (i = 0; i < DD_SPEC_NR; i++)
		if (from->spec[i] && !to->spec[i])
			break;
	if (i < DD_SPEC_NR || (from->text && !to->text) ||
	    (from->canonical && !to->canonical)) {
		query_release(to);
		return -ENOMEM;
	}
	return 0;
}

int query_init(struct ddctl_query *q, char *const spec[DD_SPEC_NR],
	       unsigned int first_line, unsigned int last_line)
{
	int i;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < DD_SPEC_NR; i++)
		q->spec[i] = spec[i];
	q->first_line = first_line;
	q->last_line = last_line;
	return 0;
}

int query_new_parts(struct ddctl_query *q, const char *const spec[DD_SPEC_NR],
		    const bool negated[DD_SPEC_NR], unsigned int first_line,
		    unsigned int last_line)
{
	int i, r;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < DD_SPEC_NR; i++) {
		if (!spec[i])
			continue;
		q->spec[i] = strdup(spec[i]);
		if (!q->spec[i]) {
			query_release(q);
			return -ENOMEM;
		}
		q->negated[i] = negated[i];
	}
	q->first_line = first_line;
	q->last_line = last_line;
	r = query_build_canonical(q);
	if (r < 0)
		query_release(q);
	return r;
}

int query_canonical_with_module(const struct ddctl_query *q,
				const char *module, char **out)
{
	struct ddctl_query c = *q;
	int r;

	c.canonical = NULL;
	c.spec[DD_SPEC_MODULE] = (char *)module;
	c.negated[DD_SPEC_MODULE] = false;
	r = query_build_canonical(&c);
	*out = c.canonical;
	return r;
}

/* Replace match-spec @spec with @value (taken over) and respell the query. */
int query_set_spec(struct ddctl_query *q, enum dd_spec spec, char *value)
{
	free(q->spec[spec]);
	q->spec[spec] = value;
	return query_build_canonical(q);
}

DDCTL_EXPORT const char *ddctl_query_get_text(const struct ddctl_query *query)
{
	return query->text;
}

DDCTL_EXPORT const char *ddctl_query_get_canonical(const struct ddctl_query *query)
{
	return query->canonical;
}

DDCTL_EXPORT bool ddctl_query_is_negated(const struct ddctl_query *query)
{
	int i;

	for (i = 0; i < DD_SPEC_NR; i++)
		if (query->spec[i] && query->negated[i])
			return true;
	return false;
}

int query_parse(const char *text, unsigned int flags, const char *kernel,
		struct ddctl_query *q, struct query_error *e)
{
	struct parser p = { .accepted = dd_flags_of_release(kernel), .kernel = kernel };
	char *work;
	int r;

	memset(q, 0, sizeof(*q));
	memset(e, 0, sizeof(*e));
	q->text = strdup(text);
	work = strdup(text);
	if (!q->text || !work) {
		free(work);
		query_release(q);
		return -ENOMEM;
	}
	r = parse_query(&p, work, flags, q);
	free(work);
	if (r == 0)
		r = query_build_canonical(q);
	if (r == -E2BIG)
		r = fail(&p, NULL, "the kernel takes at most %d match-specs: file F:LINE and line, or file F:FUNC and func, cannot both be kept in one query",
			 DD_MAXPAIRS);
	/* one query is one write: the kernel reads at most 4095 bytes */
	if (r == 0 && !(flags & DDCTL_PARSE_MATCH_ONLY) &&
	    strlen(q->canonical) + 1 > DD_WRITE_MAX)
		r = fail(&p, NULL, "the query is %zu bytes; the kernel reads at most %d in one write",
			 strlen(q->canonical) + 1, DD_WRITE_MAX);
	e->column = p.err_column;
	e->word = p.err_word;
	e->msg = p.err_msg;
	if (r < 0)
		query_release(q);
	return r;
}
