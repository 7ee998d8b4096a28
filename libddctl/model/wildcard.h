/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_WILDCARD_H
#define DDCTL_MODEL_WILDCARD_H

#include <stdbool.h>

/* The kernel's match_wildcard(): '*' and '?'. */
bool dd_match_wildcard(const char *pattern, const char *string);
bool dd_has_wildcard(const char *s);

#endif
