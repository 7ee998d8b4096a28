/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_READ_FILE_H
#define DDCTL_READ_FILE_H

#include <stddef.h>

/* The most any input may hold: far above the largest real table. */
#define READ_FILE_MAX ((size_t)64 << 20)

enum read_file_flags {
	READ_FILE_NOFOLLOW = 1 << 0, /* refuse a symbolic link (-ELOOP) */
	READ_FILE_TEXT = 1 << 1,     /* -EBADMSG when the file holds a NUL */
};

/*
 * The whole of @path into *@out (malloc'd, NUL-terminated), its length in
 * *@len when not NULL. Read until EOF: pseudo-files report size 0. More
 * than READ_FILE_MAX bytes: -EFBIG, found while reading (an endless input
 * ends there). Returns 0 or -errno; nothing is logged.
 */
int read_full_file(const char *path, unsigned int flags, char **out, size_t *len);

/* The same from the open descriptor @fd (stdin, say), which stays open. */
int read_full_fd(int fd, unsigned int flags, char **out, size_t *len);

/* The reason for a message: EFBIG names the limit, EBADMSG the NUL byte. */
const char *read_file_strerror(int r);

#endif
