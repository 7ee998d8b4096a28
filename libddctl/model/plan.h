/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A prediction (model/plan.c owns the struct: others read, only plan.c writes). */
#ifndef DDCTL_MODEL_PLAN_H
#define DDCTL_MODEL_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include <ddctl/ddctl.h>

struct ddctl_plan {
	int refcount;
	struct ddctl_table *table;
	struct ddctl_queryset *set;
	unsigned int *matched, *changed;
	unsigned int *final; /* per site */
	bool *selected; /* per site: matched by any query of the set */
	size_t *changes; /* site indices */
	size_t nchanges;
};

#endif
