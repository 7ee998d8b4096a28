/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_MODEL_FLAGS_H
#define DDCTL_MODEL_FLAGS_H

/* A query's flag letter's bit; '_' is no flag (0); -1 for anything else. */
int dd_flag_from_char(char c);

#endif
