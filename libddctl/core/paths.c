// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Paths: the run directory and what lies in it, the control file, /proc/cmdline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/paths.h"

#define RUN_DIR "/run/ddctl"
#define PROC_CONTROL "/proc/dynamic_debug/control"

const char *run_dir(void)
{
	const char *dir = secure_getenv("DDCTL_RUN_DIR");

	return dir && *dir ? dir : RUN_DIR;
}

const char *proc_cmdline_path(void)
{
	const char *path = secure_getenv("DDCTL_PROC_CMDLINE");

	return path && *path ? path : "/proc/cmdline";
}

int run_path(const char *name, char *buf, size_t size)
{
	return snprintf(buf, size, "%s%s", run_dir(), name) >= (int)size ?
	       -ENAMETOOLONG : 0;
}

const char *modules_list_override(void)
{
	const char *path = secure_getenv("DDCTL_PROC_MODULES");

	return path && *path ? path : NULL;
}

/* The debugfs mount point from /proc/mounts, as libtracefs finds tracefs. */
static char *find_debugfs(void)
{
	char line[4096], dev[256], dir[3072], type[64];
	char *found = NULL;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %3071s %63s", dev, dir, type) != 3)
			continue;
		if (!strcmp(type, "debugfs"))
			found = strdup(dir);
	}
	fclose(f);
	return found;
}

int control_path_find(char **path)
{
	char *debugfs;

	*path = NULL;
	if (access(PROC_CONTROL, F_OK) == 0) {
		*path = strdup(PROC_CONTROL);
		return *path ? 0 : -ENOMEM;
	}
	debugfs = find_debugfs();
	if (!debugfs)
		return -ENOENT;
	if (asprintf(path, "%s/dynamic_debug/control", debugfs) < 0)
		*path = NULL;
	free(debugfs);
	if (*path && access(*path, F_OK) < 0) {
		free(*path);
		*path = NULL;
		return -ENOENT;
	}
	return *path ? 0 : -ENOMEM;
}
