// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel log reader: /dev/kmsg (or a stand-in: a file or a FIFO), one
 * record at a time, parsed by model/kmsg-parse.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"

/* /dev/kmsg returns one record per read; 8 KiB holds the longest. */
#define KMSG_BUFSZ 16384

struct ddctl_kmsg {
	struct ddctl_ctx *ctx;
	int fd;
	bool eof;
	size_t start, len; /* pending bytes: buf[start, start + len) */
	char buf[KMSG_BUFSZ + 1];
};

DDCTL_EXPORT int ddctl_kmsg_new(struct ddctl_ctx *ctx, const char *path,
				unsigned int flags, struct ddctl_kmsg **out)
{
	struct ddctl_kmsg *k;
	struct stat st;

	if (!path)
		path = "/dev/kmsg";
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		int r = -errno;

		err(ctx, "cannot open %s: %s\n", path, strerror(errno));
		free(k);
		return r;
	}
	/*
	 * /dev/kmsg starts at the first record in the buffer; SEEK_END skips
	 * to what comes next. A stand-in (a file or a FIFO) is read as it is.
	 */
	if (!(flags & DDCTL_KMSG_SINCE_BOOT) && fstat(k->fd, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode)) &&
	    lseek(k->fd, 0, SEEK_END) < 0 && S_ISCHR(st.st_mode)) {
		int r = -errno;

		err(ctx, "cannot seek to the end of %s: %s\n", path, strerror(errno));
		close(k->fd);
		free(k);
		return r;
	}
	k->ctx = ddctl_ref(ctx);
	*out = k;
	return 0;
}

DDCTL_EXPORT void ddctl_kmsg_free(struct ddctl_kmsg *kmsg)
{
	if (!kmsg)
		return;
	close(kmsg->fd);
	ddctl_unref(kmsg->ctx);
	free(kmsg);
}

DDCTL_EXPORT int ddctl_kmsg_get_fd(const struct ddctl_kmsg *kmsg)
{
	return kmsg->fd;
}

/* The length of the first complete record in the pending bytes, or 0. */
static size_t record_len(const struct ddctl_kmsg *k)
{
	const char *p = k->buf + k->start, *end = p + k->len, *nl;

	for (nl = p; (nl = memchr(nl, '\n', (size_t)(end - nl))); nl++) {
		if (nl + 1 < end && nl[1] == ' ')
			continue; /* a continuation line follows */
		return (size_t)(nl + 1 - p);
	}
	/* at the end of the log (stand-ins only), what is left is a record */
	return k->eof ? k->len : 0;
}

DDCTL_EXPORT int ddctl_kmsg_read(struct ddctl_kmsg *kmsg,
				 struct ddctl_kmsg_record *rec)
{
	struct ddctl_kmsg *k = kmsg;
	size_t n;
	ssize_t got;
	int r;

	for (;;) {
		n = record_len(k);
		if (n) {
			char *rbuf = k->buf + k->start;

			k->start += n;
			k->len -= n;
			r = ddctl_kmsg_record_parse(rbuf, n, rec);
			if (r < 0)
				dbg(k->ctx, "kernel log: not a record: %.*s\n",
				    (int)strcspn(rbuf, "\n"), rbuf);
			return r < 0 ? r : 1;
		}
		if (k->eof)
			return -ENODATA;
		if (k->start) {
			memmove(k->buf, k->buf + k->start, k->len);
			k->start = 0;
		}
		if (k->len == KMSG_BUFSZ) { /* a stand-in's line too long: drop it */
			k->len = 0;
			return -EBADMSG;
		}
		got = read(k->fd, k->buf + k->len, KMSG_BUFSZ - k->len);
		if (got < 0) {
			r = -errno;
			if (r == -EAGAIN)
				return 0;
			return r; /* -EPIPE: records were overwritten; read on */
		}
		if (got == 0)
			k->eof = true;
		k->len += (size_t)got;
		k->buf[k->len] = '\0';
	}
}
