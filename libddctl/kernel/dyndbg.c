// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg commands of patched kernels (kernel-patches/, part 2), over
 * kernel/netlink.c: EXEC runs a query set as one transaction (or a dry
 * run) and reports per-query counts; GET dumps the callsites, written out
 * in the control file's format. Together the netlink backend_ops.
 *
 * Queries travel structured (uapi v3): each one a nested DYNDBG_A_QUERY
 * built from libddctl's own parse (model/query.c), never control-file
 * text; a kernel's query is turned back into text by the same model's
 * formatter. A query the family cannot carry (nl_query_check()) is
 * refused here before anything is sent; the transaction routes such a
 * set to the control file instead (kernel/txn.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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
#include "model/flags.h"
#include "model/limits.h"
#include "model/query.h"
#include "model/queryset.h"
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

/* The flag bits are the same on both sides of the uapi. */
_Static_assert((int)DDCTL_FLAG_PRINT == (int)DYNDBG_SITE_FLAGS_P &&
	       (int)DDCTL_FLAG_MODNAME == (int)DYNDBG_SITE_FLAGS_M &&
	       (int)DDCTL_FLAG_FUNCNAME == (int)DYNDBG_SITE_FLAGS_F &&
	       (int)DDCTL_FLAG_LINENO == (int)DYNDBG_SITE_FLAGS_L &&
	       (int)DDCTL_FLAG_TID == (int)DYNDBG_SITE_FLAGS_T &&
	       (int)DDCTL_FLAG_SOURCENAME == (int)DYNDBG_SITE_FLAGS_S,
	       "ddctl's flag bits are the uapi's");

bool dyndbg_present(struct ddctl_ctx *ctx)
{
	if (!ctx_get_nl_probed(ctx)) {
		ctx_set_nl_probed(ctx);
		if (nl_probe(ctx) < 0)
			ctx_set_nl_family(ctx, 0);
	}
	return ctx_get_nl_family(ctx) != 0;
}

/* ---- queries as attributes ---- */

/* The match-specs of a query: attribute, negate bit, the policy's length. */
static const struct {
	enum dd_spec spec;
	uint16_t attr;
	uint32_t negate;
	size_t max;
	const char *name;
} specs[] = {
	{ DD_SPEC_MODULE, DYNDBG_A_QUERY_MODULE, DYNDBG_MATCH_MODULE, 63, "module" },
	{ DD_SPEC_FILE, DYNDBG_A_QUERY_FILE, DYNDBG_MATCH_FILE, 255, "file" },
	{ DD_SPEC_FUNC, DYNDBG_A_QUERY_FUNC, DYNDBG_MATCH_FUNC, 127, "func" },
	{ DD_SPEC_FORMAT, DYNDBG_A_QUERY_FORMAT, DYNDBG_MATCH_FORMAT, 255, "format" },
	{ DD_SPEC_CLASS, DYNDBG_A_QUERY_CLASS, 0, 63, "class" },
};

/* The kernel's valid flags and features (asked at connect). */
static void nl_limits(struct ddctl_ctx *ctx, uint32_t *valid, uint32_t *features,
		      uint32_t *max)
{
	uint32_t m;

	ctx_get_nl_features(ctx, &m, features, valid);
	if (!*valid)
		*valid = NL_FLAGS_BASE;
	if (max)
		*max = m ? m : DYNDBG_QUERIES_MAX;
}

static int why_not(char **why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int why_not(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(why, fmt, ap) < 0)
		*why = NULL;
	va_end(ap);
	return -EINVAL;
}

/*
 * Can the family carry @q (with its flags when @flags)? 0, else -EINVAL
 * with the word and the reason in *@why (malloc'd). An empty format is
 * carried as no format (both match every site); an empty module, file,
 * func or class matches no site and has no attribute (strings have at
 * least one byte): refused, as is a '+' or '-' without a flag letter
 * (a selector of 0).
 */
int nl_query_check(struct ddctl_ctx *ctx, const struct ddctl_query *q,
		   bool flags, char **why)
{
	uint32_t valid, features;
	char letters[DDCTL_FLAGS_BUFSZ];
	size_t i, len;

	*why = NULL;
	nl_limits(ctx, &valid, &features, NULL);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		const char *v = q->spec[specs[i].spec];

		if (!v)
			continue;
		len = strlen(v);
		if (!len && specs[i].spec != DD_SPEC_FORMAT)
			return why_not(why, "word \"%s\": an empty %s matches no site; the netlink family has no empty values",
				       specs[i].name, specs[i].name);
		if (len > specs[i].max)
			return why_not(why, "word \"%s\": the value is %zu bytes; the netlink family takes at most %zu",
				       specs[i].name, len, specs[i].max);
		if (q->negated[specs[i].spec] && !(features & DYNDBG_FEATURE_NEGATE))
			return why_not(why, "word \"!%s\": this kernel's netlink family has no negation",
				       specs[i].name);
	}
	if (q->spec[DD_SPEC_CLASS] && !(features & DYNDBG_FEATURE_CLASS))
		return why_not(why, "word \"class\": this kernel's netlink family has no classes");
	if (!flags)
		return 0;
	if (q->flags & ~valid) {
		char word[DDCTL_FLAGS_BUFSZ];

		ddctl_flags_format(q->flags, word);
		ddctl_flags_format(q->flags & ~valid, letters);
		/* both spelt "=...": the letters after it */
		return why_not(why, "word \"%c%s\": this kernel has no flag %s",
			       q->op, word + 1, letters + 1);
	}
	if (!q->flags && q->op != '=')
		return why_not(why, "word \"%c\": '%c' without a flag letter changes nothing; the netlink family has no such query",
			       q->op, q->op);
	return 0;
}

