/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Did-you-mean. */
#ifndef DDCTL_CLI_OUTPUT_SUGGEST_H
#define DDCTL_CLI_OUTPUT_SUGGEST_H

#include "cli.h"

const char *cli_suggest(const char *word, const char *const *candidates);

#endif
