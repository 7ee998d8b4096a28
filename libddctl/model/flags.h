/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_FLAGS_H
#define DDCTL_MODEL_FLAGS_H

#include <stddef.h>

/* A flag letter's bit ('d' included); '_' is no flag (0); -1 for anything else. */
int dd_flag_from_char(char c);
/* The flags a query may give on kernel @release (NULL or unparsable: all). */
unsigned int dd_flags_of_release(const char *release);
/* The first release with flag @c ("" for one every kernel has). */
const char *dd_flag_since(char c);
/* @flags' letters and '_', space-separated, into @buf (16 bytes); its length. */
size_t dd_flags_letters(unsigned int flags, char *buf);

#endif
