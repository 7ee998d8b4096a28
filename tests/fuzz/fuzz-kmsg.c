// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: the /dev/kmsg record parser, the decoration parser with every
 * flag combination, and attributing what parses to a callsite; lines
 * without decoration (by format) and cut decorations too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ddctl/ddctl.h>

static const char table_text[] =
	"a/b.c:1 [m]f =pmfsl \"x %s\\n\"\n"
	"a/b.c:1 [m]f =pmfsl \"x %d y\\n\"\n"
	"d.c:3 [n_x]h =pf \"z\" class:LOW\n"
	"d.c:4 [n_x]h =_ \"%pS %*ph %%\"\n"
	"drivers/net/bonding/bond_main.c:6481 [bonding]bond_init_with_a_name_long_enough_to_be_cut =p \"Begin %s\\n\"\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	static struct ddctl_kmsg_index *idx;
	struct ddctl_kmsg_record rec;
	struct ddctl_kmsg_prefix p;
	char *buf = malloc(size + 1);
	const char *msg;
	unsigned int flags;
	size_t site;

	if (!ctx) {
		struct ddctl_table *table = NULL;

		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
		ddctl_table_new_from_buffer(ctx, table_text, strlen(table_text), &table);
		ddctl_kmsg_index_new(table, &idx);
		ddctl_table_unref(table);
	}
	memcpy(buf, data, size);
	if (ddctl_kmsg_record_parse(buf, size, &rec) == 0) {
		if (strlen(rec.text) != rec.len)
			abort();
		/* the continuation values: NUL-terminated inside the record */
		if ((rec.device && (rec.device < buf || rec.device + strlen(rec.device) > buf + size)) ||
		    (rec.subsystem && (rec.subsystem < buf ||
				       rec.subsystem + strlen(rec.subsystem) > buf + size)))
			abort();
		for (flags = 0; flags <= DDCTL_FLAG_SOURCENAME; flags += 2) {
			if (ddctl_kmsg_prefix_parse(rec.text, flags, &p) != 0)
				continue;
			if (p.message < rec.text || p.message > rec.text + rec.len)
				abort();
			if (ddctl_kmsg_index_find(idx, &p, &site) > 0 && site >= 5)
				abort();
		}
		if (ddctl_kmsg_index_find_message(idx, rec.text, &site) > 0 && site >= 5)
			abort();
		for (flags = 0; flags <= DDCTL_FLAG_SOURCENAME; flags += 2)
			if (ddctl_kmsg_index_find_cut(idx, rec.text, flags | DDCTL_FLAG_TID,
						      &site, &msg) > 0 &&
			    (site >= 5 || msg < rec.text || msg > rec.text + rec.len))
				abort();
	}
	free(buf);
	return 0;
}
