// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Module-load uevents: the parser on exact-size buffers, and the listener
 * with an injected transport (forged senders, truncation, lost events) and
 * on a real NETLINK_KOBJECT_UEVENT socket.
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "testlib.h"
#include "kernel/uevent.h"

/* @s copied into a heap buffer of exactly its length, followed by @after. */
static char *exact(const char *s, size_t len, const char *after)
{
	char *b = malloc(len + strlen(after));

	memcpy(b, s, len);
	memcpy(b + len, after, strlen(after));
	return b;
}

static void test_last_string_without_nul(void **state)
{
	static const char ev[] = "add@/module/ab\0SUBSYSTEM=module\0ACTION=add\0DEVPATH=/module/ab";
	char m[64], *b = exact(ev, sizeof(ev) - 1, "/x");

	/* the '/' after the buffer is not part of the name */
	assert_int_equal(ddctl_uevent_get_module(b, sizeof(ev) - 1, m, sizeof(m)), 1);
	assert_string_equal(m, "ab");
	free(b);
	b = exact(ev, sizeof(ev) - 1, "");
	assert_int_equal(ddctl_uevent_get_module(b, sizeof(ev) - 1, m, sizeof(m)), 1);
	free(b);
}

static void test_invalid_names(void **state)
{
	char m[64];

	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"add@/module/*\0ACTION=add\0DEVPATH=/module/*\0SUBSYSTEM=module\0"),
		m, sizeof(m)), -EINVAL);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/virtio?net\0SUBSYSTEM=module\0"),
		m, sizeof(m)), -EINVAL);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/a b +p;module \0SUBSYSTEM=module\0"),
		m, sizeof(m)), -EINVAL);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/!x\0SUBSYSTEM=module\0"), m, sizeof(m)),
		-EINVAL);
	/* longer than the kernel's MODULE_NAME_LEN - 1 (55) */
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/a23456789012345678901234567890123456789012345678901234567\0SUBSYSTEM=module\0"),
		m, sizeof(m)), -EINVAL);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/virtio-net_2\0SUBSYSTEM=module\0"),
		m, sizeof(m)), 1);
	assert_string_equal(m, "virtio-net_2");
}

/* The injected transport: one scripted reply per call. */
struct fake {
	const char *data;
	size_t len;
	uint32_t pid;
	int flags, err;
};
static struct fake script[8];
static size_t script_pos;

static ssize_t fake_recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct fake *f = &script[script_pos++];
	struct sockaddr_nl *sa = msg->msg_name;
	size_t n = f->len < msg->msg_iov[0].iov_len ? f->len : msg->msg_iov[0].iov_len;

	if (f->err) {
		errno = f->err;
		return -1;
	}
	memset(sa, 0, sizeof(*sa));
	sa->nl_family = AF_NETLINK;
	sa->nl_pid = f->pid;
	msg->msg_namelen = sizeof(*sa);
	memcpy(msg->msg_iov[0].iov_base, f->data, n);
	msg->msg_flags = f->flags | (f->len > n ? MSG_TRUNC : 0);
	return (ssize_t)n;
}

static const char load_ab[] =
	"add@/module/ab\0ACTION=add\0DEVPATH=/module/ab\0SUBSYSTEM=module\0";
static const char load_star[] =
	"add@/module/*\0ACTION=add\0DEVPATH=/module/*\0SUBSYSTEM=module\0";

static void test_listener(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_uevent_listener *l = NULL;
	char *big = calloc(1, 9000), m[64];

	memcpy(big, load_ab, sizeof(load_ab));
	memset(script, 0, sizeof(script));
	script_pos = 0;
	script[0] = (struct fake){ load_ab, sizeof(load_ab), 4242, 0, 0 };
	script[1] = (struct fake){ load_star, sizeof(load_star), 0, 0, 0 };
	script[2] = (struct fake){ big, 9000, 0, 0, 0 };
	script[3] = (struct fake){ NULL, 0, 0, 0, ENOBUFS };
	script[4] = (struct fake){ load_ab, sizeof(load_ab), 0, 0, 0 };
	assert_int_equal(uevent_listener_new_fd(ctx, -1, fake_recvmsg, &l), 0);
	/* forged by a process: dropped */
	assert_int_equal(ddctl_uevent_listener_read(l, m, sizeof(m)), -EPERM);
	/* from the kernel, but not a module name */
	assert_int_equal(ddctl_uevent_listener_read(l, m, sizeof(m)), -EINVAL);
	/* 9,000 bytes: skipped, the next read goes on */
	assert_int_equal(ddctl_uevent_listener_read(l, m, sizeof(m)), -EMSGSIZE);
	assert_int_equal(ddctl_uevent_listener_read(l, m, sizeof(m)), -ENOBUFS);
	assert_int_equal(ddctl_uevent_listener_read(l, m, sizeof(m)), 1);
	assert_string_equal(m, "ab");
	ddctl_uevent_listener_free(l);
	free(big);
	ddctl_unref(ctx);
}

