// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: a module object's __dyndbg section (model/ko-dyndbg.c). The
 * input's first byte is the number of sites (0-15), the next ones their
 * line numbers (two bytes each), the rest the object; an xz object is
 * uncompressed first (kernel/module-defaults.c). A success gives flags of
 * one byte, for exactly the lines asked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/module-defaults.h"
#include "model/ko-dyndbg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int lines[16], flags[16];
	size_t n, i, len = 0;
	char *plain = NULL;
	const char *obj;

	if (size < 1)
		return 0;
	n = data[0] & 15;
	if (size < 1 + 2 * n)
		return 0;
	for (i = 0; i < n; i++)
		lines[i] = (unsigned int)data[1 + 2 * i] | (unsigned int)data[2 + 2 * i] << 8;
	obj = (const char *)data + 1 + 2 * n;
	len = size - 1 - 2 * n;
	if (len >= 6 && !memcmp(obj, "\3757zXZ\0", 6)) {
		if (module_object_unxz(obj, len, &plain, &len) < 0)
			return 0;
		obj = plain;
	}
	if (ko_dyndbg_flags(obj, len, lines, n, flags) == 0)
		for (i = 0; i < n; i++)
			if (flags[i] > 0xff)
				abort();
	free(plain);
	return 0;
}
