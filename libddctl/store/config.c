// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Configuration: query scripts in ddctl.d drop-in directories, merged the
 * systemd way (a file name in /etc hides the same name in /run and
 * /usr/lib; files are applied in the lexical order of their names; a
 * symlink to /dev/null masks a name), loaded as one set with errors
 * reported per file and line. A drop-in someone other than root could
 * have written (its owner, the directories above it) is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "util/read-file.h"
#include "util/util.h"

static const char *const config_dirs[] = {
	"/etc/ddctl.d", "/run/ddctl.d", "/usr/lib/ddctl.d",
};

struct dropin {
	char *name, *path;
};

static int cmp_dropin(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name,
		      ((const struct dropin *)b)->name);
}

static bool is_conf_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && !strcmp(name + len - 5, ".conf");
}

static bool have_name(const struct dropin *d, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return true;
	return false;
}

/* Add the .conf files of @dir whose names no earlier directory had. */
static int scan_dir(struct ddctl_ctx *ctx, const char *dir,
		    struct dropin **list, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct dropin *tmp;
	int r = 0;

	if (!d) {
		dbg(ctx, "no configuration in %s: %s\n", dir, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	}
	while (!r && (de = readdir(d))) {
		if (!is_conf_name(de->d_name) || have_name(*list, *n, de->d_name))
			continue;
		tmp = realloc(*list, (*n + 1) * sizeof(**list));
		if (!tmp) {
			r = -ENOMEM;
			break;
		}
		*list = tmp;
		tmp[*n].name = strdup(de->d_name);
		if (asprintf(&tmp[*n].path, "%s/%s", dir, de->d_name) < 0)
			tmp[*n].path = NULL;
		(*n)++;
		if (!tmp[*n - 1].name || !tmp[*n - 1].path)
			r = -ENOMEM;
	}
	closedir(d);
	return r;
}

static void free_dropins(struct dropin *list, size_t n)
{
	while (n--) {
		free(list[n].name);
		free(list[n].path);
	}
	free(list);
}

/*
 * A name whose winning file is /dev/null (or any device) is masked; a
 * directory is not: reading it fails, as it must.
 */
static bool is_masked(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode));
}

/* A symlink to nothing is skipped (the rest still applies). */
static bool is_skipped(struct ddctl_ctx *ctx, const char *path, bool loading)
{
	int prio = loading ? LOG_WARNING : LOG_DEBUG;
	struct stat st;

	if (stat(path, &st) < 0 && errno == ENOENT && lstat(path, &st) == 0) {
		ddctl_log_cond(ctx, prio, "warning: %s is a symbolic link to nothing: skipped\n",
			       path);
		return true;
	}
	return false;
}

/*
 * Could someone other than root (or the euid) have written @p? Its owner,
 * and write access for others: the world, or a group other than root's.
 * A directory with the sticky bit owned by root (/tmp) lets others add
 * names but not replace root's, so it is trusted: its entries are checked
 * themselves. Says why in @why.
 */
static bool is_untrusted(const char *p, const char *self, char *why, size_t size)
{
	const char *name = strcmp(p, self) ? p : "it";
	struct stat st;

	if (lstat(p, &st) < 0) {
		snprintf(why, size, "%s: %s", p, strerror(errno));
		return true;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, size, "%s is owned by uid %u", name, (unsigned int)st.st_uid);
		return true;
	}
	if (S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) && st.st_uid == 0)
		return false;
	if ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0)) {
		snprintf(why, size, "%s is writable by %s", name,
			 st.st_mode & S_IWOTH ? "every user" : "its group");
		return true;
	}
	return false;
}

/* @real (a resolved path) and every directory above it, as is_untrusted(). */
static bool chain_untrusted(char *real, const char *self, char *why, size_t size)
{
	char *slash;

	for (;;) {
		if (is_untrusted(real[0] ? real : "/", self, why, size))
			return true;
		slash = strrchr(real, '/');
		if (!slash || !real[0])
			return false;
		*slash = '\0';
	}
}

/*
 * Drop-ins are applied as root: refused when someone other than root could
 * have written them (as sshd's StrictModes): the file, and every directory
 * above it, both above the name in ddctl.d and above the file a symbolic
 * link there points to. -EPERM, said with the reason.
 */
