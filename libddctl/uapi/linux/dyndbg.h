/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/dyndbg.yaml */
/* YNL-GEN uapi header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _UAPI_LINUX_DYNDBG_H
#define _UAPI_LINUX_DYNDBG_H

#define DYNDBG_FAMILY_NAME	"dyndbg"
#define DYNDBG_FAMILY_VERSION	1

#define DYNDBG_QUERIES_MAX_LEN	16383
#define DYNDBG_QUERIES_MAX	100

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

enum {
	DYNDBG_A_QUERIES = 1,
	DYNDBG_A_DRY_RUN,
	DYNDBG_A_QUERY_RESULT,
	DYNDBG_A_KEYS_PATCHED,
	DYNDBG_A_SITES_CHANGED,
	DYNDBG_A_SITE,

	__DYNDBG_A_MAX,
	DYNDBG_A_MAX = (__DYNDBG_A_MAX - 1)
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

	__DYNDBG_CMD_MAX,
	DYNDBG_CMD_MAX = (__DYNDBG_CMD_MAX - 1)
};

#define DYNDBG_MCGRP_NOTIFY	"notify"

#endif /* _UAPI_LINUX_DYNDBG_H */
