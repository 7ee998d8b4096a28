// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The once-per-boot cache of the negation probe (kernel/features.c): the
 * kernel logs a refused probe at most once per boot. The dyndbg family
 * found without probing (kernel/netlink.c, against the fake peer of
 * nltest.h): GET_FEATURES listed in the controller's op list, then asked
 * once; the v2 series' text family (no GET_FEATURES) taken as no family.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/ctx.h"
#include "kernel/backend.h"
#include "kernel/dyndbg.h"
#include "kernel/features.h"
#include "nltest.h"
#include "testlib.h"

static char dir[] = "/tmp/ddctl-features-XXXXXX";

static void test_same_boot(void **state)
{
	(void)state;
	assert_int_equal(features_cache_read(dir, "boot-a"), -ENOENT);
	assert_int_equal(features_cache_write(dir, "boot-a", 1), 0);
	assert_int_equal(features_cache_read(dir, "boot-a"), 1);
	assert_int_equal(features_cache_write(dir, "boot-a", 0), 0);
	assert_int_equal(features_cache_read(dir, "boot-a"), 0);
}

static void test_other_boot(void **state)
{
	(void)state;
	assert_int_equal(features_cache_write(dir, "boot-a", 1), 0);
	assert_int_equal(features_cache_read(dir, "boot-b"), -ENOENT);
}

static void test_garbage(void **state)
{
	char path[4096];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/features", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("boot-a negation=7\n", f);
	fclose(f);
	assert_int_equal(features_cache_read(dir, "boot-a"), -ENOENT);
}

static void test_no_dir(void **state)
{
	(void)state;
	assert_int_equal(features_cache_read("/nonexistent/ddctl", "boot-a"), -ENOENT);
	assert_true(features_cache_write("/nonexistent/ddctl", "boot-a", 1) < 0);
}

static struct peer peer;
static struct ddctl_ctx *logged_ctx(void)
{
	struct ddctl_ctx *ctx = test_ctx();

	logbuf[0] = '\0';
	ddctl_set_log_fn(ctx, log_to_buf, NULL);
	ddctl_set_log_priority(ctx, LOG_DEBUG);
	return ctx;
}

/* GET_FEATURES in the op list: asked once, its numbers kept. */
static void test_family_structured(void **state)
{
	struct ddctl_ctx *ctx = logged_ctx();
	uint32_t max, features, valid;

	(void)state;
	peer_start(&peer, 512);
	peer.features = DYNDBG_FEATURE_NEGATE;
	peer.valid_flags = 0x3f;
	assert_true(dyndbg_present(ctx));
	assert_true(dyndbg_present(ctx));
	assert_int_equal(peer.getfamily, 1);
	assert_int_equal(peer.getfeatures, 1);
	ctx_get_nl_features(ctx, &max, &features, &valid);
	assert_int_equal(max, 512);
	assert_int_equal(features, DYNDBG_FEATURE_NEGATE);
	assert_int_equal(valid, 0x3f);
	assert_int_equal(ddctl_get_backend(ctx), DDCTL_BACKEND_NETLINK);
	assert_int_equal(peer.execs + peer.dumps, 0); /* no probe */
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/* A reply without QUERIES_MAX or VALID_FLAGS: the header's number, pmflts. */
static void test_family_features_absent(void **state)
{
	struct ddctl_ctx *ctx = logged_ctx();
	uint32_t max, features, valid;

	(void)state;
	peer_start(&peer, 0);
	peer.valid_flags = 0;
	assert_true(dyndbg_present(ctx));
	ctx_get_nl_features(ctx, &max, &features, &valid);
	assert_int_equal(max, DYNDBG_QUERIES_MAX);
	assert_int_equal(valid, 0x3f);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/*
 * The v2 series' text family (no GET_FEATURES): no usable family, the
 * control file, a debug line saying why; nothing sent to it, not even
 * with netlink asked for, and no monitor on it.
 */
static void test_family_v2_text(void **state)
{
	struct ddctl_ctx *ctx = logged_ctx();
	struct backend_result res = { 0 };
	struct ddctl_monitor *m = NULL;
	char *msg = NULL;

	(void)state;
	peer_start(&peer, 100);
	peer.get_features_op = false;
	assert_false(dyndbg_present(ctx));
	assert_int_equal(ddctl_get_backend(ctx), DDCTL_BACKEND_CONTROL);
	assert_non_null(strstr(logbuf, "no GET_FEATURES"));
	ddctl_set_backend(ctx, DDCTL_BACKEND_NETLINK);
	assert_int_equal(nl_exec(ctx, "module a +p", false, &res, &msg), -ENOENT);
	assert_null(msg);
	assert_int_equal(ddctl_monitor_new(ctx, &m), -ENOENT);
	assert_null(m);
	assert_int_equal(peer.getfeatures, 0);
	assert_int_equal(peer.execs, 0);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/* No family at all. */
static void test_family_absent(void **state)
{
	struct ddctl_ctx *ctx = logged_ctx();

	(void)state;
	peer_start(&peer, 100);
	peer.family = false;
	assert_false(dyndbg_present(ctx));
	assert_int_equal(peer.getfeatures, 0);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/* Negation is what FEATURES says: no probe. */
static void test_features_of_family(void **state)
{
	(void)state;
	assert_int_equal(features_of_family(DYNDBG_FEATURE_NEGATE | DYNDBG_FEATURE_CLASS),
			 DDCTL_FEATURE_NETLINK | DDCTL_FEATURE_TRANSACTIONS |
			 DDCTL_FEATURE_NEGATION);
	assert_int_equal(features_of_family(DYNDBG_FEATURE_DRY_RUN),
			 DDCTL_FEATURE_NETLINK | DDCTL_FEATURE_TRANSACTIONS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_boot),
		cmocka_unit_test(test_other_boot),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_no_dir),
		cmocka_unit_test(test_family_structured),
		cmocka_unit_test(test_family_features_absent),
		cmocka_unit_test(test_family_v2_text),
		cmocka_unit_test(test_family_absent),
		cmocka_unit_test(test_features_of_family),
	};
	char path[4096];
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(path, sizeof(path), "%s/features", dir);
	unlink(path);
	rmdir(dir);
	return r;
}
