/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/dyndbg.yaml */
/* YNL-GEN uapi header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _UAPI_LINUX_DYNDBG_H
#define _UAPI_LINUX_DYNDBG_H

#define DYNDBG_FAMILY_NAME	"dyndbg"
#define DYNDBG_FAMILY_VERSION	1

#define DYNDBG_QUERIES_MAX	1024

/*
 * Flags of a callsite, one bit per flag character of the control file: p
 * (print), m (module name), f (function name), l (line number), t (thread id),
 * s (source file name), d (call trace). These bits are ABI; the kernel
 * translates its internal flags to them.
 */
enum dyndbg_site_flags {
	DYNDBG_SITE_FLAGS_P = 1,
	DYNDBG_SITE_FLAGS_M = 2,
	DYNDBG_SITE_FLAGS_F = 4,
	DYNDBG_SITE_FLAGS_L = 8,
	DYNDBG_SITE_FLAGS_T = 16,
	DYNDBG_SITE_FLAGS_S = 32,
	DYNDBG_SITE_FLAGS_D = 64,
};

/*
 * Match-specs of a query, for the negate bitmask.
 */
enum dyndbg_match {
	DYNDBG_MATCH_MODULE = 1,
	DYNDBG_MATCH_FILE = 2,
	DYNDBG_MATCH_FUNC = 4,
	DYNDBG_MATCH_FORMAT = 8,
};

/*
 * Features of this kernel's family: negated match-specs, dry run, class
 * match-specs.
 */
enum dyndbg_feature {
	DYNDBG_FEATURE_NEGATE = 1,
	DYNDBG_FEATURE_DRY_RUN = 2,
	DYNDBG_FEATURE_CLASS = 4,
};

enum {
	DYNDBG_A_QUERY = 1,
	DYNDBG_A_DRY_RUN,
	DYNDBG_A_QUERY_RESULT,
	DYNDBG_A_KEYS_PATCHED,
	DYNDBG_A_SITES_CHANGED,
	DYNDBG_A_SITE,
	DYNDBG_A_GENERATION,
	DYNDBG_A_QUERIES_MAX,
	DYNDBG_A_FEATURES,
	DYNDBG_A_VALID_FLAGS,

	__DYNDBG_A_MAX,
	DYNDBG_A_MAX = (__DYNDBG_A_MAX - 1)
};

enum {
	DYNDBG_A_QUERY_MODULE = 1,
	DYNDBG_A_QUERY_FILE,
	DYNDBG_A_QUERY_FUNC,
	DYNDBG_A_QUERY_FORMAT,
	DYNDBG_A_QUERY_CLASS,
	DYNDBG_A_QUERY_LINE_MIN,
	DYNDBG_A_QUERY_LINE_MAX,
	DYNDBG_A_QUERY_NEGATE,
	DYNDBG_A_QUERY_FLAGS,

	__DYNDBG_A_QUERY_MAX,
	DYNDBG_A_QUERY_MAX = (__DYNDBG_A_QUERY_MAX - 1)
};

enum {
	DYNDBG_A_QUERY_RESULT_INDEX = 1,
	DYNDBG_A_QUERY_RESULT_MATCHED,
	DYNDBG_A_QUERY_RESULT_CHANGED,

	__DYNDBG_A_QUERY_RESULT_MAX,
	DYNDBG_A_QUERY_RESULT_MAX = (__DYNDBG_A_QUERY_RESULT_MAX - 1)
};

enum {
	DYNDBG_A_SITE_MODULE = 1,
	DYNDBG_A_SITE_FILE,
	DYNDBG_A_SITE_FUNCTION,
	DYNDBG_A_SITE_LINE,
	DYNDBG_A_SITE_FORMAT,
	DYNDBG_A_SITE_FLAGS,
	DYNDBG_A_SITE_CLASS,
	DYNDBG_A_SITE_CLASS_ID,

	__DYNDBG_A_SITE_MAX,
	DYNDBG_A_SITE_MAX = (__DYNDBG_A_SITE_MAX - 1)
};

enum {
	DYNDBG_CMD_EXEC = 1,
	DYNDBG_CMD_GET,
	DYNDBG_CMD_CHANGE_NTF,
	DYNDBG_CMD_GET_FEATURES,

	__DYNDBG_CMD_MAX,
	DYNDBG_CMD_MAX = (__DYNDBG_CMD_MAX - 1)
};

#define DYNDBG_MCGRP_NOTIFY	"notify"

#endif /* _UAPI_LINUX_DYNDBG_H */
