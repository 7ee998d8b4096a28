# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Modules loaded during a follow/run session, with kmod's modprobe (which
# reads /run/modprobe.d): test_dynamic_debug's init prints two pr_debug
# lines ("init start", "init done") that only load-time configuration can
# catch. Each exit path leaves no ddctl file in /run/modprobe.d and the
# module at its defaults; reset gives a module loaded after the boot
# snapshot its own defaults (ddctl_deflt_256: a copy of ddctl_sites_256
# whose sites are on by default). States and counts, never time. Sourced
# by suite.sh; also runs alone (run-vm.py --script modload).
. /ddctl-tests/lib.sh

MTESTS="ml-run-modprobe ml-run-alias ml-follow-load ml-follow-wildcard ml-exit-paths \
ml-sigkill-restore ml-reset-later"
KMOD=/kmod/bin
MPD=/run/modprobe.d
MSESSIONS=/run/ddctl/sessions
TDD=test_dynamic_debug
INIT_RE="^$TDD *test_dynamic_debug_init:[0-9]* *test_dd: init \(start\|done\)\$"

ml_ours() { ls $MPD 2>/dev/null | grep -c '^ddctl-session-'; }
ml_has_file() { [ "$(ml_ours)" -ge 1 ]; }
ml_records() { ls $MSESSIONS 2>/dev/null | grep -c '\.session$'; }
ml_loaded() { grep -q "^$1 " /proc/modules; }
ml_unload() { rmmod $1 2>/dev/null; ! ml_loaded $1; }
# every site of test_dynamic_debug at its default (=_: no file has DEBUG)
ml_defaults() { [ -n "$(flags_of_module $TDD)" ] && [ -z "$(flags_of_module $TDD | grep -v '^=_$')" ]; }
ml_clean() { [ "$(ml_ours)" = 0 ] && [ "$(ml_records)" = 0 ] && ml_defaults; }
ml_dmesg_inits() { dmesg | grep -c 'test_dd: init start'; }

if ! has_ddctl; then
	for t in $MTESTS; do skip $t "ddctl not in the initramfs"; done
elif [ ! -x $KMOD/modprobe ]; then
	for t in $MTESTS; do skip $t "kmod's modprobe not in the initramfs (busybox's reads no /run/modprobe.d)"; done
elif is_builtin_module $TDD; then
	for t in $MTESTS; do skip $t "$TDD is built in (the debug kernel): nothing to load"; done
elif ! ml_unload $TDD; then
	for t in $MTESTS; do skip $t "cannot unload $TDD"; done
