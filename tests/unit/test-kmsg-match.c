// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Lines matched to callsites by their text (model/kmsg-match.c): a format
 * as a matcher, netdev_dbg() lines without decoration, decorations the
 * kernel cut at PREFIX_SIZE - 1 bytes.
 */
#include <errno.h>

#include "testlib.h"
#include "model/kmsg-match.h"
#include "util/util.h"

#define MFL (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_LINENO)

/* printf conversions stand for any text; "%%" is '%'; the newline is not in the record */
static void test_format_fits(void **state)
{
	assert_true(kmsg_format_fits("Begin bond_init\n", "Begin bond_init"));
	assert_true(kmsg_format_fits("slave %s: up %d%%\n", "slave eth0: up 100%"));
	assert_true(kmsg_format_fits("%s: %*ph\n", "x: 01 02"));
	assert_true(kmsg_format_fits("at %pS now\n", "at foo+0x1/0x2 now"));
	assert_true(kmsg_format_fits("%-8s|%5.2lu|%llx\n", "ab      |   12|ff"));
	assert_true(kmsg_format_fits("tab\there\n", "tab\\x09here"));
	assert_false(kmsg_format_fits("Begin bond_init\n", "Begin bond_uninit"));
	assert_false(kmsg_format_fits("up %d%%\n", "up 100"));
	assert_false(kmsg_format_fits("x %s y\n", "x  z"));
}

/* the lines netdev_dbg() prints for a device without a parent (bond, bridge) */
static void test_undecorated(void **state)
{
	static const char txt[] =
		"drivers/net/bonding/bond_main.c:5899 [bonding]bond_init =p \"Begin bond_init\\n\"\n"
		"drivers/net/bonding/bond_main.c:3992 [bonding]bond_3ad_xor_xmit =p \"%s\\n\"\n"
		"drivers/net/bonding/bond_main.c:4000 [bonding]bond_enslave =p \"(slave %s): Enslaving as %s\\n\"\n"
		"drivers/net/bonding/bond_main.c:4001 [bonding]bond_enslave =p \"(slave %s): %s\\n\"\n"
		"net/bridge/br_if.c:700 [bridge]br_add_if =p \"port %u(%s) entered %s state\\n\"\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	struct ddctl_kmsg_index *idx = NULL;
	size_t site = 99;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, sizeof(txt) - 1, &t), 0);
	assert_int_equal(ddctl_kmsg_index_new(t, &idx), 0);
	/* 6.1's line for "Begin bond_init": NAME STATE: message */
	assert_int_equal(ddctl_kmsg_index_find_message(idx, "b0 (uninitialized): Begin bond_init", &site), 1);
	assert_int_equal(site, 0);
	assert_int_equal(ddctl_kmsg_index_find_message(idx, "(NULL net_device): Begin bond_init", &site), 1);
	assert_int_equal(site, 0);
	/* the format with the most literal bytes wins over "(slave %s): %s" */
	assert_int_equal(ddctl_kmsg_index_find_message(idx, "b0: (slave eth1): Enslaving as a backup interface", &site), 1);
	assert_int_equal(site, 2);
	assert_int_equal(ddctl_kmsg_index_find_message(idx, "br0: port 1(veth0) entered blocking state", &site), 1);
	assert_int_equal(site, 4);
	/* "%s" alone has no literal byte: it names no line */
	assert_int_equal(ddctl_kmsg_index_find_message(idx, "b0: something else", &site), -ENOENT);
	ddctl_kmsg_index_free(idx);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Linux 6.1's __dynamic_emit_prefix(), PREFIX_SIZE 64 (lib/dynamic_debug.c) */
#define PREFIX_SIZE 64

static int remaining(int wrote)
{
	if (PREFIX_SIZE - wrote > 0)
		return PREFIX_SIZE - wrote;
	return 0;
}

