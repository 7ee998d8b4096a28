// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Reading a whole file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/read-file.h"

#define FIRST_ALLOC (1 << 16)

int read_full_file(const char *path, unsigned int flags, char **out, size_t *len)
{
	size_t used = 0, alloc = FIRST_ALLOC;
	char *buf, *n;
	ssize_t r;
	int fd, e = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC |
		  (flags & READ_FILE_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	buf = malloc(alloc);
	while (buf && !e) {
		if (alloc - used < 4096 + 1) {
			n = realloc(buf, alloc * 2);
			if (!n) {
				e = -ENOMEM;
				break;
			}
			buf = n;
			alloc *= 2;
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
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	buf[used] = '\0';
	if (!e && (flags & READ_FILE_TEXT) && strlen(buf) != used)
		e = -EBADMSG;
	if (e) {
		free(buf);
		return e;
	}
	*out = buf;
	if (len)
		*len = used;
	return 0;
}
