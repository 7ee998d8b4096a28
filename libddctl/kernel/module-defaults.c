// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A module's own defaults, its state right after it loads before any
 * configuration: the flags compiled into its object, found through
 * libkmod (modules.dep) and read from its __dyndbg section
 * (model/ko-dyndbg.c), checked against the loaded sites.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBLZMA
#include <lzma.h>
#endif

#include "core/ctx.h"
#include "kernel/kmod.h"
#include "kernel/module-defaults.h"
#include "model/ko-dyndbg.h"
#include "model/restore.h"
#include "model/save.h"
#include "model/table.h"
#include "util/read-file.h"

#define OBJECT_MAX (64U << 20) /* as read_full_file()'s bound */

static bool is_xz(const char *buf, size_t len)
{
	return len >= 6 && !memcmp(buf, "\3757zXZ\0", 6);
}

/* zstd and gzip: modules compressed by the distribution, not read */
static bool compressed(const char *buf, size_t len)
{
	return is_xz(buf, len) || (len >= 4 && !memcmp(buf, "\050\265\057\375", 4)) ||
	       (len >= 2 && !memcmp(buf, "\037\213", 2));
}

int module_object_unxz(const char *in, size_t len, char **out, size_t *outlen)
{
#ifdef HAVE_LIBLZMA
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = 0;
	char *buf = NULL, *tmp;
	lzma_ret ret = lzma_stream_decoder(&s, UINT64_MAX, 0);

	if (ret != LZMA_OK)
		return -ENOMEM;
	s.next_in = (const uint8_t *)in;
	s.avail_in = len;
	do {
		if (!s.avail_out) {
			size_t used = cap - s.avail_out;

			cap = cap ? cap * 2 : len * 4 + 4096;
			tmp = cap <= 2 * (size_t)OBJECT_MAX ? realloc(buf, cap) : NULL;
			if (!tmp) {
				ret = LZMA_MEM_ERROR;
				break;
			}
			buf = tmp;
			s.next_out = (uint8_t *)buf + used;
			s.avail_out = cap - used;
		}
		ret = lzma_code(&s, LZMA_FINISH);
	} while (ret == LZMA_OK);
	*outlen = cap - s.avail_out;
	lzma_end(&s);
	if (ret != LZMA_STREAM_END || *outlen > OBJECT_MAX) {
		free(buf);
		return ret == LZMA_MEM_ERROR ? -ENOMEM : -EBADMSG;
	}
	*out = buf;
	return 0;
#else
	(void)in;
	(void)len;
	(void)out;
	(void)outlen;
	return -EOPNOTSUPP;
#endif
}

/* The object of @module, as libkmod finds it for the running kernel. */
static int read_object(struct ddctl_ctx *ctx, const char *module, char **buf, size_t *len)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *kmod;
	const char *path;
	int r = ctx_kmod(ctx, &kmod);

	if (!r)
		r = kmod_module_new_from_name(kmod, module, &mod);
	path = r ? NULL : kmod_module_get_path(mod);
	if (!r && !path)
		r = -ENOENT;
	if (!r)
		r = read_full_file(path, 0, buf, len);
	if (!r && is_xz(*buf, *len)) {
		char *plain = NULL;

		r = module_object_unxz(*buf, *len, &plain, len);
		free(*buf);
		*buf = plain;
		if (r == -EOPNOTSUPP)
			dbg(ctx, "%s: compressed with xz, and ddctl is built without liblzma\n", path);
	} else if (!r && compressed(*buf, *len)) {
		dbg(ctx, "%s: compressed: its defaults are not read\n", path);
		free(*buf);
		*buf = NULL;
		r = -EOPNOTSUPP;
	}
	kmod_module_unref(mod);
	return r;
}

