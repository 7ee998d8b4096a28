// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel log line parsers (model/kmsg-parse.c): /dev/kmsg records and
 * the decoration dynamic debug puts in front of a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

/* Parse @s from a heap copy of exactly its length plus the writable byte. */
static int parse(const char *s, struct ddctl_kmsg_record *rec, char **keep)
{
	size_t len = strlen(s);
	char *b = malloc(len + 1);

	memcpy(b, s, len);
	b[len] = 'X'; /* not a NUL: the parser must terminate the text */
	*keep = b;
	return ddctl_kmsg_record_parse(b, len, rec);
}

static void test_record(void **state)
{
	struct ddctl_kmsg_record r;
	char *b;

	assert_int_equal(parse("7,160,424069,-;main:do_one_initcall:init/main.c:1234: calling\n", &r, &b), 0);
	assert_int_equal(r.level, 7);
	assert_int_equal(r.facility, 0);
	assert_int_equal(r.seq, 160);
	assert_int_equal(r.usec, 424069);
	assert_false(r.continuation);
	assert_string_equal(r.text, "main:do_one_initcall:init/main.c:1234: calling");
	assert_int_equal(r.len, strlen(r.text));
	free(b);
	/* CONFIG_PRINTK_CALLER, a dictionary, a user-space facility, no newline */
	assert_int_equal(parse("14,2,3,c,caller=T1;dev msg\\x0a\n SUBSYSTEM=virtio\n DEVICE=+virtio:virtio0\n", &r, &b), 0);
	assert_int_equal(r.level, 6);
	assert_int_equal(r.facility, 1);
	assert_true(r.continuation);
	assert_string_equal(r.text, "dev msg\\x0a");
	assert_string_equal(r.subsystem, "virtio");
	assert_string_equal(r.device, "+virtio:virtio0");
	free(b);
	assert_int_equal(parse("6,1,2,-;no newline", &r, &b), 0);
	assert_string_equal(r.text, "no newline");
	free(b);
	/* an old kernel without the flags field */
	assert_int_equal(parse("6,1,2;text\n", &r, &b), 0);
	assert_string_equal(r.text, "text");
	free(b);
}

/* The DEVICE= and SUBSYSTEM= continuation lines, as dev_printk() leaves them. */
static void test_record_device(void **state)
{
	struct ddctl_kmsg_record r;
	char *b;

	assert_int_equal(parse("6,123,456,-;text\n DEVICE=+pci:0000:00:03.0\n SUBSYSTEM=pci\n", &r, &b), 0);
	assert_string_equal(r.text, "text");
	assert_string_equal(ddctl_kmsg_record_get_device(&r), "+pci:0000:00:03.0");
	assert_string_equal(ddctl_kmsg_record_get_subsystem(&r), "pci");
	free(b);
	/* none: NULL; another key is skipped; the last line without a newline */
	assert_int_equal(parse("6,1,2,-;plain\n", &r, &b), 0);
	assert_null(ddctl_kmsg_record_get_device(&r));
	assert_null(ddctl_kmsg_record_get_subsystem(&r));
	free(b);
	assert_int_equal(parse("6,1,2,-;x\n OTHER=1\n DEVICE=n2", &r, &b), 0);
	assert_string_equal(r.text, "x");
	assert_string_equal(r.device, "n2");
	assert_null(r.subsystem);
	free(b);
	/* a line that does not start with a blank ends the fields */
	assert_int_equal(parse("6,1,2,-;x\nDEVICE=no\n", &r, &b), 0);
	assert_null(r.device);
	free(b);
}

