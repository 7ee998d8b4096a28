// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: the save round trip (save-roundtrip.h): a table, its save
 * script, the script parsed and predicted on the table gives the table's
 * flags back. Its findings are replayed by the unit test test-save.
 */
#include "save-roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	size_t site = 0;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
	}
	if (save_roundtrip_check(ctx, data, size, &site))
		abort();
	return 0;
}