/*
 * A real NETLINK_KOBJECT_UEVENT socket: a uevent another process (here: a
 * second socket) sends to the listener's port carries that sender's port
 * and is refused.
 */
static void test_listener_socket(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_uevent_listener *l = NULL;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	socklen_t alen = sizeof(to);
	char m[64];
	int fd, r;

	r = ddctl_uevent_listener_new(ctx, &l);
	if (r == -EPERM || r == -EACCES || r == -EPROTONOSUPPORT || r == -EAFNOSUPPORT) {
		ddctl_unref(ctx);
		skip();
	}
	assert_int_equal(r, 0);
	assert_int_equal(getsockname(ddctl_uevent_listener_get_fd(l),
				     (struct sockaddr *)&to, &alen), 0);
	to.nl_groups = 0;
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	assert_true(fd >= 0);
	assert_int_equal(sendto(fd, load_star, sizeof(load_star), 0,
				(struct sockaddr *)&to, sizeof(to)),
			 (ssize_t)sizeof(load_star));
	assert_int_equal(sendto(fd, load_ab, sizeof(load_ab), 0,
				(struct sockaddr *)&to, sizeof(to)),
			 (ssize_t)sizeof(load_ab));
	/* both forged, so both dropped; kernel uevents may come in between */
	for (r = 0; r < 2;) {
		int v = ddctl_uevent_listener_read(l, m, sizeof(m));

		if (v == -EPERM)
			r++;
		else
			assert_true(v == 0 || v == 1);
	}
	close(fd);
	ddctl_uevent_listener_free(l);
	ddctl_unref(ctx);
}

/* After lost uevents: the configuration of each module in /proc/modules. */
static void test_for_loaded(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx, "func foo +p; module zz_none +p");
	struct ddctl_queryset *out = NULL;
	FILE *f = fopen("/proc/modules", "re");
	char line[4096], want[4200];
	size_t n = 0, i;

	if (!f) {
		/* no loadable modules (a container): libkmod's error */
		assert_true(ddctl_queryset_new_for_loaded(set, &out) < 0);
		ddctl_queryset_unref(set);
		ddctl_unref(ctx);
		return;
	}
	assert_int_equal(ddctl_queryset_new_for_loaded(set, &out), 0);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " ")] = '\0';
		snprintf(want, sizeof(want), "module %s func foo +p", line);
		for (i = 0; i < ddctl_queryset_get_count(out); i++)
			if (!strcmp(ddctl_query_get_canonical(ddctl_queryset_get_query(out, i)), want))
				break;
		assert_true(i < ddctl_queryset_get_count(out));
		n++;
	}
	fclose(f);
	assert_int_equal(ddctl_queryset_get_count(out), n);
	ddctl_queryset_unref(out);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

static void test_uevent(void **state)
{
	char m[64];

	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"add@/module/virtio_net\0ACTION=add\0DEVPATH=/module/virtio_net\0"
		"SUBSYSTEM=module\0SEQNUM=1234\0"), m, sizeof(m)), 1);
	assert_string_equal(m, "virtio_net");
	/* no trailing NUL: the last string ends with the buffer */
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"add@/module/ab\0SUBSYSTEM=module\0ACTION=add\0DEVPATH=/module/ab"),
		m, sizeof(m)), 1);
	assert_string_equal(m, "ab");
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"remove@/module/virtio_net\0ACTION=remove\0DEVPATH=/module/virtio_net\0"
		"SUBSYSTEM=module\0"), m, sizeof(m)), 0);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"add@/devices/virtual/net/lo\0ACTION=add\0DEVPATH=/devices/virtual/net/lo\0"
		"SUBSYSTEM=net\0"), m, sizeof(m)), 0);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"add@/module/x/holders\0ACTION=add\0DEVPATH=/module/x/holders\0"
		"SUBSYSTEM=module\0"), m, sizeof(m)), 0);
	assert_int_equal(ddctl_uevent_get_module(UEVENT("ACTION=add\0SUBSYSTEM=module\0"),
						 m, sizeof(m)), 0);
	assert_int_equal(ddctl_uevent_get_module(UEVENT(
		"ACTION=add\0DEVPATH=/module/a_rather_long_name\0SUBSYSTEM=module\0"),
		m, 8), -ENAMETOOLONG);
	assert_int_equal(ddctl_uevent_get_module("", 0, m, sizeof(m)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uevent),
		cmocka_unit_test(test_last_string_without_nul),
		cmocka_unit_test(test_invalid_names),
		cmocka_unit_test(test_listener),
		cmocka_unit_test(test_listener_socket),
		cmocka_unit_test(test_for_loaded),
	};

	return cmocka_run_group_tests_name("uevent", tests, NULL, NULL);
}
