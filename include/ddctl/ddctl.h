/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * libddctl - read, validate, predict and apply Linux dynamic debug queries.
 *
 * Every object hangs off a reference-counted struct ddctl_ctx. Functions
 * return 0 or a negative errno; results come back through out-parameters.
 * The library never prints: it calls the log function (see
 * ddctl_set_log_fn()). Strings returned by getters are owned by the object
 * they come from and live as long as it does.
 *
 * Names and lifetimes, one rule per kind of object:
 *  - Values that other objects keep a reference to (the context, tables,
 *    query sets, plans, transactions) are reference-counted:
 *    ddctl_<object>_ref() and ddctl_<object>_unref() (the context:
 *    ddctl_ref(), ddctl_unref()); unref returns NULL once freed.
 *  - Handles with one owner, most holding a file descriptor or socket
 *    (monitor, kmsg reader, kmsg index, session, uevent listener), are
 *    freed with ddctl_<object>_free().
 *  - Constructors: ddctl_<object>_new(), or ddctl_<object>_new_from_<what>()
 *    / _new_for_<what>() / _new_with_<what>() when they build from
 *    something; the context is ddctl_new(); ddctl_table_read() makes the
 *    table of the running kernel. Every unref and free accepts NULL.
 *  - Verbs say what happens: _format_ returns text (malloc'd), _save and
 *    _write write a file, _load and _read read one, _parse parses text.
 */
#ifndef DDCTL_DDCTL_H
#define DDCTL_DDCTL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ddctl_ctx;
struct ddctl_table;
struct ddctl_site;
struct ddctl_queryset;
struct ddctl_query;
struct ddctl_plan;
struct ddctl_txn;

/* ------------------------------------------------------------------ */
/* Context                                                            */
/* ------------------------------------------------------------------ */

/**
 * ddctl_new() - create a library context
 * @ctx: out: the new context, with one reference
 *
 * The control file is located lazily: /proc/dynamic_debug/control, else
 * <debugfs>/dynamic_debug/control with debugfs found through /proc/mounts,
 * unless ddctl_set_control_path() names one.
 *
 * Return: 0, or -ENOMEM.
 */
int ddctl_new(struct ddctl_ctx **ctx);

/** ddctl_ref() - take a reference on @ctx. Return: @ctx. */
struct ddctl_ctx *ddctl_ref(struct ddctl_ctx *ctx);

/** ddctl_unref() - drop a reference; frees on the last. NULL is accepted. */
struct ddctl_ctx *ddctl_unref(struct ddctl_ctx *ctx);

/**
 * ddctl_set_log_fn() - route the library's messages
 * @ctx: context
 * @fn: called with a syslog priority (LOG_ERR ... LOG_DEBUG), the source
 *      file, line and function, and a printf format; NULL silences the
 *      library
 * @data: passed back to @fn
 *
 * The default writes messages of priority LOG_WARNING or more urgent to
 * stderr.
 * The environment variable DDCTL_LOG (err, info, debug or a number) sets
 * the initial priority.
 */
void ddctl_set_log_fn(struct ddctl_ctx *ctx,
		      void (*fn)(void *data, int priority, const char *file,
				 int line, const char *fn, const char *format,
				 va_list args),
		      void *data);

/** ddctl_get_log_priority() - the most verbose priority that is logged. */
int ddctl_get_log_priority(const struct ddctl_ctx *ctx);

/** ddctl_set_log_priority() - set the most verbose priority logged. */
void ddctl_set_log_priority(struct ddctl_ctx *ctx, int priority);

/**
 * ddctl_set_kernel() - the kernel whose query language applies
 * @ctx: context
 * @release: a kernel release as uname -r prints it ("6.1.0-57-amd64",
 *           "7.2"); NULL: the running kernel's, found with uname(2), or,
 *           when ddctl_set_control_path() named a control file, the newest
 *           rules ddctl knows
 *
 * The flags a query may give depend on the kernel: 's' came with Linux
 * 6.6, 'd' with 7.2 (see ddctl_flag_get_info()). Parsing, prediction and
 * the errors follow this kernel's rules.
 *
 * Return: 0, -EINVAL for "", or -ENOMEM.
 */
int ddctl_set_kernel(struct ddctl_ctx *ctx, const char *release);

/**
 * ddctl_get_kernel() - the release of ddctl_set_kernel(), else the running
 * kernel's; NULL when it is not known (a named control file): the newest
 * rules apply.
 */
const char *ddctl_get_kernel(struct ddctl_ctx *ctx);

/**
 * ddctl_get_query_flags() - the flags (enum ddctl_flag bits) a query may
 * give on the kernel of ddctl_get_kernel(); every known flag when that is
 * not known.
 */
unsigned int ddctl_get_query_flags(struct ddctl_ctx *ctx);

/**
 * ddctl_flag_get_info() - the flag letters, for help texts
 * @idx: 0, 1, ... in the order the kernel prints them; '_' last
 * @letter: out: the letter
 * @bit: out, may be NULL: its enum ddctl_flag bit (0 for '_')
 * @what: out, may be NULL: what it does, one short phrase
 * @since: out, may be NULL: the first Linux release with it ("" for a
 *         flag every supported kernel has)
 *
 * Return: 0, or -ENOENT past the last letter.
 */
int ddctl_flag_get_info(size_t idx, char *letter, unsigned int *bit,
			const char **what, const char **since);

/**
 * ddctl_set_control_path() - use @path as the control file
 * @ctx: context
 * @path: any readable file in the control-file format; NULL restores
 *        automatic discovery
 *
 * Return: 0, or -ENOMEM.
 */
int ddctl_set_control_path(struct ddctl_ctx *ctx, const char *path);

/**
 * ddctl_set_write_capture() - send the writes meant for the kernel to a file
 * @ctx: context
 * @path: a file that receives, appended, exactly the bytes each write(2) to
 *        the control file would carry; NULL writes to the kernel again
 *
 * Meant for tests and for seeing what ddctl sends: with a capture file no
 * query reaches the kernel, and a control path that is not the kernel's
 * (a fixture) can be used with transactions. Without it, writes go only to
 * a control file on procfs or debugfs: any other file is refused with
 * -EMEDIUMTYPE, so a mistyped control path never overwrites a regular file.
 *
 * Return: 0, or -ENOMEM.
 */
int ddctl_set_write_capture(struct ddctl_ctx *ctx, const char *path);

/**
 * ddctl_get_control_path() - the control file in use
 * @ctx: context
 * @path: out: the path; owned by @ctx
 *
 * Return: 0, or -ENOENT when the kernel offers no control file (no dynamic
 * debug, or debugfs not mounted and no /proc/dynamic_debug).
 */
int ddctl_get_control_path(struct ddctl_ctx *ctx, const char **path);

/**
 * enum ddctl_feature - what the kernel behind the control file supports
 * @DDCTL_FEATURE_CONTROL: a control file exists and is a kernel file
 * @DDCTL_FEATURE_NEGATION: the kernel parses negated match-specs
 *                          (`!module virtio*`) itself
 * @DDCTL_FEATURE_NETLINK: the kernel has the "dyndbg" generic netlink
 *                         family (dry runs, per-query counts, callsite
 *                         dumps, change notifications)
 * @DDCTL_FEATURE_TRANSACTIONS: the kernel applies a set atomically with
 *                              one text-poke flush (comes with netlink)
 */
enum ddctl_feature {
	DDCTL_FEATURE_CONTROL = 1 << 0,
	DDCTL_FEATURE_NEGATION = 1 << 1,
	DDCTL_FEATURE_NETLINK = 1 << 2,
	DDCTL_FEATURE_TRANSACTIONS = 1 << 3,
};

/**
 * enum ddctl_backend - how sets reach the kernel
 * @DDCTL_BACKEND_AUTO: netlink when the kernel has the family, else the
 *                      control file (the default)
 * @DDCTL_BACKEND_CONTROL: always the control file
 * @DDCTL_BACKEND_NETLINK: always netlink (fails with -ENOENT without it);
 *                         tables are read with the netlink dump too
 */
enum ddctl_backend {
	DDCTL_BACKEND_AUTO,
	DDCTL_BACKEND_CONTROL,
	DDCTL_BACKEND_NETLINK,
};

/** ddctl_set_backend() - choose the backend; see enum ddctl_backend. */
void ddctl_set_backend(struct ddctl_ctx *ctx, enum ddctl_backend backend);

/**
 * ddctl_get_backend() - the backend that will be used
 * @ctx: context
 *
 * Return: DDCTL_BACKEND_NETLINK or DDCTL_BACKEND_CONTROL (AUTO resolved by
 * probing the kernel once).
 */
enum ddctl_backend ddctl_get_backend(struct ddctl_ctx *ctx);

/**
 * ddctl_get_features() - probe the kernel's features
 * @ctx: context
 * @features: out: a mask of enum ddctl_feature
 *
 * A kernel with the dyndbg netlink family (kernel-patches/ part 2) has
 * negation and transactions: nothing is written. Elsewhere negation is
 * probed by writing the query `!module * +_`, which matches nothing on a
 * kernel that supports negation and is rejected by one that does not
 * (which logs "unknown keyword" at error level); either way no callsite
 * changes. The probe runs at most once per boot: its answer is kept in
 * /run/ddctl/features ($DDCTL_RUN_DIR), keyed by
 * /proc/sys/kernel/random/boot_id. Without write permission nothing is
 * probed and, unless the cache says otherwise, no negation is reported,
 * which is safe: the library then expands negated queries itself. A control path that is
 * not a kernel file (a test fixture) reports neither feature unless
 * ddctl_set_features() said otherwise.
 *
 * Return: 0, or a negative errno when the control file cannot be found.
 */
int ddctl_get_features(struct ddctl_ctx *ctx, unsigned int *features);

/**
 * ddctl_set_features() - override the probe (tests, or a known kernel)
 * @ctx: context
 * @features: a mask of enum ddctl_feature, used from now on
 */
void ddctl_set_features(struct ddctl_ctx *ctx, unsigned int features);

/* ------------------------------------------------------------------ */
/* Flags                                                              */
/* ------------------------------------------------------------------ */

/**
 * enum ddctl_flag - callsite flags, the bits the kernel uses
 * @DDCTL_FLAG_PRINT: 'p', the message is printed
 * @DDCTL_FLAG_MODNAME: 'm', prefix the module name
 * @DDCTL_FLAG_FUNCNAME: 'f', prefix the function name
 * @DDCTL_FLAG_LINENO: 'l', prefix the line number
 * @DDCTL_FLAG_TID: 't', prefix the thread id
 * @DDCTL_FLAG_SOURCENAME: 's', prefix the source file name
 * @DDCTL_FLAG_STACK: 'd', dump the stack after the message (Linux 7.2 and
 *                    later; read from any control file that shows it, but
 *                    not accepted in queries: older kernels refuse it)
 */
enum ddctl_flag {
	DDCTL_FLAG_PRINT = 1 << 0,
	DDCTL_FLAG_MODNAME = 1 << 1,
	DDCTL_FLAG_FUNCNAME = 1 << 2,
	DDCTL_FLAG_LINENO = 1 << 3,
	DDCTL_FLAG_TID = 1 << 4,
	DDCTL_FLAG_SOURCENAME = 1 << 5,
	DDCTL_FLAG_STACK = 1 << 6,
};

/** DDCTL_FLAGS_BUFSZ - room for any flag string with its leading '='. */
#define DDCTL_FLAGS_BUFSZ 9

/**
 * ddctl_flags_format() - print flags as the control file does
 * @flags: mask of enum ddctl_flag
 * @buf: at least DDCTL_FLAGS_BUFSZ bytes
 *
 * Return: @buf, holding e.g. "=pmf" or "=_".
 */
char *ddctl_flags_format(unsigned int flags, char *buf);

/* ------------------------------------------------------------------ */
/* Site tables: the control file, read                                */
/* ------------------------------------------------------------------ */

/**
 * ddctl_table_read() - read the control file into a site table
 * @ctx: context
 * @table: out: the table, with one reference
 *
 * Return: 0; -ENOENT without a control file; -EACCES; -EBADMSG when a
 * line is not in the control-file format (the log says which line).
 */
int ddctl_table_read(struct ddctl_ctx *ctx, struct ddctl_table **table);

/**
 * ddctl_table_new_from_buffer() - parse text in the control-file format
 * @ctx: context
 * @buf: the text; copied
 * @len: its length in bytes
 * @table: out: the table
 *
 * Return: 0, -ENOMEM or -EBADMSG.
 */
int ddctl_table_new_from_buffer(struct ddctl_ctx *ctx, const char *buf,
				size_t len, struct ddctl_table **table);

/** ddctl_table_ref() - take a reference. Return: @table. */
struct ddctl_table *ddctl_table_ref(struct ddctl_table *table);

/** ddctl_table_unref() - drop a reference. NULL is accepted. */
struct ddctl_table *ddctl_table_unref(struct ddctl_table *table);

/** ddctl_table_get_count() - number of callsites in @table. */
size_t ddctl_table_get_count(const struct ddctl_table *table);

/** ddctl_table_get_site() - callsite @idx (0-based), or NULL past the end. */
const struct ddctl_site *ddctl_table_get_site(const struct ddctl_table *table,
					      size_t idx);

/** ddctl_site_get_file() - the file as the control file prints it. */
const char *ddctl_site_get_file(const struct ddctl_site *site);
/** ddctl_site_get_line() - the line number. */
unsigned int ddctl_site_get_line(const struct ddctl_site *site);
/** ddctl_site_get_module() - the module name ("[module]"). */
const char *ddctl_site_get_module(const struct ddctl_site *site);
/** ddctl_site_get_function() - the function name. */
const char *ddctl_site_get_function(const struct ddctl_site *site);
/**
 * ddctl_site_get_format() - the format's bytes, the kernel's escapes undone:
 * 6.1 and later print TAB, CR and LF as \t \r \n, older kernels TAB, LF,
 * CR and '"' as \011 \012 \015 \042; everything else, backslashes and
 * quotes included, is printed raw and read as printed (which of the two a
 * table comes from is told by how its formats end). A raw backslash before
 * what looks like an escape reads as that escape: the control file prints
 * both alike.
 */
const char *ddctl_site_get_format(const struct ddctl_site *site);
/** ddctl_site_get_flags() - the current flags, enum ddctl_flag. */
unsigned int ddctl_site_get_flags(const struct ddctl_site *site);
/**
 * ddctl_site_get_class() - the class name, or NULL for a site without a
 * class. A site the kernel prints as "class unknown, _id:N" returns "" and
 * ddctl_site_get_class_id() tells N.
 */
const char *ddctl_site_get_class(const struct ddctl_site *site);
/** ddctl_site_get_class_id() - N of "class unknown, _id:N", else -1. */
int ddctl_site_get_class_id(const struct ddctl_site *site);

/* ------------------------------------------------------------------ */
/* Query sets: the query language                                     */
/* ------------------------------------------------------------------ */

/**
 * enum ddctl_parse_flags - how ddctl_queryset_parse() reads its text
 * @DDCTL_PARSE_MATCH_ONLY: queries are match-specs without flags (used to
 *                          select sites for listing)
 */
enum ddctl_parse_flags {
	DDCTL_PARSE_MATCH_ONLY = 1 << 0,
};

/**
 * ddctl_queryset_new() - an empty query set
 * @ctx: context
 * @set: out: the set, with one reference
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_queryset_new(struct ddctl_ctx *ctx, struct ddctl_queryset **set);

/** ddctl_queryset_ref() - take a reference. Return: @set. */
struct ddctl_queryset *ddctl_queryset_ref(struct ddctl_queryset *set);

/** ddctl_queryset_unref() - drop a reference. NULL is accepted. */
struct ddctl_queryset *ddctl_queryset_unref(struct ddctl_queryset *set);

/**
 * ddctl_queryset_parse() - parse text and append its queries to @set
 * @set: query set
 * @text: one or more queries separated by ';' or newlines; '#' starts a
 *        comment, exactly as the kernel's control file accepts them, plus
 *        negated match-specs (`!module virtio*` or `module !virtio*`)
 * @flags: enum ddctl_parse_flags
 *
 * Parsing follows Linux 6.12 lib/dynamic_debug.c rule for rule. On error
 * nothing is appended and the error is available from
 * ddctl_queryset_get_error(); queries appended by earlier calls stay.
 *
 * Return: 0, -EINVAL for a query error, -ENOMEM.
 */
int ddctl_queryset_parse(struct ddctl_queryset *set, const char *text,
			 unsigned int flags);

/**
 * ddctl_queryset_parse_buffer() - parse a file of queries
 * @set: query set
 * @name: the file's name, for messages
 * @buf: its contents (need not end in NUL)
 * @len: their length in bytes
 * @flags: enum ddctl_parse_flags
 *
 * As ddctl_queryset_parse(), line by line; an error names the file and
 * line (`FILE:LINE: "QUERY", column C, word "W": reason`), and a NUL byte
 * anywhere is an error too, so a binary file is never taken for a shorter
 * one. A file of only comments and blank lines is a valid empty set. On
 * error nothing of the file is appended.
 *
 * Return: 0, -EINVAL (see ddctl_queryset_get_error()), -ENOMEM.
 */
int ddctl_queryset_parse_buffer(struct ddctl_queryset *set, const char *name,
				const char *buf, size_t len, unsigned int flags);

/**
 * ddctl_queryset_get_error() - describe the last parse error
 * @set: query set
 * @index: out, may be NULL: 1-based index of the failing query in the set
 * @column: out, may be NULL: 1-based column of the word in that query
 * @word: out, may be NULL: the offending word ("" when the query is empty
 *        or the error is about the query as a whole)
 *
 * Return: a complete message naming the query, the word and the reason,
 * e.g. `query 2 "module foo +x", column 12, word "+x": unknown flag 'x'
 * (flags are p m f l t s _)`; NULL when there was no error.
 */
const char *ddctl_queryset_get_error(const struct ddctl_queryset *set,
				     unsigned int *index, unsigned int *column,
				     const char **word);

/** ddctl_queryset_get_count() - the number of queries in @set. */
size_t ddctl_queryset_get_count(const struct ddctl_queryset *set);

/** ddctl_queryset_get_query() - query @idx (0-based), or NULL. */
const struct ddctl_query *ddctl_queryset_get_query(
	const struct ddctl_queryset *set, size_t idx);

/** ddctl_query_get_text() - the query as written, trimmed. */
const char *ddctl_query_get_text(const struct ddctl_query *query);

/**
 * ddctl_query_get_canonical() - the query as ddctl sends it: normalised
 * module names, one space between words, quotes only where needed.
 */
const char *ddctl_query_get_canonical(const struct ddctl_query *query);

/** ddctl_query_is_negated() - whether a match-spec of @query is negated. */
bool ddctl_query_is_negated(const struct ddctl_query *query);

/** ddctl_query_matches() - whether @query's match-specs select @site. */
bool ddctl_query_matches(const struct ddctl_query *query,
			 const struct ddctl_site *site);

/* ------------------------------------------------------------------ */
/* Plans: what a query set will change                                */
/* ------------------------------------------------------------------ */

/**
 * ddctl_plan_new() - predict the effect of @set on @table
 * @set: query set (its queries must carry flags)
 * @table: the current state
 * @plan: out: the prediction, with one reference
 *
 * Queries are applied in order with the kernel's semantics. The plan
 * holds per-query counts and the net change of the whole set: a site
 * changed and changed back is not a change.
 *
 * Return: 0, -EINVAL for a match-only set, -ENOMEM.
 */
int ddctl_plan_new(struct ddctl_queryset *set, struct ddctl_table *table,
		   struct ddctl_plan **plan);

/** ddctl_plan_ref() - take a reference. Return: @plan. */
struct ddctl_plan *ddctl_plan_ref(struct ddctl_plan *plan);

/** ddctl_plan_unref() - drop a reference. NULL is accepted. */
struct ddctl_plan *ddctl_plan_unref(struct ddctl_plan *plan);

/** ddctl_plan_get_matched() - sites query @idx selected. */
unsigned int ddctl_plan_get_matched(const struct ddctl_plan *plan, size_t idx);

/** ddctl_plan_get_changed() - sites whose flags query @idx changed. */
unsigned int ddctl_plan_get_changed(const struct ddctl_plan *plan, size_t idx);

/** ddctl_plan_get_change_count() - sites whose flags differ at the end. */
size_t ddctl_plan_get_change_count(const struct ddctl_plan *plan);

/**
 * ddctl_plan_get_change() - net change @idx, in table order
 * @plan: plan
 * @idx: 0-based
 * @site: out: the site (owned by the plan's table)
 * @old_flags: out, may be NULL
 * @new_flags: out, may be NULL
 *
 * Return: 0, or -ERANGE.
 */
int ddctl_plan_get_change(const struct ddctl_plan *plan, size_t idx,
			  const struct ddctl_site **site,
			  unsigned int *old_flags, unsigned int *new_flags);

/** ddctl_plan_get_final_flags() - predicted flags of table site @idx. */
unsigned int ddctl_plan_get_final_flags(const struct ddctl_plan *plan,
					size_t idx);

/* ------------------------------------------------------------------ */
/* Expansion of negated queries                                       */
/* ------------------------------------------------------------------ */

/**
 * ddctl_queryset_expand() - rewrite negated queries as positive ones
 * @set: query set
 * @table: the sites the kernel has
 * @out: out: a new set whose net effect on @table equals @set's and that
 *       has no negated match-spec
 *
 * A negated query becomes queries that change exactly the sites it would
 * change and no other: whole modules where it selects every site of a
 * module, merged into `module PREFIX*` over the table's module names, then
 * files, functions, lines and single sites, each spelled as briefly as
 * @table allows (a function or file without its module when that names no
 * other site that would change). Sites whose flags the query would leave
 * as they are (at its place in the set) may be named along. The result
 * holds for @table: send it right away. It is checked by predicting both
 * sets.
 *
 * Return: 0, -ENOMEM, or -ENOTRECOVERABLE when a site cannot be named by
 * any query (the log says which).
 */
int ddctl_queryset_expand(struct ddctl_queryset *set, struct ddctl_table *table,
			  struct ddctl_queryset **out);

/* ------------------------------------------------------------------ */
/* Restoring a state                                                  */
/* ------------------------------------------------------------------ */

/**
 * ddctl_queryset_new_restore() - the queries that bring @now to @want
 * @ctx: context
 * @now: the current state (its sites are the ones the queries name)
 * @want: the wanted state; sites are matched with @now by module, file,
 *        line, function and format, and sites only one table has are left
 *        alone
 * @out: out: a set of `=flags` queries, one group per target flag value,
 *       naming exactly the sites whose flags differ (empty when none do)
 *
 * Undoing a set is ddctl_queryset_new_restore(ctx, now, table_before).
 *
 * Return: 0, -ENOMEM, or -ENOTRECOVERABLE when a site cannot be named.
 */
int ddctl_queryset_new_restore(struct ddctl_ctx *ctx, struct ddctl_table *now,
			       struct ddctl_table *want,
			       struct ddctl_queryset **out);

/**
 * ddctl_table_new_from_plan() - the state a plan predicts
 * @plan: plan
 * @out: out: a table like the plan's, with the predicted flags
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_table_new_from_plan(struct ddctl_plan *plan,
			      struct ddctl_table **out);

/**
 * ddctl_table_new_with_flags() - a copy of @from with every site's flags
 * set to @flags (0 gives the default state of a kernel booted without
 * dyndbg parameters)
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_table_new_with_flags(struct ddctl_table *from, unsigned int flags,
			       struct ddctl_table **out);

/* ------------------------------------------------------------------ */
/* Saved settings                                                     */
/* ------------------------------------------------------------------ */

/*
 * A saved script starts with DDCTL_SAVE_MAGIC; one that starts with
 * DDCTL_SAVE_MAGIC_ENDED (every script ddctl_table_format_script() writes)
 * ends with the line DDCTL_SAVE_END, so that a script cut short (a full
 * disk) can be told from a whole one. Older scripts have neither.
 */
#define DDCTL_SAVE_MAGIC "# ddctl saved state"
#define DDCTL_SAVE_MAGIC_ENDED "# ddctl saved state, format 2:"
#define DDCTL_SAVE_END "# end of the ddctl saved state"

/**
 * ddctl_table_format_script() - the state of @table as a query script (text)
 * @table: the state to save
 * @text: out: a newly allocated script; free() it
 *
 * The script is a comment header and the `=flags` queries that bring the
 * default state (every flag off, `=_`) to @table's: one group per flag
 * value, naming whole modules, files, functions or lines where that is
 * exact (ddctl_queryset_new_restore() from the default), then the line
 * DDCTL_SAVE_END. A table in the default state gives the header and the
 * end line alone.
 *
 * Sites no query can give their flags are reported as warnings (log) and
 * as comments in the script, and the rest is saved: the 'd' flag (saved
 * without it), a class the kernel does not name or a module name with
 * wildcard characters (left out), sites of one identity with different
 * flags (left out).
 *
 * Return: 0, -ENOMEM, or -ENOTRECOVERABLE when another changed site cannot
 * be named by a query (the log says which).
 */
int ddctl_table_format_script(struct ddctl_table *table, char **text);

/**
 * ddctl_table_new_from_script() - the state a script gives on @table's
 * sites when they start from the default (every flag off)
 * @table: the sites
 * @script: a parsed query script, e.g. one ddctl_table_format_script() wrote
 * @out: out: a table like @table with the predicted flags
 *
 * Return: 0, -EINVAL for a match-only set, -ENOMEM.
 */
int ddctl_table_new_from_script(struct ddctl_table *table,
				struct ddctl_queryset *script,
				struct ddctl_table **out);

/**
 * ddctl_queryset_new_from_script() - the set that restores a saved script
 * @ctx: context
 * @now: the current state
 * @script: a parsed query script
 * @out: out: the `=flags` queries that bring @now exactly to the state
 *       @script gives on the default state (an empty set when nothing
 *       differs). Meant to be sent at once: to need few writes it may name
 *       sites already at a query's flags, module wildcards and functions
 *       or files without their module, which hold for @now only
 *       (ddctl_queryset_new_restore() names exactly the sites that differ)
 *
 * Return: 0, -EINVAL for a match-only set, -ENOMEM, -ENOTRECOVERABLE.
 */
int ddctl_queryset_new_from_script(struct ddctl_ctx *ctx,
				   struct ddctl_table *now,
				   struct ddctl_queryset *script,
				   struct ddctl_queryset **out);

/* ------------------------------------------------------------------ */
/* Configuration: ddctl.d drop-in directories                         */
/* ------------------------------------------------------------------ */

/**
 * ddctl_set_config_root() - prefix every configuration path with @root
 * @ctx: context
 * @root: a directory standing for "/" (tests, images); NULL restores the
 *        default: the environment variable DDCTL_CONFIG_ROOT, else "/"
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_set_config_root(struct ddctl_ctx *ctx, const char *root);

/**
 * ddctl_get_config_root() - the directory configuration paths are below
 * @ctx: context
 *
 * Return: the root ddctl_set_config_root() gave, else $DDCTL_CONFIG_ROOT,
 * else "" (for "/"); owned by @ctx, valid until the next change.
 */
const char *ddctl_get_config_root(struct ddctl_ctx *ctx);

/**
 * ddctl_config_foreach_file() - the configuration files, in order
 * @ctx: context
 * @fn: called with the path of each file that applies; a non-zero return
 *      stops the walk
 * @data: passed to @fn
 *
 * Files are the `*.conf` of /etc/ddctl.d, /run/ddctl.d and
 * /usr/lib/ddctl.d (below the config root). A name in /etc hides the same
 * name in /run and /usr/lib, and one in /run hides /usr/lib; a name whose
 * file is a symlink to /dev/null is masked. The files that remain come in
 * the lexical order of their names, whatever their directory.
 *
 * Return: 0, the non-zero value @fn returned, or a negative errno.
 */
int ddctl_config_foreach_file(struct ddctl_ctx *ctx,
			      int (*fn)(const char *path, void *data),
			      void *data);

/**
 * ddctl_config_load() - append the merged configuration to @set
 * @ctx: context
 * @set: query set; the queries of every file are appended in file order
 *
 * Each file is a query script as ddctl_queryset_parse() reads it, parsed
 * line by line. On error nothing is appended and
 * ddctl_queryset_get_error() names the file, the line, the query, the
 * column, the word and the reason, e.g. `/etc/ddctl.d/10-net.conf:3:
 * "modul x +p", column 1, word "modul": unknown keyword ...`.
 *
 * Return: 0, -EINVAL for a query error, -ENOMEM, -EIO when a file cannot
 * be read (the log says which).
 */
int ddctl_config_load(struct ddctl_ctx *ctx, struct ddctl_queryset *set);

/**
 * ddctl_config_load_valid() - the merged configuration, without broken files
 * @ctx: context
 * @set: query set; the queries of every valid file are appended in file order
 * @skipped: out: how many files were skipped for a query error
 *
 * As ddctl_config_load(), except that a file with a query error is left
 * out and the others load, as systemd-sysctl treats sysctl.d: a unit that
 * applies the configuration at boot applies what is valid. Each skipped
 * file is logged at error level with the file, the line, the query, the
 * column, the word and the reason. A file that cannot be read or could
 * be changed by a user other than root still ends the load (nothing is
 * appended).
 *
 * Return: 0 (see @skipped), -ENOMEM, -EIO, -EPERM.
 */
int ddctl_config_load_valid(struct ddctl_ctx *ctx, struct ddctl_queryset *set,
			    unsigned int *skipped);

/* ------------------------------------------------------------------ */
/* Modules loaded later                                               */
/* ------------------------------------------------------------------ */

/**
 * ddctl_queryset_new_for_module() - the part of @set that applies to a
 * module loaded now
 * @set: query set, e.g. the configuration
 * @module: the module, as the kernel spells it
 * @out: out: in order, every query of @set whose module match-spec selects
 *       @module (`module virtio*`, `!module foo`) or that has none
 *       (`func *probe* +p`), rewritten to `module @module ...` so that it
 *       touches the new module's sites only
 *
 * Applying @out to a freshly loaded module gives its sites the flags the
 * whole set would have given them had the module been loaded before, and
 * leaves every other module alone.
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_queryset_new_for_module(struct ddctl_queryset *set,
				  const char *module,
				  struct ddctl_queryset **out);

/**
 * ddctl_queryset_new_for_loaded() - the part of @set that applies to every
 * module loaded now
 * @set: query set, e.g. the configuration
 * @out: out: ddctl_queryset_new_for_module() of each module libkmod lists
 *       as loaded (/proc/modules), one after the other, as one set
 *
 * What a module-load watcher applies when it may have missed uevents
 * (ddctl_uevent_listener_read() returned -ENOBUFS): every loaded module
 * gets the configuration again; built-in code is left alone.
 *
 * Return: 0, -ENOMEM or libkmod's error reading the loaded modules.
 */
int ddctl_queryset_new_for_loaded(struct ddctl_queryset *set,
				  struct ddctl_queryset **out);

/**
 * ddctl_uevent_get_module() - the module a module-load uevent announces
 * @buf: a kernel uevent as read from a NETLINK_KOBJECT_UEVENT socket:
 *       "add@/module/NAME" then NUL-separated KEY=VALUE strings; the last
 *       one may end with the buffer instead of a NUL
 * @len: its length in bytes; nothing past it is read
 * @module: out: the module name
 * @size: size of @module
 *
 * Return: 1 for ACTION=add SUBSYSTEM=module DEVPATH=/module/NAME, 0 for any
 * other event, -EINVAL when NAME is not a module name (1 to 55 of
 * [A-Za-z0-9_-]: no wildcard, space or query syntax), -ENAMETOOLONG when
 * it does not fit in @module.
 */
int ddctl_uevent_get_module(const char *buf, size_t len, char *module,
			    size_t size);

struct ddctl_uevent_listener;

/**
 * ddctl_uevent_listener_new() - listen for the kernel's uevents
 * @ctx: context
 * @listener: out: a NETLINK_KOBJECT_UEVENT socket bound to the kernel's
 *            group, with a 1 MiB receive buffer where permitted
 *
 * Return: 0 or the negative errno of socket(2) or bind(2).
 */
int ddctl_uevent_listener_new(struct ddctl_ctx *ctx,
			      struct ddctl_uevent_listener **listener);

/** ddctl_uevent_listener_free() - close the socket. NULL is accepted. */
void ddctl_uevent_listener_free(struct ddctl_uevent_listener *listener);

/** ddctl_uevent_listener_get_fd() - a file descriptor to poll. */
int ddctl_uevent_listener_get_fd(const struct ddctl_uevent_listener *listener);

/**
 * ddctl_uevent_listener_read() - read one uevent (blocks if none)
 * @listener: listener
 * @module: out: the module a module-load uevent announces
 * @size: size of @module
 *
 * Only messages the kernel sent (sender port 0) are parsed, with
 * ddctl_uevent_get_module(). Every refused message is consumed, so the
 * caller reports it and reads on.
 *
 * Return: 1 with @module set; 0 for any other uevent; -EPERM for a message
 * another process sent (dropped); -EMSGSIZE for a message longer than the
 * 8 KiB buffer (dropped); -EINVAL or -ENAMETOOLONG as
 * ddctl_uevent_get_module(); -ENOBUFS when the socket overflowed and
 * uevents were lost (see ddctl_queryset_new_for_loaded()); -EINTR or
 * another negative errno of recvmsg(2).
 */
int ddctl_uevent_listener_read(struct ddctl_uevent_listener *listener,
			       char *module, size_t size);

/**
 * ddctl_config_write_modprobe() - write @set as modprobe options
 * @set: query set, e.g. the configuration
 * @path: the file to (re)write; NULL is /etc/modprobe.d/ddctl.conf below
 *        the config root (see ddctl_set_config_root())
 *
 * Every query that names one module (no wildcard, not negated) becomes
 * part of an `options MODULE dyndbg="..."` line, without its module
 * match-spec, in the order of @set; the kernel applies it when the module
 * loads. Other queries are left out (ddctl_queryset_new_for_module() and
 * `ddctl watch` cover them). The file is replaced atomically.
 *
 * Return: 0, -ENOMEM or the errno of a failed write.
 */
int ddctl_config_write_modprobe(struct ddctl_queryset *set, const char *path);

/**
 * ddctl_config_write_load_options() - the configuration's load-time file
 * @set: the configuration (ddctl_config_load_valid())
 * @path: out, may be NULL: the file's path, also on failure when it is
 *        known; free() it
 *
 * Writes the queries of @set that name one module, as
 * ddctl_config_write_modprobe() formats them, to
 * /run/modprobe.d/ddctl-config.conf (below the config root; not ddctl.conf,
 * which kmod would ignore where ddctl persist wrote /etc's file of that name;
 * a session's file sorts after it, so a session's options for a module come
 * last and win), replaced atomically: modprobe and udev's libkmod
 * hand them to such a module when it loads, so that the lines its init and
 * probe print appear, which a watcher acting on the module's load uevent
 * (after its init) cannot show. A set with no such query removes the file.
 * When writing, /run/modprobe.d is made if missing, and refused unless it
 * is a directory (not a symbolic link: -ELOOP or -ENOTDIR) that only root
 * (or the caller) can write (-EPERM). `ddctl watch` calls it
 * when it starts and when it reloads, and
 * ddctl_config_remove_load_options() when it stops. udevd notices the
 * change only if /run/modprobe.d existed when it started (libkmod watches
 * the directories it found then): ddctl-watch.service starts before it.
 *
 * Return: 0 or -errno.
 */
int ddctl_config_write_load_options(struct ddctl_queryset *set, char **path);

/**
 * ddctl_config_remove_load_options() - remove the file
 * ddctl_config_write_load_options() writes
 * @ctx: context
 *
 * Return: 0 (also when there is none) or -errno.
 */
int ddctl_config_remove_load_options(struct ddctl_ctx *ctx);

/**
 * ddctl_module_foreach_persistent() - dyndbg options modprobe will use
 * @ctx: context
 * @fn: called with each module name, an options line (libkmod's
 *      kmod_config_get_options()) that holds "dyndbg", and its source: the
 *      path of the file ddctl_config_write_modprobe() writes when the line
 *      is there, else "modprobe.d"; a non-zero return stops the walk
 * @data: passed to @fn
 *
 * The modprobe.d directories are read below the config root.
 *
 * Return: 0, the non-zero value @fn returned, or -ENOMEM.
 */
int ddctl_module_foreach_persistent(
	struct ddctl_ctx *ctx,
	int (*fn)(const char *module, const char *options, const char *source,
		  void *data),
	void *data);

/**
 * ddctl_config_format_modprobe() - the text ddctl_config_write_modprobe()
 * would write, written nowhere (for a dry run)
 * @set: query set
 * @text: out: the file's contents; free() it
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_config_format_modprobe(struct ddctl_queryset *set, char **text);

/**
 * enum ddctl_cmdline_flags - what the kernel that boots with the words parses
 * @DDCTL_CMDLINE_NEGATION: negated match-specs (the patched kernels)
 */
enum ddctl_cmdline_flags {
	DDCTL_CMDLINE_NEGATION = 1 << 0,
};

/**
 * ddctl_queryset_format_cmdline() - @set as kernel command line words
 * @set: query set, parsed for the kernel that boots with the words
 * @flags: enum ddctl_cmdline_flags
 * @text: out: the words, blank-separated; free() it
 * @bad: out, on -EINVAL: the index (0-based) of the query that cannot go
 *       on the command line
 * @reason: out, on -EINVAL: why, a static string
 *
 * A query that names one module (no wildcard, not negated) becomes part
 * of a `MODULE.dyndbg="..."` word without its module match-spec (the
 * kernel applies it to built-in code at boot, and kmod's modprobe hands
 * it to the module when it loads it); the others are `dyndbg="..."`
 * words, which reach built-in code only. Consecutive queries of one word
 * are joined with "; ", so the order of @set is kept. Inside the value a
 * word is quoted with ' where the kernel's tokenizer needs it (a format
 * never: its blanks and quotes are octal escapes, which the kernel
 * unescapes); a '"' cannot be expressed at all (the kernel's next_arg()
 * has no escape). The length is the caller's to check (COMMAND_LINE_SIZE
 * differs between architectures).
 *
 * Return: 0, -EINVAL (see @bad, @reason), -ENOMEM.
 */
int ddctl_queryset_format_cmdline(struct ddctl_queryset *set, unsigned int flags,
				  char **text, size_t *bad, const char **reason);

/**
 * ddctl_queryset_parse_cmdline() - the dynamic debug queries of a command line
 * @set: the queries are appended here
 * @cmdline: a kernel command line, e.g. /proc/cmdline's contents
 * @words: out: the dyndbg words whose queries parsed
 *
 * The line is split as the kernel's next_arg() splits it, up to a "--";
 * each `dyndbg=VALUE` and `MODULE.dyndbg=VALUE` (a bare one is "+p")
 * adds its queries, those of MODULE.dyndbg with `module MODULE` where
 * they name no module, as the kernel applies them. A word whose queries
 * do not parse is left out, as the kernel does not apply it.
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_queryset_parse_cmdline(struct ddctl_queryset *set, const char *cmdline,
				 size_t *words);

/**
 * ddctl_get_cmdline() - the running kernel's command line
 * @ctx: context
 * @text: out: /proc/cmdline's contents without the newline ($DDCTL_PROC_CMDLINE
 *        names another file, for tests); free() it
 *
 * Return: 0 or the negative errno of reading it.
 */
int ddctl_get_cmdline(struct ddctl_ctx *ctx, char **text);

/* ------------------------------------------------------------------ */
/* Files ddctl writes                                                 */
/* ------------------------------------------------------------------ */

/**
 * enum ddctl_file_flags - how ddctl_file_write() replaces a file
 * @DDCTL_FILE_EXCL: fail with -EEXIST when @path exists
 * @DDCTL_FILE_PRIVATE: a new file gets mode 0600 instead of 0644
 */
enum ddctl_file_flags {
	DDCTL_FILE_EXCL = 1 << 0,
	DDCTL_FILE_PRIVATE = 1 << 1,
};

/**
 * ddctl_file_write() - replace a file with @buf, all or nothing
 * @ctx: context (for messages)
 * @path: the file
 * @buf: the new contents
 * @len: their length in bytes
 * @flags: enum ddctl_file_flags
 *
 * The bytes go to a new file in the same directory (O_EXCL|O_NOFOLLOW,
 * with the mode and, for root, the owner of the file it replaces), which
 * is fsync'd and renamed over @path; then the directory is fsync'd. A
 * failure at any step (a full disk) leaves the old file as it was. A
 * symbolic link at @path is refused, not followed (-ELOOP), as is anything
 * but a regular file (-EINVAL). Every file libddctl and ddctl write goes
 * through this function.
 *
 * Return: 0, -ELOOP, -EINVAL, -EEXIST (with DDCTL_FILE_EXCL) or the errno
 * of the failed step.
 */
int ddctl_file_write(struct ddctl_ctx *ctx, const char *path, const char *buf,
		     size_t len, unsigned int flags);

/* ------------------------------------------------------------------ */
/* Transactions: submitting a set                                     */
/* ------------------------------------------------------------------ */

/**
 * enum ddctl_txn_flags - how a transaction is carried out
 * @DDCTL_TXN_CHECK: predict only; write nothing
 * @DDCTL_TXN_NO_VERIFY: do not re-read the control file after writing
 */
enum ddctl_txn_flags {
	DDCTL_TXN_CHECK = 1 << 0,
	DDCTL_TXN_NO_VERIFY = 1 << 1,
};

/**
 * ddctl_txn_new() - a transaction that will apply @set
 * @ctx: context
 * @set: the queries; must have parsed without error
 * @txn: out: the transaction
 *
 * Return: 0, -EINVAL for an empty or match-only set, -ENOMEM.
 */
int ddctl_txn_new(struct ddctl_ctx *ctx, struct ddctl_queryset *set,
		  struct ddctl_txn **txn);

/** ddctl_txn_ref() - take a reference. Return: @txn. */
struct ddctl_txn *ddctl_txn_ref(struct ddctl_txn *txn);

/** ddctl_txn_unref() - drop a reference. NULL is accepted. */
struct ddctl_txn *ddctl_txn_unref(struct ddctl_txn *txn);

/** ddctl_txn_set_flags() - a mask of enum ddctl_txn_flags. */
void ddctl_txn_set_flags(struct ddctl_txn *txn, unsigned int flags);

/**
 * ddctl_txn_set_table() - use @table as the current state instead of
 * reading the control file (the control file is still written)
 */
void ddctl_txn_set_table(struct ddctl_txn *txn, struct ddctl_table *table);

/**
 * ddctl_txn_set_progress_fn() - follow a set that needs several writes
 * @txn: transaction
 * @fn: called before each write of a set the control file takes in more
 *      than one write, with the writes done and their total, and once
 *      more when all are done (@done == @total); never for a set in one
 *      write, nor over netlink (one message). NULL: no calls.
 * @data: passed to @fn
 *
 * On a stock kernel each write patches its sites one by one: a set
 * touching 30,000 sites takes tens of seconds. The library never prints;
 * a program shows this as it likes (ddctl: a status line on a terminal).
 */
void ddctl_txn_set_progress_fn(struct ddctl_txn *txn,
			       void (*fn)(void *data, unsigned int done,
					  unsigned int total),
			       void *data);

/**
 * ddctl_txn_commit() - validate, predict and apply the set
 * @txn: transaction
 *
 * Reads the current state, predicts the net change, expands negated
 * queries when the kernel cannot parse them, drops queries without net
 * effect and sends the rest in ONE write(2) when it is shorter than the
 * kernel's 4096-byte limit, otherwise in as few writes as possible split at
 * query boundaries (ddctl_txn_get_write_count() tells). Nothing is written
 * when nothing would change. Afterwards the control file is read again and
 * the sites the set selects are compared with the prediction (other sites
 * may be changed by other writers meanwhile and are not compared). If the
 * kernel refuses a write after an earlier one succeeded, the sites already
 * changed are restored.
 *
 * Return: 0; -EPERM/-EACCES without permission (nothing written); the
 * kernel's error for a refused write; -EPROTO when the state read back
 * differs from the prediction (ddctl_txn_get_mismatch_count()).
 */
int ddctl_txn_commit(struct ddctl_txn *txn);

/** ddctl_txn_get_plan() - the prediction, after commit; NULL before. */
struct ddctl_plan *ddctl_txn_get_plan(const struct ddctl_txn *txn);

/** ddctl_txn_get_sent() - the text written (or that would be), or NULL. */
const char *ddctl_txn_get_sent(const struct ddctl_txn *txn);

/** ddctl_txn_get_write_count() - write(2) calls made (0 for nothing). */
unsigned int ddctl_txn_get_write_count(const struct ddctl_txn *txn);

/** ddctl_txn_was_expanded() - whether negated queries were expanded. */
bool ddctl_txn_was_expanded(const struct ddctl_txn *txn);

/** ddctl_txn_get_mismatch_count() - sites read back unlike predicted. */
size_t ddctl_txn_get_mismatch_count(const struct ddctl_txn *txn);

/** ddctl_txn_was_verified() - whether the state was read back. */
bool ddctl_txn_was_verified(const struct ddctl_txn *txn);

/**
 * ddctl_txn_get_kernel_counts() - counts the kernel reported for query @idx
 * @txn: a committed transaction (or dry run) on the netlink backend
 * @idx: 0-based query index
 * @matched: out, may be NULL
 * @changed: out, may be NULL
 *
 * Return: 0, or -ENODATA when the kernel reported nothing (control-file
 * backend, or nothing was sent because nothing would change).
 */
int ddctl_txn_get_kernel_counts(const struct ddctl_txn *txn, size_t idx,
				unsigned int *matched, unsigned int *changed);

/**
 * ddctl_txn_get_keys_patched() - static keys the kernel patched, or -1
 * when it did not say (control-file backend)
 */
long ddctl_txn_get_keys_patched(const struct ddctl_txn *txn);

/**
 * ddctl_txn_get_kernel_message() - the kernel's extended-ack message for a
 * refused set (netlink backend), e.g. `query 2 "modul x +p": unknown
 * keyword "modul"`; NULL when there was none
 */
const char *ddctl_txn_get_kernel_message(const struct ddctl_txn *txn);

/**
 * ddctl_txn_get_generation() - the kernel's callsite generation after the
 * committed set (netlink backend: the last exec's reply; a notification
 * with the same generation is this change); 0 when the kernel did not say
 * (control-file backend, a check, nothing sent)
 */
unsigned int ddctl_txn_get_generation(const struct ddctl_txn *txn);

/* ------------------------------------------------------------------ */
/* Change notifications (netlink backend)                             */
/* ------------------------------------------------------------------ */

/**
 * struct ddctl_event - a committed change the kernel announced
 * @queries: the queries that were applied, one per line in control-file
 *           text (the kernel sends them as structured attributes; they are
 *           spelt as ddctl_query_get_canonical() spells a query, formats
 *           escaped as in the control file; a query whose flags both set
 *           and clear bits is two lines, its '-' then its '+'); NULL when
 *           the kernel left them out, as it does when a set's queries take
 *           more than 16 KiB (the counts and the generation are there)
 * @sites_changed: callsites whose flags changed
 * @keys_patched: static keys patched
 * @generation: the kernel's callsite generation after the change (bumped
 *              on every change and module load or unload; compare with
 *              ddctl_txn_get_generation()); 0 when the kernel did not say
 */
struct ddctl_event {
	const char *queries;
	unsigned int sites_changed;
	unsigned int keys_patched;
	unsigned int generation;
};

struct ddctl_monitor;

/**
 * ddctl_monitor_new() - subscribe to the kernel's change notifications
 * @ctx: context
 * @monitor: out: the subscription
 *
 * Return: 0; -ENOENT when the kernel has no "dyndbg" netlink family.
 */
int ddctl_monitor_new(struct ddctl_ctx *ctx, struct ddctl_monitor **monitor);

/** ddctl_monitor_free() - unsubscribe. NULL is accepted. */
void ddctl_monitor_free(struct ddctl_monitor *monitor);

/** ddctl_monitor_get_fd() - a file descriptor to poll for readability. */
int ddctl_monitor_get_fd(const struct ddctl_monitor *monitor);

/**
 * ddctl_monitor_read() - read pending notifications (blocks if none)
 * @monitor: subscription
 * @fn: called per event; the event lives until @fn returns; a non-zero
 *      return stops and is returned
 * @data: passed to @fn
 *
 * Return: 0, @fn's non-zero value, or a negative errno: -ENOBUFS when
 * the socket overflowed and the kernel dropped notifications (the events
 * read so far were delivered; the subscription stays valid: call again).
 */
int ddctl_monitor_read(struct ddctl_monitor *monitor,
		       int (*fn)(const struct ddctl_event *event, void *data),
		       void *data);

/* ------------------------------------------------------------------ */
/* The kernel log: /dev/kmsg records and callsite decorations         */
/* ------------------------------------------------------------------ */

/**
 * struct ddctl_kmsg_record - one record of /dev/kmsg
 * @level: the log level, 0 (emerg) to 7 (debug); pr_debug() is 7
 * @facility: 0 for the kernel, other values for messages written to
 *            /dev/kmsg by user space
 * @seq: the record's sequence number
 * @usec: microseconds since boot
 * @continuation: the record continues the previous one ('c' flag)
 * @text: the message, NUL-terminated, with the kernel's escapes ("\x0a")
 *        kept
 * @len: strlen(@text)
 * @device: the record's " DEVICE=" continuation line (the device a
 *          dev_printk() line came from: "+pci:0000:00:03.0" for
 *          +SUBSYSTEM:NAME, "c4:65" / "b8:0" for a character / block
 *          device, "n2" for a network interface by index), or NULL
 * @subsystem: its " SUBSYSTEM=" line ("pci", "virtio", ...), or NULL
 *
 * Other continuation lines are skipped. The strings point into the
 * parsed buffer, as @text does.
 */
struct ddctl_kmsg_record {
	unsigned int level;
	unsigned int facility;
	unsigned long long seq;
	unsigned long long usec;
	bool continuation;
	const char *text;
	size_t len;
	const char *device;
	const char *subsystem;
};

/**
 * ddctl_kmsg_record_parse() - parse one /dev/kmsg record
 * @buf: "prio,seq,usec,flags[,more];text\n" followed by continuation
 *       lines; @buf[@len] must be writable: the text is NUL-terminated in
 *       place and @rec points into @buf
 * @len: the record's length
 * @rec: out: the record
 *
 * Return: 0, or -EBADMSG when @buf is not a record.
 */
int ddctl_kmsg_record_parse(char *buf, size_t len,
			    struct ddctl_kmsg_record *rec);

/**
 * ddctl_kmsg_record_get_device() - the record's DEVICE= value
 * @rec: a parsed record
 *
 * Return: @rec->device: e.g. "+pci:0000:00:03.0", or NULL when the record
 * names no device (for callers that do not read the struct's members).
 */
const char *ddctl_kmsg_record_get_device(const struct ddctl_kmsg_record *rec);

/**
 * ddctl_kmsg_record_get_subsystem() - the record's SUBSYSTEM= value
 * @rec: a parsed record
 *
 * Return: @rec->subsystem: e.g. "pci", or NULL.
 */
const char *ddctl_kmsg_record_get_subsystem(const struct ddctl_kmsg_record *rec);

/** DDCTL_KMSG_FIELD_MAX - size of each field of struct ddctl_kmsg_prefix. */
#define DDCTL_KMSG_FIELD_MAX 128

/**
 * struct ddctl_kmsg_prefix - the decoration dynamic debug put on a line
 * @flags: the fields found: DDCTL_FLAG_TID, _MODNAME, _FUNCNAME,
 *         _SOURCENAME, _LINENO
 * @tid: the thread id, 0 for "<intr>", -1 without
 * @module: the module name ("" without)
 * @function: the function name ("" without)
 * @file: the source file as the control file prints it ("" without)
 * @line: the line number (0 without)
 * @message: the message after the decoration, within the parsed text
 */
struct ddctl_kmsg_prefix {
	unsigned int flags;
	long tid;
	char module[DDCTL_KMSG_FIELD_MAX];
	char function[DDCTL_KMSG_FIELD_MAX];
	char file[DDCTL_KMSG_FIELD_MAX];
	unsigned int line;
	const char *message;
};

/**
 * ddctl_kmsg_prefix_parse() - split the decoration off a message
 * @text: a record's text
 * @flags: the decoration flags the printing site has (enum ddctl_flag):
 *         the kernel prints "[tid] " (or "<intr> ") for t, then
 *         "module:", "function:", "file:", "line:" for m, f, s, l, then a
 *         space (Linux 6.12 __dynamic_emit_prefix()); with t the thread
 *         id is taken when present
 * @prefix: out: the fields and the message
 *
 * Return: 0, or -ENOMSG when @text does not start with that decoration
 * (a line from another source, or a prefix the kernel cut at 128 bytes).
 */
int ddctl_kmsg_prefix_parse(const char *text, unsigned int flags,
			    struct ddctl_kmsg_prefix *prefix);

struct ddctl_kmsg_index;

/**
 * ddctl_kmsg_index_new() - an index of @table's sites by decoration
 * @table: the sites lines are attributed to
 * @index: out: the index; it holds a reference on @table
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_kmsg_index_new(struct ddctl_table *table,
			 struct ddctl_kmsg_index **index);

/** ddctl_kmsg_index_free() - free @index. NULL is accepted. */
void ddctl_kmsg_index_free(struct ddctl_kmsg_index *index);

/**
 * ddctl_kmsg_index_find() - the site a decorated line came from
 * @index: index
 * @prefix: a parsed decoration; the fields it has must all agree
 * @site: out: the index in the table of the first site that fits
 *
 * With module, function, source file and line the site is exact. When
 * several callsites share that source line (macros), the message is
 * matched against their formats (a conversion stands for any text) and
 * the first that fits is taken.
 *
 * Return: the number of sites that fit (1 when exact), or -ENOENT.
 */
int ddctl_kmsg_index_find(const struct ddctl_kmsg_index *index,
			  const struct ddctl_kmsg_prefix *prefix, size_t *site);

/**
 * ddctl_kmsg_index_find_message() - the site a line without decoration came from
 * @index: index
 * @text: a record's text
 * @site: out: the index in the table of the site
 *
 * netdev_dbg() of a net_device without a parent device (bond, bridge,
 * veth) prints "NAME STATE: message" and no decoration whatever the
 * flags. @text, or the text after its first ": " (a device's name), is
 * matched against the formats of the index's sites (a conversion stands
 * for any text); the format with the most literal bytes (at least one)
 * wins, the first of several as good.
 *
 * Return: the number of sites that fit that well (1: no doubt), or -ENOENT.
 */
int ddctl_kmsg_index_find_message(const struct ddctl_kmsg_index *index,
				  const char *text, size_t *site);

/**
 * ddctl_kmsg_index_find_cut() - the site of a line whose decoration the kernel cut
 * @index: index
 * @text: a record's text
 * @flags: the decoration flags of the sites (enum ddctl_flag)
 * @site: out: the index in the table of the first site that fits
 * @message: out: where the message starts in @text
 *
 * The kernel builds the decoration in a buffer of PREFIX_SIZE bytes (64
 * on Linux 6.1, 128 later) and prints at most PREFIX_SIZE - 1 of it, the
 * message right after the cut (no space). A site fits when its decoration
 * with @flags is longer than the cut, starts @text cut so, and its format
 * fits the rest (as in ddctl_kmsg_index_find_message()).
 *
 * Return: the number of sites that fit, or -ENOENT.
 */
int ddctl_kmsg_index_find_cut(const struct ddctl_kmsg_index *index,
			      const char *text, unsigned int flags,
			      size_t *site, const char **message);

/**
 * enum ddctl_kmsg_flags - where reading the kernel log starts
 * @DDCTL_KMSG_SINCE_BOOT: at the oldest record the kernel still has,
 *                         instead of the next one written
 */
enum ddctl_kmsg_flags {
	DDCTL_KMSG_SINCE_BOOT = 1 << 0,
};

struct ddctl_kmsg;

/**
 * ddctl_kmsg_new() - open the kernel log
 * @ctx: context
 * @path: NULL for /dev/kmsg, or a stand-in in the same format (a file is
 *        read from its start, a FIFO as it comes; their end ends the log)
 * @flags: enum ddctl_kmsg_flags
 * @kmsg: out: the reader; its file descriptor is non-blocking
 *
 * Return: 0 or the negative errno of open(2) or lseek(2).
 */
int ddctl_kmsg_new(struct ddctl_ctx *ctx, const char *path, unsigned int flags,
		   struct ddctl_kmsg **kmsg);

/** ddctl_kmsg_free() - close the reader. NULL is accepted. */
void ddctl_kmsg_free(struct ddctl_kmsg *kmsg);

/** ddctl_kmsg_get_fd() - a file descriptor to poll for readability. */
int ddctl_kmsg_get_fd(const struct ddctl_kmsg *kmsg);

/**
 * ddctl_kmsg_read() - the next record
 * @kmsg: reader
 * @rec: out: the record; valid until the next call
 *
 * Return: 1 with @rec set; 0 when no record is pending (poll the fd);
 * -EPIPE when records were overwritten before they were read (the next
 * call goes on with the oldest one left); -EBADMSG for a line that is not
 * a record (skipped); -ENODATA at the end of a stand-in; another negative
 * errno of read(2).
 */
int ddctl_kmsg_read(struct ddctl_kmsg *kmsg, struct ddctl_kmsg_record *rec);

/* ------------------------------------------------------------------ */
/* The lock: one ddctl changes the callsites at a time                 */
/* ------------------------------------------------------------------ */

struct ddctl_lock;

/* ddctl_lock_new() flags */
#define DDCTL_LOCK_NOWAIT (1u << 0) /* -EWOULDBLOCK instead of waiting */

/**
 * ddctl_lock_new() - take the lock for a read-plan-commit-verify sequence
 * @ctx: context
 * @flags: DDCTL_LOCK_NOWAIT or 0 (wait until the holder lets go)
 * @lock: out: the lock, held until ddctl_lock_free()
 *
 * An flock(2) on /run/ddctl/lock ($DDCTL_RUN_DIR/lock when set), created
 * when missing. Every process that changes the callsites takes it before
 * it reads the state its set is computed from, and lets go once the set
 * is verified, so two of them never interleave; it goes with the process.
 *
 * Return: 0; -EWOULDBLOCK with DDCTL_LOCK_NOWAIT when another process
 * holds it; -EACCES, -EROFS and the like when the run directory cannot be
 * written (the caller may go on without it).
 */
int ddctl_lock_new(struct ddctl_ctx *ctx, unsigned int flags,
		   struct ddctl_lock **lock);

/** ddctl_lock_free() - let go of @lock and free it. NULL is accepted. */
void ddctl_lock_free(struct ddctl_lock *lock);

/* ------------------------------------------------------------------ */
/* Scoped sessions: ddctl follow, ddctl run                           */
/* ------------------------------------------------------------------ */

struct ddctl_session;

/**
 * ddctl_session_new() - plan a session that applies @set while it runs
 * @set: the user's queries
 * @now: the current state
 * @decoration: flags (m, f, s, l, t of enum ddctl_flag) added to every
 *              site @set selects and leaves printing, so that each line
 *              it prints can be attributed (ddctl_kmsg_prefix_parse())
 * @session: out: the session; nothing is written yet
 *
 * The session's set (ddctl_session_get_set()) is @set followed by the
 * decoration queries, to be committed as one transaction; the state it
 * gives is recorded as the "during" script and the way back to @now as
 * the "restore" script, both naming only the sites that change.
 *
 * Return: 0, -EINVAL for a match-only set, -ENOMEM, -ENOTRECOVERABLE
 * when a site cannot be named by a query.
 */
int ddctl_session_new(struct ddctl_queryset *set, struct ddctl_table *now,
		      unsigned int decoration, struct ddctl_session **session);

/** ddctl_session_free() - free @session (its record stays). NULL is accepted. */
void ddctl_session_free(struct ddctl_session *session);

/** ddctl_session_get_set() - the set to commit; NULL for a record read back. */
struct ddctl_queryset *ddctl_session_get_set(const struct ddctl_session *session);

/**
 * ddctl_session_get_sites() - the followed sites: those the set leaves
 * printing, with the flags it gives them; NULL for a record read back
 */
struct ddctl_table *ddctl_session_get_sites(const struct ddctl_session *session);

/** ddctl_session_get_change_count() - sites the session changes. */
size_t ddctl_session_get_change_count(const struct ddctl_session *session);

/**
 * ddctl_session_save() - write the session record
 * @session: session
 * @command: the command line, for `ddctl sessions`
 *
 * The record, /run/ddctl/sessions/PID-STARTTIME.session (the environment
 * variable DDCTL_RUN_DIR replaces /run/ddctl), holds the pid and start
 * time of the calling process, @command, and the "during" and "restore"
 * scripts. It is written to a temporary file, fsync'd and renamed into
 * place: call this before committing the set.
 *
 * Return: 0 or a negative errno (the log says which file).
 */
int ddctl_session_save(struct ddctl_session *session, const char *command);

/** ddctl_session_remove() - delete the record (after restoring). Return: 0 or -errno. */
int ddctl_session_remove(struct ddctl_session *session);

/**
 * ddctl_session_get_restore() - the set that ends the session
 * @session: a session, or a record ddctl_session_foreach() read
 * @now: the current state
 * @set: out: `=flags` queries that give every site the session changed
 *       its flags from before the session, except sites whose flags
 *       differ from the "during" state: another writer changed those and
 *       they are left alone (an empty set when nothing is to be done)
 * @skipped: out, may be NULL: the number of sites left alone
 *
 * Return: 0, -EINVAL for a record whose scripts do not parse (the log
 * says why), -ENOMEM, -ENOTRECOVERABLE.
 */
int ddctl_session_get_restore(struct ddctl_session *session,
			      struct ddctl_table *now,
			      struct ddctl_queryset **set, size_t *skipped);

/**
 * ddctl_session_foreach() - every session record, in name order
 * @ctx: context
 * @fn: called with each record; the record lives until @fn returns; a
 *      non-zero return stops the walk
 * @data: passed to @fn
 *
 * A file that is not a session record is reported through the log and
 * skipped.
 *
 * Return: 0, @fn's non-zero value, or a negative errno.
 */
int ddctl_session_foreach(struct ddctl_ctx *ctx,
			  int (*fn)(struct ddctl_session *session, void *data),
			  void *data);

/** ddctl_session_get_pid() - the process of the session, -1 before saving. */
long ddctl_session_get_pid(const struct ddctl_session *session);
/** ddctl_session_get_start() - when it started, seconds since the epoch. */
long long ddctl_session_get_start(const struct ddctl_session *session);
/**
 * ddctl_session_set_until() - a timed session's end, for the record
 * @session: session, before ddctl_session_save()
 * @until: when it ends by itself, seconds since the epoch; 0: it does not
 */
void ddctl_session_set_until(struct ddctl_session *session, long long until);
/** ddctl_session_get_until() - when a timed session ends (epoch seconds), 0 for none. */
long long ddctl_session_get_until(const struct ddctl_session *session);
/** ddctl_session_get_command() - its command line ("" when unknown). */
const char *ddctl_session_get_command(const struct ddctl_session *session);
/** ddctl_session_get_path() - the record's path, NULL when not saved. */
const char *ddctl_session_get_path(const struct ddctl_session *session);
/** ddctl_session_get_restore_script() - the "restore" script as text. */
const char *ddctl_session_get_restore_script(const struct ddctl_session *session);

/**
 * ddctl_session_get_module_count() - modules that were not loaded when
 * the session started and that a query of the session names alone: they
 * are configured at load through the load-time file, so ending the
 * session gives their sites their own defaults
 * (ddctl_queryset_new_module_defaults()) rather than the flags they had
 * once loaded.
 */
size_t ddctl_session_get_module_count(const struct ddctl_session *session);
/** ddctl_session_get_module() - module @idx (0-based), or NULL. */
const char *ddctl_session_get_module(const struct ddctl_session *session, size_t idx);

/**
 * ddctl_session_get_load_config_path() - the session's load-time file
 *
 * When the session's queries name modules that are not loaded,
 * ddctl_session_save() writes them, with the decoration, as dyndbg=
 * options to /run/modprobe.d/ddctl-session-PID-STARTTIME.conf (below the
 * configuration root, DDCTL_CONFIG_ROOT) after the record that names it,
 * so that such a module gets them when modprobe (or udev) loads it,
 * before its init runs. Stale files of that pattern whose process is
 * gone are removed then. ddctl_session_remove() removes it.
 *
 * Return: its path, or NULL when the session has none.
 */
const char *ddctl_session_get_load_config_path(const struct ddctl_session *session);

/**
 * ddctl_session_remove_load_config() - remove the load-time file (first
 * thing when a session ends: no module loads with it afterwards)
 *
 * Return: 0 (also when there is none) or -errno.
 */
int ddctl_session_remove_load_config(struct ddctl_session *session);

/**
 * ddctl_session_merge() - join @sub, a session planned on a module that
 * loaded during @session, to @session
 * @session: a live session
 * @sub: ddctl_session_new() of the session's queries for that module, on
 *       the state read after it loaded: its "restore" script brings the
 *       module's sites back to what they had then
 *
 * Its scripts are appended to @session's (the record is rewritten first
 * when saved: commit @sub's set after this) and its followed sites to
 * @session's (the indices of those followed before stay).
 *
 * Return: 0 or a negative errno (@session is unchanged).
 */
int ddctl_session_merge(struct ddctl_session *session, struct ddctl_session *sub);

/**
 * ddctl_session_follow_module() - follow @module's sites too
 * @session: a live session
 * @now: the current state (read after the module's queries were applied)
 * @module: the module
 * @added: out: how many sites were added
 *
 * The sites of @module that print in @now are appended to the followed
 * sites (ddctl_session_get_sites() returns the new table; the indices
 * of the sites followed before stay as they were).
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_session_follow_module(struct ddctl_session *session, struct ddctl_table *now,
				const char *module, size_t *added);

/**
 * ddctl_session_is_running() - whether the session's process still runs
 * (the same process: its pid and its start time since boot agree)
 */
bool ddctl_session_is_running(const struct ddctl_session *session);

/**
 * ddctl_table_set_module_defaults() - give @module's sites in @table
 * their compiled-in flags: the module's state right after it loads,
 * before any configuration (a file compiled with DEBUG defined: =p)
 * @table: a table the caller owns (from ddctl_table_new_with_flags(),
 *         ddctl_table_new_from_script(), ...): its sites of @module change
 * @module: the module's name
 *
 * The flags come from the __dyndbg section of the module's object, which
 * libkmod finds for the running kernel (modules.dep); its entries must
 * match the loaded sites line for line.
 *
 * Return: 0; -ENOENT when no object is found; -EOPNOTSUPP for a
 * compressed object; -EBADMSG or -ENOEXEC when the object does not match
 * the loaded sites (another build); -ENOMEM. On error @table is unchanged.
 */
int ddctl_table_set_module_defaults(struct ddctl_table *table, const char *module);

/**
 * ddctl_queryset_new_module_defaults() - the set that gives @module's
 * sites in @now their compiled-in flags (ddctl_table_set_module_defaults())
 *
 * Return: as ddctl_table_set_module_defaults().
 */
int ddctl_queryset_new_module_defaults(struct ddctl_table *now, const char *module,
				       struct ddctl_queryset **set);

/**
 * ddctl_table_format_snapshot() - @table as the boot snapshot's text:
 * ddctl_table_format_script()'s script with, before its end line, the
 * modules @table has ("# modules: NAME NAME..." comment lines)
 *
 * Return: 0 or -ENOMEM.
 */
int ddctl_table_format_snapshot(struct ddctl_table *table, char **text);

/**
 * ddctl_queryset_new_from_snapshot() - the set that brings @now back to
 * the boot snapshot (ddctl reset)
 * @ctx: context
 * @now: the current state
 * @script: the snapshot parsed
 * @text: the snapshot's text (its module list)
 * @set: out: the set
 *
 * As ddctl_queryset_new_from_script() for the modules the snapshot
 * lists; the sites of a module loaded after it get the module's own
 * defaults (ddctl_table_set_module_defaults()), or, when those cannot be
 * read, are left as they are (a warning through the log says why). A
 * snapshot without a module list (an older ddctl's) is restored as a
 * script.
 *
 * Return: 0 or as ddctl_queryset_new_from_script().
 */
int ddctl_queryset_new_from_snapshot(struct ddctl_ctx *ctx, struct ddctl_table *now,
				     struct ddctl_queryset *script, const char *text,
				     struct ddctl_queryset **set);

/**
 * ddctl_boot_state_save() - keep @table as the boot snapshot
 * @table: the state the kernel booted with (before ddctl.d is applied)
 *
 * Writes /run/ddctl/boot.conf (below DDCTL_RUN_DIR when set), as
 * ddctl_table_format_script() gives it, atomically, unless it exists.
 *
 * Return: 0, -EEXIST when a snapshot exists (it is kept), or a negative
 * errno.
 */
int ddctl_boot_state_save(struct ddctl_table *table);

/**
 * ddctl_boot_state_load() - the boot snapshot's text
 * @ctx: context
 * @text: out: a newly allocated script; free() it
 *
 * Return: 0, -ENOENT without a snapshot, or a negative errno.
 */
int ddctl_boot_state_load(struct ddctl_ctx *ctx, char **text);

/**
 * ddctl_boot_state_get_path() - where the boot snapshot is kept
 * @path: out: /run/ddctl/boot.conf, or below DDCTL_RUN_DIR when set; a
 *        newly allocated string, free() it
 *
 * Return: 0, -ENAMETOOLONG, or -ENOMEM.
 */
int ddctl_boot_state_get_path(char **path);

/* ------------------------------------------------------------------ */
/* Module names (libkmod)                                             */
/* ------------------------------------------------------------------ */

/**
 * ddctl_module_normalize() - a module name as the kernel spells it
 * @name: a name as users type it ("virtio-net")
 * @buf: out: the name with '-' turned into '_' ("virtio_net")
 * @size: size of @buf
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int ddctl_module_normalize(const char *name, char *buf, size_t size);

/**
 * ddctl_queryset_resolve_aliases() - module aliases resolved, before planning
 * @set: the set; never changed
 * @table: the state: a module word that names one of its modules stays
 * @out: out: a copy of @set whose module words that are aliases libkmod
 *       knows (no wildcard, not negated, no module of @table) name the
 *       module instead (each logged at info level); a new reference to
 *       @set when there are none
 *
 * Plan on the result (a session, a --check, an undo): the commit resolves
 * the same way, so that what is planned is what is sent.
 *
 * Return: 0, -ENOMEM.
 */
int ddctl_queryset_resolve_aliases(struct ddctl_queryset *set,
				   struct ddctl_table *table,
				   struct ddctl_queryset **out);

/**
 * ddctl_module_resolve() - resolve a module name or alias
 * @ctx: context
 * @name: a module name, with '-' or '_', or an alias libkmod knows
 * @module: out: a newly allocated module name; free() it
 *
 * Return: 0, -ENOENT when libkmod knows no such module or alias, -ENOMEM.
 */
int ddctl_module_resolve(struct ddctl_ctx *ctx, const char *name,
			 char **module);

/**
 * ddctl_module_foreach_loaded() - call @fn for every loaded module
 * @ctx: context
 * @fn: called with each module name; a non-zero return stops the walk
 * @data: passed to @fn
 *
 * Return: 0, the non-zero value @fn returned, or a negative errno.
 */
int ddctl_module_foreach_loaded(struct ddctl_ctx *ctx,
				int (*fn)(const char *name, void *data),
				void *data);

/**
 * ddctl_module_foreach_available() - call @fn for every module the running
 * kernel has, loaded or not
 * @ctx: context
 * @fn: called with each module name, as the kernel spells it ('_', no
 *      path, no .ko suffix); a non-zero return stops the walk
 * @data: passed to @fn
 *
 * The names come from modules.dep (loadable modules) and modules.builtin
 * (built-in ones) in libkmod's module directory for the running kernel,
 * in file order; a name may repeat when both list it.
 *
 * Return: 0, the non-zero value @fn returned, -ENOENT when neither index
 * exists, or a negative errno.
 */
int ddctl_module_foreach_available(struct ddctl_ctx *ctx,
				   int (*fn)(const char *name, void *data),
				   void *data);

#ifdef __cplusplus
}
#endif

#endif /* DDCTL_DDCTL_H */
