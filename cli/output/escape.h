/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Text that is safe on a terminal. */
#ifndef DDCTL_CLI_OUTPUT_ESCAPE_H
#define DDCTL_CLI_OUTPUT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

size_t utf8_len(const unsigned char *p);
void print_escaped_format(FILE *f, const char *fmt);
char *cli_escape(const char *s, bool quote);

#endif
