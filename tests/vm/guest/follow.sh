# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Scoped debugging: ddctl follow / run against the real kernel
# log, with test_dynamic_debug's do_prints parameter making its sites print
# on demand; every exit path puts the sites back; a SIGKILLed session is
# restored by `ddctl sessions --restore` and by ddctl.service's start
# commands; reset and diff against the boot snapshot. States and counts,
# never time. Sourced by suite.sh; also runs alone (run-vm.py --script follow).
. /ddctl-tests/lib.sh

FTESTS="fl-lines-exact fl-counts-json fl-sigterm fl-sighup fl-error-restores \
fl-other-writer fl-sigkill-sessions fl-sigkill-unit fl-run-status fl-reset-diff"
DOPRINTS=/sys/module/test_dynamic_debug/parameters/do_prints
SESSIONS=/run/ddctl/sessions

# fl_wait CMD...: until CMD succeeds, at most 30 s (lib.sh)
fl_wait() { wait_until "$@"; }
fl_lines() { [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ]; }
# fl_flags FUNC: the flags of FUNC's class-less site (do_cats and do_levels
# have one each; their class sites are never touched by `func X +p`). Not
# "the first site of FUNC": the order of a module's sites in the control
# file is the order of its __dyndbg section, which differs between
# compilers (x86 gcc: ascending lines; aarch64 gcc: descending, so the
# first do_cats site there is the class D2_DRMRES one).
fl_flags() {
	control | awk -v f="$1" '$2 == "[test_dynamic_debug]" f && !/ class(:[^ ]*| unknown, _id:[0-9]*)$/ { print $3; exit }'
}
fl_applied() { [ "$(fl_flags "$1")" = "$2" ]; }
fl_gone() { ! kill -0 "$1" 2>/dev/null; }
fl_prints() { n=0; while [ $n -lt "$1" ]; do cat $DOPRINTS > /dev/null; n=$((n + 1)); done; }
fl_same() { cat $CONTROL > /tmp/fl-after; cmp -s /tmp/fl-before /tmp/fl-after; }
fl_records() { ls $SESSIONS 2>/dev/null | grep -c '\.session$'; }

# a follow session in the background on $1 (out file), queries after it
fl_start() {
	out=$1; shift
	ddctl follow "$@" > $out 2> $out.err &
	fl_pid=$!
}

if ! has_ddctl; then
	for t in $FTESTS; do skip $t "ddctl not in the initramfs"; done
elif [ ! -e $DOPRINTS ] && ! load test_dynamic_debug; then
	for t in $FTESTS; do skip $t "no test_dynamic_debug"; done
