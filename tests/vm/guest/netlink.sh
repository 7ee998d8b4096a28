# SPDX-License-Identifier: GPL-2.0-or-later
# The dyndbg generic netlink family (kernel series part 2), guest side.
# Sourced by suite.sh after the control-file tests. Each test reports ok,
# not ok, or skip when the kernel has no family and none was expected
# (DDCTL_NETLINK=1 on the command line says the series has it).
NLTESTS="nl-info nl-dump-equals-control nl-atomic-bad-query nl-net-zero \
nl-dryrun-equals-prediction nl-apply-verified nl-eperm nl-monitor nl-concurrency"

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
		[ $r1 = 0 -a "$n" -gt 1000 ] && cmp -s /tmp/n-dump /tmp/n-ctl

	# a bad query in the middle: the kernel refuses, names it, changes nothing
	cat $CONTROL > /tmp/n-before
	nlexec 'module test_dynamic_debug +p; modul x +p; module virtio +p' > $OUT/nl-atomic.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/n-after
	same=0; cmp -s /tmp/n-before /tmp/n-after && same=1
	named=0; grep -q 'msg=.*query 2.*modul' $OUT/nl-atomic.txt && named=1
	check nl-atomic-bad-query "rc=$rc unchanged=$same named=$named: $(cat $OUT/nl-atomic.txt | tr '\n' ' ')" \
		[ $rc = 1 -a $same = 1 -a $named = 1 ]

	# +p ; -p patches nothing
	cal0=$(awk '/CAL:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts)
	nlexec '+p ; -p' > $OUT/nl-netzero.txt 2>&1
	rc=$?
	cal1=$(awk '/CAL:/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts)
	note "nl-net-zero: CAL IPIs during '+p ; -p' over netlink: $((cal1 - cal0))"
	check nl-net-zero "rc=$rc: $(head -n1 $OUT/nl-netzero.txt)" \
		grep -q '^rc=0 keys_patched=0 sites_changed=0$' $OUT/nl-netzero.txt

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
		[ $rc = 0 ] && grep -q '"writes":1,"split":false,"expanded":false,"verified":true' $OUT/nl-apply.json

	# unprivileged: EPERM, nothing changes
	grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
	grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >> /etc/group
	cat $CONTROL > /tmp/n-before
	su -s /bin/sh nobody -c "LD_LIBRARY_PATH=/usr/lib nlexec 'module test_dynamic_debug =pf'" > $OUT/nl-eperm.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/n-after
	same=0; cmp -s /tmp/n-before /tmp/n-after && same=1
	check nl-eperm "rc=$rc unchanged=$same: $(head -n1 $OUT/nl-eperm.txt)" \
		[ $rc = 1 -a $same = 1 ] && grep -q '^rc=-1 ' $OUT/nl-eperm.txt

	# change notifications reach a monitor
	ddctl monitor -j > $OUT/nl-monitor.json 2>/dev/null &
	mpid=$!
	sleep 1
	ddctl set 'module virtio_ring +t' > /dev/null 2>&1
	sleep 1
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null
	check nl-monitor "$(head -c 300 $OUT/nl-monitor.json)" \
		grep -q '"queries":"module virtio_ring +t.*"sites_changed":[1-9]' $OUT/nl-monitor.json

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