/* The flags of @q as bitfield32: +pf {P|F, P|F}, -p {0, P}, =p {P, valid}. */
static struct nla_bitfield32 query_bitfield(const struct ddctl_query *q,
					    uint32_t valid)
{
	struct nla_bitfield32 bf = { q->flags, q->flags };

	if (q->op == '-')
		bf.value = 0;
	else if (q->op == '=')
		bf.selector = valid;
	return bf;
}

/* The bytes query @q takes as a nested attribute, at most. */
static size_t query_wire_size(const struct ddctl_query *q)
{
	size_t i, n = MNL_ATTR_HDRLEN + 3 * MNL_ALIGN(MNL_ATTR_HDRLEN + 4) +
		      MNL_ALIGN(MNL_ATTR_HDRLEN + sizeof(struct nla_bitfield32));

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (q->spec[specs[i].spec])
			n += MNL_ALIGN(MNL_ATTR_HDRLEN + strlen(q->spec[specs[i].spec]) + 1);
	return n;
}

/* @q as a nested DYNDBG_A_QUERY of @nlh; its flags too when @flags. */
void nl_put_query(struct nlmsghdr *nlh, const struct ddctl_query *q,
		  uint32_t valid, bool flags)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY);
	uint32_t negate = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		const char *v = q->spec[specs[i].spec];

		/* raw bytes: the format as parsed, no control-file escapes */
		if (!v || !*v)
			continue;
		mnl_attr_put_strz(nlh, specs[i].attr, v);
		if (q->negated[specs[i].spec])
			negate |= specs[i].negate;
	}
	if (q->first_line || q->last_line) {
		if (q->first_line)
			mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_LINE_MIN, q->first_line);
		if (q->last_line != UINT_MAX)
			mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_LINE_MAX, q->last_line);
	}
	if (negate)
		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_NEGATE, negate);
	if (flags) {
		struct nla_bitfield32 bf = query_bitfield(q, valid);

		mnl_attr_put(nlh, DYNDBG_A_QUERY_FLAGS, sizeof(bf), &bf);
	}
	mnl_attr_nest_end(nlh, nest);
}

/*
 * @attr kept in the table @tb when its type is 1..@max: a u32 when its bit
 * is in @u32s, a bitfield32 when in @bf32s, else a NUL-terminated string;
 * a malformed one fails the parse.
 */
static int keep_attr(const struct nlattr *attr, const struct nlattr **tb,
		     int max, uint32_t u32s, uint32_t bf32s)
{
	int t = mnl_attr_get_type(attr);

	if (t <= 0 || t > max)
		return MNL_CB_OK;
	if (bf32s & 1u << t) {
		if (mnl_attr_get_payload_len(attr) != sizeof(struct nla_bitfield32))
			return MNL_CB_ERROR;
	} else if (mnl_attr_validate(attr, u32s & 1u << t ? MNL_TYPE_U32 :
				     MNL_TYPE_NUL_STRING) < 0) {
		return MNL_CB_ERROR;
	}
	tb[t] = attr;
	return MNL_CB_OK;
}

