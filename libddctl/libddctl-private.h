/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_PRIVATE_H
#define DDCTL_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <syslog.h>
#include <sys/types.h>

#include <ddctl/ddctl.h>

#include "util/strbuf.h"
#include "util/util.h"

#define DDCTL_EXPORT __attribute__((visibility("default")))

/* The kernel's limits (lib/dynamic_debug.c, Linux 6.12). */
#define DD_MAXWORDS 9
#define DD_WRITE_MAX 4095
/*
 * Every flag bit a control file can show: pmflts, and 'd' (Linux 7.2,
 * DDCTL_FLAG_STACK), which queries cannot set but '+' and '-' keep.
 */
#define DD_FLAGS_ALL 0x7fu

struct kmod_ctx;

struct ddctl_ctx {
	int refcount;
	void (*log_fn)(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args);
	void *log_data;
	int log_priority;
	char *control_path;
	bool features_known;
	unsigned int features;
	struct kmod_ctx *kmod;
	enum ddctl_backend backend; /* as set; AUTO resolves per call */
	unsigned int nl_family; /* 0: absent */
	uint32_t nl_seq; /* the last netlink request's sequence number */
	bool nl_probed;
	bool control_path_set;
	char *config_root; /* NULL: $DDCTL_CONFIG_ROOT, else "" */
	char *write_capture; /* ddctl_set_write_capture(); NULL: the kernel */
};

void ddctl_log(struct ddctl_ctx *ctx, int priority, const char *file,
	       int line, const char *fn, const char *format, ...)
	__attribute__((format(printf, 6, 7)));

#define ddctl_log_cond(ctx, prio, ...)                                      \
	do {                                                                \
		if ((ctx) && ddctl_get_log_priority(ctx) >= (prio))        \
			ddctl_log(ctx, prio, __FILE__, __LINE__, __func__, \
				  __VA_ARGS__);                             \
	} while (0)

#define err(ctx, ...) ddctl_log_cond(ctx, LOG_ERR, __VA_ARGS__)
#define warn(ctx, ...) ddctl_log_cond(ctx, LOG_WARNING, __VA_ARGS__)
#define info(ctx, ...) ddctl_log_cond(ctx, LOG_INFO, __VA_ARGS__)
#define dbg(ctx, ...) ddctl_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)

/* table.c */
int dd_flag_from_char(char c);

/* ctx.c */
bool ctx_control_is_kernel(struct ddctl_ctx *ctx);
bool ctx_writes_kernel(struct ddctl_ctx *ctx);

/* config.c: the prefix of every configuration path */
const char *ctx_config_root(struct ddctl_ctx *ctx);

/* A callsite; strings point into the table's buffer. */
struct ddctl_site {
	const char *file;
	const char *module;
	const char *function;
	const char *format;
	const char *class_name; /* NULL: no class; "": unknown */
	const char *basename;
	unsigned int line;
	int class_id;
	unsigned int flags;
};

struct ddctl_table {
	int refcount;
	struct ddctl_ctx *ctx;
	struct ddctl_table *parent; /* owns the strings of a derived table */
	char *buf;
	struct ddctl_site *sites;
	size_t count;
	struct dd_index *index; /* index.c, built on first use */
};

/* index.c: the sites a query matches, touching only candidates */
enum dd_key {
	DD_KEY_MODULE,
	DD_KEY_FILE,
	DD_KEY_FUNC,
	DD_KEY_NR,
};
struct dd_sites {
	size_t *idx; /* site indices, in no particular order */
	size_t n, alloc;
};
struct ddctl_query;
int index_query_sites(struct ddctl_table *t, const struct ddctl_query *q,
		      struct dd_sites *out);
bool index_has_value(struct ddctl_table *t, enum dd_key key, const char *value);
void index_free(struct dd_index *x);
/* the value ids of @key per site: sorting by them sorts by the strings */
const size_t *index_ranks(struct ddctl_table *t, enum dd_key key);
/* the distinct values of @key, sorted; a site's rank indexes them */
const char *const *index_values(struct ddctl_table *t, enum dd_key key, size_t *n);

/* wildcard.c: the kernel's match_wildcard() */
bool dd_match_wildcard(const char *pattern, const char *string);
bool dd_has_wildcard(const char *s);

/* A match-spec: one keyword of a query. */
enum dd_spec {
	DD_SPEC_FUNC,
	DD_SPEC_FILE,
	DD_SPEC_MODULE,
	DD_SPEC_FORMAT,
	DD_SPEC_CLASS,
	DD_SPEC_NR,
};

struct ddctl_query {
	char *text;
	char *canonical;
	char *spec[DD_SPEC_NR]; /* NULL when absent; format unescaped */
	bool negated[DD_SPEC_NR];
	unsigned int first_line, last_line;
	bool has_flags;
	char op; /* '+', '-', '=' */
	unsigned int flags; /* the letters given */
	unsigned int set_flags, mask; /* new = (old & mask) | set_flags */
};

struct ddctl_queryset {
	int refcount;
	struct ddctl_ctx *ctx;
	struct ddctl_query *queries;
	size_t count, alloc;
	char *error;
	unsigned int error_index, error_column;
	char *error_word;
	char *error_reason; /* the message without the query and word */
};

