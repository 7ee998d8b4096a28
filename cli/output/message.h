/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Errors, warnings and notes on stderr (JSON with --json). */
#ifndef DDCTL_CLI_OUTPUT_MESSAGE_H
#define DDCTL_CLI_OUTPUT_MESSAGE_H

#include <stdarg.h>

#include "cli.h"

#define CLI_NO_CONTROL "no dynamic debug control file: the kernel lacks CONFIG_DYNAMIC_DEBUG, or debugfs is not mounted"

void cli_verror(const struct cli *cli, const char *format, va_list args);
void cli_vwarn(const struct cli *cli, const char *format, va_list args);
void cli_error(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void cli_warn(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void cli_note(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
bool cli_color(const struct cli *cli, int fd);
void cli_error_query(unsigned int index, unsigned int column, const char *word);
void cli_json_errors(int status);
int cli_errno_status(int r);
int cli_check_stdout(struct cli *cli, int st);
void cli_log(void *data, int priority, const char *file, int line,
	     const char *fn, const char *format, va_list args);
void cli_lib_error_forget(void);
const char *cli_lib_error(void);

#endif
