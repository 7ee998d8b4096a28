/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Saved scripts (model/save.c): the boot snapshot's list of modules. */
#ifndef DDCTL_MODEL_SAVE_H
#define DDCTL_MODEL_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#define SNAPSHOT_MODULES "# modules: "

/*
 * The modules a snapshot's text lists (ddctl_table_format_snapshot()),
 * sorted, in a NULL-less array of @n strings the caller frees; -ENODATA
 * for a snapshot without the list (written by an older ddctl).
 */
int snapshot_modules(const char *text, char ***modules, size_t *n);
/* Is @module in the sorted @modules? */
bool snapshot_has_module(char **modules, size_t n, const char *module);

#endif
