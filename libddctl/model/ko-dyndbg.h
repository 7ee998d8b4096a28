/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A module object's __dyndbg section: its sites' compiled-in flags. */
#ifndef DDCTL_MODEL_KO_DYNDBG_H
#define DDCTL_MODEL_KO_DYNDBG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @object: the module's ELF object (@len bytes, uncompressed)
 * @lines: the line numbers of the module's @n sites, in the control
 *         file's order
 * @flags: out: @n flags (the kernel's bits, which are ddctl's)
 *
 * Return: 0; -ENOEXEC when @object is not an ELF object; -EBADMSG when
 * its __dyndbg entries do not match @lines (another build of the module).
 */
int ko_dyndbg_flags(const void *object, size_t len, const unsigned int *lines,
		    size_t n, unsigned int *flags);

#endif
