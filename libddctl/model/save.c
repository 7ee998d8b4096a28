// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Saved settings: a state written as the query script that brings the
 * default state (every flag off) to it, and the set that restores such a
 * script exactly.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "model/restore.h"
#include "model/save.h"
#include "model/table.h"
#include "model/wildcard.h"
#include "util/strbuf.h"

/*
 * No ';' in the header: it separates queries even inside a comment. The
 * header says that an end line follows (DDCTL_SAVE_MAGIC_ENDED), so that
 * restore can refuse a script cut short and still read older ones.
 */
#define SAVE_HEADER                                                         \
	DDCTL_SAVE_MAGIC_ENDED " the callsites whose flags\n"                \
	"# differ from the default (=_). Restoring it brings a system to\n" \
	"# exactly this state: callsites not named here are switched off.\n" \
	"# An end marker closes it: without one the script was cut short.\n"

static int cmp_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/* Sites a query names together: the same module, file, line, function, format, class. */
static int identity_cmp(const struct ddctl_site *x, const struct ddctl_site *y)
{
	int c = strcmp(x->module, y->module);

	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = x->line < y->line ? -1 : x->line > y->line;
	if (!c)
		c = strcmp(x->function, y->function);
	if (!c)
		c = strcmp(x->format, y->format);
	return c ? c : cmp_str(x->class_name, y->class_name);
}

static int cmp_by_identity(const void *a, const void *b, void *data)
{
	const struct ddctl_site *sites = data;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = identity_cmp(&sites[i], &sites[j]);

	return c ? c : (i > j) - (i < j);
}

/*
 * A site the script leaves out: a warning, and a
 * comment in the script (none when a name holds ';' or a newline, which
 * would end the comment).
 */
static int left_out(struct ddctl_table *t, size_t i, const char *why,
		    struct strbuf *notes)
{
	const struct ddctl_site *s = &t->sites[i];
	char flags[DDCTL_FLAGS_BUFSZ];

	ddctl_flags_format(s->flags, flags);
	warn(t->ctx, "warning: %s:%u [%s]%s %s: %s\n", s->file, s->line,
	     s->module, s->function, flags, why);
	if (strpbrk(s->file, ";\n") || strpbrk(s->module, ";\n") ||
	    strpbrk(s->function, ";\n"))
		return 0;
	return strbuf_addf(notes, "# %s:%u [%s]%s %s: %s\n", s->file, s->line,
			   s->module, s->function, flags, why);
}

/*
 * The state a script can give: every site as in @table, except those no
 * query can give their flags, each reported (left_out()): a class the
 * kernel does not name, or a module name with wildcard characters (no
 * query names them); sites of one identity with different flags (a query names all or none
 * of them). Those are left at the default.
 */
static int saveable_state(struct ddctl_table *table, struct ddctl_table **out,
			  struct strbuf *notes)
{
	struct ddctl_table *t;
	size_t i, j, k, *idx;
	int r = table_derive(table, &t);

	if (r < 0)
		return r;
	idx = malloc((t->count + 1) * sizeof(*idx));
	if (!idx) {
		ddctl_table_unref(t);
		return -ENOMEM;
	}
	for (i = 0; !r && i < t->count; i++) {
		const struct ddctl_site *s = &t->sites[i];

		idx[i] = i;
		if (!s->flags)
			continue;
		if ((s->class_name && !*s->class_name) || dd_has_wildcard(s->module)) {
			r = left_out(t, i, s->class_name && !*s->class_name ?
				     "its class is unknown to the kernel: no query can name it, not saved" :
				     "its module's name has wildcard characters: no query can name it, not saved",
				     notes);
			table_set_site_flags(t, i, 0);
		}
	}
	qsort_r(idx, t->count, sizeof(*idx), cmp_by_identity, t->sites);
	for (i = 0; !r && i < t->count; i = j) {
		bool differ = false;

		for (j = i + 1; j < t->count &&
		     !identity_cmp(&t->sites[idx[i]], &t->sites[idx[j]]); j++)
			differ |= t->sites[idx[j]].flags != t->sites[idx[i]].flags;
		for (k = i; differ && !r && k < j; k++) {
			if (t->sites[idx[k]].flags)
				r = left_out(t, idx[k], "another site has its identity and other flags: no query can name it alone, not saved",
					     notes);
			table_set_site_flags(t, idx[k], 0);
		}
	}
	free(idx);
	if (r < 0) {
		ddctl_table_unref(t);
		return r;
	}
	*out = t;
	return 0;
}

