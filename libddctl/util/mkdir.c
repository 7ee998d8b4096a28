// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Making directories. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/mkdir.h"

int mkdir_p(const char *root, const char *dir)
{
	char path[PATH_MAX], *p;

	if (snprintf(path, sizeof(path), "%s%s", root, dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (p = strchr(path + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (!p)
			return 0;
		*p = '/';
	}
}
