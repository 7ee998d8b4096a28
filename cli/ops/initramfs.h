/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The running kernel's initramfs: which modules it holds. A module the
 * initramfs loads gets its options from the initramfs's own copy of
 * modprobe.d, so options written to /etc/modprobe.d reach it only after
 * update-initramfs.
 */
#ifndef DDCTL_CLI_OPS_INITRAMFS_H
#define DDCTL_CLI_OPS_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

#define INITRAMFS_UPDATE "update-initramfs -u -k all"

/*
 * The image: $DDCTL_INITRAMFS, else ROOT/boot/initrd.img-RELEASE (the
 * config root, the running kernel's release); malloc'd in *@image.
 * Return: 0; -ENOENT when it does not exist (nothing to check); -ENOMEM.
 */
int initramfs_image(struct cli *cli, char **image);

/*
 * Sets @held[i] for each of the @n (normalised) @modules whose module file
 * @image lists (lsinitramfs IMAGE). Return: 0; -ENOENT when lsinitramfs is
 * missing, -EIO when it fails; -ENOMEM.
 */
int initramfs_find_modules(const char *image, char *const *modules, size_t n, bool *held);

#endif
