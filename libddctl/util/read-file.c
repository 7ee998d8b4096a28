// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Reading a whole file, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/read-file.h"

#define FIRST_ALLOC (1 << 16)

int read_full_fd(int fd, unsigned int flags, char **out, size_t *len)
{
	size_t used = 0, alloc = FIRST_ALLOC;
	char *buf, *n;
	ssize_t r;
	int e = 0;

	buf = malloc(alloc);
	while (buf && !e) {
		/* at most one byte over the limit, found while reading */
		if (alloc - used < 4096 + 1 && alloc < READ_FILE_MAX + 2) {
			size_t grow = alloc * 2 < READ_FILE_MAX + 2 ?
				alloc * 2 : READ_FILE_MAX + 2;

			n = realloc(buf, grow);
			if (!n) {
				e = -ENOMEM;
				break;
			}
			buf = n;
			alloc = grow;
		}
		r = read(fd, buf + used, alloc - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			e = -errno;
		else if (r == 0)
			break;
		else
			used += (size_t)r;
		if (used > READ_FILE_MAX)
			e = -EFBIG;
		else if (r > 0 && (flags & READ_FILE_TEXT) &&
			 memchr(buf + used - r, '\0', (size_t)r))
			e = -EBADMSG;
	}
	if (!buf)
		return -ENOMEM;
	if (e) {
		free(buf);
		return e;
	}
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

int read_full_file(const char *path, unsigned int flags, char **out, size_t *len)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC |
		  (flags & READ_FILE_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	r = read_full_fd(fd, flags, out, len);
	close(fd);
	return r;
}

const char *read_file_strerror(int r)
{
	if (r == -EFBIG)
		return "larger than 64 MiB, the limit of an input";
	if (r == -EBADMSG)
		return "a NUL byte where text was expected";
	return strerror(-r);
}
