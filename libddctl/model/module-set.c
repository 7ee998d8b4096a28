// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A set restricted to one module: what applies to a module loaded later
 * (module-load uevents, kernel/uevent.c; the loaded modules, kernel/kmod.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "model/wildcard.h"

/* Does the module match-spec of @q select sites of @module? */
static bool module_selected(const struct ddctl_query *q, const char *module)
{
	const char *spec = q->spec[DD_SPEC_MODULE];

	if (!spec)
		return true;
	return dd_match_wildcard(spec, module) != q->negated[DD_SPEC_MODULE];
}

DDCTL_EXPORT int ddctl_queryset_new_for_module(struct ddctl_queryset *set,
					       const char *module,
					       struct ddctl_queryset **out)
{
	struct ddctl_queryset *n = NULL;
	char *text = NULL;
	size_t i;
	int r;

	r = ddctl_queryset_new(set->ctx, &n);
	for (i = 0; !r && i < set->count; i++) {
		if (!module_selected(&set->queries[i], module))
			continue;
		r = query_canonical_with_module(&set->queries[i], module, &text);
		if (!r)
			r = ddctl_queryset_parse(n, text, 0);
		free(text);
	}
	if (r < 0) {
		ddctl_queryset_unref(n);
		return r;
	}
	*out = n;
	return 0;
}
