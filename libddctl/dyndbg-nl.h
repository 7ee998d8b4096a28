/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The "dyndbg" generic netlink protocol. The kernel's uapi header is
 * carried in libddctl/uapi/linux/dyndbg.h (generated from
 * Documentation/netlink/specs/dyndbg.yaml of kernel-patches/); the values
 * below are the same protocol, for builds without it.
 */
#ifndef DDCTL_DYNDBG_NL_H
#define DDCTL_DYNDBG_NL_H

#if __has_include("uapi/linux/dyndbg.h")
#include "uapi/linux/dyndbg.h"
#else
#define DYNDBG_FAMILY_NAME "dyndbg"
#define DYNDBG_FAMILY_VERSION 1
#define DYNDBG_MCGRP_NOTIFY "notify"
enum {
	DYNDBG_A_QUERY_RESULT_INDEX = 1,
	DYNDBG_A_QUERY_RESULT_MATCHED,
	DYNDBG_A_QUERY_RESULT_CHANGED,
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
};
enum {
	DYNDBG_A_QUERIES = 1,
	DYNDBG_A_DRY_RUN,
	DYNDBG_A_QUERY_RESULT,
	DYNDBG_A_KEYS_PATCHED,
	DYNDBG_A_SITES_CHANGED,
	DYNDBG_A_SITE,
};
enum {
	DYNDBG_CMD_EXEC = 1,
	DYNDBG_CMD_GET,
	DYNDBG_CMD_CHANGE_NTF,
};
#endif

#define DYNDBG_GENL_NAME DYNDBG_FAMILY_NAME
#define DYNDBG_GENL_VERSION DYNDBG_FAMILY_VERSION

#endif