static void test_record_bad(void **state)
{
	static const char *const bad[] = {
		"", ";text\n", "7,1;x\n", "7,,2,-;x\n", "a,1,2,-;x\n", "7,1,2x,-;x\n",
		"7,1,2,-\n", "7 ,1,2,-;x\n", "99999999999999999999999,1,2,-;x\n",
		"7,1,99999999999999999999999,-;x\n",
	};
	struct ddctl_kmsg_record r;
	char nul[] = "7,1,2,-;a\0b\nX";
	size_t i;
	char *b;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i], &r, &b), -EBADMSG);
		free(b);
	}
	assert_int_equal(ddctl_kmsg_record_parse(nul, sizeof(nul) - 2, &r), -EBADMSG);
}

#define MFSL (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_SOURCENAME | \
	      DDCTL_FLAG_LINENO)

static void test_prefix(void **state)
{
	struct ddctl_kmsg_prefix p;
	const char *t = "test_dynamic_debug:do_prints:lib/test_dynamic_debug.c:52: plain";

	assert_int_equal(ddctl_kmsg_prefix_parse(t, MFSL, &p), 0);
	assert_int_equal(p.flags, MFSL);
	assert_int_equal(p.tid, -1);
	assert_string_equal(p.module, "test_dynamic_debug");
	assert_string_equal(p.function, "do_prints");
	assert_string_equal(p.file, "lib/test_dynamic_debug.c");
	assert_int_equal(p.line, 52);
	assert_string_equal(p.message, "plain");
	/* the thread id, or <intr>, when t may be set; absent is fine too */
	assert_int_equal(ddctl_kmsg_prefix_parse("[42] m:f:x.c:7: hi", MFSL | DDCTL_FLAG_TID, &p), 0);
	assert_int_equal(p.tid, 42);
	assert_int_equal(p.flags, MFSL | DDCTL_FLAG_TID);
	assert_string_equal(p.message, "hi");
	assert_int_equal(ddctl_kmsg_prefix_parse("<intr> m:f:x.c:7: hi", MFSL | DDCTL_FLAG_TID, &p), 0);
	assert_int_equal(p.tid, 0);
	assert_int_equal(ddctl_kmsg_prefix_parse("m:f:x.c:7: hi", MFSL | DDCTL_FLAG_TID, &p), 0);
	assert_int_equal(p.tid, -1);
	assert_string_equal(p.module, "m");
	/* some fields only: m and l give "module:line: " */
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio:300: probe", DDCTL_FLAG_MODNAME | DDCTL_FLAG_LINENO, &p), 0);
	assert_string_equal(p.module, "virtio");
	assert_string_equal(p.function, "");
	assert_int_equal(p.line, 300);
	assert_string_equal(p.message, "probe");
	/* no decoration: the whole text is the message */
	assert_int_equal(ddctl_kmsg_prefix_parse("a: b", 0, &p), 0);
	assert_string_equal(p.message, "a: b");
	/* the message may itself hold colons */
	assert_int_equal(ddctl_kmsg_prefix_parse("m:f:x.c:7: a:b:c:1: d", MFSL, &p), 0);
	assert_string_equal(p.message, "a:b:c:1: d");
}

static void test_prefix_bad(void **state)
{
	static const char *const bad[] = {
		"", "plain message", "m:f:x.c:7:hi", "m:f:x.c:7x: hi", "m:f:x.c:: hi",
		"m f:g:x.c:7: hi", ":f:x.c:7: hi", "m:f:x.c", "m:f:x.c:99999999999: hi",
		"[42]m:f:x.c:7: hi",
	};
	struct ddctl_kmsg_prefix p;
	char longname[300];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ddctl_kmsg_prefix_parse(bad[i], MFSL | DDCTL_FLAG_TID, &p), -ENOMSG);
	/* a field longer than the kernel's 128-byte prefix cannot be one */
	memset(longname, 'a', sizeof(longname));
	strcpy(longname + 200, ":f:x.c:7: hi");
	assert_int_equal(ddctl_kmsg_prefix_parse(longname, MFSL, &p), -ENOMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_record_device),
		cmocka_unit_test(test_record_bad),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_prefix_bad),
	};

	return cmocka_run_group_tests_name("kmsg-parse", tests, NULL, NULL);
}
