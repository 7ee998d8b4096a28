/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_ADDRESS_H
#define DDCTL_MODEL_ADDRESS_H

#include <stdbool.h>

#include <ddctl/ddctl.h>

struct strbuf;

/*
 * Queries naming the @selected sites, and no site outside @allowed (NULL:
 * @selected); @compact for a set sent now: short spellings and module
 * wildcards that only hold for the current table.
 */
int address_sites(struct ddctl_table *table, const bool *selected,
		  const bool *allowed, bool compact,
		  const char *flags_word, struct strbuf *out);

#endif