static int check_trust(struct ddctl_ctx *ctx, const char *path)
{
	char real[PATH_MAX], self[PATH_MAX], why[PATH_MAX + 64];
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!realpath(path, self))
		return 0; /* reading it says why */
	snprintf(real, sizeof(real), "%s", self);
	dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return -ENOMEM;
	if (!chain_untrusted(real, self, why, sizeof(why)) &&
	    (!realpath(dir, real) || !chain_untrusted(real, self, why, sizeof(why)))) {
		free(dir);
		return 0;
	}
	free(dir);
	err(ctx, "%s could be changed by a user other than root: %s; the configuration is not applied\n",
	    path, why);
	return -EPERM;
}

/* The drop-ins in order; @loading: their contents are applied (warn). */
static int config_foreach(struct ddctl_ctx *ctx, bool loading,
			  int (*fn)(const char *path, void *data), void *data)
{
	const char *root = ctx_get_config_root(ctx);
	struct dropin *list = NULL;
	size_t i, n = 0;
	char *dir;
	int r = 0;

	if (!strcmp(root, "/"))
		root = "";
	for (i = 0; !r && i < ARRAY_SIZE(config_dirs); i++) {
		if (asprintf(&dir, "%s%s", root, config_dirs[i]) < 0)
			r = -ENOMEM;
		else
			r = scan_dir(ctx, dir, &list, &n);
		free(dir);
	}
	if (!r && n)
		qsort(list, n, sizeof(*list), cmp_dropin);
	for (i = 0; !r && i < n; i++) {
		if (is_masked(list[i].path))
			dbg(ctx, "%s is masked\n", list[i].path);
		else if (!is_skipped(ctx, list[i].path, loading) &&
			 (!loading || !(r = check_trust(ctx, list[i].path))))
			r = fn(list[i].path, data);
	}
	free_dropins(list, n);
	return r;
}

DDCTL_EXPORT int ddctl_config_foreach_file(struct ddctl_ctx *ctx,
					   int (*fn)(const char *path, void *data),
					   void *data)
{
	return config_foreach(ctx, false, fn, data);
}

static char *read_text(struct ddctl_ctx *ctx, const char *path, size_t *len)
{
	char *text = NULL;
	int r = read_full_file(path, 0, &text, len);

	if (r < 0)
		err(ctx, "cannot read %s: %s\n", path, read_file_strerror(r));
	return text;
}

struct load {
	struct ddctl_ctx *ctx;
	struct ddctl_queryset *set;
	unsigned int files;
	unsigned int *skipped; /* NULL: a query error ends the load */
};

static int load_file(const char *path, void *data)
{
	struct load *l = data;
	size_t len = 0, first;
	char *text = read_text(l->ctx, path, &len);
	int r;

	if (!text)
		return -EIO;
	info(l->ctx, "configuration: %s\n", path);
	first = ddctl_queryset_get_count(l->set);
	r = ddctl_queryset_parse_buffer(l->set, path, text, len, 0);
	free(text);
	l->files++;
	if (r == -EINVAL && l->skipped) {
		err(l->ctx, "%s; this file is skipped, the other files apply\n",
		    ddctl_queryset_get_error(l->set, NULL, NULL, NULL));
		queryset_truncate(l->set, first);
		queryset_clear_error(l->set);
		(*l->skipped)++;
		return 0;
	}
	return r;
}

/* Every file's queries appended, or none; @skipped: see load_file(). */
static int load_all(struct ddctl_ctx *ctx, struct ddctl_queryset *set,
		    unsigned int *skipped)
{
	struct load l = { .ctx = ctx, .set = set, .skipped = skipped };
	size_t first = ddctl_queryset_get_count(set);
	int r;

	r = config_foreach(ctx, true, load_file, &l);
	if (r < 0)
		queryset_truncate(set, first);
	return r;
}

DDCTL_EXPORT int ddctl_config_load(struct ddctl_ctx *ctx,
				   struct ddctl_queryset *set)
{
	return load_all(ctx, set, NULL);
}

DDCTL_EXPORT int ddctl_config_load_valid(struct ddctl_ctx *ctx,
					 struct ddctl_queryset *set,
					 unsigned int *skipped)
{
	*skipped = 0;
	return load_all(ctx, set, skipped);
}
