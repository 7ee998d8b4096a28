// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel command line's dynamic debug words: a set written as
 * dyndbg="..." and MODULE.dyndbg="..." words, and those words read back
 * from a command line. The rules are the kernel's: lib/cmdline.c's
 * next_arg() splits the line at blanks outside double quotes (a '"'
 * toggles quoting wherever it is and there is no escape; the value's
 * first and last '"' are dropped), parse_args() stops at "--", and
 * lib/dynamic_debug.c runs each dyndbg value (a bare one is "+p") through
 * ddebug_exec_queries(), with MODULE as the module of every query that
 * names none (built-in code at boot; kmod's modprobe hands the words on
 * to a module it loads).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "model/wildcard.h"
#include "util/strbuf.h"
#include "util/util.h"

/*
 * One word of a query (the kernel's tokenizer: quoted with ' or ", else up
 * to a blank) into @sb, quoted with ' when the kernel's tokenizer needs it:
 * inside the command line's double quotes a '"' cannot appear at all.
 */
static int add_word(struct strbuf *sb, const char *word, size_t len,
		    const char **reason)
{
	bool quote = !len || *word == '#';
	size_t i;

	for (i = 0; i < len; i++) {
		if (word[i] == '"') {
			*reason = "it holds a '\"', which ends the value on the kernel command line (there is no escape)";
			return -EINVAL;
		}
		quote |= dd_isspace((unsigned char)word[i]);
	}
	if (quote && memchr(word, '\'', len)) {
		*reason = "a word with both a blank and a ' cannot be quoted inside the command line's double quotes";
		return -EINVAL;
	}
	if (!quote)
		return strbuf_add(sb, word, len);
	if (strbuf_addch(sb, '\'') < 0 || strbuf_add(sb, word, len) < 0)
		return -ENOMEM;
	return strbuf_addch(sb, '\'');
}

/* A canonical query respelled for the inside of dyndbg="...". */
static int add_query(struct strbuf *sb, const char *text, const char **reason)
{
	const char *p = text, *end;
	int r = 0;

	while (!r && *p) {
		while (dd_isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '"' || *p == '\'') {
			end = strchr(p + 1, *p);
			if (!end)
				return -ENOTRECOVERABLE; /* canonical text is balanced */
			r = add_word(sb, p + 1, (size_t)(end - p - 1), reason);
			p = end + 1;
		} else {
			for (end = p; *end && !dd_isspace((unsigned char)*end); end++)
				;
			r = add_word(sb, p, (size_t)(end - p), reason);
			p = end;
		}
		if (!r && *p)
			r = strbuf_addch(sb, ' ');
	}
	return r;
}

/* A module match-spec that can be MODULE.dyndbg's prefix (NULL: none). */
static const char *word_module(const struct ddctl_query *q)
{
	const char *m = q->spec[DD_SPEC_MODULE];

	if (!m || q->negated[DD_SPEC_MODULE] || dd_has_wildcard(m) ||
	    strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(m))
		return NULL;
	return m;
}

static bool same_module(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* "MODULE.dyndbg=" (with '-' as '_', the name the kernel matches) or "dyndbg=". */
static int add_param(struct strbuf *sb, const char *module)
{
	const char *p;
	int r = 0;

	for (p = module; p && *p && !r; p++)
		r = strbuf_addch(sb, *p == '-' ? '_' : *p);
	if (!r)
		r = strbuf_adds(sb, module ? ".dyndbg=\"" : "dyndbg=\"");
	return r;
}

DDCTL_EXPORT int ddctl_queryset_format_cmdline(struct ddctl_queryset *set,
					       unsigned int flags, char **text,
					       size_t *bad, const char **reason)
{
	struct strbuf sb = { 0 };
	const char *open = NULL, *why = NULL;
	char *q_text = NULL;
	bool in_word = false;
	size_t i;
	int r = strbuf_adds(&sb, "");

	for (i = 0; !r && i < set->count; i++) {
		const struct ddctl_query *q = &set->queries[i];
		const char *m = word_module(q);

		if (ddctl_query_is_negated(q) && !(flags & DDCTL_CMDLINE_NEGATION))
			why = "negation: the kernel reads the command line itself, and it has no negation (ddctl expands it only in what it writes)";
		else if (!q->has_flags)
			why = "it has no flags";
		if (why) {
			r = -EINVAL;
			break;
		}
		*bad = i;
		/* consecutive queries of one module share a word: the order stays */
		if (in_word && same_module(open, m)) {
			r = strbuf_adds(&sb, "; ");
		} else {
			if (in_word)
				r = strbuf_adds(&sb, "\" ");
			if (!r)
				r = add_param(&sb, m);
			open = m;
			in_word = true;
		}
		if (!r && m) /* the word names the module */
			r = query_canonical_with_module(q, NULL, &q_text);
		else if (!r)
			r = (q_text = strdup(q->canonical)) ? 0 : -ENOMEM;
		if (!r)
			r = add_query(&sb, q_text, &why);
		free(q_text);
		q_text = NULL;
		if (r == -EINVAL)
			break;
	}
	if (!r && in_word)
		r = strbuf_addch(&sb, '"');
	if (r < 0) {
		strbuf_release(&sb);
		if (r == -EINVAL) {
			*bad = i;
			*reason = why;
		}
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

/*
 * lib/cmdline.c's next_arg(): @args cut in place into @param and @val
 * (NULL without '='); the rest of the line.
 */
static char *next_arg(char *args, char **param, char **val)
{
	size_t i, equals = 0;
	bool in_quote = false, quoted = false;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (dd_isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (!equals && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	*val = NULL;
	if (equals) {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i])
		args[i++] = '\0';
	args += i;
	while (dd_isspace((unsigned char)*args))
		args++;
	return args;
}

/* @value's queries, each with @module when it names none, appended to @set. */
static int add_value(struct ddctl_queryset *set, const char *module, const char *value)
{
	struct ddctl_queryset *v = NULL;
	char *text = NULL;
	size_t i, before = set->count;
	int r = ddctl_queryset_new(set->ctx, &v);

	if (!r)
		r = ddctl_queryset_parse(v, value, 0);
	for (i = 0; !r && i < v->count; i++) {
		const struct ddctl_query *q = &v->queries[i];

		if (module && !q->spec[DD_SPEC_MODULE])
			r = query_canonical_with_module(q, module, &text);
		else
			r = (text = strdup(q->canonical)) ? 0 : -ENOMEM;
		if (!r)
			r = ddctl_queryset_parse(set, text, 0);
		free(text);
		text = NULL;
	}
	if (r < 0)
		queryset_truncate(set, before);
	ddctl_queryset_unref(v);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_parse_cmdline(struct ddctl_queryset *set,
					      const char *cmdline, size_t *words)
{
	char *copy = strdup(cmdline), *args = copy, *param, *val, *dot;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	*words = 0;
	while (dd_isspace((unsigned char)*args))
		args++;
	while (*args && r != -ENOMEM) {
		args = next_arg(args, &param, &val);
		if (!val && !strcmp(param, "--"))
			break; /* the rest is init's */
		dot = strchr(param, '.');
		if (dot)
			*dot = '\0';
		if (strcmp(dot ? dot + 1 : param, "dyndbg"))
			continue;
		r = add_value(set, dot ? param : NULL, val ? val : "+p");
		*words += r == 0; /* a word the kernel refuses sets nothing */
	}
	free(copy);
	return r == -ENOMEM ? r : 0;
}