DDCTL_EXPORT int ddctl_table_format_script(struct ddctl_table *table, char **text)
{
	struct ddctl_table *zero = NULL, *want = NULL;
	struct ddctl_queryset *set = NULL;
	struct strbuf sb = { 0 }, notes = { 0 };
	int r;

	r = ddctl_table_new_with_flags(table, 0, &zero);
	if (!r)
		r = saveable_state(table, &want, &notes);
	if (!r)
		r = ddctl_queryset_new_restore(table->ctx, zero, want, &set);
	if (!r)
		r = strbuf_adds(&sb, SAVE_HEADER);
	if (!r && notes.len)
		r = strbuf_adds(&sb, notes.buf);
	if (!r)
		r = queryset_format(set, &sb);
	if (!r)
		r = strbuf_adds(&sb, DDCTL_SAVE_END "\n");
	ddctl_queryset_unref(set);
	ddctl_table_unref(want);
	ddctl_table_unref(zero);
	strbuf_release(&notes);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

/*
 * The boot snapshot: the script, and before its end line the modules the
 * table has, "# modules: a b c" lines, so that reset knows which modules
 * loaded after it (their defaults are not in the script).
 */
static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int snapshot_modules(const char *text, char ***modules, size_t *n)
{
	const char *line, *p, *eol;
	char **v = NULL, **tmp;
	size_t len = strlen(SNAPSHOT_MODULES), k = 0, w;

	for (line = text; line && *line; line = *eol ? eol + 1 : NULL) {
		eol = line + strcspn(line, "\n");
		if ((size_t)(eol - line) < len || strncmp(line, SNAPSHOT_MODULES, len))
			continue;
		for (p = line + len; p < eol; p += w) {
			p += strspn(p, " ");
			w = strcspn(p, " \n");
			if (!w)
				break;
			tmp = realloc(v, (k + 2) * sizeof(*v));
			if (!tmp || !(tmp[k] = strndup(p, w))) {
				v = tmp ? tmp : v;
				while (k--)
					free(v[k]);
				free(v);
				return -ENOMEM;
			}
			v = tmp;
			k++;
		}
	}
	if (!k)
		return -ENODATA;
	qsort(v, k, sizeof(*v), cmp_strp);
	*modules = v;
	*n = k;
	return 0;
}

bool snapshot_has_module(char **modules, size_t n, const char *module)
{
	return bsearch(&module, modules, n, sizeof(*modules), cmp_strp) != NULL;
}

DDCTL_EXPORT int ddctl_table_format_snapshot(struct ddctl_table *table, char **text)
{
	const char **names = malloc((table->count + 1) * sizeof(*names));
	struct strbuf sb = { 0 };
	size_t i, col = 0, end, n = table->count;
	char *script = NULL;
	int r = names ? ddctl_table_format_script(table, &script) : -ENOMEM;

	if (r < 0) {
		free(names);
		return r;
	}
	for (i = 0; i < n; i++)
		names[i] = table->sites[i].module;
	qsort(names, n, sizeof(*names), cmp_strp);
	end = strlen(script) - strlen(DDCTL_SAVE_END "\n");
	r = strbuf_add(&sb, script, end);
	for (i = 0; !r && i < n; i++) {
		const char *m = names[i];

		if ((i && !strcmp(names[i - 1], m)) || strpbrk(m, " \t\n;"))
			continue; /* listed already, or not a name a line can hold */
		if (!col || col + strlen(m) > 72) {
			r = strbuf_addf(&sb, "%s" SNAPSHOT_MODULES, col ? "\n" : "");
			col = strlen(SNAPSHOT_MODULES);
		}
		if (!r)
			r = strbuf_addf(&sb, "%s%s", col > strlen(SNAPSHOT_MODULES) ? " " : "", m);
		col += strlen(m) + 1;
	}
	if (!r)
		r = strbuf_addf(&sb, "%s%s", col ? "\n" : "", script + end);
	free(script);
	free(names);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

DDCTL_EXPORT int ddctl_table_new_from_script(struct ddctl_table *table,
					     struct ddctl_queryset *script,
					     struct ddctl_table **out)
{
	struct ddctl_table *zero = NULL;
	struct ddctl_plan *plan = NULL;
	int r;

	r = ddctl_table_new_with_flags(table, 0, &zero);
	if (!r)
		r = ddctl_plan_new(script, zero, &plan);
	if (!r)
		r = ddctl_table_new_from_plan(plan, out);
	ddctl_plan_unref(plan);
	ddctl_table_unref(zero);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new_from_script(struct ddctl_ctx *ctx,
						struct ddctl_table *now,
						struct ddctl_queryset *script,
						struct ddctl_queryset **out)
{
	struct ddctl_table *want = NULL;
	int r;

	r = ddctl_table_new_from_script(now, script, &want);
	if (!r)
		r = restore_set_now(ctx, now, want, out);
	ddctl_table_unref(want);
	return r;
}
