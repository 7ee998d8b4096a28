// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The control-file backend: queries written to /proc/dynamic_debug/control. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libddctl-private.h"

/* Matches nothing on a kernel with negation; rejected by one without. */
#define NEGATION_PROBE "!module * +_\n"

/*
 * The control file for writing; only the kernel's (procfs, debugfs), or
 * the capture file ddctl_set_write_capture() named instead.
 */
int procfs_open(struct ddctl_ctx *ctx, const char *path)
{
	int fd;

	if (ctx->write_capture) {
		path = ctx->write_capture;
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
	} else if (!ctx_control_is_kernel(ctx)) {
		err(ctx, "%s is not the kernel's control file (not on procfs or debugfs): nothing written\n",
		    path);
		return -EMEDIUMTYPE;
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fd = -errno;
		err(ctx, "cannot open %s for writing: %s%s\n", path,
		    strerror(-fd),
		    fd == -EACCES || fd == -EPERM ? " (writing needs root)" : "");
	}
	return fd;
}

int procfs_write(struct ddctl_ctx *ctx, int fd, const char *buf, size_t len)
{
	ssize_t n;

	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = -errno;

		err(ctx, "the kernel refused the queries: %s\n", strerror(-e));
		return e;
	}
	if ((size_t)n != len) {
		err(ctx, "short write to the control file (%zd of %zu bytes)\n",
		    n, len);
		return -EIO;
	}
	return 0;
}

int procfs_probe_negation(struct ddctl_ctx *ctx, const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		dbg(ctx, "cannot probe negation support: %s\n", strerror(errno));
		return 0;
	}
	n = write(fd, NEGATION_PROBE, strlen(NEGATION_PROBE));
	close(fd);
	dbg(ctx, "negation probe: %s\n", n < 0 ? strerror(errno) : "accepted");
	return n == (ssize_t)strlen(NEGATION_PROBE);
}
