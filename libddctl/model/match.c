// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Does a query select a callsite? ddebug_change()'s tests, plus negation. */
#include <string.h>

#include "core/ctx.h"
#include "model/match.h"
#include "model/wildcard.h"
#include "util/util.h"

static bool match_file(const char *pattern, const struct ddctl_site *site)
{
	return dd_match_wildcard(pattern, site->file) ||
	       dd_match_wildcard(pattern, site->basename);
}

static bool match_format(const char *pattern, const char *format)
{
	if (*pattern == '^')
		return !strncmp(format, pattern + 1, strlen(pattern + 1));
	return strstr(format, pattern) != NULL;
}

static bool spec_matches(const struct ddctl_query *q, enum dd_spec spec,
			 const struct ddctl_site *site)
{
	const char *v = q->spec[spec];
	bool m;

	switch (spec) {
	case DD_SPEC_MODULE:
		m = dd_match_wildcard(v, site->module);
		break;
	case DD_SPEC_FILE:
		m = match_file(v, site);
		break;
	case DD_SPEC_FUNC:
		m = dd_match_wildcard(v, site->function);
		break;
	case DD_SPEC_FORMAT:
		m = match_format(v, site->format);
		break;
	default:
		m = false;
	}
	return m != q->negated[spec];
}

DDCTL_EXPORT bool ddctl_query_matches(const struct ddctl_query *q,
				      const struct ddctl_site *site)
{
	return query_matches_but(q, site, DD_SPEC_NR);
}

/* ddctl_query_matches() with the match-spec @known already known to match. */
bool query_matches_but(const struct ddctl_query *q, const struct ddctl_site *site,
		       enum dd_spec known)
{
	static const enum dd_spec specs[] = {
		DD_SPEC_MODULE, DD_SPEC_FILE, DD_SPEC_FUNC, DD_SPEC_FORMAT,
	};
	size_t i;

	/*
	 * A query without class never touches class'd sites; a class query
	 * only sites of that (known, never empty) class name: the kernel
	 * looks the name up in the module's class maps, so `class ''` and
	 * "class unknown, _id:N" sites never match.
	 */
	if (q->spec[DD_SPEC_CLASS]) {
		if (!site->class_name || !*site->class_name ||
		    strcmp(site->class_name, q->spec[DD_SPEC_CLASS]) != 0)
			return false;
	} else if (site->class_name) {
		return false;
	}
	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (q->spec[specs[i]] && specs[i] != known &&
		    !spec_matches(q, specs[i], site))
			return false;
	if (q->first_line && site->line < q->first_line)
		return false;
	if (q->last_line && site->line > q->last_line)
		return false;
	return true;
}
