// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A module's compiled-in defaults: the flags of each struct _ddebug in
 * the __dyndbg section of its object (the .ko), which the kernel takes as
 * they are when it loads the module (DEBUG defined: =p). The entries'
 * strings are relocations, so the sites are matched by their line
 * numbers instead: the control file lists a module's sites in the
 * section's order reversed (ddebug_iter_first() starts at the last), and
 * the sequence of line numbers must agree exactly, or the object is not
 * the one that was loaded.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "model/ko-dyndbg.h"

#define EI_NIDENT 16
#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define ELFDATA2MSB 2
#define LINENO_BITS 18

struct elf {
	const unsigned char *p;
	size_t len;
	bool is64, be;
};

static uint64_t get(const struct elf *e, size_t off, size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)e->p[off + i] << (8 * (e->be ? size - 1 - i : i));
	return v;
}

/* A field of the ELF header or of a section header, by its 32/64-bit offsets. */
#define FIELD(e, base, o32, o64, s32, s64) \
	get((e), (base) + ((e)->is64 ? (o64) : (o32)), (e)->is64 ? (s64) : (s32))

/* Section @name's offset and size in the file. */
static int find_section(const struct elf *e, const char *name, size_t *off, size_t *size)
{
	uint64_t shoff = FIELD(e, 0, 32, 40, 4, 8);
	uint64_t shentsize = FIELD(e, 0, 46, 58, 2, 2), shnum = FIELD(e, 0, 48, 60, 2, 2);
	uint64_t shstrndx = FIELD(e, 0, 50, 62, 2, 2), i, nlen = strlen(name);
	uint64_t stroff, strsize;
	size_t sh;

	if (shentsize < (e->is64 ? 64U : 40U) || shnum == 0 || shstrndx >= shnum ||
	    shoff > e->len || (e->len - shoff) / shentsize < shnum)
		return -ENOEXEC;
	sh = (size_t)(shoff + shstrndx * shentsize);
	stroff = FIELD(e, sh, 16, 24, 4, 8);
	strsize = FIELD(e, sh, 20, 32, 4, 8);
	if (stroff > e->len || strsize > e->len - stroff)
		return -ENOEXEC;
	for (i = 0; i < shnum; i++) {
		uint64_t so, ss, nm;

		sh = (size_t)(shoff + i * shentsize);
		nm = get(e, sh, 4);
		if (nm >= strsize || strsize - nm <= nlen ||
		    memcmp(e->p + stroff + nm, name, nlen + 1))
			continue;
		so = FIELD(e, sh, 16, 24, 4, 8);
		ss = FIELD(e, sh, 20, 32, 4, 8);
		if (so > e->len || ss > e->len - so)
			return -ENOEXEC;
		*off = (size_t)so;
		*size = (size_t)ss;
		return 0;
	}
	return -ENOENT;
}

/* The word after the four pointers: lineno:18, class_id:6, flags:8. */
static void entry(const struct elf *e, size_t off, unsigned int *line, unsigned int *flags)
{
	uint32_t w = (uint32_t)get(e, off + (e->is64 ? 32 : 16), 4);

	if (e->be) { /* bit-fields from the most significant bit */
		*line = w >> (32 - LINENO_BITS);
		*flags = w & 0xff;
	} else {
		*line = w & ((1U << LINENO_BITS) - 1);
		*flags = w >> 24;
	}
}

int ko_dyndbg_flags(const void *object, size_t len, const unsigned int *lines,
		    size_t n, unsigned int *flags)
{
	struct elf e = { object, len, false, false };
	size_t off, size, esz, i, pass;
	unsigned int line, fl;
	int r;

	if (len < 64 || memcmp(e.p, "\177ELF", 4) ||
	    (e.p[4] != ELFCLASS32 && e.p[4] != ELFCLASS64) ||
	    (e.p[5] != ELFDATA2LSB && e.p[5] != ELFDATA2MSB))
		return -ENOEXEC;
	e.is64 = e.p[4] == ELFCLASS64;
	e.be = e.p[5] == ELFDATA2MSB;
	r = find_section(&e, "__dyndbg", &off, &size);
	if (r < 0)
		return r == -ENOENT && n == 0 ? 0 : r == -ENOENT ? -EBADMSG : r;
	if (n == 0)
		return size == 0 ? 0 : -EBADMSG;
	esz = size / n;
	/* aligned(8), four pointers and the word at least */
	if (size % n || esz % 8 || esz < (e.is64 ? 40U : 24U))
		return -EBADMSG;
	/* the control file's order: reversed (the kernels ddctl knows), else as is */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			entry(&e, off + (pass ? i : n - 1 - i) * esz, &line, &fl);
			if (line != lines[i])
				break;
		}
		if (i == n)
			break;
	}
	if (pass == 2)
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		entry(&e, off + (pass ? i : n - 1 - i) * esz, &line, &fl);
		flags[i] = fl;
	}
	return 0;
}
