/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * A table of callsites (model/table.c owns both structs: other files read
 * the fields, only table.c writes them).
 */
#ifndef DDCTL_MODEL_TABLE_H
#define DDCTL_MODEL_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <ddctl/ddctl.h>

/* A callsite; strings point into the table's buffer. */
struct ddctl_site {
	const char *file;
	const char *module;
	const char *function;
	const char *format;
	const char *class_name; /* NULL: no class; "": unknown */
	const char *basename;
	unsigned int line;
	int class_id;
	unsigned int flags;
};

struct ddctl_table {
	int refcount;
	struct ddctl_ctx *ctx;
	struct ddctl_table *parent; /* owns the strings of a derived table */
	struct ddctl_table *also;   /* of a joined one (table_concat()): the other part's */
	char *buf;
	struct ddctl_site *sites;
	size_t count;
	void *index; /* model/index.c's, built on first use */
	void (*index_free)(void *index);
};

/* A table parsed from @text in the control file's format, which it takes over (freed on error). */
int table_new_take(struct ddctl_ctx *ctx, char *text, struct ddctl_table **out);
/* A copy of @from's sites sharing its strings. */
int table_derive(struct ddctl_table *from, struct ddctl_table **out);
/* The sites of @from that @keep selects, in a derived table. */
int table_subset(struct ddctl_table *from, const bool *keep,
		 struct ddctl_table **out);
/* @a's sites then @b's, in a derived table that keeps both alive. */
int table_concat(struct ddctl_table *a, struct ddctl_table *b,
		 struct ddctl_table **out);
void table_set_site_flags(struct ddctl_table *t, size_t idx, unsigned int flags);
/* The index (model/index.c) the table keeps and frees with @free_fn. */
void table_set_index(struct ddctl_table *t, void *index,
		     void (*free_fn)(void *index));

#endif
