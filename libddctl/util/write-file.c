// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Writing a file all or nothing. A temporary file in the same directory
 * (unnamed with O_TMPFILE where the filesystem has it, else a random name,
 * O_EXCL|O_NOFOLLOW; the old file's mode and owner, a new file's mode as
 * the umask leaves it), fsync'd, renamed over the target, the directory
 * fsync'd; temporary files of the same pattern that killed processes left
 * are removed. A symlink or anything but a regular file at the target is
 * refused, never followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
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

/* A name next to @path that no one can guess: PATH.PID-RANDOM~ */
static int temp_name(const char *path, char *tmp, size_t size)
{
	unsigned long long rnd = 0;
	struct timespec ts;

	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		clock_gettime(CLOCK_MONOTONIC, &ts); /* no entropy yet: early boot */
		rnd ^= (unsigned long long)ts.tv_nsec << 20 ^ (unsigned long long)ts.tv_sec;
	}
	if (snprintf(tmp, size, "%s.%x-%016llx~", path, (unsigned int)getpid(),
		     rnd) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The temporary file for @path: unnamed (O_TMPFILE in its directory, so
 * that a process killed while writing leaves nothing) where the filesystem
 * has it and @unnamed is set, else a random name beside it (O_EXCL,
 * O_NOFOLLOW, retried on a collision). *@unnamed says which; @tmp gets the
 * name. A new file's @mode is filtered by the umask.
 */
static int open_temp(const char *path, mode_t mode, char *tmp, size_t size,
		     bool *unnamed)
{
	char dir[PATH_MAX];
	unsigned int i;
	int fd, r;

	tmp[0] = '\0';
	if (*unnamed) {
		dir_of(path, dir, sizeof(dir));
		fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		*unnamed = false;
	}
	for (i = 0; i < 100; i++) {
		r = temp_name(path, tmp, size);
		if (r < 0)
			return r;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* The unnamed file @fd linked as @name (-EEXIST when it exists). */
static int link_unnamed(int fd, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -EEXIST;
	/* no /proc: root may link a descriptor directly */
	return linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) < 0 ? -errno : 0;
}

/* The unnamed file @fd as @path: linked beside it, renamed over it. */
static int place_unnamed(int fd, const char *path, unsigned int flags,
			 char *tmp, size_t size)
{
	unsigned int i;
	int r = -EEXIST;

	if (flags & WRITE_FILE_EXCL)
		return link_unnamed(fd, path);
	for (i = 0; i < 100 && r == -EEXIST; i++) {
		r = temp_name(path, tmp, size);
		if (r == 0)
			r = link_unnamed(fd, tmp);
	}
	if (r == 0 && rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
	}
	return r;
}

/*
 * Is @name (in the directory of @path) a temporary file of ddctl's own
 * pattern, PATH.PID-RANDOM~ (or the older PATH.PIDRAND~, 4 hex digits of
 * RAND), left by a process that no longer runs?
 */
static bool is_stale_temp(const char *base, const char *name)
{
	size_t blen = strlen(base), len = strlen(name), digits;
	char pid[16];
	const char *p, *dash;
	long n;

	if (strncmp(name, base, blen) || name[blen] != '.' || len < blen + 3 ||
	    name[len - 1] != '~')
		return false;
	p = name + blen + 1;
	if (strspn(p, "0123456789abcdef-") != (size_t)(name + len - 1 - p))
		return false;
	dash = strchr(p, '-');
	digits = dash ? (size_t)(dash - p) : (size_t)(name + len - 1 - p);
	if (!dash && digits <= 4)
		return false;
	if (!dash)
		digits -= 4;
	if (digits == 0 || digits >= sizeof(pid) || (dash && strchr(dash + 1, '-')))
		return false;
	memcpy(pid, p, digits);
	pid[digits] = '\0';
	n = strtol(pid, NULL, 16);
	return n > 0 && n != getpid() && kill((pid_t)n, 0) < 0 && errno == ESRCH;
}

/* Temporary files of @path left by killed processes: removed (ours only). */
static void clean_stale_temps(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	dir_of(path, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (is_stale_temp(base, de->d_name) &&
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid())
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
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

/* One try of write_file_atomic(), with an unnamed temporary file or not. */
static int write_once(const char *path, const char *buf, size_t len,
		      unsigned int flags, const struct stat *old, bool exists,
		      bool *unnamed, enum write_file_step *step)
{
	mode_t mode = exists ? old->st_mode & 07777 :
		(flags & WRITE_FILE_PRIVATE) ? 0600 : 0666;
	char tmp[PATH_MAX];
	int fd, r;

	fd = open_temp(path, mode, tmp, sizeof(tmp), unnamed);
	if (fd < 0) {
		*step = WRITE_FILE_TEMP;
		return fd;
	}
	r = write_all(fd, buf, len);
	if (!r && exists && geteuid() == 0 &&
	    fchown(fd, old->st_uid, old->st_gid) < 0)
		r = -errno;
	/* a new file keeps what the umask left of @mode */
	if (!r && ((exists && fchmod(fd, mode) < 0) || fsync(fd) < 0))
		r = -errno;
	if (!r && *unnamed)
		r = place_unnamed(fd, path, flags, tmp, sizeof(tmp));
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!*unnamed) {
		if (!r && (flags & WRITE_FILE_EXCL) && link(tmp, path) < 0)
			r = -errno;
		else if (!r && !(flags & WRITE_FILE_EXCL) && rename(tmp, path) < 0)
			r = -errno;
		if (r || (flags & WRITE_FILE_EXCL))
			unlink(tmp);
	}
	if (r < 0)
		*step = WRITE_FILE_REPLACE;
	return r;
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      unsigned int flags, enum write_file_step *step)
{
	enum write_file_step ignored;
	bool exists, unnamed = true;
	struct stat old;
	int r;

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
	r = write_once(path, buf, len, flags, &old, exists, &unnamed, step);
	/* an unnamed file that cannot be linked (no /proc): a named one */
	if (unnamed && (r == -ENOENT || r == -EPERM)) {
		unnamed = false;
		*step = WRITE_FILE_OK;
		r = write_once(path, buf, len, flags, &old, exists, &unnamed, step);
	}
	if (r < 0)
		return r;
	sync_dir(path);
	clean_stale_temps(path);
	return 0;
}
