// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The boot snapshot: the state the kernel booted with, saved once per boot
 * as RUN_DIR/boot.conf (ddctl.service: ddctl save --boot) for ddctl reset.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "model/table.h"
#include "util/mkdir.h"
#include "util/read-file.h"
#include "util/util.h"

DDCTL_EXPORT int ddctl_boot_state_save(struct ddctl_table *table)
{
	_cleanup_free_ char *text = NULL;
	char path[PATH_MAX];
	int r = run_path(RUN_BOOT_STATE, path, sizeof(path));

	if (r < 0)
		return r;
	if (access(path, F_OK) == 0)
		return -EEXIST;
	r = ddctl_table_format_snapshot(table, &text);
	if (!r)
		r = mkdir_p(run_dir(), "");
	if (!r)
		r = ddctl_file_write(table->ctx, path, text, strlen(text), DDCTL_FILE_EXCL);
	return r;
}

DDCTL_EXPORT int ddctl_boot_state_load(struct ddctl_ctx *ctx, char **text)
{
	char path[PATH_MAX];
	int r = run_path(RUN_BOOT_STATE, path, sizeof(path));

	(void)ctx;
	if (r < 0)
		return r;
	return read_full_file(path, READ_FILE_NOFOLLOW | READ_FILE_TEXT, text, NULL);
}

DDCTL_EXPORT int ddctl_boot_state_get_path(char **path)
{
	char buf[PATH_MAX];
	int r = run_path(RUN_BOOT_STATE, buf, sizeof(buf));

	if (r < 0)
		return r;
	*path = strdup(buf);
	return *path ? 0 : -ENOMEM;
}
