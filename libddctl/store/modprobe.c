// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The configuration of modules loaded later: the queries written as
 * dyndbg= options to /etc/modprobe.d/ddctl.conf, and the modules it names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libkmod.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "store/modprobe.h"
#include "model/wildcard.h"
#include "util/read-file.h"
#include "util/strbuf.h"
#include "util/util.h"

#define DDCTL_MODPROBE_FILE "/etc/modprobe.d/ddctl.conf"

/* Queries that name exactly one module, as "options M dyndbg=..." lines. */
int modprobe_options_text(struct ddctl_queryset *set, struct strbuf *sb)
{
	const struct ddctl_query *q, *p;
	char *text = NULL;
	size_t i, j;
	int r = 0;

	for (i = 0; !r && i < set->count; i++) {
		const char *m = set->queries[i].spec[DD_SPEC_MODULE];
		bool seen = false;
		unsigned int n = 0;

		q = &set->queries[i];
		if (!m || q->negated[DD_SPEC_MODULE] || dd_has_wildcard(m)) {
			dbg(set->ctx, "\"%s\" names no single module: not persisted\n",
			    q->canonical);
			continue;
		}
		for (j = 0; j < i && !seen; j++) {
			p = &set->queries[j];
			seen = p->spec[DD_SPEC_MODULE] && !p->negated[DD_SPEC_MODULE] &&
			       !strcmp(p->spec[DD_SPEC_MODULE], m);
		}
		if (seen)
			continue;
		r = strbuf_addf(sb, "options %s dyndbg=\"", m);
		for (j = i; !r && j < set->count; j++) {
			p = &set->queries[j];
			if (!p->spec[DD_SPEC_MODULE] || p->negated[DD_SPEC_MODULE] ||
			    strcmp(p->spec[DD_SPEC_MODULE], m))
				continue;
			r = query_canonical_with_module(p, NULL, &text);
			if (!r && strchr(text, '"'))
				err(set->ctx, "\"%s\" has a '\"': not persisted\n",
				    p->canonical);
			else if (!r)
				r = strbuf_addf(sb, "%s%s", n++ ? "; " : "", text);
			free(text);
		}
		if (!r)
			r = strbuf_adds(sb, "\"\n");
	}
	return r;
}

static const char *modprobe_path(struct ddctl_ctx *ctx, char **buf)
{
	if (asprintf(buf, "%s%s", ctx_get_config_root(ctx), DDCTL_MODPROBE_FILE) < 0)
		*buf = NULL;
	return *buf;
}

DDCTL_EXPORT int ddctl_config_format_modprobe(struct ddctl_queryset *set,
					      char **text)
{
	struct strbuf sb = { 0 };
	int r;

	r = strbuf_adds(&sb, "# written by ddctl persist from ddctl.d: do not edit\n");
	if (!r)
		r = modprobe_options_text(set, &sb);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

DDCTL_EXPORT int ddctl_config_write_modprobe(struct ddctl_queryset *set,
					     const char *path)
{
	char *def = NULL, *text = NULL;
	int r;

	if (!path)
		path = modprobe_path(set->ctx, &def);
	r = path ? ddctl_config_format_modprobe(set, &text) : -ENOMEM;
	if (!r)
		r = ddctl_file_write(set->ctx, path, text, strlen(text), 0);
	free(text);
	free(def);
	return r;
}

/* The file ddctl persist writes, or NULL. */
static char *read_own(struct ddctl_ctx *ctx, char **path)
{
	char *text = NULL;

	if (modprobe_path(ctx, path))
		read_full_file(*path, 0, &text, NULL);
	return text;
}

/* Does @text hold the line "options @module @value"? */
static bool is_own(const char *text, const char *module, const char *value)
{
	char *line;
	bool found;

	if (!text || asprintf(&line, "\noptions %s %s\n", module, value) < 0)
		return false;
	found = strstr(text, line) != NULL;
	free(line);
	return found;
}

DDCTL_EXPORT int ddctl_module_foreach_persistent(
	struct ddctl_ctx *ctx,
	int (*fn)(const char *module, const char *options, const char *source,
		  void *data),
	void *data)
{
	static const char *const dirs[] = {
		"/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d",
		"/lib/modprobe.d", "/usr/lib/modprobe.d",
	};
	const char *root = ctx_get_config_root(ctx);
	char *paths[ARRAY_SIZE(dirs) + 1] = { 0 };
	struct kmod_config_iter *it;
	struct kmod_ctx *kmod;
	char *own, *own_path = NULL;
	size_t i;
	int r = 0;

	for (i = 0; *root && i < ARRAY_SIZE(dirs); i++)
		if (asprintf(&paths[i], "%s%s", root, dirs[i]) < 0)
			r = -ENOMEM;
	kmod = r ? NULL : kmod_new(NULL, *root ? (const char *const *)paths : NULL);
	it = kmod ? kmod_config_get_options(kmod) : NULL;
	if (!r && !it)
		r = -ENOMEM;
	own = r ? NULL : read_own(ctx, &own_path);
	while (!r && kmod_config_iter_next(it)) {
		const char *k = kmod_config_iter_get_key(it);
		const char *v = kmod_config_iter_get_value(it);

		if (strstr(v, "dyndbg"))
			r = fn(k, v, is_own(own, k, v) ? own_path : "modprobe.d",
			       data);
	}
	free(own);
	free(own_path);
	kmod_config_iter_free_iter(it);
	kmod_unref(kmod);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		free(paths[i]);
	return r;
}
