// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The lock that keeps two ddctl processes from changing the callsites at
 * once: an flock(2) on RUN_DIR/lock ($DDCTL_RUN_DIR when set), held for a
 * read-plan-commit-verify sequence (and a session's restore). The file is
 * never removed (removing it would let a third process lock another inode);
 * the lock goes with the descriptor, also when the process dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "util/mkdir.h"

#define RUN_LOCK "/lock"

struct ddctl_lock {
	int fd;
};

DDCTL_EXPORT int ddctl_lock_new(struct ddctl_ctx *ctx, unsigned int flags,
				struct ddctl_lock **out)
{
	char path[PATH_MAX];
	struct ddctl_lock *l;
	int fd, r;

	r = run_path(RUN_LOCK, path, sizeof(path));
	if (!r)
		r = mkdir_p(run_dir(), "");
	if (r < 0)
		return r;
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	do
		r = flock(fd, LOCK_EX | (flags & DDCTL_LOCK_NOWAIT ? LOCK_NB : 0));
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
		close(fd);
		return r;
	}
	l = malloc(sizeof(*l));
	if (!l) {
		close(fd);
		return -ENOMEM;
	}
	l->fd = fd;
	dbg(ctx, "took the lock %s\n", path);
	*out = l;
	return 0;
}

DDCTL_EXPORT void ddctl_lock_free(struct ddctl_lock *lock)
{
	if (!lock)
		return;
	close(lock->fd);
	free(lock);
}