static char *emit_prefix_61(const struct ddctl_site *s, unsigned int flags,
			    int tid, char *buf)
{
	int pos_after_tid;
	int pos = 0;

	*buf = '\0';
	if (flags & DDCTL_FLAG_TID)
		pos += snprintf(buf + pos, remaining(pos), tid ? "[%d] " : "<intr> ", tid);
	pos_after_tid = pos;
	if (flags & DDCTL_FLAG_MODNAME)
		pos += snprintf(buf + pos, remaining(pos), "%s:", ddctl_site_get_module(s));
	if (flags & DDCTL_FLAG_FUNCNAME)
		pos += snprintf(buf + pos, remaining(pos), "%s:", ddctl_site_get_function(s));
	if (flags & DDCTL_FLAG_LINENO)
		pos += snprintf(buf + pos, remaining(pos), "%d:", (int)ddctl_site_get_line(s));
	if (pos - pos_after_tid)
		pos += snprintf(buf + pos, remaining(pos), " ");
	if (pos >= PREFIX_SIZE)
		buf[PREFIX_SIZE - 1] = '\0';
	return buf;
}

/*
 * A message @fmt can print, as /dev/kmsg shows it: each conversion gives
 * "1", "%%" '%', other bytes below ' ' or above '~' "\xNN", no newline.
 */
static void print_format(const char *fmt, char *out, size_t size)
{
	size_t n = 0;

	for (; *fmt && n + 5 < size; fmt++) {
		if (*fmt == '%' && fmt[1] == '%') {
			out[n++] = *++fmt;
		} else if (*fmt == '%' && fmt[1]) {
			fmt += 1 + strspn(fmt + 1, "#0- +'*.0123456789hlLqjzt");
			if (*fmt == 'p')
				while (fmt[1] >= 'A' && fmt[1] <= 'z' && fmt[1] != '\\')
					fmt++;
			out[n++] = '1';
			if (!*fmt)
				break;
		} else if (*fmt == '\n' && !fmt[1]) {
			break;
		} else if ((unsigned char)*fmt < ' ' || (unsigned char)*fmt > '~' || *fmt == '\\') {
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", (unsigned char)*fmt);
		} else {
			out[n++] = *fmt;
		}
	}
	out[n] = '\0';
}

/*
 * Every site of Debian's 6.1 table whose decoration the kernel cuts: the
 * line as 6.1 prints it (pr_debug: the message right after the cut) is
 * attributed to the site, or to one of the same module, function and
 * format; a line that was not cut is not taken for a cut one.
 */
