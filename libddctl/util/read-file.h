/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_READ_FILE_H
#define DDCTL_READ_FILE_H

#include <stddef.h>

enum read_file_flags {
	READ_FILE_NOFOLLOW = 1 << 0, /* refuse a symbolic link (-ELOOP) */
	READ_FILE_TEXT = 1 << 1,     /* -EBADMSG when the file holds a NUL */
};

/*
 * The whole of @path into *@out (malloc'd, NUL-terminated), its length in
 * *@len when not NULL. Read until EOF: pseudo-files report size 0.
 * Returns 0 or -errno; nothing is logged.
 */
int read_full_file(const char *path, unsigned int flags, char **out, size_t *len);

#endif
