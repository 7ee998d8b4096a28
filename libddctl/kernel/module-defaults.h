/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A module's own defaults (kernel/module-defaults.c): its object's reading. */
#ifndef DDCTL_KERNEL_MODULE_DEFAULTS_H
#define DDCTL_KERNEL_MODULE_DEFAULTS_H

#include <stddef.h>

/*
 * @in (@len bytes, an xz stream: a module as Debian ships it) uncompressed
 * into *@out (malloc'd, *@outlen bytes, at most 64 MiB). Return: 0,
 * -EOPNOTSUPP without liblzma, -EBADMSG for a damaged stream, -ENOMEM.
 */
int module_object_unxz(const char *in, size_t len, char **out, size_t *outlen);

#endif
