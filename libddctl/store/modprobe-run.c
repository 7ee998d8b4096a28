// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Load-time configuration in /run/modprobe.d (kmod's modprobe and udev's
 * libkmod read it), so that a module gets its queries before its init and
 * probe run:
 *  - a session's queries for modules that are not loaded yet: one file per
 *    session, ddctl-session-PID-STARTTIME.conf, named in the session record
 *    (which is written first) and removed when the session ends or is
 *    restored;
 *  - the configuration's (ddctl.d) queries that name one module:
 *    ddctl-config.conf,
 *    written by ddctl watch when it starts and reloads, removed when it stops.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "store/modprobe.h"
#include "util/mkdir.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RUN_MODPROBE_DIR "/run/modprobe.d"
#define RUN_MODPROBE_PREFIX "ddctl-session-"
#define RUN_MODPROBE_HEADER \
	"# written by a ddctl follow/run session for the modules it loads: removed when it ends\n"
/*
 * Not "ddctl.conf": kmod reads one file of each name, /etc's first, and
 * ddctl persist writes /etc/modprobe.d/ddctl.conf. Sorted before the
 * sessions' files, whose options for a module then come last and win.
 */
#define RUN_MODPROBE_CONFIG "ddctl-config.conf"
#define RUN_MODPROBE_CONFIG_HEADER \
	"# written by ddctl watch (ddctl-watch.service) from ddctl.d for the modules loaded\n" \
	"# while it runs: removed when it stops; edit ddctl.d, not this file\n"

static int dir_path(struct ddctl_ctx *ctx, char *buf, size_t size)
{
	if (snprintf(buf, size, "%s%s", ctx_get_config_root(ctx), RUN_MODPROBE_DIR) >=
	    (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* The file @name in the directory. */
static int file_path(struct ddctl_ctx *ctx, const char *name, char *buf, size_t size)
{
	char dir[PATH_MAX];
	int r = dir_path(ctx, dir, sizeof(dir));

	if (!r && snprintf(buf, size, "%s/%s", dir, name) >= (int)size)
		r = -ENAMETOOLONG;
	return r;
}

int modprobe_run_path(struct ddctl_ctx *ctx, long pid, unsigned long long starttime,
		      char *buf, size_t size)
{
	char name[NAME_MAX + 1];

	snprintf(name, sizeof(name), RUN_MODPROBE_PREFIX "%ld-%llu.conf", pid, starttime);
	return file_path(ctx, name, buf, size);
}

/*
 * The directory, made if missing; refused unless it is a directory (not
 * a symbolic link) that only its owner, root or ourselves, can write.
 */
static int check_dir(struct ddctl_ctx *ctx)
{
	char dir[PATH_MAX];
	struct stat st;
	int fd, r = dir_path(ctx, dir, sizeof(dir));

	if (!r)
		r = mkdir_p(ctx_get_config_root(ctx), RUN_MODPROBE_DIR);
	if (r < 0)
		return r;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fstat(fd, &st) < 0 ? -errno : 0;
	close(fd);
	if (!r && ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022))) {
		err(ctx, "%s: owned by uid %u with mode %04o: only root may write it; no load-time configuration\n",
		    dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
		r = -EPERM;
	}
	return r;
}

/*
 * @header and @set's options written to @path in the checked directory;
 * when no query of @set names one module, @path is written all the same
 * (@keep_empty) or removed.
 */
static int write_options(struct ddctl_ctx *ctx, const char *path, const char *header,
			 struct ddctl_queryset *set, bool keep_empty)
{
	struct strbuf sb = { 0 };
	int r = strbuf_adds(&sb, header);
	size_t len = sb.len;

	if (!r)
		r = modprobe_options_text(set, &sb);
	if (!r && sb.len == len && !keep_empty)
		r = modprobe_run_remove(path);
	else if (!r)
		r = check_dir(ctx);
	if (!r && (sb.len > len || keep_empty))
		r = ddctl_file_write(ctx, path, sb.buf, sb.len, 0);
	strbuf_release(&sb);
	return r;
}

int modprobe_run_write(struct ddctl_ctx *ctx, const char *path,
		       struct ddctl_queryset *set)
{
	return write_options(ctx, path, RUN_MODPROBE_HEADER, set, true);
}

DDCTL_EXPORT int ddctl_config_write_load_options(struct ddctl_queryset *set,
						 char **path)
{
	char buf[PATH_MAX];
	int r = file_path(set->ctx, RUN_MODPROBE_CONFIG, buf, sizeof(buf));

	if (path)
		*path = r ? NULL : strdup(buf);
	if (!r && path && !*path)
		r = -ENOMEM;
	return r ? r : write_options(set->ctx, buf, RUN_MODPROBE_CONFIG_HEADER, set, false);
}

DDCTL_EXPORT int ddctl_config_remove_load_options(struct ddctl_ctx *ctx)
{
	char path[PATH_MAX];
	int r = file_path(ctx, RUN_MODPROBE_CONFIG, path, sizeof(path));

	return r ? r : modprobe_run_remove(path);
}

int modprobe_run_remove(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

void modprobe_run_clean(struct ddctl_ctx *ctx,
			bool (*running)(long pid, unsigned long long starttime))
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	unsigned long long st;
	struct dirent *de;
	long pid;
	int n;
	DIR *d;

	if (dir_path(ctx, dir, sizeof(dir)) < 0 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		n = 0;
		if (sscanf(de->d_name, RUN_MODPROBE_PREFIX "%ld-%llu.conf%n", &pid, &st, &n) != 2 ||
		    n == 0 || de->d_name[n] || running(pid, st))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (modprobe_run_remove(path) == 0)
			info(ctx, "removed %s: its session is gone\n", path);
	}
	closedir(d);
}
