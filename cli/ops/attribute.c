// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Lines of followed callsites that their decoration does not name: a
 * decoration the kernel cut at PREFIX_SIZE - 1 bytes (the message right
 * after it), or none at all (netdev_dbg() of a bond, bridge or veth
 * prints "NAME STATE: message" whatever the flags), matched by the
 * library against the followed sites' decorations and formats.
 */
#include "ops/attribute.h"

bool attribute_by_text(const struct ddctl_kmsg_index *idx, unsigned int decoration,
		       const char *text, size_t *site, const char **message)
{
	struct ddctl_kmsg_prefix p;

	/* a whole decoration is another site's: not one of the followed */
	if (ddctl_kmsg_prefix_parse(text, decoration | DDCTL_FLAG_TID, &p) == 0 &&
	    (p.flags & decoration) == decoration)
		return false;
	if (ddctl_kmsg_index_find_cut(idx, text, decoration | DDCTL_FLAG_TID,
				      site, message) > 0)
		return true;
	if (ddctl_kmsg_index_find_message(idx, text, site) > 0) {
		*message = text;
		return true;
	}
	return false;
}
