# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# The structured dyndbg generic netlink family (uapi v3: nested queries,
# per-query results, GET_FEATURES, the generation), guest side. A kernel
# with the v2 series' text family counts as one without the family (ddctl
# takes the control file there).
# Sourced by suite.sh after the control-file tests. Each test reports ok,
# not ok, or skip when the kernel has no family and none was expected
# (DDCTL_NETLINK=1 on the command line says the series has it).
NLTESTS="nl-info nl-dump-equals-control nl-atomic-bad-query nl-net-zero \
nl-dryrun-equals-prediction nl-apply-verified nl-eperm nl-monitor nl-concurrency \
nl-exec-large nl-exec-over nl-set-large nl-monitor-large nl-monitor-lost \
nl-features nl-generation"
# standalone (run-vm.py --script netlink): the helpers and the usual modules
if [ -z "$CONTROL" ]; then
	. /ddctl-tests/lib.sh
	load_std
	load ddctl_sites_2000 || note "insmod ddctl_sites_2000 failed"
	load ddctl_sites_256 || note "insmod ddctl_sites_256 failed"
fi

nl_present() { ddctl info -j 2>/dev/null | grep -q '"netlink":true'; }

if ! has_ddctl || ! command -v nlexec >/dev/null 2>&1; then
	for t in $NLTESTS; do skip $t "ddctl or nlexec not in the initramfs"; done
elif ! nl_present; then
	for t in $NLTESTS; do
		if [ "$DDCTL_NETLINK" = 1 ]; then
			notok $t "the kernel should have the dyndbg netlink family"
		else
			skip $t "kernel without the dyndbg netlink family"
		fi
	done
