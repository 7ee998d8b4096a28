// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A module object's compiled-in flags (model/ko-dyndbg.c), on ELF objects
 * made here: 64-bit little- and big-endian, 32-bit, the section reversed
 * as the control file lists it, a build that does not match, damage.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "testlib.h"
#include "model/ko-dyndbg.h"

#define MAXOBJ 4096

struct obj {
	unsigned char b[MAXOBJ];
	size_t len;
	bool is64, be;
};

static void put(struct obj *o, size_t off, uint64_t v, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		o->b[off + i] = (unsigned char)(v >> (8 * (o->be ? size - 1 - i : i)));
}

/*
 * An object with sections "" (null), ".shstrtab", ".text", "__dyndbg":
 * @n entries of @esz bytes, entry i with line @lines[i] and flags @flags[i],
 * in section order.
 */
static void make(struct obj *o, bool is64, bool be, size_t esz, size_t n,
		 const unsigned int *lines, const unsigned int *flags)
{
	static const char names[] = "\0.shstrtab\0.text\0__dyndbg";
	size_t ehsz = is64 ? 64 : 52, shsz = is64 ? 64 : 40, data = ehsz;
	size_t strs = data + n * esz, shoff = (strs + sizeof(names) + 7) & ~(size_t)7;
	size_t i, nameoff[4] = { 0, 1, 11, 17 };
	size_t secoff[4] = { 0, strs, data, data }, secsize[4] = { 0, sizeof(names), 0, n * esz };

	memset(o, 0, sizeof(*o));
	o->is64 = is64;
	o->be = be;
	memcpy(o->b, "\177ELF", 4);
	o->b[4] = is64 ? 2 : 1;
	o->b[5] = be ? 2 : 1;
	o->b[6] = 1;
	put(o, 16, 1, 2); /* ET_REL */
	if (is64) {
		put(o, 40, shoff, 8);
		put(o, 58, shsz, 2);
		put(o, 60, 4, 2);
		put(o, 62, 1, 2);
	} else {
		put(o, 32, shoff, 4);
		put(o, 46, shsz, 2);
		put(o, 48, 4, 2);
		put(o, 50, 1, 2);
	}
	for (i = 0; i < n; i++) {
		uint32_t w = be ? (lines[i] << 14) | (0x3fU << 8) | flags[i] :
				  lines[i] | (0x3fU << 18) | (flags[i] << 24);

		put(o, data + i * esz + (is64 ? 32 : 16), w, 4);
	}
	memcpy(o->b + strs, names, sizeof(names));
	for (i = 0; i < 4; i++) {
		size_t sh = shoff + i * shsz;

		put(o, sh, nameoff[i], 4);
		put(o, sh + (is64 ? 24 : 16), secoff[i], is64 ? 8 : 4);
		put(o, sh + (is64 ? 32 : 20), secsize[i], is64 ? 8 : 4);
	}
	o->len = shoff + 4 * shsz;
}

static const unsigned int lines[] = { 10, 12, 12, 40 };
static const unsigned int flags[] = { 0, 1, 0, 1 };

/* the control file's order: the section's reversed */
static void reversed(unsigned int *out, const unsigned int *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = in[n - 1 - i];
}

static void check_kind(bool is64, bool be, size_t esz)
{
	static struct obj o;
	unsigned int want_lines[4], want_flags[4], got[4] = { 9, 9, 9, 9 };

	make(&o, is64, be, esz, 4, lines, flags);
	reversed(want_lines, lines, 4);
	reversed(want_flags, flags, 4);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, want_lines, 4, got), 0);
	assert_memory_equal(got, want_flags, sizeof(got));
}

static void test_kinds(void **state)
{
	(void)state;
	check_kind(true, false, 56);  /* x86_64 with jump labels */
	check_kind(true, false, 40);  /* without */
	check_kind(true, true, 56);   /* s390x */
	check_kind(false, false, 24); /* 32-bit */
}

/* a compiler that keeps the order (the control file as the section) */
static void test_forward_order(void **state)
{
	static struct obj o;
	unsigned int got[4];

	(void)state;
	make(&o, true, false, 56, 4, lines, flags);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, lines, 4, got), 0);
	assert_memory_equal(got, flags, sizeof(got));
}

/* another build of the module: other lines, another count */
static void test_mismatch(void **state)
{
	static struct obj o;
	unsigned int other[4] = { 40, 12, 12, 11 }, got[4];

	(void)state;
	make(&o, true, false, 56, 4, lines, flags);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, other, 4, got), -EBADMSG);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, lines, 3, got), -EBADMSG);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, lines, 0, got), -EBADMSG);
	/* no __dyndbg section: only right for a module without sites */
	make(&o, true, false, 56, 0, lines, flags);
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, lines, 0, got), 0);
}

/* not an object, cut short, offsets past the end */
static void test_damaged(void **state)
{
	static struct obj o;
	unsigned int rev[4], got[4];
	size_t cut;

	(void)state;
	assert_int_equal(ko_dyndbg_flags("not an ELF object at all, just text......................................", 70,
					 lines, 4, got), -ENOEXEC);
	make(&o, true, false, 56, 4, lines, flags);
	reversed(rev, lines, 4);
	for (cut = 0; cut < o.len; cut += 7)
		assert_true(ko_dyndbg_flags(o.b, cut, rev, 4, got) < 0);
	put(&o, 40, 1U << 30, 8); /* e_shoff far away */
	assert_int_equal(ko_dyndbg_flags(o.b, o.len, rev, 4, got), -ENOEXEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_forward_order),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests_name("ko-dyndbg", tests, NULL, NULL);
}
