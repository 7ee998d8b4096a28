/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_WRITE_FILE_H
#define DDCTL_WRITE_FILE_H

#include <stddef.h>

enum write_file_flags {
	WRITE_FILE_EXCL = 1 << 0,    /* -EEXIST when @path exists */
	WRITE_FILE_PRIVATE = 1 << 1, /* a new file gets 0600, not 0666 (& ~umask) */
};

/* Where write_file_atomic() failed, for the caller's message. */
enum write_file_step {
	WRITE_FILE_OK,
	WRITE_FILE_TARGET,      /* lstat() of the target failed */
	WRITE_FILE_SYMLINK,     /* the target is a symlink: -ELOOP */
	WRITE_FILE_NOT_REGULAR, /* the target is not a regular file: -EINVAL */
	WRITE_FILE_EXISTS,      /* WRITE_FILE_EXCL and it exists: -EEXIST */
	WRITE_FILE_TEMP,        /* the temporary file could not be made */
	WRITE_FILE_REPLACE,     /* writing, syncing or renaming failed */
};

/*
 * @buf as @path, all or nothing: a temporary file beside it (O_TMPFILE
 * where the filesystem has it, else a random name with O_EXCL and
 * O_NOFOLLOW; the old file's mode and owner, or for a new file 0666 or
 * 0600 less the umask), fsync'd, renamed over the target (linked with
 * WRITE_FILE_EXCL), the directory fsync'd, stale temporary files of the
 * same pattern removed. Returns 0 or -errno, the failed step in *@step
 * when not NULL; nothing is logged.
 */
int write_file_atomic(const char *path, const char *buf, size_t len,
		      unsigned int flags, enum write_file_step *step);

#endif
