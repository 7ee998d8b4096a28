// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: the save round trip. A control file (any table a kernel, or
 * a hostile one, can show) is saved as a script; the script must parse
 * back through ddctl's own parser (each query within the kernel's 9
 * words and 4095 bytes) and predict exactly the table's flags on its
 * sites. A table that cannot be saved is refused with an error, never
 * saved wrong.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ddctl/ddctl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Can a query name @site alone? save leaves out (with a warning) the sites
 * no query can name: two sites of one identity, a module name with
 * wildcard or other non-name characters, a class the kernel does not name.
 */
static bool nameable(struct ddctl_table *table, size_t i)
{
	const struct ddctl_site *s = ddctl_table_get_site(table, i), *o;
	const char *m = ddctl_site_get_module(s);
	size_t j;

	if (!*m || strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(m))
		return false;
	if (ddctl_site_get_class_id(s) >= 0 && !ddctl_site_get_class(s))
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	struct ddctl_table *table = NULL, *again = NULL;
	struct ddctl_queryset *set = NULL;
	char *saved = NULL;
	size_t i;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
	}
	if (ddctl_table_new_from_buffer(ctx, (const char *)data, size, &table) < 0)
		return 0;
	if (ddctl_table_format_script(table, &saved) == 0) {
		ddctl_queryset_new(ctx, &set);
		if (ddctl_queryset_parse(set, saved, 0) < 0)
			abort(); /* the save is not a script ddctl reads */
		if (ddctl_table_new_from_script(table, set, &again) < 0 ||
		    ddctl_table_get_count(again) != ddctl_table_get_count(table))
			abort();
		for (i = 0; i < ddctl_table_get_count(table); i++)
			if (nameable(table, i) &&
			    ddctl_site_get_flags(ddctl_table_get_site(table, i)) !=
			    ddctl_site_get_flags(ddctl_table_get_site(again, i)))
				abort(); /* the save does not restore the state */
		ddctl_table_unref(again);
		ddctl_queryset_unref(set);
		free(saved);
	}
	ddctl_table_unref(table);
	return 0;
}
