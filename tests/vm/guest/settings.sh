# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# The shell and persistent settings against the real kernel.
# Sourced by suite.sh.
SETTESTS="sh-begin-commit sh-undo sh-error-line cfg-apply-config cfg-save-restore \
cfg-watch cfg-persist-modprobe"
# standalone (run-vm.py --script settings): the helpers and the usual modules
if [ -z "$CONTROL" ]; then
	. /ddctl-tests/lib.sh
	load_std
	load ddctl_sites_2000 || note "insmod ddctl_sites_2000 failed"
fi

# unclassed sites of module $1 whose flags are not $2
not_flags() {
	control | awk -v m="[$1]" -v f="$2" 'index($2, m) == 1 && !/ class(:| unknown)/ && $3 != f' | wc -l
}

if ! has_ddctl; then
	for t in $SETTESTS; do skip $t "ddctl not in the initramfs"; done
else
	reset_all
	printf 'begin\nmodule test_dynamic_debug +p\nmodule virtio_ring +f\npending\ncommit\n' |
		ddctl -v shell > $OUT/sh1.txt 2>&1
	rc=$?
	b1=$(not_flags test_dynamic_debug =p); b2=$(not_flags virtio_ring =f)
	check sh-begin-commit "rc=$rc, $b1/$b2 sites not as committed: $(tail -n 3 $OUT/sh1.txt | tr '\n' ' ')" \
		[ $rc = 0 -a "$b1" = 0 -a "$b2" = 0 ]

	cat $CONTROL > /tmp/s-before
	printf 'begin\nmodule test_dynamic_debug -p\nmodule virtio_ring +lt\ncommit\nundo\n' |
		ddctl shell > $OUT/sh2.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/s-after
	same=0; cmp -s /tmp/s-before /tmp/s-after && same=1
	check sh-undo "rc=$rc, state restored=$same: $(head -c 300 $OUT/sh2.txt)" [ $rc = 0 -a $same = 1 ]

	reset_all
	printf 'module test_dynamic_debug +p\nmodul x +p\nmodule virtio_ring +p\n' |
		ddctl shell > $OUT/sh3.txt 2>&1
	rc=$?
	b1=$(not_flags test_dynamic_debug =p); b2=$(not_flags virtio_ring =_)
	check sh-error-line "rc=$rc, $b1 line-1 sites not set, $b2 line-3 sites touched: $(cat $OUT/sh3.txt | tr '\n' ' ')" \
		eval '[ $rc = 2 -a "$b1" = 0 -a "$b2" = 0 ] && grep -q "line 2: query 1 \"modul x +p\"" $OUT/sh3.txt'

	# configuration drop-ins: /etc overrides /usr/lib of the same name;
	# "ddctl apply-config" is what ddctl.service runs at boot
	reset_all
	mkdir -p /etc/ddctl.d /usr/lib/ddctl.d /etc/modprobe.d
	echo 'module virtio_ring +p' > /usr/lib/ddctl.d/10-ring.conf
	echo 'module virtio_ring +f' > /etc/ddctl.d/10-ring.conf
	printf '# a comment\nmodule test_dynamic_debug +p\n' > /usr/lib/ddctl.d/20-tdd.conf
	ddctl apply-config > $OUT/cfg1.txt 2>&1
	rc=$?
	b1=$(not_flags test_dynamic_debug =p); b2=$(not_flags virtio_ring =f)
	check cfg-apply-config "rc=$rc, $b1/$b2 sites not as configured: $(head -c 300 $OUT/cfg1.txt)" \
		[ $rc = 0 -a "$b1" = 0 -a "$b2" = 0 ]

	ddctl set 'module virtio* +l; func *probe* +m' > /dev/null 2>&1
	cat $CONTROL > /tmp/s-before
	ddctl save /tmp/saved.conf > $OUT/cfg2.txt 2>&1
	r1=$?
	reset_all
	ddctl restore /tmp/saved.conf >> $OUT/cfg2.txt 2>&1
	r2=$?
	cat $CONTROL > /tmp/s-after
	same=0; cmp -s /tmp/s-before /tmp/s-after && same=1
	cp /tmp/saved.conf $OUT/saved.conf
	check cfg-save-restore "save rc=$r1, restore rc=$r2, identical=$same, $(grep -vc '^#' /tmp/saved.conf) query lines" \
		[ $r1 = 0 -a $r2 = 0 -a $same = 1 ]

	# a module loaded later: "ddctl watch" applies its configuration
	reset_all
	rm -f /etc/ddctl.d/* /usr/lib/ddctl.d/*
	echo 'module ddctl_sites_2000 =pl' > /etc/ddctl.d/30-sites.conf
	rmmod ddctl_sites_2000 2>/dev/null
	ddctl watch > $OUT/watch.txt 2>&1 &
	wpid=$!
	sleep 1
	load ddctl_sites_2000
	n=1
	# up to 30 s (TCG on a loaded host): states are checked, not times
	while [ $n -le 120 ] && [ "$(not_flags ddctl_sites_2000 =pl)" != 0 ]; do
		usleep 250000; n=$((n + 1))
	done
	kill $wpid 2>/dev/null; wait $wpid 2>/dev/null
	b=$(not_flags ddctl_sites_2000 =pl)
	check cfg-watch "$b sites of ddctl_sites_2000 without =pl after load: $(head -c 300 $OUT/watch.txt)" [ "$b" = 0 ]

	# ... and "ddctl persist": modprobe options from the same configuration
	echo 'module ddctl_sites_2000 =pf' > /etc/ddctl.d/30-sites.conf
	ddctl persist > $OUT/persist.txt 2>&1
	rc=$?
	cp /etc/modprobe.d/ddctl.conf $OUT/modprobe-ddctl.conf 2>/dev/null
	rmmod ddctl_sites_2000 2>/dev/null
	modprobe ddctl_sites_2000 >> $OUT/persist.txt 2>&1
	b=$(not_flags ddctl_sites_2000 =pf)
	check cfg-persist-modprobe "rc=$rc, $b sites without =pf after modprobe: $(cat /etc/modprobe.d/ddctl.conf 2>&1 | tr '\n' ' ')" \
		[ $rc = 0 -a "$b" = 0 ]
	rm -f /etc/ddctl.d/* /etc/modprobe.d/ddctl.conf
	reset_all
fi
