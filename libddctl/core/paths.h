/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Where ddctl keeps its state: each path comes from one function here. */
#ifndef DDCTL_CORE_PATHS_H
#define DDCTL_CORE_PATHS_H

#include <stddef.h>

/* /run/ddctl, or $DDCTL_RUN_DIR when set (tests): sessions, features cache, boot.conf. */
const char *run_dir(void);
/* run_dir() + @name into @buf; -ENAMETOOLONG when it does not fit. */
int run_path(const char *name, char *buf, size_t size);

#define RUN_SESSIONS "/sessions"   /* session records */
#define RUN_BOOT_STATE "/boot.conf" /* the boot snapshot */
#define RUN_FEATURES "/features"   /* the kernel features cache */

/* /proc/cmdline, or $DDCTL_PROC_CMDLINE when set (tests). */
const char *proc_cmdline_path(void);
/*
 * The loaded modules' list that a read of the control file is checked
 * against: $DDCTL_PROC_MODULES when set (tests: it is then checked for any
 * control file), else NULL (/proc/modules, for the kernel's control file).
 */
const char *modules_list_override(void);
#define PROC_MODULES "/proc/modules"

/* The control file: /proc/dynamic_debug/control, else below debugfs (malloc'd); -ENOENT. */
int control_path_find(char **path);

#endif