static void test_cut_prefix_61(void **state)
{
	static const unsigned int flagsets[] = { MFL, MFL | DDCTL_FLAG_TID };
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table_xz(ctx, "debian-6.1-control.txt.xz");
	struct ddctl_kmsg_index *idx = NULL;
	struct ddctl_kmsg_prefix p;
	char buf[PREFIX_SIZE], line[8192];
	size_t i, k, site, cut = 0, plain = 0;
	const char *msg;
	int full;

	assert_int_equal(ddctl_kmsg_index_new(t, &idx), 0);
	for (k = 0; k < ARRAY_SIZE(flagsets); k++) {
		for (i = 0; i < ddctl_table_get_count(t); i++) {
			const struct ddctl_site *s = ddctl_table_get_site(t, i), *got;
			const char *fmt = ddctl_site_get_format(s);

			/* the line 6.1 prints: the prefix, a message of the format */
			snprintf(line, sizeof(line), "%s", emit_prefix_61(s, flagsets[k], 4242, buf));
			print_format(fmt, line + strlen(line), sizeof(line) - strlen(line));
			full = snprintf(NULL, 0, "%s%s:%s:%u: ", flagsets[k] & DDCTL_FLAG_TID ? "[4242] " : "",
					ddctl_site_get_module(s), ddctl_site_get_function(s),
					ddctl_site_get_line(s));
			if (full < PREFIX_SIZE) {
				/* not cut: the decoration parses, no cut shape is claimed */
				if (plain++ < 300) {
					assert_int_equal(ddctl_kmsg_prefix_parse(line, flagsets[k], &p), 0);
					if (ddctl_kmsg_index_find_cut(idx, line, flagsets[k], &site, &msg) > 0)
						assert_true(strlen(line) >= PREFIX_SIZE - 1);
				}
				continue;
			}
			cut++;
			if (ddctl_kmsg_prefix_parse(line, flagsets[k], &p) == 0 &&
			    ddctl_kmsg_index_find(idx, &p, &site) > 0)
				fail_msg("a cut line parses as decorated: %s", line);
			if (ddctl_kmsg_index_find_cut(idx, line, flagsets[k], &site, &msg) <= 0)
				fail_msg("cut line not attributed: %s", line);
			got = ddctl_table_get_site(t, site);
			if (site != i && (strcmp(ddctl_site_get_module(got), ddctl_site_get_module(s)) ||
					  strcmp(ddctl_site_get_function(got), ddctl_site_get_function(s)) ||
					  strcmp(ddctl_site_get_format(got), fmt)))
				fail_msg("%s: attributed to %s:%u", line, ddctl_site_get_file(got),
					 ddctl_site_get_line(got));
			assert_ptr_equal(msg, line + PREFIX_SIZE - 1);
		}
	}
	/* 97 sites are cut with m, f and l, more with the thread id */
	assert_true(cut > 97 * 2);
	ddctl_kmsg_index_free(idx);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* the real shapes: cut after the line's colon, inside a function name, with a tid */
static void test_cut_shapes(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table_xz(ctx, "debian-6.1-control.txt.xz");
	struct ddctl_kmsg_index *idx = NULL;
	const struct ddctl_site *s;
	const char *msg;
	size_t site;

	assert_int_equal(ddctl_kmsg_index_new(t, &idx), 0);
	assert_true(ddctl_kmsg_index_find_cut(idx,
		"target_core_mod:target_fabric_setup_tpg_mappedlun_stat_cit:253:Setup generic lun_0",
		MFL, &site, &msg) > 0);
	s = ddctl_table_get_site(t, site);
	assert_string_equal(ddctl_site_get_function(s), "target_fabric_setup_tpg_mappedlun_stat_cit");
	assert_int_equal(ddctl_site_get_line(s), 253);
	assert_string_equal(msg, "Setup generic lun_0");
	assert_int_equal(ddctl_kmsg_index_find_cut(idx,
		"amdgpu:dml20v2_DISPCLKDPPCLKDCFCLKDeepSleepPrefetchParametersWa[DML]:DML: CalculatePrefetchSchedule ***failed***. Prefetch schedule violation. Results are NOT valid",
		MFL, &site, &msg), 1);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, site)), 2362);
	assert_int_equal(ddctl_kmsg_index_find_cut(idx,
		"[31337] snd_soc_kbl_rt5663_rt5514_max98927:kabylake_set_bias_leDisable mclk",
		MFL | DDCTL_FLAG_TID, &site, &msg), 1);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, site)), 718);
	/* the same cut, another format: the message tells (line 721) */
	assert_int_equal(ddctl_kmsg_index_find_cut(idx,
		"[31337] snd_soc_kbl_rt5663_rt5514_max98927:kabylake_set_bias_leEnable mclk",
		MFL | DDCTL_FLAG_TID, &site, &msg), 1);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, site)), 721);
	/* the message must fit a format: another text is no such line */
	assert_int_equal(ddctl_kmsg_index_find_cut(idx,
		"[31337] snd_soc_kbl_rt5663_rt5514_max98927:kabylake_set_bias_leOther",
		MFL | DDCTL_FLAG_TID, &site, &msg), -ENOENT);
	/* a decoration that was not cut is no cut one */
	assert_int_equal(ddctl_kmsg_index_find_cut(idx,
		"target_core_mod:core_scsi3_emulate_pro_register_and_move:3270: SPC-3 PR REGISTER_AND_MOVE: x",
		MFL, &site, &msg), -ENOENT);
	ddctl_kmsg_index_free(idx);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_fits),
		cmocka_unit_test(test_undecorated),
		cmocka_unit_test(test_cut_prefix_61),
		cmocka_unit_test(test_cut_shapes),
	};

	return cmocka_run_group_tests_name("kmsg-match", tests, NULL, NULL);
}
