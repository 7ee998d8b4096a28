// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Files ddctl writes (saved states, session records, modprobe.d): the
 * atomic writer of util/write-file.c, with the library's messages.
 */
#include <errno.h>
#include <string.h>

#include "core/ctx.h"
#include "util/write-file.h"

DDCTL_EXPORT int ddctl_file_write(struct ddctl_ctx *ctx, const char *path,
				  const char *buf, size_t len,
				  unsigned int flags)
{
	enum write_file_step step;
	int r;

	r = write_file_atomic(path, buf, len,
			      (flags & DDCTL_FILE_EXCL ? WRITE_FILE_EXCL : 0) |
			      (flags & DDCTL_FILE_PRIVATE ? WRITE_FILE_PRIVATE : 0),
			      &step);
	switch (step) {
	case WRITE_FILE_SYMLINK:
		err(ctx, "%s is a symbolic link: not written (name the file it points to)\n",
		    path);
		break;
	case WRITE_FILE_NOT_REGULAR:
		err(ctx, "%s is not a regular file: not written\n", path);
		break;
	case WRITE_FILE_TEMP:
		err(ctx, "cannot write %s: %s\n", path, strerror(-r));
		break;
	case WRITE_FILE_REPLACE:
		if (r != -EEXIST || !(flags & DDCTL_FILE_EXCL))
			err(ctx, "cannot write %s: %s (the old file is unchanged)\n",
			    path, strerror(-r));
		break;
	default:
		break;
	}
	return r;
}
