// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Writing a file all or nothing. A temporary file in the same directory
 * (O_EXCL|O_NOFOLLOW, the old file's mode and owner), fsync'd, renamed
 * over the target, the directory fsync'd. A symlink or anything but a
 * regular file at the target is refused, never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/write-file.h"

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
static int check_target(const char *path, struct stat *old, bool *exists,
			enum write_file_step *step)
{
	*exists = false;
	if (lstat(path, old) < 0) {
		*step = WRITE_FILE_TARGET;
		return errno == ENOENT ? 0 : -errno;
	}
	*exists = true;
	if (S_ISLNK(old->st_mode)) {
		*step = WRITE_FILE_SYMLINK;
		return -ELOOP;
	}
	if (!S_ISREG(old->st_mode)) {
		*step = WRITE_FILE_NOT_REGULAR;
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

int write_file_atomic(const char *path, const char *buf, size_t len,
		      unsigned int flags, enum write_file_step *step)
{
	enum write_file_step ignored;
	char tmp[PATH_MAX];
	struct stat old;
	bool exists;
	mode_t mode;
	int fd, r;

	if (!step)
		step = &ignored;
	*step = WRITE_FILE_OK;
	r = check_target(path, &old, &exists, step);
	if (r == 0 && exists && (flags & WRITE_FILE_EXCL)) {
		*step = WRITE_FILE_EXISTS;
		r = -EEXIST;
	}
	if (r < 0)
		return r;
	*step = WRITE_FILE_OK;
	mode = exists ? old.st_mode & 07777 :
		(flags & WRITE_FILE_PRIVATE) ? 0600 : 0644;
	fd = open_temp(path, mode, tmp, sizeof(tmp));
	if (fd < 0) {
		*step = WRITE_FILE_TEMP;
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
	if (!r && (flags & WRITE_FILE_EXCL) && link(tmp, path) < 0)
		r = -errno;
	else if (!r && !(flags & WRITE_FILE_EXCL) && rename(tmp, path) < 0)
		r = -errno;
	if (r || (flags & WRITE_FILE_EXCL))
		unlink(tmp);
	if (r < 0) {
		*step = WRITE_FILE_REPLACE;
		return r;
	}
	sync_dir(path);
	return 0;
}
