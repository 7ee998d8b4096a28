// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Raw queries and GET_FEATURES for nlexec and nldump (see nlraw.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kernel/dyndbg-nl.h"
#include "nlraw.h"

static const struct {
	const char *key;
	uint16_t attr;
	char kind; /* s: string, u: u32, f: bitfield32 */
} keys[] = {
	{ "module", DYNDBG_A_QUERY_MODULE, 's' },
	{ "file", DYNDBG_A_QUERY_FILE, 's' },
	{ "func", DYNDBG_A_QUERY_FUNC, 's' },
	{ "format", DYNDBG_A_QUERY_FORMAT, 's' },
	{ "class", DYNDBG_A_QUERY_CLASS, 's' },
	{ "line_min", DYNDBG_A_QUERY_LINE_MIN, 'u' },
	{ "line_max", DYNDBG_A_QUERY_LINE_MAX, 'u' },
	{ "negate", DYNDBG_A_QUERY_NEGATE, 'u' },
	{ "flags", DYNDBG_A_QUERY_FLAGS, 'f' },
};

/* A number, or letters of @letters (bit i for letter i), "_": 0. */
static int bits(const char *s, const char *letters, uint32_t *out)
{
	char *end;

	*out = 0;
	if (!strcmp(s, "all")) {
		*out = 0x7f;
		return 0;
	}
	if (*s >= '0' && *s <= '9') {
		*out = strtoul(s, &end, 0);
		return *end ? -EINVAL : 0;
	}
	for (; *s && *s != '_'; s++) {
		const char *c = strchr(letters, *s);

		if (!c)
			return -EINVAL;
		*out |= 1u << (c - letters);
	}
	return 0;
}

static int put_one(struct nlmsghdr *nlh, int k, const char *v)
{
	struct nla_bitfield32 bf;
	const char *slash;
	char *value;
	uint32_t n;
	int r;

	switch (keys[k].kind) {
	case 's':
		mnl_attr_put_strz(nlh, keys[k].attr, v);
		return 0;
	case 'f':
		slash = strchr(v, '/');
		if (!slash || !(value = strndup(v, slash - v)))
			return -EINVAL;
		r = bits(value, "pmfltsd", &bf.value);
		free(value);
		if (!r)
			r = bits(slash + 1, "pmfltsd", &bf.selector);
		if (!r)
			mnl_attr_put(nlh, keys[k].attr, sizeof(bf), &bf);
		return r;
	default:
		r = bits(v, "", &n);
		if (!r)
			mnl_attr_put_u32(nlh, keys[k].attr, n);
		return r;
	}
}

int nlraw_put_query(struct nlmsghdr *nlh, const char *spec)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY);
	char *copy = strdup(spec), *item, *save = NULL, *eq;
	int r = copy ? 0 : -ENOMEM;
	size_t k;

	for (item = copy ? strtok_r(copy, ",", &save) : NULL; item && !r;
	     item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		r = -EINVAL;
		if (!eq)
			break;
		*eq = '\0';
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(item, keys[k].key))
				r = put_one(nlh, k, eq + 1);
		if (r < 0)
			fprintf(stderr, "raw query \"%s\": bad item \"%s=%s\"\n",
				spec, item, eq + 1);
	}
	free(copy);
	mnl_attr_nest_end(nlh, nest);
	return r;
}

void nlraw_put_filter(struct nlmsghdr *nlh, const void *arg, uint32_t valid)
{
	(void)valid;
	/* (a bad spec is said on stderr; the dump goes without it) */
	nlraw_put_query(nlh, arg);
}

int nlraw_features(struct ddctl_ctx *ctx, struct nl_features *ft, char **msg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nl_family f;
	int r = nl_connect(ctx, false, &nl, &f);

	memset(ft, 0, sizeof(*ft));
	if (r < 0)
		return r;
	r = nl_talk(nl, nl_request(ctx, buf, sizeof(buf), f.id, NLM_F_ACK,
				   DYNDBG_CMD_GET_FEATURES),
		    nl_features_parse, ft, msg);
	mnl_socket_close(nl);
	return r;
}