else
	[ -d /run ] || mkdir /run
	grep -q ' /run ' /proc/mounts || mount -t tmpfs tmpfs /run
	$KMOD/depmod 2> $OUT/ml-depmod.err # modules.dep.bin: libkmod finds the objects
	rm -rf $MSESSIONS

	# ---- run: the init's lines in the output and in the kernel log
	b=$(ml_dmesg_inits)
	PATH=$KMOD:$PATH ddctl run "module $TDD +p" -- modprobe $TDD > $OUT/ml1.txt 2> $OUT/ml1.err
	rc=$?
	a=$(ml_dmesg_inits)
	n=$(grep -c "$INIT_RE" $OUT/ml1.txt)
	check ml-run-modprobe "rc=$rc, $n init lines, dmesg +$((a - b)), files=$(ml_ours) records=$(ml_records): $(flags_of_module $TDD | sort | uniq -c | tr '\n' ' '): $(tr '\n' '|' < $OUT/ml1.err | head -c 300)" \
		eval '[ $rc = 0 -a "$n" = 2 -a $((a - b)) = 1 ] && ml_loaded $TDD && ml_clean'

	# ---- an alias: modprobe ALIAS, the options keyed by the module
	ml_unload $TDD
	mkdir -p /etc/modprobe.d
	echo "alias ddctl_tdd_alias $TDD" > /etc/modprobe.d/ml-alias.conf
	PATH=$KMOD:$PATH ddctl run 'module ddctl_tdd_alias +p' -- modprobe ddctl_tdd_alias > $OUT/ml2.txt 2> $OUT/ml2.err
	rc=$?
	n=$(grep -c "$INIT_RE" $OUT/ml2.txt)
	check ml-run-alias "rc=$rc, $n init lines: $(tr '\n' '|' < $OUT/ml2.err | head -c 300)" \
		eval '[ $rc = 0 -a "$n" = 2 ] && grep -q "is \"module $TDD +p\"" $OUT/ml2.err && ml_clean'
	rm -f /etc/modprobe.d/ml-alias.conf

	# ---- follow: a module loaded meanwhile (its init calls do_prints once: the
	# lines of do_cats come twice, the second time from the cat), SIGTERM
	ml_unload $TDD
	ddctl follow "module $TDD +p" > $OUT/ml3.txt 2> $OUT/ml3.err &
	pid=$!
	wait_until ml_has_file
	$KMOD/modprobe $TDD
	wait_until grep -q "module $TDD loaded: following" $OUT/ml3.err
	cat /sys/module/$TDD/parameters/do_prints > /dev/null
	wait_until eval 'grep -q "test_dd: doing categories" $OUT/ml3.txt'
	kill -TERM $pid; wait $pid
	n=$(grep -c "$INIT_RE" $OUT/ml3.txt)
	c=$(grep -c "^$TDD *do_cats:[0-9]* *test_dd: doing categories\$" $OUT/ml3.txt)
	check ml-follow-load "$n init lines, $c do_cats lines, files=$(ml_ours) records=$(ml_records): $(tr '\n' '|' < $OUT/ml3.err | head -c 300)" \
		eval '[ "$n" = 2 -a "$c" = 2 ] && ml_clean'

	# ---- a wildcard: no load-time file; the module joins the session at
	# its load uevent (insmod), on its state then, and is put back to it
	ml_unload $TDD
	ddctl follow 'module test_dynamic_de* +p' > $OUT/ml7.txt 2> $OUT/ml7.err &
	pid=$!
	wait_until grep -q following $OUT/ml7.err
	files=$(ml_ours)
	insmod $MODDIR/$TDD.ko
	wait_until grep -q "module $TDD loaded: following" $OUT/ml7.err
	cat /sys/module/$TDD/parameters/do_prints > /dev/null
	wait_until eval 'grep -q "test_dd: doing categories" $OUT/ml7.txt'
	kill -TERM $pid; wait $pid
	c=$(grep -c "^$TDD *do_cats:[0-9]* *test_dd: doing categories\$" $OUT/ml7.txt)
	check ml-follow-wildcard "$files file(s), $c do_cats lines, then files=$(ml_ours) records=$(ml_records): $(flags_of_module $TDD | sort | uniq -c | tr '\n' ' '): $(tr '\n' '|' < $OUT/ml7.err | head -c 300)" \
		eval '[ "$files" = 0 -a "$c" = 1 ] && ml_clean'

	# ---- SIGINT, SIGHUP (SIGTERM: above), and a command that fails: nothing left
	bad=""
	for sig in INT HUP; do
		ml_unload $TDD
		PATH=$KMOD:$PATH ddctl run "module $TDD +p" -- sh -c "$KMOD/modprobe $TDD; exec sleep 60" > $OUT/ml4-$sig.txt 2>&1 &
		pid=$!
		wait_until eval 'grep -q "module $TDD loaded" $OUT/ml4-$sig.txt'
		kill -$sig $pid; wait $pid
		ml_clean || bad="$bad $sig"
	done
	ml_unload $TDD
	PATH=$KMOD:$PATH ddctl run "module $TDD +p" -- sh -c "$KMOD/modprobe $TDD; exit 3" > $OUT/ml4-fail.txt 2>&1
	rc=$?
	ml_clean || bad="$bad exit"
	check ml-exit-paths "left after:$bad (rc=$rc)" eval '[ -z "$bad" -a $rc = 3 ]'

	# ---- SIGKILL: the file stays, sessions --restore removes it and
	# gives the module its defaults
	ml_unload $TDD
	PATH=$KMOD:$PATH ddctl run "module $TDD +p" -- sh -c "$KMOD/modprobe $TDD; exec sleep 60" > $OUT/ml5.txt 2>&1 &
	pid=$!
	wait_until eval 'grep -q "module $TDD loaded" $OUT/ml5.txt'
	kill -KILL $pid; wait $pid
	left=$(ml_ours)
	on=$(flags_of_module $TDD | grep -c p)
	ddctl sessions --restore > $OUT/ml5-restore.txt 2>&1
	rc=$?
	check ml-sigkill-restore "left $left file(s), $on sites on, restore rc=$rc, then files=$(ml_ours) records=$(ml_records): $(tr '\n' '|' < $OUT/ml5-restore.txt | head -c 300)" \
		eval '[ "$left" = 1 -a "$on" -gt 0 -a $rc = 0 ] && ml_clean'

	# ---- reset: a module loaded after the boot snapshot keeps its
	# default-on sites (and gets them back)
	D=ddctl_deflt_256
	if [ ! -e $MODDIR/$D.ko ]; then
		skip ml-reset-later "$D.ko not in the initramfs"
	else
		rm -f /run/ddctl/boot.conf
		ml_unload $D
		ddctl save --boot > $OUT/ml6.txt 2>&1
		insmod $MODDIR/$D.ko
		don=$(flags_of_module $D | grep -c '^=p$')
		total=$(flags_of_module $D | wc -l)
		ddctl reset >> $OUT/ml6.txt 2>&1; r1=$?
		after1=$(flags_of_module $D | grep -c '^=p$')
		echo "module $D =_" > $CONTROL
		ddctl reset >> $OUT/ml6.txt 2>&1; r2=$?
		after2=$(flags_of_module $D | grep -c '^=p$')
		check ml-reset-later "$don of $total default-on, reset rc=$r1 -> $after1 on, after =_ reset rc=$r2 -> $after2 on: $(tr '\n' '|' < $OUT/ml6.txt | head -c 300)" \
			eval '[ "$total" -gt 0 -a "$don" = "$total" -a $r1 = 0 -a "$after1" = "$total" -a $r2 = 0 -a "$after2" = "$total" ]'
		rmmod $D
		rm -f /run/ddctl/boot.conf
	fi
	ml_loaded $TDD || load $TDD
	reset_all
fi
