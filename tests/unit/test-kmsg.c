// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel log reader (kernel/kmsg.c) on stand-ins for /dev/kmsg: a
 * file and a FIFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

static const char LOG[] =
	"6,1,100,-;not debug\n"
	"7,2,200,-;m:f:x.c:7: first\n SUBSYSTEM=virtio\n DEVICE=+virtio:virtio0\n"
	"garbage line\n"
	"7,3,300,-;last without newline";

static void read_all(struct ddctl_kmsg *k)
{
	struct ddctl_kmsg_record r;

	assert_int_equal(ddctl_kmsg_read(k, &r), 1);
	assert_int_equal(r.seq, 1);
	assert_string_equal(r.text, "not debug");
	assert_int_equal(ddctl_kmsg_read(k, &r), 1);
	assert_int_equal(r.seq, 2);
	assert_string_equal(r.text, "m:f:x.c:7: first");
	assert_int_equal(ddctl_kmsg_read(k, &r), -EBADMSG);
	assert_int_equal(ddctl_kmsg_read(k, &r), 1);
	assert_int_equal(r.seq, 3);
	assert_string_equal(r.text, "last without newline");
	assert_int_equal(ddctl_kmsg_read(k, &r), -ENODATA);
}

static void test_reader_file(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char path[] = "/tmp/ddctl-kmsg-XXXXXX";
	struct ddctl_kmsg *k = NULL;
	struct ddctl_kmsg_record r;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, LOG, sizeof(LOG) - 1), (ssize_t)sizeof(LOG) - 1);
	close(fd);
	/* from the start with --since-boot */
	assert_int_equal(ddctl_kmsg_new(ctx, path, DDCTL_KMSG_SINCE_BOOT, &k), 0);
	read_all(k);
	ddctl_kmsg_free(k);
	/* else from the end: nothing */
	assert_int_equal(ddctl_kmsg_new(ctx, path, 0, &k), 0);
	assert_int_equal(ddctl_kmsg_read(k, &r), -ENODATA);
	ddctl_kmsg_free(k);
	unlink(path);
	assert_int_equal(ddctl_kmsg_new(ctx, path, 0, &k), -ENOENT);
	ddctl_unref(ctx);
}

static void test_reader_fifo(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char dir[] = "/tmp/ddctl-kmsg-XXXXXX", path[64];
	struct ddctl_kmsg *k = NULL;
	struct ddctl_kmsg_record r;
	int w;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	w = open(path, O_RDWR); /* a writer, so that the reader does not block */
	assert_true(w >= 0);
	assert_int_equal(ddctl_kmsg_new(ctx, path, 0, &k), 0);
	assert_int_equal(ddctl_kmsg_read(k, &r), 0); /* nothing yet */
	/* a record in two pieces: nothing until its newline */
	assert_int_equal(write(w, LOG, 10), 10);
	assert_int_equal(ddctl_kmsg_read(k, &r), 0);
	assert_int_equal(write(w, LOG + 10, sizeof(LOG) - 11), (ssize_t)sizeof(LOG) - 11);
	close(w);
	read_all(k);
	ddctl_kmsg_free(k);
	unlink(path);
	rmdir(dir);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_file),
		cmocka_unit_test(test_reader_fifo),
	};

	return cmocka_run_group_tests_name("kmsg", tests, NULL, NULL);
}