else
	[ -d /run ] || mkdir /run
	grep -q ' /run ' /proc/mounts || mount -t tmpfs tmpfs /run
	rm -rf $SESSIONS /run/ddctl/boot.conf
	reset_all
	# a site printing before the session, undecorated: not the session's
	echo 'func do_levels +p' > $CONTROL
	cat $CONTROL > /tmp/fl-before

	# ---- follow sees exactly the selected site's lines; Ctrl-C restores
	fl_start $OUT/fl1.txt func do_cats +p
	fl_wait fl_applied 'do_cats' '=pmfsl'
	r1=$?
	fl_prints 3
	fl_wait fl_lines $OUT/fl1.txt . 3
	kill -INT $fl_pid; wait $fl_pid; rc=$?
	mine=$(grep -c '^test_dynamic_debug *do_cats:[0-9]* *test_dd: doing categories$' $OUT/fl1.txt)
	all=$(grep -c . $OUT/fl1.txt)
	same=0; fl_same && same=1
	fl_ok() {
		[ $r1 = 0 -a $rc = 0 -a "$mine" = 3 -a "$all" = 3 -a $same = 1 -a "$(fl_records)" = 0 ] &&
		grep -q '3 lines from 1 of 1 followed callsite' $OUT/fl1.txt.err &&
		grep -q '^ *3  lib/test_dynamic_debug.c:[0-9]* \[test_dynamic_debug\]do_cats$' $OUT/fl1.txt.err
	}
	check fl-lines-exact "applied=$r1 rc=$rc, $mine/$all lines do_cats, restored=$same, records=$(fl_records): $(tr '\n' '|' < $OUT/fl1.txt.err | head -c 400)" fl_ok
	cp $OUT/fl1.txt.err $OUT/fl-transcript.txt

	# ---- counts per site, JSON lines; the class sites of do_cats too
	ddctl follow --json 'func do_cats +p; module test_dynamic_debug class D2_CORE +p; class D2_KMS +p' \
		> $OUT/fl2.txt 2> $OUT/fl2.err &
	fl_pid=$!
	fl_wait fl_applied 'do_cats' '=pmfsl'
	fl_prints 2
	fl_wait fl_lines $OUT/fl2.txt '"message"' 6
	kill -TERM $fl_pid; wait $fl_pid; rc=$?
	cats=$(grep '"function":"do_cats",' $OUT/fl2.txt | grep -c '"message":"test_dd: doing categories"')
	core=$(grep -c '"message":"test_dd: D2_CORE msg"' $OUT/fl2.txt)
	kms=$(grep -c '"message":"test_dd: D2_KMS msg"' $OUT/fl2.txt)
	other=$(grep '"message"' $OUT/fl2.txt | grep -vc 'doing categories\|D2_CORE msg\|D2_KMS msg')
	summary=$(grep -c '{"summary":{"lines":6,.*"count":2}.*"count":2}.*"count":2}\]}}' $OUT/fl2.txt)
	same=0; fl_same && same=1
	check fl-counts-json "rc=$rc, $cats/$core/$kms lines, $other others, summary=$summary, restored=$same: $(tail -n 1 $OUT/fl2.txt | head -c 300)" \
		[ $rc = 0 -a "$cats" = 2 -a "$core" = 2 -a "$kms" = 2 -a "$other" = 0 -a "$summary" = 1 -a $same = 1 ]

	# ---- SIGTERM and SIGHUP restore
	for sig in TERM HUP; do
		fl_start $OUT/fl-$sig.txt module test_dynamic_debug +p
		fl_wait fl_applied 'do_cats' '=pmfsl'
		r1=$?
		kill -$sig $fl_pid; wait $fl_pid; rc=$?
		same=0; fl_same && same=1
		t=$(echo $sig | tr A-Z a-z)
		check fl-sig$t "applied=$r1 rc=$rc restored=$same records=$(fl_records): $(tr '\n' '|' < $OUT/fl-$sig.txt.err | head -c 300)" \
			[ $r1 = 0 -a $rc = 0 -a $same = 1 -a "$(fl_records)" = 0 ]
	done

	# ---- an error while running (output to a full disk) restores, exit 1
	ddctl follow func do_cats +p > /dev/full 2> $OUT/fl-err.txt &
	fl_pid=$!
	fl_wait fl_applied 'do_cats' '=pmfsl'
	fl_prints 1
	fl_wait fl_gone $fl_pid
	wait $fl_pid; rc=$?
	same=0; fl_same && same=1
	fl_ok() {
		[ $rc = 1 -a $same = 1 -a "$(fl_records)" = 0 ] && grep -q 'cannot write the output' $OUT/fl-err.txt
	}
	check fl-error-restores "rc=$rc restored=$same records=$(fl_records): $(tr '\n' '|' < $OUT/fl-err.txt | head -c 300)" fl_ok

	# ---- another writer changes a followed site: left alone, and said so
	fl_start $OUT/fl3.txt 'func do_cats +p; func do_levels +p'
	fl_wait fl_applied 'do_cats' '=pmfsl'
	echo 'func do_cats =pt' > $CONTROL
	fl_wait fl_applied 'do_cats' '=pt'
	# patched kernels notify: wait for the notice before stopping (it is
	# read asynchronously; a signal first would end the session before it)
	[ "$DDCTL_KIND" = patched ] && fl_wait fl_lines $OUT/fl3.txt.err 'another writer changed' 1
	kill -INT $fl_pid; wait $fl_pid; rc=$?
	# do_levels back to =p, do_cats stays the other writer's =pt
	lv=$(fl_flags do_levels); ct=$(fl_flags do_cats)
	nlmsg=1
	[ "$DDCTL_KIND" = patched ] && { grep -q 'another writer changed 1 of the followed' $OUT/fl3.txt.err || nlmsg=0; }
	fl_ok() {
		[ $rc = 0 -a "$lv" = "=p" -a "$ct" = "=pt" -a $nlmsg = 1 ] &&
		grep -q '1 callsite changed by another writer during the session was left as it is' $OUT/fl3.txt.err
	}
	check fl-other-writer "rc=$rc do_levels=$lv do_cats=$ct netlink-notice=$nlmsg: $(tr '\n' '|' < $OUT/fl3.txt.err | head -c 400)" fl_ok
	echo 'func do_cats =_' > $CONTROL

	# ---- SIGKILL: the record stays, every later ddctl says so,
	# `ddctl sessions --restore` puts the sites back
	fl_start $OUT/fl4.txt module test_dynamic_debug +p
	fl_wait fl_applied 'do_cats' '=pmfsl'
	kill -KILL $fl_pid; wait $fl_pid
	n1=$(fl_records)
	ddctl list module virtio_ring > /dev/null 2> $OUT/fl4-list.err
	ddctl sessions > $OUT/fl4-sessions.txt 2>&1
	ddctl sessions --restore > $OUT/fl4-restore.txt 2>&1; rc=$?
	same=0; fl_same && same=1
	fl_ok() {
		[ "$n1" = 1 -a $rc = 0 -a $same = 1 -a "$(fl_records)" = 0 ] &&
		grep -q "the session of pid $fl_pid (ddctl follow module test_dynamic_debug +p) ended without restoring" $OUT/fl4-list.err &&
		grep -q "^$fl_pid .* ended  *-  *ddctl follow module test_dynamic_debug +p" $OUT/fl4-sessions.txt &&
		grep -q "restored the session of pid $fl_pid" $OUT/fl4-restore.txt
	}
	check fl-sigkill-sessions "records=$n1 rc=$rc restored=$same left=$(fl_records): $(cat $OUT/fl4-sessions.txt $OUT/fl4-restore.txt | tr '\n' '|' | head -c 400)" fl_ok
	cat $OUT/fl4-sessions.txt $OUT/fl4-restore.txt >> $OUT/fl-transcript.txt

	# ---- SIGKILL, then what ddctl.service runs at start restores it
	fl_start $OUT/fl5.txt func do_cats +p
	fl_wait fl_applied 'do_cats' '=pmfsl'
	kill -KILL $fl_pid; wait $fl_pid
	n1=$(fl_records)
	: > $OUT/fl5-unit.txt
	urc=0
	if [ -f /ddctl-tests/ddctl.service.in ]; then
		grep '^ExecStart' /ddctl-tests/ddctl.service.in | sed 's/^[^=]*=-\{0,1\}//; s|@sbindir@|/bin|' > /tmp/fl-unit
		while read -r cmd; do
			echo "+ $cmd" >> $OUT/fl5-unit.txt
			$cmd >> $OUT/fl5-unit.txt 2>&1 || urc=$?
		done < /tmp/fl-unit
	else
		urc=99
	fi
	# (apply-config may apply what earlier tests left in ddctl.d: compare
	# test_dynamic_debug's sites, which no drop-in names)
	same=0
	grep '\[test_dynamic_debug\]' /tmp/fl-before > /tmp/fl-b
	grep '\[test_dynamic_debug\]' $CONTROL > /tmp/fl-a
	cmp -s /tmp/fl-b /tmp/fl-a && same=1
	fl_ok() {
		[ "$n1" = 1 -a $urc = 0 -a $same = 1 -a "$(fl_records)" = 0 ] &&
		grep -q 'sessions --restore' /tmp/fl-unit && grep -q 'save --boot' /tmp/fl-unit &&
		grep -q "restored the session of pid $fl_pid" $OUT/fl5-unit.txt
	}
	check fl-sigkill-unit "records=$n1 unit rc=$urc restored=$same left=$(fl_records): $(tr '\n' '|' < $OUT/fl5-unit.txt | head -c 400)" fl_ok

	# ---- run: the command's exit status, its lines in -o FILE
	ddctl run -o $OUT/fl6.txt func do_cats +p -- sh -c "cat $DOPRINTS > /dev/null; cat $DOPRINTS > /dev/null; exit 7" \
		> $OUT/fl6.out 2> $OUT/fl6.err
	rc=$?
	n=$(grep -c '^test_dynamic_debug *do_cats:[0-9]* *test_dd: doing categories$' $OUT/fl6.txt)
	all=$(grep -c . $OUT/fl6.txt)
	same=0; fl_same && same=1
	ddctl run func do_cats +p -- true > /dev/null 2>&1; rc0=$?
	ddctl run func do_cats +p -- /nonexistent > /dev/null 2>&1; rc127=$?
	same2=0; fl_same && same2=1
	check fl-run-status "rc=$rc/$rc0/$rc127, $n/$all lines, restored=$same/$same2: $(tr '\n' '|' < $OUT/fl6.err | head -c 300)" \
		[ $rc = 7 -a $rc0 = 0 -a $rc127 = 127 -a "$n" = 2 -a "$all" = 2 -a $same = 1 -a $same2 = 1 -a ! -s $OUT/fl6.out ]

	# ---- reset to the boot snapshot; diff between states
	rm -f /run/ddctl/boot.conf
	cat $CONTROL > /tmp/fl-before
	ddctl reset > $OUT/fl7-nosnap.txt 2>&1; rn=$?
	ddctl save --boot > $OUT/fl7.txt 2>&1; r1=$?
	ddctl set 'module test_dynamic_debug +p; module virtio_ring +f' >> $OUT/fl7.txt 2>&1
	ddctl save --boot >> $OUT/fl7.txt 2>&1; r2=$? # kept, not replaced
	ddctl diff /run/ddctl/boot.conf - > $OUT/fl7-diff.txt 2>&1; rd=$? # 1: they differ, as diff(1)
	ddctl diff --json /run/ddctl/boot.conf - > $OUT/fl7-diff.json 2>&1
	dcount=$(grep -c ' -> ' $OUT/fl7-diff.txt)
	want=$(control | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/ && $3 == "=p" && $2 != "[test_dynamic_debug]do_levels"' | wc -l)
	want=$((want + $(control | awk 'index($2, "[virtio_ring]") == 1 && $3 == "=f"' | wc -l)))
	ddctl reset >> $OUT/fl7.txt 2>&1; rr=$?
	same=0; fl_same && same=1
	ddctl diff /run/ddctl/boot.conf - > $OUT/fl7-diff2.txt 2>&1
	fl_ok() {
		[ $rn = 1 -a $r1 = 0 -a $r2 = 0 -a $rd = 1 -a "$dcount" = "$want" -a "$want" -gt 0 -a $rr = 0 -a $same = 1 ] &&
		grep -q "\"count\":$want}" $OUT/fl7-diff.json && grep -q '^0 callsites differ$' $OUT/fl7-diff2.txt &&
		grep -q 'no boot snapshot' $OUT/fl7-nosnap.txt && grep -q 'kept the boot snapshot' $OUT/fl7.txt
	}
	check fl-reset-diff "no-snapshot rc=$rn, save rc=$r1/$r2, diff rc=$rd $dcount/$want lines, reset rc=$rr restored=$same: $(head -c 200 $OUT/fl7-nosnap.txt)" fl_ok
	reset_all
fi
