/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The save round trip, shared by fuzz-save-roundtrip and the unit test
 * that replays its findings: a control file (any table a kernel, or a
 * hostile one, can show) is saved as a script; the script must parse back
 * through ddctl's own parser (each query within the kernel's 9 words and
 * 4095 bytes) and predict exactly the table's flags on every site a query
 * can name. A table that cannot be saved is refused with an error, never
 * saved wrong.
 */
#ifndef DDCTL_TESTS_SAVE_ROUNDTRIP_H
#define DDCTL_TESTS_SAVE_ROUNDTRIP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ddctl/ddctl.h>

/*
 * Can a query name @site alone? save leaves out (with a warning) the sites
 * no query can name: two sites of one identity, a module name with
 * wildcard or other non-name characters, a class the kernel does not name
 * ("class unknown, _id:N": ddctl_site_get_class() is "" there, not NULL).
 */
static inline bool save_roundtrip_nameable(struct ddctl_table *table, size_t i)
{
	const struct ddctl_site *s = ddctl_table_get_site(table, i), *o;
	const char *m = ddctl_site_get_module(s);
	size_t j;

	if (!*m || strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(m))
		return false;
	if (ddctl_site_get_class_id(s) >= 0)
		return false;
	for (j = 0; j < ddctl_table_get_count(table); j++) {
		o = ddctl_table_get_site(table, j);
		if (j != i && ddctl_site_get_line(o) == ddctl_site_get_line(s) &&
		    !strcmp(ddctl_site_get_file(o), ddctl_site_get_file(s)) &&
		    !strcmp(ddctl_site_get_module(o), m) &&
		    !strcmp(ddctl_site_get_function(o), ddctl_site_get_function(s)))
			return false;
	}
	return true;
}

/*
 * NULL when the round trip holds on @data (or @data is no table), else
 * what went wrong; *@site is the index of the site restored wrong.
 */
static inline const char *save_roundtrip_check(struct ddctl_ctx *ctx,
					       const uint8_t *data, size_t size,
					       size_t *site)
{
	struct ddctl_table *table = NULL, *again = NULL;
	struct ddctl_queryset *set = NULL;
	const char *why = NULL;
	char *saved = NULL;
	size_t i;

	if (ddctl_table_new_from_buffer(ctx, (const char *)data, size, &table) < 0)
		return NULL;
	if (ddctl_table_format_script(table, &saved) < 0)
		goto out;
	if (ddctl_queryset_new(ctx, &set) < 0 ||
	    ddctl_queryset_parse(set, saved, 0) < 0) {
		why = "the save is not a script ddctl reads";
		goto out;
	}
	if (ddctl_table_new_from_script(table, set, &again) < 0 ||
	    ddctl_table_get_count(again) != ddctl_table_get_count(table)) {
		why = "the script gives no table of the same sites";
		goto out;
	}
	for (i = 0; i < ddctl_table_get_count(table); i++)
		if (save_roundtrip_nameable(table, i) &&
		    ddctl_site_get_flags(ddctl_table_get_site(table, i)) !=
		    ddctl_site_get_flags(ddctl_table_get_site(again, i))) {
			*site = i;
			why = "the save does not restore the state";
			break;
		}
out:
	ddctl_table_unref(again);
	ddctl_queryset_unref(set);
	free(saved);
	ddctl_table_unref(table);
	return why;
}

#endif