static int query_attr_cb(const struct nlattr *attr, void *data)
{
	return keep_attr(attr, data, DYNDBG_A_QUERY_FLAGS,
			 1u << DYNDBG_A_QUERY_LINE_MIN | 1u << DYNDBG_A_QUERY_LINE_MAX |
			 1u << DYNDBG_A_QUERY_NEGATE, 1u << DYNDBG_A_QUERY_FLAGS);
}

/* Do @nest's attributes fill its payload exactly (not a string's bytes)? */
static bool nested_whole(const struct nlattr *nest)
{
	const struct nlattr *a;
	size_t used = 0;

	mnl_attr_for_each_nested(a, nest)
		used += MNL_ALIGN(a->nla_len);
	return used == (size_t)MNL_ALIGN(mnl_attr_get_payload_len(nest));
}

/* One canonical line of @q with flags @op @flags. */
static int add_line(struct strbuf *sb, struct ddctl_query *q, char op,
		    unsigned int flags)
{
	int r;

	query_set_op(q, op, flags);
	r = query_build_canonical(q);
	if (!r)
		r = strbuf_adds(sb, q->canonical);
	return r ? r : strbuf_addch(sb, '\n');
}

/*
 * A kernel's nested query (a notification's) in control-file text, one
 * line (two when its flags set some bits and clear others: "-f", then
 * "+p"), spelt by model/query.c as every query of ddctl is.
 */
int nl_query_format(const struct nlattr *nest, uint32_t valid, struct strbuf *sb)
{
	const struct nlattr *tb[DYNDBG_A_QUERY_FLAGS + 1] = { 0 };
	const char *spec[DD_SPEC_NR] = { 0 };
	bool negated[DD_SPEC_NR] = { 0 };
	unsigned int first = 0, last = 0;
	struct ddctl_query q;
	uint32_t negate = 0;
	size_t i;
	int r;

	if (mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0 || !nested_whole(nest) ||
	    mnl_attr_parse_nested(nest, query_attr_cb, tb) != MNL_CB_OK)
		return -EBADMSG;
	if (tb[DYNDBG_A_QUERY_NEGATE])
		negate = mnl_attr_get_u32(tb[DYNDBG_A_QUERY_NEGATE]);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		if (!tb[specs[i].attr])
			continue;
		spec[specs[i].spec] = mnl_attr_get_str(tb[specs[i].attr]);
		negated[specs[i].spec] = negate & specs[i].negate;
	}
	if (tb[DYNDBG_A_QUERY_LINE_MIN] || tb[DYNDBG_A_QUERY_LINE_MAX]) {
		first = tb[DYNDBG_A_QUERY_LINE_MIN] ?
			mnl_attr_get_u32(tb[DYNDBG_A_QUERY_LINE_MIN]) : 0;
		last = tb[DYNDBG_A_QUERY_LINE_MAX] ?
		       mnl_attr_get_u32(tb[DYNDBG_A_QUERY_LINE_MAX]) : UINT_MAX;
	}
	r = query_new_parts(&q, spec, negated, first, last);
	if (r < 0)
		return r == -E2BIG ? -EBADMSG : r;
	if (!tb[DYNDBG_A_QUERY_FLAGS]) {
		r = strbuf_adds(sb, q.canonical);
		r = r ? r : strbuf_addch(sb, '\n');
	} else {
		const struct nla_bitfield32 *bf = mnl_attr_get_payload(tb[DYNDBG_A_QUERY_FLAGS]);
		uint32_t v = bf->value & bf->selector & DD_FLAGS_ALL,
			 sel = bf->selector & DD_FLAGS_ALL;

		if ((sel & valid) == valid)
			r = add_line(sb, &q, '=', v);
		else if (v == sel)
			r = add_line(sb, &q, '+', v);
		else if (!v)
			r = add_line(sb, &q, '-', sel);
		else if (!(r = add_line(sb, &q, '-', sel & ~v)))
			r = add_line(sb, &q, '+', v);
	}
	query_release(&q);
	return r;
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
	case DYNDBG_A_GENERATION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			res->generation = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

int nl_exec_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), exec_attr_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

