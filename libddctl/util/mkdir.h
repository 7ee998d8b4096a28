/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MKDIR_H
#define DDCTL_MKDIR_H

/* mkdir -p @root@dir (mode 0755), where @dir is absolute or "". 0 or -errno. */
int mkdir_p(const char *root, const char *dir);

#endif
