# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# The kernel's own dynamic debug selftests (tools/testing/selftests/
# dynamic_debug/, patch 0011 of the 6.12 series), built statically on the host
# by build-kselftest.sh and installed in /kselftest. Sourced by suite.sh
# last; runs alone with
#   run-vm.py --kind patched --script kselftest --append "ddctl.kind=patched"
#   ks-negation     negation.sh: negated match-specs over the control file
#   ks-transaction  transaction.sh: query sets in one control-file write
#   ks-netlink      dyndbg_nl: the netlink family through YNL (exec, dry
#                   run, invalid query, dump, notify)
# Exit code 4 (skip) is a skip on the stock kernel and a failure on the
# patched one, where every feature must be there. The KTAP output of each
# is in $OUT/ks-NAME.txt.
KSTESTS="negation:negation.sh transaction:transaction.sh netlink:dyndbg_nl"
if [ -z "$CONTROL" ]; then
	. /ddctl-tests/lib.sh
	load_std
fi

if [ ! -d /kselftest/dynamic_debug ]; then
	for t in $KSTESTS; do
		skip ks-${t%%:*} "kernel selftests not in the initramfs (build-kselftest.sh failed or not run)"
	done
else
	load test_dynamic_debug || note "insmod test_dynamic_debug failed"
	# the stock kernel toggles static keys one by one: keep "+p ; -p"
	# over all sites short
	grep -q '^ddctl_sites_20000 ' /proc/modules && rmmod ddctl_sites_20000
	# dyndbg_nl flips more than 256 keys in one set on the module named by
	# DYNDBG_BIG_MODULE (test_dynamic_debug has 34 sites): 2,000 of them
	if [ "$DDCTL_NETLINK" != 1 ] || ! load ddctl_sites_2000; then
		note "ks-netlink: no ddctl_sites_2000 (stock, or insmod failed): its >256-key test skips"
	fi
	for t in $KSTESTS; do
		n=${t%%:*} prog=/kselftest/dynamic_debug/${t#*:}
		if grep -q '^ddctl_sites_2000 ' /proc/modules; then
			DYNDBG_BIG_MODULE=ddctl_sites_2000 "$prog" > $OUT/ks-$n.txt 2>&1
		else
			"$prog" > $OUT/ks-$n.txt 2>&1
		fi
		rc=$?
		sed "s/^/@@DDCTL@@ NOTE ks-$n: /" $OUT/ks-$n.txt | grep -E 'not ok|SKIP|Totals|Bail|exec:|dump:|notify:|invalid query:|\+p ; -p:|dry run:'
		why=$(grep -E '^1\.\.0 # SKIP|^ok .*# SKIP' $OUT/ks-$n.txt | head -n1 | sed 's/.*# SKIP *//')
		failed=$(grep '^not ok' $OUT/ks-$n.txt | sed 's/^not ok [0-9]* *//' | tr '\n' ';')
		if [ $rc = 0 ]; then
			ok ks-$n
		elif [ $rc = 4 ] && is_builtin_module test_dynamic_debug; then
			# the debug kernel builds it in (for k-boot-classmap):
			# the selftests that load and unload it skip there
			skip ks-$n "test_dynamic_debug is built in (the debug kernel): $why"
		elif [ $rc = 4 ] && [ "$DDCTL_KIND" = patched ]; then
			notok ks-$n "skipped on the patched kernel: $why"
		elif [ $rc = 4 ]; then
			skip ks-$n "$why"
		else
			notok ks-$n "rc=$rc; failed: ${failed:-see ks-$n.txt}"
		fi
	done
fi

# The series' KUnit suites (1-tip's last patch; built in by
# kconfig-patched.fragment, run once at boot): their results from debugfs.
#   ks-kunit-static-keys     static_keys_queued: a batch over 260 keys,
#                            a key queued several times, immediate updates
#                            around a batch, a text poke vector that cannot grow
#   ks-kunit-text-poke-vec   x86_text_poke_vec: growth, sort, duplicate and
#                            no-room refusal, applying an empty vector and
#                            one of several pages, a jump label site sized
#                            from its bytes as the decoder sizes it and the
#                            decoder's fallback for other bytes (x86 only)
for s in static-keys:static_keys_queued text-poke-vec:x86_text_poke_vec; do
	n=${s%%:*} suite=${s#*:}
	r=/sys/kernel/debug/kunit/$suite/results
	if [ ! -r $r ]; then
		if [ "$DDCTL_KIND" = patched ] && { [ $n != text-poke-vec ] || [ "$(uname -m)" = x86_64 ]; }; then
			notok ks-kunit-$n "no $r on the patched kernel (CONFIG_KUNIT and the series' KUnit options)"
		else
			skip ks-kunit-$n "kernel without the series' KUnit suite $suite"
		fi
		continue
	fi
	cp $r $OUT/ks-kunit-$n.txt
	sed "s/^/@@DDCTL@@ NOTE ks-kunit-$n: /" $r | grep -E '^@@DDCTL@@ NOTE [^:]*: *(not ok|ok|# )'
	# the cases' lines are indented, the suite's own is not
	pass=$(grep -cE '^ +ok [0-9]+ ' $r)
	fail=$(grep -cE '^ +not ok [0-9]+ ' $r)
	sok=$(grep -cE "^ok [0-9]+ $suite" $r)
	check ks-kunit-$n "$suite: $pass cases passed, $fail failed, suite ok $sok" \
		[ "$pass" -gt 0 -a "$fail" = 0 -a "$sok" = 1 ]
done