/* Every query of @qs carried, or -EINVAL with "query N: ..." in *@errmsg. */
static int check_all(struct ddctl_ctx *ctx, const struct ddctl_query *qs,
		     size_t n, char **errmsg)
{
	char *why = NULL;
	size_t i;
	int r = 0;

	for (i = 0; i < n && !r; i++) {
		r = nl_query_check(ctx, &qs[i], true, &why);
		if (r < 0 && errmsg && asprintf(errmsg, "query %zu \"%s\": %s", i + 1,
						qs[i].canonical, why ? why : "invalid") < 0)
			*errmsg = NULL;
		free(why);
		why = NULL;
	}
	return r;
}

int nl_exec_queries(struct ddctl_ctx *ctx, const struct ddctl_query *qs,
		    size_t n, bool dry_run, struct backend_result *res,
		    char **errmsg)
{
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	uint32_t valid, features;
	size_t size = MNL_SOCKET_BUFFER_SIZE, i;
	char *buf = NULL;
	int r;

	r = nl_connect(ctx, false, &nl, &f);
	if (!r)
		r = check_all(ctx, qs, n, errmsg);
	for (i = 0; !r && i < n; i++)
		size += query_wire_size(&qs[i]);
	if (!r && size > UINT32_MAX / 2)
		r = -E2BIG;
	if (!r && !(buf = malloc(size)))
		r = -ENOMEM;
	if (!r) {
		nl_limits(ctx, &valid, &features, NULL);
		/*
		 * The kernel bounds the reply (QUERIES_MAX queries, 28 bytes
		 * each): the socket's default receive buffer holds it and the
		 * ACK behind it.
		 */
		nlh = nl_request(ctx, buf, size, f.id, NLM_F_ACK, DYNDBG_CMD_EXEC);
		for (i = 0; i < n; i++)
			nl_put_query(nlh, &qs[i], valid, true);
		if (dry_run)
			mnl_attr_put(nlh, DYNDBG_A_DRY_RUN, 0, NULL);
		r = nl_talk(nl, nlh, nl_exec_parse, res, errmsg);
	}
	if (nl)
		mnl_socket_close(nl);
	free(buf);
	return r;
}

int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct backend_result *res, char **errmsg)
{
	struct ddctl_queryset *set = NULL;
	int r = ddctl_queryset_new(ctx, &set);

	if (!r) {
		r = ddctl_queryset_parse(set, queries, 0);
		if (r == -EINVAL && errmsg)
			*errmsg = strdup(ddctl_queryset_get_error(set, NULL, NULL, NULL));
	}
	if (!r)
		r = nl_exec_queries(ctx, set->queries, set->count, dry_run, res,
				    errmsg);
	ddctl_queryset_unref(set);
	return r;
}

/* ---- GET: the callsites, written out in the control-file format ---- */

/* Each known site attribute, of its type: strings with their NUL. */
static int site_attr_cb(const struct nlattr *attr, void *data)
{
	return keep_attr(attr, data, DYNDBG_A_SITE_CLASS_ID,
			 1u << DYNDBG_A_SITE_LINE | 1u << DYNDBG_A_SITE_FLAGS |
			 1u << DYNDBG_A_SITE_CLASS_ID, 0);
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
	struct nl_dump_state *st = data;
	struct strbuf *sb = &st->sb;
	char flags[DDCTL_FLAGS_BUFSZ];

	if (mnl_attr_get_type(attr) == DYNDBG_A_GENERATION) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			st->generation = mnl_attr_get_u32(attr);
		return MNL_CB_OK;
	}
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

int nl_dump_once(struct ddctl_ctx *ctx, nl_put_filter_fn put, const void *arg,
		 struct nl_dump_state *st)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	uint32_t valid, features;
	int r;

	r = nl_connect(ctx, false, &nl, &f);
	if (!r) {
		nl_limits(ctx, &valid, &features, NULL);
		nlh = nl_request(ctx, buf, sizeof(buf), f.id, NLM_F_DUMP,
				 DYNDBG_CMD_GET);
		if (put)
			put(nlh, arg, valid);
		strbuf_adds(&st->sb, "# filename:lineno [module]function flags format\n");
		r = nl_talk(nl, nlh, nl_get_parse, st, NULL);
	}
	if (nl)
		mnl_socket_close(nl);
	return r;
}

static void put_filter(struct nlmsghdr *nlh, const void *q, uint32_t valid)
{
	nl_put_query(nlh, q, valid, false);
}

/* The dump filter: one match-only query the family can carry. */
static int parse_filter(struct ddctl_ctx *ctx, const char *text,
			struct ddctl_queryset **out)
{
	struct ddctl_queryset *set = NULL;
	char *why = NULL;
	int r = ddctl_queryset_new(ctx, &set);

