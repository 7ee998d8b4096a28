/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The one JSON writer. Compact, members in the order written; a
 * top-level value ends with a newline. Arrays begun with
 * json_begin_array_lines() put each element on a line of its own.
 */
#ifndef DDCTL_CLI_OUTPUT_JSON_H
#define DDCTL_CLI_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

#define JSON_MAX_DEPTH 8

struct json_writer {
	FILE *f;
	unsigned int depth;
	bool after_key;
	bool first[JSON_MAX_DEPTH], lines[JSON_MAX_DEPTH];
};

void json_set_pretty(bool on); /* --pretty: indented, one member a line */
void json_init(struct json_writer *w, FILE *f);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_begin_array_lines(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s); /* NULL: null */
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
void json_site(struct json_writer *w, const struct ddctl_site *site);

#endif