DDCTL_EXPORT int ddctl_table_set_module_defaults(struct ddctl_table *table,
						 const char *module)
{
	unsigned int *lines = calloc(table->count + 1, sizeof(*lines));
	unsigned int *flags = calloc(table->count + 1, sizeof(*flags));
	size_t *idx = calloc(table->count + 1, sizeof(*idx));
	size_t i, n = 0, len = 0;
	char *obj = NULL;
	int r = lines && flags && idx ? 0 : -ENOMEM;

	for (i = 0; !r && i < table->count; i++) {
		if (strcmp(table->sites[i].module, module))
			continue;
		lines[n] = table->sites[i].line;
		idx[n++] = i;
	}
	if (!r)
		r = read_object(table->ctx, module, &obj, &len);
	if (!r)
		r = ko_dyndbg_flags(obj, len, lines, n, flags);
	for (i = 0; !r && i < n; i++)
		table_set_site_flags(table, idx[i], flags[i]);
	if (r == -EBADMSG || r == -ENOEXEC)
		dbg(table->ctx, "%s: its object does not match its %zu loaded sites\n", module, n);
	free(obj);
	free(lines);
	free(flags);
	free(idx);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new_module_defaults(struct ddctl_table *now,
						    const char *module,
						    struct ddctl_queryset **set)
{
	struct ddctl_table *want = NULL;
	int r = table_derive(now, &want);

	if (!r)
		r = ddctl_table_set_module_defaults(want, module);
	if (!r)
		r = ddctl_queryset_new_restore(now->ctx, now, want, set);
	ddctl_table_unref(want);
	return r;
}

static void leave_as_now(struct ddctl_table *now, struct ddctl_table *want,
			 const char *module, int why)
{
	size_t k;

	warn(now->ctx, "warning: module %s loaded after the boot snapshot and its defaults are unknown (%s): its callsites are left as they are\n",
	     module, why == -EOPNOTSUPP ? "its object is compressed" :
		     why == -ENOENT ? "no object of it was found" :
		     "its object does not match the loaded callsites");
	for (k = 0; k < now->count; k++)
		if (!strcmp(now->sites[k].module, module))
			table_set_site_flags(want, k, now->sites[k].flags);
}

/* Sites of modules the snapshot does not list: their defaults, else as now. */
static int later_modules_defaults(struct ddctl_table *now, struct ddctl_table *want,
				  char **listed, size_t nlisted)
{
	const char **done = NULL, **tmp;
	size_t i, k, ndone = 0;
	int r = 0;

	for (i = 0; !r && i < now->count; i++) {
		const char *m = now->sites[i].module;

		if ((i && !strcmp(now->sites[i - 1].module, m)) ||
		    snapshot_has_module(listed, nlisted, m))
			continue;
		for (k = 0; k < ndone && strcmp(done[k], m); k++)
			;
		if (k < ndone)
			continue;
		tmp = realloc(done, (ndone + 1) * sizeof(*done));
		if (!tmp) {
			r = -ENOMEM;
			break;
		}
		done = tmp;
		done[ndone++] = m;
		r = ddctl_table_set_module_defaults(want, m);
		if (r < 0 && r != -ENOMEM) {
			leave_as_now(now, want, m, r);
			r = 0;
		}
	}
	free(done);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new_from_snapshot(struct ddctl_ctx *ctx,
						  struct ddctl_table *now,
						  struct ddctl_queryset *script,
						  const char *text,
						  struct ddctl_queryset **out)
{
	struct ddctl_table *want = NULL;
	char **listed = NULL;
	size_t i, n = 0;
	int r = snapshot_modules(text, &listed, &n);

	if (r == -ENODATA) /* an older snapshot: the script alone */
		return ddctl_queryset_new_from_script(ctx, now, script, out);
	if (!r)
		r = ddctl_table_new_from_script(now, script, &want);
	if (!r)
		r = later_modules_defaults(now, want, listed, n);
	if (!r)
		r = restore_set_now(ctx, now, want, out);
	ddctl_table_unref(want);
	for (i = 0; i < n; i++)
		free(listed[i]);
	free(listed);
	return r;
}
