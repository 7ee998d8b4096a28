// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Module names libkmod knows: ddctl_module_foreach_available() on a fake
 * module directory. */
#include <errno.h>
#include <unistd.h>

#include <libkmod.h>

#include "core/ctx.h"
#include "testlib.h"

static char dir[] = "/tmp/ddctl-kmod-XXXXXX";

static void index_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static void write_index(const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	index_path(path, sizeof(path), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int collect(const char *name, void *data)
{
	char *names = data;

	strcat(names, name);
	strcat(names, " ");
	return strcmp(name, "stop_here") ? 0 : 42;
}

static void test_available(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char names[512] = "", path[4096];

	assert_non_null(mkdtemp(dir));
	/* the context's libkmod looks at the fake directory */
	ctx_set_kmod(ctx, kmod_new(dir, NULL));
	assert_non_null(ctx_get_kmod(ctx));
	assert_int_equal(ddctl_module_foreach_available(ctx, collect, names), -ENOENT);
	write_index("modules.dep",
		    "kernel/drivers/net/virtio_net.ko.xz: kernel/net/core/failover.ko\n"
		    "kernel/drivers/block/virtio-blk.ko:\n"
		    "updates/dkms/foo.ko.zst:\n");
	assert_int_equal(ddctl_module_foreach_available(ctx, collect, names), 0);
	assert_string_equal(names, "virtio_net virtio_blk foo ");
	names[0] = '\0';
	write_index("modules.builtin",
		    "kernel/drivers/virtio/virtio.ko\nkernel/lib/stop_here.ko\nkernel/lib/never.ko\n");
	assert_int_equal(ddctl_module_foreach_available(ctx, collect, names), 42);
	assert_string_equal(names, "virtio_net virtio_blk foo virtio stop_here ");
	ddctl_unref(ctx);
	index_path(path, sizeof(path), "modules.dep");
	unlink(path);
	index_path(path, sizeof(path), "modules.builtin");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_available),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
