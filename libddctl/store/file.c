// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Files ddctl writes: all or nothing. A temporary file in the same
 * directory (O_EXCL|O_NOFOLLOW, the old file's mode and owner), fsync'd,
 * renamed over the target, the directory fsync'd. A symlink or anything
 * but a regular file at the target is refused, never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libddctl-private.h"

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The directory of @path into @dir ("." for a bare name). */
static void dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* A new name next to @path: O_EXCL|O_NOFOLLOW, retried on a collision. */
static int open_temp(const char *path, mode_t mode, char *tmp, size_t size)
{
	unsigned int i;
	int fd;

	for (i = 0; i < 100; i++) {
		if (snprintf(tmp, size, "%s.%x%04x~", path, (unsigned int)getpid(),
			     (unsigned int)random() & 0xffff) >= (int)size)
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* May @path be replaced? Sets @old when it exists. */
static int check_target(struct ddctl_ctx *ctx, const char *path,
			struct stat *old, bool *exists)
{
	*exists = false;
	if (lstat(path, old) < 0)
		return errno == ENOENT ? 0 : -errno;
	*exists = true;
	if (S_ISLNK(old->st_mode)) {
		err(ctx, "%s is a symbolic link: not written (name the file it points to)\n",
		    path);
		return -ELOOP;
	}
	if (!S_ISREG(old->st_mode)) {
		err(ctx, "%s is not a regular file: not written\n", path);
		return -EINVAL;
	}
	return 0;
}

static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int dfd;

	dir_of(path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

DDCTL_EXPORT int ddctl_file_write(struct ddctl_ctx *ctx, const char *path,
				  const char *buf, size_t len,
				  unsigned int flags)
{
	char tmp[PATH_MAX];
	struct stat old;
	bool exists;
	mode_t mode;
	int fd, r;

	r = check_target(ctx, path, &old, &exists);
	if (r == 0 && exists && (flags & DDCTL_FILE_EXCL))
		r = -EEXIST;
	if (r < 0)
		return r;
	mode = exists ? old.st_mode & 07777 :
		(flags & DDCTL_FILE_PRIVATE) ? 0600 : 0644;
	fd = open_temp(path, mode, tmp, sizeof(tmp));
	if (fd < 0) {
		err(ctx, "cannot write %s: %s\n", path, strerror(-fd));
		return fd;
	}
	r = write_all(fd, buf, len);
	if (!r && exists && geteuid() == 0 &&
	    fchown(fd, old.st_uid, old.st_gid) < 0)
		r = -errno;
	if (!r && (fchmod(fd, mode) < 0 || fsync(fd) < 0))
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && (flags & DDCTL_FILE_EXCL) && link(tmp, path) < 0)
		r = -errno;
	else if (!r && !(flags & DDCTL_FILE_EXCL) && rename(tmp, path) < 0)
		r = -errno;
	if (r || (flags & DDCTL_FILE_EXCL))
		unlink(tmp);
	if (r < 0) {
		if (r != -EEXIST || !(flags & DDCTL_FILE_EXCL))
			err(ctx, "cannot write %s: %s (the old file is unchanged)\n",
			    path, strerror(-r));
		return r;
	}
	sync_dir(path);
	return 0;
}