	if (!r)
		r = ddctl_queryset_parse(set, text, DDCTL_PARSE_MATCH_ONLY);
	if (r == -EINVAL)
		err(ctx, "dump filter: %s\n", ddctl_queryset_get_error(set, NULL, NULL, NULL));
	if (!r && set->count != 1) {
		err(ctx, "dump filter \"%s\": one query, not %zu\n", text, set->count);
		r = -EINVAL;
	}
	if (!r && nl_query_check(ctx, &set->queries[0], false, &why) < 0) {
		err(ctx, "dump filter \"%s\": %s\n", text, why ? why : "invalid");
		r = -EINVAL;
	}
	free(why);
	if (r < 0)
		ddctl_queryset_unref(set);
	else
		*out = set;
	return r;
}

int nl_dump_gen(struct ddctl_ctx *ctx, const char *filter, char **text,
		unsigned int *generation)
{
	struct ddctl_queryset *set = NULL;
	struct nl_dump_state st = { 0 };
	int r = 0, tries;

	if (filter) {
		/* the family first: the filter is checked against its features */
		if (!dyndbg_present(ctx))
			return -ENOENT;
		r = parse_filter(ctx, filter, &set);
	}
	/* NLM_F_DUMP_INTR: the sites changed during the dump; dump again */
	for (tries = 0, r = r ? r : -EINTR; r == -EINTR && tries <= NL_DUMP_RETRIES;
	     tries++) {
		strbuf_release(&st.sb);
		r = nl_dump_once(ctx, set ? put_filter : NULL,
				 set ? &set->queries[0] : NULL, &st);
	}
	ddctl_queryset_unref(set);
	if (r == -EINTR) {
		warn(ctx, "the callsites changed during each of %d netlink dumps (NLM_F_DUMP_INTR): giving up\n",
		     tries);
		r = -EAGAIN;
	}
	if (r < 0) {
		strbuf_release(&st.sb);
		return r;
	}
	if (generation)
		*generation = st.generation;
	*text = strbuf_steal(&st.sb);
	return *text ? 0 : -ENOMEM;
}

int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text)
{
	return nl_dump_gen(ctx, filter, text, NULL);
}

static int dyndbg_read(struct ddctl_ctx *ctx, char **text)
{
	int r = nl_dump(ctx, NULL, text);

	if (r < 0)
		err(ctx, "cannot dump callsites over netlink: %s\n",
		    r == -ENOENT ? "the kernel has no dyndbg netlink family (of uapi v3)" :
		    strerror(-r));
	return r;
}

static int dyndbg_open(struct backend *b)
{
	uint32_t valid, features, max;

	b->reaches_kernel = true;
	/* the family's own limit: sets above it are split (kernel/txn.c) */
	if (dyndbg_present(b->ctx)) {
		nl_limits(b->ctx, &valid, &features, &max);
		b->max_queries = max;
	}
	return 0;
}

static int dyndbg_exec(struct backend *b, const char *text, size_t len,
		       const struct ddctl_query *queries, size_t n,
		       bool dry_run, struct backend_result *res, char **errmsg)
{
	_cleanup_free_ char *copy = NULL;

	if (queries)
		return nl_exec_queries(b->ctx, queries, n, dry_run, res, errmsg);
	copy = strndup(text, len);
	return copy ? nl_exec(b->ctx, copy, dry_run, res, errmsg) : -ENOMEM;
}

static int dyndbg_check(struct backend *b, const struct ddctl_query *q,
			size_t idx, char **why)
{
	(void)idx;
	if (!dyndbg_present(b->ctx))
		return 0; /* the exec says why */
	return nl_query_check(b->ctx, q, true, why);
}

static void dyndbg_close(struct backend *b)
{
	(void)b;
}

const struct backend_ops dyndbg_backend = {
	.name = "netlink",
	.max_len = NL_EXEC_TEXT_MAX,
	.max_queries = DYNDBG_QUERIES_MAX,
	.transactional = true,
	.exec_name = "transaction",
	.split_note = "the set is larger than one transaction takes (the kernel's QUERIES_MAX): sent as %u transactions\n",
	.read = dyndbg_read,
	.open = dyndbg_open,
	.exec = dyndbg_exec,
	.check = dyndbg_check,
	.close = dyndbg_close,
};
