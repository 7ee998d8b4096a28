// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Configuration: query scripts in ddctl.d drop-in directories, merged the
 * systemd way (a file name in /etc hides the same name in /run and
 * /usr/lib; files are applied in the lexical order of their names; a
 * symlink to /dev/null masks a name), loaded as one set with errors
 * reported per file and line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libddctl-private.h"
#include "util/read-file.h"

static const char *const config_dirs[] = {
	"/etc/ddctl.d", "/run/ddctl.d", "/usr/lib/ddctl.d",
};

DDCTL_EXPORT int ddctl_set_config_root(struct ddctl_ctx *ctx, const char *root)
{
	char *copy = root ? strdup(root) : NULL;

	if (root && !copy)
		return -ENOMEM;
	free(ctx->config_root);
	ctx->config_root = copy;
	return 0;
}

const char *ctx_config_root(struct ddctl_ctx *ctx)
{
	const char *env;

	if (ctx->config_root)
		return ctx->config_root;
	env = secure_getenv("DDCTL_CONFIG_ROOT");
	return env ? env : "";
}

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

/*
 * A symlink to nothing is skipped (the rest still applies); a drop-in
 * anyone may write is applied with a warning.
 */
static bool is_skipped(struct ddctl_ctx *ctx, const char *path, bool loading)
{
	int prio = loading ? LOG_WARNING : LOG_DEBUG;
	struct stat st;

	if (stat(path, &st) < 0 && errno == ENOENT && lstat(path, &st) == 0) {
		ddctl_log_cond(ctx, prio, "warning: %s is a symbolic link to nothing: skipped\n",
			       path);
		return true;
	}
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IWOTH))
		ddctl_log_cond(ctx, prio, "warning: %s is writable by every user: anyone can change what it does\n",
			       path);
	return false;
}

/* The drop-ins in order; @loading: their contents are applied (warn). */
static int config_foreach(struct ddctl_ctx *ctx, bool loading,
			  int (*fn)(const char *path, void *data), void *data)
{
	const char *root = ctx_config_root(ctx);
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
		else if (!is_skipped(ctx, list[i].path, loading))
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

/* The parse error of @set, restated with the file and line. */
static void config_error(struct ddctl_queryset *set, const char *path,
			 unsigned int line, const char *text)
{
	char *msg;

	if (asprintf(&msg, "%s:%u: \"%s\", column %u, word \"%s\": %s", path,
		     line, text, set->error_column,
		     set->error_word ? set->error_word : "",
		     set->error_reason ? set->error_reason : "invalid") < 0)
		return;
	free(set->error);
	set->error = msg;
}

/* The error at @name:@line for a byte that has no place in a text file. */
static void nul_error(struct ddctl_queryset *set, const char *name,
		      unsigned int line, size_t column)
{
	char *msg;

	if (asprintf(&msg, "%s:%u: column %zu: a NUL byte (not a text file): nothing applied",
		     name, line, column) < 0)
		return;
	free(set->error);
	free(set->error_word);
	free(set->error_reason);
	set->error = msg;
	set->error_word = NULL;
	set->error_reason = strdup("a NUL byte (not a text file)");
	set->error_index = (unsigned int)set->count + 1;
	set->error_column = (unsigned int)column;
}

DDCTL_EXPORT int ddctl_queryset_parse_buffer(struct ddctl_queryset *set,
					     const char *name, const char *buf,
					     size_t len, unsigned int flags)
{
	size_t first = set->count, n;
	const char *p = buf, *end = buf + len, *nl, *nul;
	unsigned int line = 0;
	char *text;
	int r = 0;

	for (; p < end && !r; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		line++;
		nul = memchr(p, '\0', n);
		if (nul) {
			nul_error(set, name, line, (size_t)(nul - p) + 1);
			r = -EINVAL;
			break;
		}
		text = strndup(p, n);
		if (!text) {
			r = -ENOMEM;
			break;
		}
		r = ddctl_queryset_parse(set, text, flags);
		if (r == -EINVAL)
			config_error(set, name, line, text);
		free(text);
	}
	if (r < 0) {
		while (set->count > first)
			query_release(&set->queries[--set->count]);
	}
	return r;
}

static char *read_text(struct ddctl_ctx *ctx, const char *path, size_t *len)
{
	char *text = NULL;
	int r = read_full_file(path, 0, &text, len);

	if (r < 0)
		err(ctx, "cannot read %s: %s\n", path, strerror(-r));
	return text;
}

struct load {
	struct ddctl_queryset *set;
	unsigned int files;
};

static int load_file(const char *path, void *data)
{
	struct load *l = data;
	size_t len = 0;
	char *text = read_text(l->set->ctx, path, &len);
	int r;

	if (!text)
		return -EIO;
	info(l->set->ctx, "configuration: %s\n", path);
	r = ddctl_queryset_parse_buffer(l->set, path, text, len, 0);
	free(text);
	l->files++;
	return r;
}

DDCTL_EXPORT int ddctl_config_load(struct ddctl_ctx *ctx,
				   struct ddctl_queryset *set)
{
	struct load l = { .set = set };
	size_t first = set->count;
	int r;

	r = config_foreach(ctx, true, load_file, &l);
	if (r < 0) {
		while (set->count > first)
			query_release(&set->queries[--set->count]);
	}
	return r;
}
