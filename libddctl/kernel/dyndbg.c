// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg commands of patched kernels (kernel-patches/, part 2), over
 * kernel/netlink.c: EXEC runs a query set as one transaction (or a dry
 * run) and reports per-query counts; GET dumps the callsites, written out
 * in the control file's format. Together the netlink backend_ops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "core/ctx.h"
#include "kernel/backend.h"
#include "kernel/dyndbg.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"
#include "util/util.h"

static int nl_probe(struct ddctl_ctx *ctx)
{
	struct mnl_socket *nl;
	struct nl_family f;
	int r = nl_connect(ctx, true, &nl, &f);

	if (r == 0)
		mnl_socket_close(nl);
	return r;
}

bool dyndbg_present(struct ddctl_ctx *ctx)
{
	if (!ctx_get_nl_probed(ctx)) {
		ctx_set_nl_probed(ctx);
		if (nl_probe(ctx) < 0)
			ctx_set_nl_family(ctx, 0);
	}
	return ctx_get_nl_family(ctx) != 0;
}

/* ---- EXEC ---- */

static int result_cb(const struct nlattr *attr, void *data)
{
	uint32_t *v = data;
	int t = mnl_attr_get_type(attr);

	if (t >= DYNDBG_A_QUERY_RESULT_INDEX && t <= DYNDBG_A_QUERY_RESULT_CHANGED &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		v[t] = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int exec_attr_cb(const struct nlattr *attr, void *data)
{
	struct backend_result *res = data;
	uint32_t v[DYNDBG_A_QUERY_RESULT_CHANGED + 1] = { 0 };

	switch (mnl_attr_get_type(attr)) {
	case DYNDBG_A_QUERY_RESULT:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		mnl_attr_parse_nested(attr, result_cb, v);
		/* the kernel reports each query once, in order: anything else
		 * is not counted, so an incomplete reply never looks whole */
		if (v[DYNDBG_A_QUERY_RESULT_INDEX] == res->reported + 1 &&
		    v[DYNDBG_A_QUERY_RESULT_INDEX] <= res->nqueries) {
			size_t i = v[DYNDBG_A_QUERY_RESULT_INDEX] - 1;

			res->matched[i] = v[DYNDBG_A_QUERY_RESULT_MATCHED];
			res->changed[i] = v[DYNDBG_A_QUERY_RESULT_CHANGED];
			res->reported++;
		}
		break;
	case DYNDBG_A_KEYS_PATCHED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			res->keys_patched = mnl_attr_get_u32(attr);
		break;
	case DYNDBG_A_SITES_CHANGED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			res->sites_changed = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

int nl_exec_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), exec_attr_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct backend_result *res, char **errmsg)
{
	size_t len = strlen(queries) + 1;
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	char *buf;
	int r;

	if (len > 0xffff - 64)
		return -E2BIG;
	buf = malloc(len + 1024);
	if (!buf)
		return -ENOMEM;
	r = nl_connect(ctx, false, &nl, &f);
	if (!r) {
		/*
		 * The kernel bounds the reply (DYNDBG_QUERIES_MAX queries, 28
		 * bytes each): the socket's default receive buffer holds it and
		 * the ACK behind it.
		 */
		nlh = nl_request(ctx, buf, len + 1024, f.id, NLM_F_ACK,
				 DYNDBG_CMD_EXEC);
		mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, queries);
		if (dry_run)
			mnl_attr_put(nlh, DYNDBG_A_DRY_RUN, 0, NULL);
		r = nl_talk(nl, nlh, nl_exec_parse, res, errmsg);
	}
	if (nl)
		mnl_socket_close(nl);
	free(buf);
	return r;
}

/* ---- GET: the callsites, written out in the control-file format ---- */

/* Each known site attribute, of its type: strings with their NUL. */
static int site_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int t = mnl_attr_get_type(attr);
	enum mnl_attr_data_type type = MNL_TYPE_NUL_STRING;

	if (t <= 0 || t > DYNDBG_A_SITE_CLASS_ID)
		return MNL_CB_OK;
	if (t == DYNDBG_A_SITE_LINE || t == DYNDBG_A_SITE_FLAGS ||
	    t == DYNDBG_A_SITE_CLASS_ID)
		type = MNL_TYPE_U32;
	if (mnl_attr_validate(attr, type) < 0)
		return MNL_CB_ERROR;
	tb[t] = attr;
	return MNL_CB_OK;
}

