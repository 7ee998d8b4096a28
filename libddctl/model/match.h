/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_MATCH_H
#define DDCTL_MODEL_MATCH_H

#include <stdbool.h>

#include "model/query.h"
#include "model/table.h"

/* Does @q select @site, its match-spec @known taken as true? */
bool query_matches_but(const struct ddctl_query *q, const struct ddctl_site *site,
		       enum dd_spec known);

#endif
