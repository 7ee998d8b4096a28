// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: replies of the kernel's netlink families. The input is one
 * received datagram; its first byte picks the parser the request would
 * use: an EXEC reply, a GET dump (whose text then goes through the
 * control-file reader, as ddctl does), the family lookup or a change
 * notification. NLMSG_ERROR and its extended ack are parsed in all.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "kernel/dyndbg.h"
#include "kernel/monitor.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"
#include "util/util.h"

#define NQ 8

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct strbuf sb = { 0 };
	struct ddctl_event ev;

	/*
	 * each query's text is bounded by its attributes' bytes (x4 escaped);
	 * queries is NULL when the kernel left them out (above 16 KiB)
	 */
	if (nl_event_parse(nlh, 0, &ev, &sb) == 0 && ev.queries &&
	    strlen(ev.queries) >= 8 * (size_t)nlh->nlmsg_len + 64)
		abort();
	strbuf_release(&sb);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	unsigned int matched[NQ], changed[NQ];
	struct backend_result res = { .nqueries = NQ, .matched = matched,
				      .changed = changed };
	struct nl_dump_state dump = { 0 };
	struct strbuf *sbp = &dump.sb;
	struct nl_family fam = { 0 };
	struct ddctl_table *t = NULL;
	char *errmsg = NULL, *copy;
	struct nl_reply st = { .errmsg = &errmsg };
	int r;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
	}
	if (size < 1)
		return 0;
	/* an exact copy: nothing past the datagram may be read */
	copy = malloc(size - 1 ? size - 1 : 1);
	memcpy(copy, data + 1, size - 1);
	switch (data[0] & 3) {
	case 0:
		st.cb = nl_exec_parse;
		st.data = &res;
		break;
	case 1:
		st.cb = nl_get_parse;
		st.data = &dump;
		break;
	case 2:
		st.cb = nl_family_parse;
		st.data = &fam;
		break;
	default:
		st.cb = event_cb;
		break;
	}
	r = nl_reply_parse(copy, size - 1, &st);
	if (r > 0 || res.reported > NQ)
		abort();
	if (sbp->buf && ddctl_table_new_from_buffer(ctx, sbp->buf, sbp->len, &t) == 0)
		ddctl_table_unref(t);
	strbuf_release(sbp);
	free(errmsg);
	free(copy);
	return 0;
}