static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_adds(sb, "\\n");
		else if (*s == '\t')
			strbuf_adds(sb, "\\t");
		else if (*s == '\r')
			strbuf_adds(sb, "\\r");
		else
			strbuf_addch(sb, *s);
	}
}

static int site_nest_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr *tb[DYNDBG_A_SITE_CLASS_ID + 1] = { 0 };
	struct strbuf *sb = data;
	char flags[DDCTL_FLAGS_BUFSZ];

	if (mnl_attr_get_type(attr) != DYNDBG_A_SITE)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, site_attr_cb, tb) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[DYNDBG_A_SITE_MODULE] || !tb[DYNDBG_A_SITE_FILE] ||
	    !tb[DYNDBG_A_SITE_FUNCTION] || !tb[DYNDBG_A_SITE_LINE] ||
	    !tb[DYNDBG_A_SITE_FORMAT] || !tb[DYNDBG_A_SITE_FLAGS])
		return MNL_CB_ERROR;
	strbuf_addf(sb, "%s:%u [%s]%s %s \"", mnl_attr_get_str(tb[DYNDBG_A_SITE_FILE]),
		    mnl_attr_get_u32(tb[DYNDBG_A_SITE_LINE]),
		    mnl_attr_get_str(tb[DYNDBG_A_SITE_MODULE]),
		    mnl_attr_get_str(tb[DYNDBG_A_SITE_FUNCTION]),
		    ddctl_flags_format(mnl_attr_get_u32(tb[DYNDBG_A_SITE_FLAGS]), flags));
	add_escaped(sb, mnl_attr_get_str(tb[DYNDBG_A_SITE_FORMAT]));
	strbuf_addch(sb, '"');
	if (tb[DYNDBG_A_SITE_CLASS])
		strbuf_addf(sb, " class:%s", mnl_attr_get_str(tb[DYNDBG_A_SITE_CLASS]));
	else if (tb[DYNDBG_A_SITE_CLASS_ID])
		strbuf_addf(sb, " class unknown, _id:%u",
			    mnl_attr_get_u32(tb[DYNDBG_A_SITE_CLASS_ID]));
	return strbuf_addch(sb, '\n') < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

int nl_get_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), site_nest_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct strbuf sb = { 0 };
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	int r;

	r = nl_connect(ctx, false, &nl, &f);
	if (!r) {
		nlh = nl_request(ctx, buf, sizeof(buf), f.id, NLM_F_DUMP,
				 DYNDBG_CMD_GET);
		if (filter)
			mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, filter);
		strbuf_adds(&sb, "# filename:lineno [module]function flags format\n");
		r = nl_talk(nl, nlh, nl_get_parse, &sb, NULL);
	}
	if (nl)
		mnl_socket_close(nl);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

static int dyndbg_read(struct ddctl_ctx *ctx, char **text)
{
	int r = -EINTR;

	/* -EINTR: a module came or went during the dump; dump again */
	for (int tries = 0; tries < 5 && r == -EINTR; tries++)
		r = nl_dump(ctx, NULL, text);
	if (r < 0)
		err(ctx, "cannot dump callsites over netlink: %s\n",
		    r == -ENOENT ? "the kernel has no dyndbg netlink family" :
		    strerror(-r));
	return r;
}

static int dyndbg_open(struct backend *b)
{
	b->reaches_kernel = true;
	return 0;
}

static int dyndbg_exec(struct backend *b, const char *text, size_t len,
		       bool dry_run, struct backend_result *res, char **errmsg)
{
	_cleanup_free_ char *queries = strndup(text, len);

	if (!queries)
		return -ENOMEM;
	return nl_exec(b->ctx, queries, dry_run, res, errmsg);
}

static void dyndbg_close(struct backend *b)
{
	(void)b;
}

#define STR_(x) #x
#define STR(x) STR_(x)

const struct backend_ops dyndbg_backend = {
	.name = "netlink",
	.max_len = DYNDBG_QUERIES_MAX_LEN,
	.max_queries = DYNDBG_QUERIES_MAX,
	.transactional = true,
	.exec_name = "transaction",
	.split_note = "the set is larger than one transaction takes ("
		      STR(DYNDBG_QUERIES_MAX) " queries, "
		      STR(DYNDBG_QUERIES_MAX_LEN) " bytes): sent as %u transactions\n",
	.read = dyndbg_read,
	.open = dyndbg_open,
	.exec = dyndbg_exec,
	.close = dyndbg_close,
};