else
	reset_all
	ddctl info -j > $OUT/nl-info.json 2>&1
	check nl-info "$(cat $OUT/nl-info.json)" \
		grep -q '"transactions":true,"netlink":true,"backend":"netlink"' $OUT/nl-info.json

	ddctl --backend netlink list -j > $OUT/nl-dump.json 2> $OUT/nl-dump.err
	r1=$?
	ddctl --backend control list -j > $OUT/ctl-dump.json 2>&1
	n=$(grep -c '"file"' $OUT/nl-dump.json)
	# the same sites with the same fields; the dump walks each module's
	# sites in another order than the control file, so compare sorted
	sed 's/,$//' $OUT/nl-dump.json | sort > /tmp/n-dump
	sed 's/,$//' $OUT/ctl-dump.json | sort > /tmp/n-ctl
	check nl-dump-equals-control "rc=$r1, $n sites; dump differs from the control file: $(diff /tmp/n-dump /tmp/n-ctl | head -c 300) $(head -c 200 $OUT/nl-dump.err)" \
		eval '[ $r1 = 0 -a "$n" -gt 1000 ] && cmp -s /tmp/n-dump /tmp/n-ctl'

	# GET_FEATURES, unprivileged: QUERIES_MAX 1024, negation, dry run and
	# classes, the flags pmflts (and d where the control file takes +d:
	# 7.2, not 6.12; the 6.12 backport has the same family otherwise)
	grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
	grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >> /etc/group
	su -s /bin/sh nobody -c "LD_LIBRARY_PATH=/usr/lib nlexec -F" > $OUT/nl-features.txt 2>&1
	rc=$?
	feat() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" $OUT/nl-features.txt; }
	QMAX=$(feat queries_max)
	fl=$(feat features)
	vf=$(feat valid_flags)
	reset_all
	wantd=0; echo 'module test_dynamic_debug +d' > $CONTROL 2>/dev/null && wantd=64
	reset_all
	check nl-features "rc=$rc, want queries_max=1024 features=7 valid_flags=$((63 + wantd)): $(head -n2 $OUT/nl-features.txt | tr '\n' ' ')" \
		[ $rc = 0 -a "$QMAX" = 1024 -a "$fl" = 7 -a "$vf" = $((63 + wantd)) ]
	[ -n "$QMAX" ] && [ "$QMAX" -gt 0 ] || QMAX=1024

	# a bad query in the middle (raw nested queries: line-min above
	# line-max): the kernel refuses the set, its extack names query 2,
	# nothing changes
	cat $CONTROL > /tmp/n-before
	nlexec -r 'module=test_dynamic_debug,flags=p/p' 'module=virtio*,line_min=10,line_max=5,flags=p/p' \
		'module=virtio*,flags=p/p' > $OUT/nl-atomic.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/n-after
	same=0; cmp -s /tmp/n-before /tmp/n-after && same=1
	named=0; grep -q '^rc=-22 ' $OUT/nl-atomic.txt && grep -q '^msg=query 2: ' $OUT/nl-atomic.txt && named=1
	check nl-atomic-bad-query "rc=$rc unchanged=$same named=$named: $(cat $OUT/nl-atomic.txt | tr '\n' ' ')" \
		[ $rc = 1 -a $same = 1 -a $named = 1 ]

	# +p ; -p patches nothing
	cal0=$(awk '/Function call interrupts/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts)
	nlexec '+p ; -p' > $OUT/nl-netzero.txt 2>&1
	rc=$?
	cal1=$(awk '/Function call interrupts/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts)
	note "nl-net-zero: CAL IPIs during '+p ; -p' over netlink: $((cal1 - cal0))"
	check nl-net-zero "rc=$rc: $(head -n1 $OUT/nl-netzero.txt)" \
		grep -q '^rc=0 keys_patched=0 sites_changed=0 ' $OUT/nl-netzero.txt

	# kernel dry run == library prediction (ddctl exits 1 when they differ)
	# == what really happens (ddctl reads back and exits 1 on a difference)
	Q='module virtio* +p; !module virtio* func *probe* +pl; module test_dynamic_debug -l; format "%s" +m'
	cat $CONTROL > /tmp/n-before
	ddctl --check -v set "$Q" > $OUT/nl-dry.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/n-after
	same=0; cmp -s /tmp/n-before /tmp/n-after && same=1
	kern=$(grep -c '(kernel)' $OUT/nl-dry.txt)
	check nl-dryrun-equals-prediction "rc=$rc unchanged=$same kernel-counted=$kern: $(tail -n 3 $OUT/nl-dry.txt | tr '\n' ' ')" \
		[ $rc = 0 -a $same = 1 -a "$kern" = 4 ]
	ddctl -v -j set "$Q" > $OUT/nl-apply.json 2> $OUT/nl-apply.err
	rc=$?
	check nl-apply-verified "rc=$rc: $(head -c 300 $OUT/nl-apply.err) $(head -c 300 $OUT/nl-apply.json)" \
		eval '[ $rc = 0 ] && grep -q "\"writes\":1,\"split\":false,\"expanded\":false,\"verified\":true" $OUT/nl-apply.json'

	# unprivileged: EPERM, nothing changes
	cat $CONTROL > /tmp/n-before
	su -s /bin/sh nobody -c "LD_LIBRARY_PATH=/usr/lib nlexec 'module test_dynamic_debug =pf'" > $OUT/nl-eperm.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/n-after
	same=0; cmp -s /tmp/n-before /tmp/n-after && same=1
	check nl-eperm "rc=$rc unchanged=$same: $(head -n1 $OUT/nl-eperm.txt)" \
		eval '[ $rc = 1 -a $same = 1 ] && grep -q "^rc=-1 " $OUT/nl-eperm.txt'

	# change notifications reach a monitor
	ddctl monitor -j > $OUT/nl-monitor.json 2>/dev/null &
	mpid=$!
	sleep 1
	ddctl set 'module virtio_ring +t' > /dev/null 2>&1
	sleep 1
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null
	check nl-monitor "$(head -c 300 $OUT/nl-monitor.json)" \
		grep -q '"queries":"module virtio_ring +t.*"sites_changed":[1-9].*"generation":[1-9]' $OUT/nl-monitor.json

	# The raw EXEC of the largest set the kernel takes: QUERIES_MAX (from
	# GET_FEATURES, 1024) queries, alternately +p and -p on
	# ddctl_sites_256: taken, one result per query in order (each
	# matched=changed=every site), nothing left changed; one query more:
	# E2BIG, the extack on the extra query says why, nothing changed
	bigset() { # $1 queries
		i=0
		while [ $i -lt $1 ]; do
			case $((i % 2)) in 0) f=+p ;; 1) f=-p ;; esac
			printf 'module ddctl_sites_256 %s\n' $f
			i=$((i + 1))
		done > /tmp/n-bigset.txt
	}
	reset_all
	bigset $QMAX
	nlexec "$(cat /tmp/n-bigset.txt)" > $OUT/nl-exec-large.txt 2>&1
	rc=$?
	nq=$(grep -c '^query ' $OUT/nl-exec-large.txt)
	rep=$(sed -n 's/.* reported=\([0-9]*\).*/\1/p' $OUT/nl-exec-large.txt)
	want=$(control | grep -Ev "$CLASS_RE" | grep -c '\[ddctl_sites_256\]')
	nbad=$(grep '^query ' $OUT/nl-exec-large.txt | grep -vc "matched=$want changed=$want\$")
	on=$(control | awk '$3 != "=_"' | wc -l)
	check nl-exec-large "rc=$rc, $QMAX queries sent, $nq in the reply ($rep reported, $nbad not matched=changed=$want), $on sites not =_: $(head -n1 $OUT/nl-exec-large.txt) $(grep msg= $OUT/nl-exec-large.txt)" \
		[ $rc = 0 -a "$nq" = $QMAX -a "$rep" = $QMAX -a "$nbad" = 0 -a "$want" -gt 200 -a "$on" = 0 ]
	bigset $((QMAX + 1))
	nlexec "$(cat /tmp/n-bigset.txt)" > $OUT/nl-exec-over.txt 2>&1
	rc=$?
	on=$(control | awk '$3 != "=_"' | wc -l)
	why=0
	grep -q '^rc=-7 ' $OUT/nl-exec-over.txt &&
		grep -q "^msg=at most $QMAX queries per exec" $OUT/nl-exec-over.txt && why=1
	check nl-exec-over "rc=$rc, $on sites not =_: $(head -n1 $OUT/nl-exec-over.txt) $(grep msg= $OUT/nl-exec-over.txt)" \
		[ $rc != 0 -a "$on" = 0 -a $why = 1 ]
	# ddctl -f of 1,600 queries, one site each, of ddctl_sites_2000: sent
	# as transactions of at most QUERIES_MAX (1024, GET_FEATURES) queries:
	# 2 transactions, 2 notifications with rising generations
	i=0
	while [ $i -lt 1600 ]; do
		printf 'module *2000 format s%05d +p\n' $i
		i=$((i + 1))
	done > /tmp/n-big.txt
	reset_all
	ddctl monitor -j > $OUT/nl-monitor-large.json 2> $OUT/nl-monitor-large.err &
	mpid=$!
	sleep 1
	ddctl -f /tmp/n-big.txt > $OUT/nl-set-large.txt 2>&1
	rc=$?
	on=$(control | awk 'index($2, "[ddctl_sites_2000]") == 1 && $3 == "=p"' | wc -l)
	check nl-set-large "rc=$rc, $on sites =p: $(tail -n 3 $OUT/nl-set-large.txt | tr '\n' ' ')" \
		[ $rc = 0 -a "$on" -ge 1500 ]
	n=1
	while [ $n -le 20 ] && ! grep -q '"sites_changed":' $OUT/nl-monitor-large.json; do
		usleep 250000; n=$((n + 1))
	done
	sleep 1 # (the notifications of the other transactions of the set)
	alive=0; kill -0 $mpid 2>/dev/null && alive=1
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null
	# (one notification per transaction, each with a higher generation)
	nsum=$(sed -n 's/.*"sites_changed":\([0-9]*\).*/\1/p' $OUT/nl-monitor-large.json | awk '{ n += $1 } END { print n + 0 }')
	nntf=$(grep -c '"sites_changed":' $OUT/nl-monitor-large.json)
	ntx=$(( (1600 + QMAX - 1) / QMAX ))
	rising=$(sed -n 's/.*"generation":\([0-9]*\).*/\1/p' $OUT/nl-monitor-large.json | awk 'BEGIN { ok = 1 } NR > 1 && $1 <= last { ok = 0 } { last = $1 } END { print ok }')
	check nl-monitor-large "monitor alive=$alive, $nntf notifications (want $ntx), generations rising=$rising, notified sites_changed $nsum, $on sites: $(head -c 200 $OUT/nl-monitor-large.err) $(tail -c 200 $OUT/nl-monitor-large.json)" \
		[ $alive = 1 -a "$nsum" = "$on" -a "$nntf" = $ntx -a "$rising" = 1 ]

	# a monitor that falls behind says that it lost notifications: it is
	# stopped while 150 sets of ~3 KB (each a notification of ~3 KB, more
	# than its socket holds) change ddctl_sites_256; then it must print
	# {"events_lost":true}, say so on stderr, and keep running
	reset_all
	ddctl monitor -j > $OUT/nl-monitor-lost.json 2> $OUT/nl-monitor-lost.err &
	mpid=$!
	n=1
	while [ $n -le 40 ] && ! grep -q 'waiting for changes' $OUT/nl-monitor-lost.err; do
		usleep 250000; n=$((n + 1))
	done
	kill -STOP $mpid
	pad=$(i=0; while [ $i -lt 60 ]; do echo -n " ; module ddctl_sites_256 func ddctl_no_such_function_$i +p"; i=$((i + 1)); done)
	i=0; werr=0
	while [ $i -lt 150 ]; do
		case $((i % 2)) in 0) f=+p ;; 1) f=-p ;; esac
		echo "module ddctl_sites_256 $f$pad" > $CONTROL || werr=$((werr + 1))
		i=$((i + 1))
	done
	kill -CONT $mpid
	n=1
	while [ $n -le 40 ] && ! grep -q '"events_lost":true' $OUT/nl-monitor-lost.json; do
		usleep 250000; n=$((n + 1))
	done
	sleep 1
	alive=0; kill -0 $mpid 2>/dev/null && alive=1
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null
	got=$(grep -c '"sites_changed":' $OUT/nl-monitor-lost.json)
	lost=$(grep -c '"events_lost":true' $OUT/nl-monitor-lost.json)
	elost=$(grep -c 'lost' $OUT/nl-monitor-lost.err)
	check nl-monitor-lost "alive=$alive, $werr of 150 writes failed, $got of 150 notifications read, $lost lost markers, stderr: $(tail -c 300 $OUT/nl-monitor-lost.err)" \
		[ $alive = 1 -a $werr = 0 -a "$got" -lt 150 -a "$lost" -ge 1 -a "$elost" -ge 1 ]
	reset_all

	# the generation: GET_FEATURES, EXEC's reply, the dump and the
	# notifications carry it; a dry run and a set that changes nothing
	# leave it, a change and a module table added or removed bump it
	reset_all
	gen() { sed -n 's/.*generation=\([0-9]*\).*/\1/p' "$@" | tail -n1; }
	nlexec -F > /tmp/n-g0; g0=$(gen /tmp/n-g0)
	nlexec -n 'module ddctl_sites_256 +p' > /tmp/n-gdry; gdry=$(gen /tmp/n-gdry)
	nlexec 'module ddctl_sites_256 +p' > /tmp/n-g1; g1=$(gen /tmp/n-g1)
	nlexec 'module ddctl_sites_256 +p' > /tmp/n-gsame; gsame=$(gen /tmp/n-gsame)
	nldump 'module ddctl_sites_256' > /dev/null 2> /tmp/n-gdump; gdump=$(gen /tmp/n-gdump)
	rmmod ddctl_sites_256; load ddctl_sites_256 || note "insmod ddctl_sites_256 failed"
	nlexec -F > /tmp/n-g2; g2=$(gen /tmp/n-g2)
	reset_all
	check nl-generation "features $g0, dry run $gdry (want $g0), change $g1 (want more), no-op $gsame (want $g1), dump $gdump (want $g1), after rmmod+insmod $g2 (want more than $g1)" \
		eval '[ -n "$g0" -a "$gdry" = "$g0" -a "$gsame" = "$g1" -a "$gdump" = "$g1" ] && [ "$g1" -gt "$g0" -a "$g2" -gt "$g1" ]'

	# two writers and a module loading and unloading, all at once
	reset_all
	(for i in 1 2 3 4 5 6 7 8; do ddctl set 'module test_dynamic_debug +p'; ddctl set 'module test_dynamic_debug -p'; done
	 ddctl set 'module test_dynamic_debug +p') > $OUT/nl-w1.txt 2>&1 &
	w1=$!
	(for i in 1 2 3 4 5 6 7 8; do ddctl set 'module virtio* +f; module virtio* -f'; ddctl set 'module virtio* =pf'; done
	 ddctl set 'module virtio* =f') > $OUT/nl-w2.txt 2>&1 &
	w2=$!
	for i in 1 2 3 4 5 6; do rmmod ddctl_sites_256 2>/dev/null; load ddctl_sites_256; done
	wait $w1; r1=$?
	wait $w2; r2=$?
	bad1=$(control | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/ && $3 != "=p"' | wc -l)
	bad2=$(control | awk 'index($2, "[virtio") == 1 && $3 != "=f"' | wc -l)
	check nl-concurrency "writers rc=$r1/$r2, $bad1 test_dynamic_debug and $bad2 virtio sites not in their final state: $(head -c 200 $OUT/nl-w1.txt $OUT/nl-w2.txt)" \
		[ $r1 = 0 -a $r2 = 0 -a "$bad1" = 0 -a "$bad2" = 0 ]
	reset_all
fi

# ddctl watch when uevents are lost, on any kernel: the
# watcher is stopped while a flood of synthetic module uevents overflows its
# socket, then ddctl_sites_256 loads; its uevent is lost, so the watcher
# must see ENOBUFS, warn and apply the configuration to every loaded module.
# sites of module $1 (class-restricted ones aside) whose flags are not $2
not_flags_nl() {
	control | awk -v m="[$1]" -v f="$2" 'index($2, m) == 1 && !/ class(:| unknown)/ && $3 != f' | wc -l
}
if ! has_ddctl || [ ! -w /sys/module/test_dynamic_debug/uevent ]; then
	skip nl-watch-lost-uevents "ddctl or /sys/module/test_dynamic_debug/uevent missing"
else
	reset_all
	mkdir -p /etc/ddctl.d
	mv /etc/ddctl.d /etc/ddctl.d.nl 2>/dev/null; mkdir -p /etc/ddctl.d
	mv /usr/lib/ddctl.d /usr/lib/ddctl.d.nl 2>/dev/null
	echo 'module ddctl_sites_256 =pl' > /etc/ddctl.d/30-lost.conf
	rmmod ddctl_sites_256 2>/dev/null
	ddctl watch > $OUT/nl-watch-lost.txt 2>&1 &
	wpid=$!
	sleep 1
	kill -STOP $wpid
	i=0
	while [ $i -lt 6000 ]; do
		echo add > /sys/module/test_dynamic_debug/uevent
		i=$((i + 1))
	done
	load ddctl_sites_256
	kill -CONT $wpid
	n=1
	# up to 30 s: the watcher drains the flood, then applies the set (TCG, loaded host)
	while [ $n -le 120 ] && [ "$(not_flags_nl ddctl_sites_256 =pl)" != 0 ]; do
		usleep 250000; n=$((n + 1))
	done
	alive=0; kill -0 $wpid 2>/dev/null && alive=1
	kill $wpid 2>/dev/null; wait $wpid 2>/dev/null
	b=$(not_flags_nl ddctl_sites_256 =pl)
	t=$(flags_of_module ddctl_sites_256 | wc -l)
	check nl-watch-lost-uevents "alive=$alive, $b of $t sites of ddctl_sites_256 without =pl: $(head -c 300 $OUT/nl-watch-lost.txt)" \
		eval '[ $alive = 1 -a "$t" -gt 0 -a "$b" = 0 ] && grep -q "uevents were lost" $OUT/nl-watch-lost.txt'
	rm -rf /etc/ddctl.d
	mv /etc/ddctl.d.nl /etc/ddctl.d 2>/dev/null
	mv /usr/lib/ddctl.d.nl /usr/lib/ddctl.d 2>/dev/null
	reset_all
fi
