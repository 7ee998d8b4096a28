// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The running kernel's command line, /proc/cmdline. */
#include <string.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "util/read-file.h"

DDCTL_EXPORT int ddctl_get_cmdline(struct ddctl_ctx *ctx, char **text)
{
	int r = read_full_file(proc_cmdline_path(), READ_FILE_TEXT, text, NULL);

	(void)ctx;
	if (r < 0)
		return r;
	(*text)[strcspn(*text, "\n")] = '\0';
	return 0;
}
