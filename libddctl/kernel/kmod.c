// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Module names through libkmod: normalisation, aliases, loaded modules and
 * the modules the running kernel could load; a set for the loaded modules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkmod.h>

#include "core/ctx.h"
#include "kernel/kmod.h"
#include "model/index.h"
#include "model/queryset.h"
#include "model/wildcard.h"

DDCTL_EXPORT int ddctl_module_normalize(const char *name, char *buf,
					size_t size)
{
	size_t i, len = strlen(name);

	if (len >= size)
		return -ENAMETOOLONG;
	for (i = 0; i <= len; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	return 0;
}

/* The context's libkmod, made on first use. */
int ctx_kmod(struct ddctl_ctx *ctx, struct kmod_ctx **out)
{
	struct kmod_ctx *kmod = ctx_get_kmod(ctx);

	if (!kmod) {
		const char *root = ctx_get_config_root(ctx);
		char dirs[3][4096];
		const char *paths[] = { dirs[0], dirs[1], dirs[2], NULL };

		/* modprobe.d below the configuration root too (tests, images) */
		snprintf(dirs[0], sizeof(dirs[0]), "%s/etc/modprobe.d", root);
		snprintf(dirs[1], sizeof(dirs[1]), "%s/run/modprobe.d", root);
		snprintf(dirs[2], sizeof(dirs[2]), "%s/lib/modprobe.d", root);
		kmod = kmod_new(NULL, *root ? paths : NULL);
		if (!kmod)
			return -ENOMEM;
		kmod_set_log_priority(kmod, 0);
		/*
		 * The indexes mapped once, not opened again by every
		 * lookup; without them (no module directory) libkmod
		 * falls back to its per-lookup reads.
		 */
		(void)kmod_load_resources(kmod);
		ctx_set_kmod(ctx, kmod);
	}
	*out = kmod;
	return 0;
}

DDCTL_EXPORT int ddctl_module_resolve(struct ddctl_ctx *ctx, const char *name,
				      char **module)
{
	struct kmod_list *list = NULL;
	struct kmod_module *mod;
	struct kmod_ctx *kmod;
	int r;

	r = ctx_kmod(ctx, &kmod);
	if (r < 0)
		return r;
	r = kmod_module_new_from_lookup(kmod, name, &list);
	if (r < 0 || !list) {
		kmod_module_unref_list(list);
		return r < 0 ? r : -ENOENT;
	}
	mod = kmod_module_get_module(list);
	*module = strdup(kmod_module_get_name(mod));
	kmod_module_unref(mod);
	kmod_module_unref_list(list);
	if (!*module)
		return -ENOMEM;
	return ddctl_module_normalize(*module, *module, strlen(*module) + 1);
}

DDCTL_EXPORT int ddctl_queryset_resolve_aliases(struct ddctl_queryset *set,
					       struct ddctl_table *table,
					       struct ddctl_queryset **out)
{
	struct ddctl_queryset *copy = NULL;
	size_t i;
	int r = 0;

	for (i = 0; !r && i < set->count; i++) {
		const struct ddctl_query *q = &set->queries[i];
		const char *word = q->spec[DD_SPEC_MODULE];
		char *name = NULL;

		if (!word || q->negated[DD_SPEC_MODULE] || dd_has_wildcard(word) ||
		    index_has_value(table, DD_KEY_MODULE, word) ||
		    ddctl_module_resolve(set->ctx, word, &name) < 0)
			continue;
		if (strcmp(name, word)) {
			info(set->ctx, "query %zu: %s is an alias of module %s\n",
			     i + 1, word, name);
			if (!copy)
				r = queryset_copy(set, &copy);
			if (!r) {
				r = queryset_set_spec(copy, i, DD_SPEC_MODULE, name);
				name = NULL;
			}
		}
		free(name);
	}
	if (r < 0) {
		ddctl_queryset_unref(copy);
		return r;
	}
	*out = copy ? copy : ddctl_queryset_ref(set);
	return 0;
}

DDCTL_EXPORT int ddctl_module_foreach_loaded(struct ddctl_ctx *ctx,
					     int (*fn)(const char *name,
						       void *data),
					     void *data)
{
	struct kmod_list *list = NULL, *l;
	struct kmod_ctx *kmod;
	int r;

	r = ctx_kmod(ctx, &kmod);
	if (r < 0)
		return r;
	r = kmod_module_new_from_loaded(kmod, &list);
	if (r < 0)
		return r;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);

		r = fn(kmod_module_get_name(mod), data);
		kmod_module_unref(mod);
		if (r)
			break;
	}
	kmod_module_unref_list(list);
	return r;
}

/* "kernel/drivers/net/virtio-net.ko.xz: deps" -> "virtio_net" */
static int module_name_from_path(const char *line, char *buf, size_t size)
{
	size_t len = strcspn(line, ":\n");
	const char *base = line + len, *ko;

	while (base > line && base[-1] != '/')
		base--;
	len -= (size_t)(base - line);
	ko = memmem(base, len, ".ko", 3);
	if (ko)
		len = (size_t)(ko - base);
	if (len == 0 || len >= size)
		return -EINVAL;
	memcpy(buf, base, len);
	buf[len] = '\0';
	return ddctl_module_normalize(buf, buf, size);
}

static int foreach_in_index(const char *dir, const char *index,
			    int (*fn)(const char *name, void *data), void *data)
{
	char path[4096], name[256], *line = NULL;
	size_t alloc = 0;
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, index);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!r && getline(&line, &alloc, f) > 0)
		if (module_name_from_path(line, name, sizeof(name)) == 0)
			r = fn(name, data);
	free(line);
	fclose(f);
	return r;
}

DDCTL_EXPORT int ddctl_module_foreach_available(struct ddctl_ctx *ctx,
						int (*fn)(const char *name,
							  void *data),
						void *data)
{
	struct kmod_ctx *kmod;
	const char *dir;
	int r, r2;

	r = ctx_kmod(ctx, &kmod);
	if (r < 0)
		return r;
	dir = kmod_get_dirname(kmod);
	if (!dir)
		return -ENOENT;
	r = foreach_in_index(dir, "modules.dep", fn, data);
	if (r && r != -ENOENT)
		return r;
	r2 = foreach_in_index(dir, "modules.builtin", fn, data);
	if (r2 && r2 != -ENOENT)
		return r2;
	return r && r2 ? -ENOENT : 0;
}

struct for_loaded {
	struct ddctl_queryset *set, *out;
};

static int append_for_module(const char *module, void *data)
{
	struct for_loaded *fl = data;
	struct ddctl_queryset *one = NULL;
	size_t i;
	int r = ddctl_queryset_new_for_module(fl->set, module, &one);

	for (i = 0; !r && i < one->count; i++)
		r = ddctl_queryset_parse(fl->out, one->queries[i].canonical, 0);
	ddctl_queryset_unref(one);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new_for_loaded(struct ddctl_queryset *set,
					       struct ddctl_queryset **out)
{
	struct for_loaded fl = { set, NULL };
	int r = ddctl_queryset_new(set->ctx, &fl.out);

	if (!r)
		r = ddctl_module_foreach_loaded(set->ctx, append_for_module, &fl);
	if (r < 0) {
		ddctl_queryset_unref(fl.out);
		return r;
	}
	*out = fl.out;
	return 0;
}
