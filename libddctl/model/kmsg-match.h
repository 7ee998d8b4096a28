/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Kernel log lines matched to callsites without (or with only part of)
 * the decoration: a site's format turned into a matcher, lines that carry
 * no decoration, decorations the kernel cut.
 */
#ifndef DDCTL_MODEL_KMSG_MATCH_H
#define DDCTL_MODEL_KMSG_MATCH_H

#include <stdbool.h>
#include <stddef.h>

struct ddctl_table;

/*
 * Whether @msg (escaped as /dev/kmsg prints it) can be what @fmt printed:
 * every conversion ("%d", "%*ph", "%pV") stands for any text, "%%" for
 * '%', a trailing newline is not part of the record.
 */
bool kmsg_format_fits(const char *fmt, const char *msg);

/*
 * The best site of @order (@n indices into @t) whose format fits @text or
 * the text after its device prefix (up to the first ": ", as dev_dbg()
 * and netdev_dbg() print it): the one with the most literal bytes, at
 * least one. Returns how many sites fit that well (*@site the first), or
 * -ENOENT.
 */
int kmsg_match_message(const struct ddctl_table *t, const size_t *order,
		       size_t n, const char *text, size_t *site);

/*
 * Decorations the kernel cut: it builds "[tid] module:function:file:line: "
 * in a buffer of PREFIX_SIZE bytes (64 on Linux 6.1, 128 from 6.2) and
 * prints at most PREFIX_SIZE - 1 of them, the message right after the cut.
 * The sites of @order whose decoration with @flags is longer than the cut,
 * starts @text cut so, and whose format fits the rest (as in
 * kmsg_match_message()). Returns the number that fit (*@site the first,
 * *@message where the message starts), or -ENOENT.
 */
int kmsg_match_cut(const struct ddctl_table *t, const size_t *order, size_t n,
		   const char *text, unsigned int flags, size_t *site,
		   const char **message);

#endif