/* match.c */
bool query_matches_but(const struct ddctl_query *q, const struct ddctl_site *site,
		       enum dd_spec known);

/* query.c */
int queryset_append(struct ddctl_queryset *set, struct ddctl_query *q);
void query_release(struct ddctl_query *q);
int query_build_canonical(struct ddctl_query *q);
int query_copy(struct ddctl_query *to, const struct ddctl_query *from);
int query_set_spec(struct ddctl_query *q, enum dd_spec spec, char *value);
int queryset_copy(const struct ddctl_queryset *set, struct ddctl_queryset **out);
unsigned int query_apply(const struct ddctl_query *q, unsigned int flags);
struct strbuf;
int queryset_format(const struct ddctl_queryset *set, struct strbuf *sb);

struct ddctl_plan {
	int refcount;
	struct ddctl_table *table;
	struct ddctl_queryset *set;
	unsigned int *matched, *changed;
	unsigned int *final; /* per site */
	bool *selected; /* per site: matched by any query of the set */
	size_t *changes; /* site indices */
	size_t nchanges;
};

/*
 * address.c: queries naming the @selected sites, and no site outside
 * @allowed (NULL: @selected); @compact for a set sent now: short spellings
 * and module wildcards that only hold for the current table.
 */
int address_sites(struct ddctl_table *table, const bool *selected,
		  const bool *allowed, bool compact,
		  const char *flags_word, struct strbuf *out);

/* restore.c: a copy of @from's sites sharing its strings */
int table_derive(struct ddctl_table *from, struct ddctl_table **out);
/* restore.c: ddctl_queryset_new_restore() for a set sent at once (compact) */
int restore_set_now(struct ddctl_ctx *ctx, struct ddctl_table *now,
		    struct ddctl_table *want, struct ddctl_queryset **out);

/* diff.c: for each site of @now that differs from @want (by identity) */
int table_diff(const struct ddctl_table *want, const unsigned int *wflags,
	       const struct ddctl_table *now,
	       void (*fn)(size_t want_idx, size_t now_idx, unsigned int want_flags,
			  void *data),
	       void *data);

/* backend-netlink.c */
#include "kernel/dyndbg-nl.h"
struct mnl_socket;
struct nlmsghdr;
struct nl_exec_result {
	size_t nqueries;
	unsigned int *matched, *changed;
	size_t reported;
	unsigned int keys_patched, sites_changed;
};
int nl_open(struct ddctl_ctx *ctx, struct mnl_socket **out);
int nl_probe(struct ddctl_ctx *ctx);
int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct nl_exec_result *res, char **errmsg);
int nl_exec_parse(const struct nlmsghdr *nlh, void *data);
int nl_get_parse(const struct nlmsghdr *nlh, void *data);
int nl_event_parse(const struct nlmsghdr *nlh, struct ddctl_event *ev);
int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text);
const char *nl_extack_msg(const struct nlmsghdr *nlh);
typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);
struct nl_reply {
	uint32_t portid, seq;
	nl_msg_cb cb;
	void *data;
	char **errmsg;
	bool done, intr; /* intr: NLM_F_DUMP_INTR seen */
};
int nl_reply_parse(const void *buf, size_t size, struct nl_reply *st);
int nl_recv(struct mnl_socket *nl, char **buf, size_t *size, size_t *len);
struct nl_family {
	uint16_t id;
	uint32_t notify_group;
};
int nl_family_parse(const struct nlmsghdr *nlh, void *data);
struct nlmsghdr *nl_request(struct ddctl_ctx *ctx, char *buf, size_t size,
			    uint16_t type, uint16_t flags, uint8_t cmd);
struct nlmsghdr *nl_build_getfamily(struct ddctl_ctx *ctx, char *buf, size_t size);
int nl_monitor_new_socket(struct ddctl_ctx *ctx, struct mnl_socket *nl,
			  struct ddctl_monitor **out);
bool ctx_use_netlink(struct ddctl_ctx *ctx);

/* uevent.c: a listener on @fd reading through @recv (NULL: recvmsg(2)) */
struct msghdr;
typedef ssize_t (*uevent_recvmsg_fn)(int fd, struct msghdr *msg, int flags);
int uevent_listener_new_fd(struct ddctl_ctx *ctx, int fd, uevent_recvmsg_fn recv,
			   struct ddctl_uevent_listener **out);

/* backend-procfs.c */
int procfs_open(struct ddctl_ctx *ctx, const char *path);
int procfs_write(struct ddctl_ctx *ctx, int fd, const char *buf,
		 size_t len);
int procfs_probe_negation(struct ddctl_ctx *ctx, const char *path);

/* features.c: /run/ddctl, or $DDCTL_RUN_DIR (features cache, sessions) */
const char *run_dir(void);

/* features.c: negation probed at most once per boot */
int features_probe_negation(struct ddctl_ctx *ctx, const char *path);
int features_cache_read(const char *dir, const char *boot);
int features_cache_write(const char *dir, const char *boot, int negation);

#endif
