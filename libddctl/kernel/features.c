// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Kernel features without noise in the kernel log. A kernel with the dyndbg
 * netlink family (kernel-patches/ part 2, uapi v3) has transactions, and
 * negation when its GET_FEATURES says DYNDBG_FEATURE_NEGATE: no write
 * needed. Elsewhere negation is found by writing a probe the kernel
 * refuses (and logs) when it lacks negation: done at most once per boot,
 * the answer kept in RUN_DIR/features keyed by the boot id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "kernel/control.h"
#include "kernel/dyndbg.h"
#include "kernel/features.h"
#include "kernel/netlink.h"
#include "util/write-file.h"

#define BOOT_ID "/proc/sys/kernel/random/boot_id"

static int read_boot_id(char *buf, size_t size)
{
	FILE *f = fopen(BOOT_ID, "re");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (!ok)
		return -ENOENT;
	buf[strcspn(buf, "\n")] = '\0';
	return *buf ? 0 : -ENOENT;
}

/* 1 or 0 as cached in @dir for boot @boot; -ENOENT when not cached. */
int features_cache_read(const char *dir, const char *boot)
{
	char path[4096], id[64] = "";
	int negation = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", dir, RUN_FEATURES);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	if (fscanf(f, "%63s negation=%d", id, &negation) != 2)
		negation = -1;
	fclose(f);
	return strcmp(id, boot) || negation < 0 || negation > 1 ? -ENOENT : negation;
}

/* Keep @negation for boot @boot in @dir; quietly nothing when not root. */
int features_cache_write(const char *dir, const char *boot, int negation)
{
	char path[4096], text[128];

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s%s", dir, RUN_FEATURES);
	snprintf(text, sizeof(text), "%s negation=%d\n", boot, negation);
	return write_file_atomic(path, text, strlen(text), 0, NULL);
}

/* Does the kernel behind @path parse negated match-specs? 1 or 0. */
static int features_probe_negation(struct ddctl_ctx *ctx, const char *path)
{
	char boot[64];
	bool have_boot = read_boot_id(boot, sizeof(boot)) == 0;
	int r;

	if (have_boot) {
		r = features_cache_read(run_dir(), boot);
		if (r >= 0) {
			dbg(ctx, "negation %s (cached for this boot)\n", r ? "yes" : "no");
			return r;
		}
	}
	if (access(path, W_OK) < 0)
		return 0; /* cannot write, cannot probe; cache nothing */
	r = control_probe_negation(ctx, path);
	if (have_boot && features_cache_write(run_dir(), boot, r) < 0)
		dbg(ctx, "cannot cache the kernel's features in %s\n", run_dir());
	return r;
}

/* Does the cache say this boot's kernel parses negation? No probe. */
static bool features_cached_negation(void)
{
	char boot[64];

	return read_boot_id(boot, sizeof(boot)) == 0 &&
	       features_cache_read(run_dir(), boot) == 1;
}

unsigned int features_of_family(uint32_t family_features)
{
	unsigned int f = DDCTL_FEATURE_NETLINK | DDCTL_FEATURE_TRANSACTIONS;

	if (family_features & DYNDBG_FEATURE_NEGATE)
		f |= DDCTL_FEATURE_NEGATION;
	return f;
}

int features_get(struct ddctl_ctx *ctx, bool may_write, unsigned int *features)
{
	uint32_t max, nl, valid;
	unsigned int f = 0;
	const char *path;
	bool known = true;
	int r;

	if (ctx_get_known_features(ctx, features))
		return 0;
	r = ddctl_get_control_path(ctx, &path);
	if (r < 0)
		return r;
	if (control_is_kernel(ctx)) {
		f |= DDCTL_FEATURE_CONTROL;
		/* the family's GET_FEATURES says: no probe in the kernel log */
		if (dyndbg_present(ctx)) {
			ctx_get_nl_features(ctx, &max, &nl, &valid);
			f |= features_of_family(nl);
		} else if (!may_write || !control_writes_kernel(ctx)) {
			/* no probe into the control file, no cache written */
			if (features_cached_negation())
				f |= DDCTL_FEATURE_NEGATION;
			else
				known = false;
		} else if (features_probe_negation(ctx, path) == 1)
			f |= DDCTL_FEATURE_NEGATION;
	}
	if (known) /* else a later call that may write asks the kernel */
		ddctl_set_features(ctx, f);
	*features = f;
	return 0;
}

DDCTL_EXPORT int ddctl_get_features(struct ddctl_ctx *ctx,
				    unsigned int *features)
{
	return features_get(ctx, true, features);
}
