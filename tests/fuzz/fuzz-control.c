// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* libFuzzer: the control-file reader. */
#include <stdint.h>
#include <stdio.h>

#include <ddctl/ddctl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	struct ddctl_table *t = NULL;
	char flags[DDCTL_FLAGS_BUFSZ];
	size_t i;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
	}
	if (ddctl_table_new_from_buffer(ctx, (const char *)data, size, &t) == 0) {
		for (i = 0; i < ddctl_table_get_count(t); i++) {
			const struct ddctl_site *s = ddctl_table_get_site(t, i);

			ddctl_flags_format(ddctl_site_get_flags(s), flags);
			(void)ddctl_site_get_format(s);
			(void)ddctl_site_get_class(s);
		}
		ddctl_table_unref(t);
	}
	return 0;
}
