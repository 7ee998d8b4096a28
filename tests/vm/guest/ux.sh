# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# ddctl adds nothing to the kernel log that the user's queries did not cause
# info, a shell start and a negated set, run twice.
# Sourced by suite.sh; also runs alone (run-vm.py --script ux).
. /ddctl-tests/lib.sh

UXTESTS="ux-check-writes-nothing ux-no-probe-noise ux-negated-set-applied ux-watch-json"
if ! has_ddctl; then
	for t in $UXTESTS; do skip $t "ddctl not in the initramfs"; done
else
	[ -d /run ] || mkdir /run
	grep -q ' /run ' /proc/mounts || mount -t tmpfs tmpfs /run
	grep -q '^virtio_net ' /proc/modules || load_std
	noise() { dmesg | grep -c 'unknown keyword\|query parse failed'; }
	reset_all
	# --check (and a capture file) write nothing anywhere: no negation
	# probe into the control file, no features cache, even with none kept
	rm -f /run/ddctl/features
	c0=$(control | md5sum)
	n0=$(noise)
	ddctl --check set '!module virtio* +p' > $OUT/ux-check.txt 2>&1
	ddctl --capture-writes $OUT/ux-capture.txt set '!module virtio* +p' >> $OUT/ux-check.txt 2>&1
	n1=$(noise)
	check ux-check-writes-nothing "$((n1 - n0)) kernel log lines, features cache $(ls /run/ddctl/features 2>&1), control changed: $([ "$(control | md5sum)" = "$c0" ] && echo no || echo yes)" \
		[ $((n1 - n0)) -eq 0 -a ! -e /run/ddctl/features -a "$(control | md5sum)" = "$c0" ]
	n0=$(noise)
	for i in 1 2; do
		ddctl info > $OUT/ux-info-$i.txt 2>&1
		echo quit | ddctl shell > /dev/null 2>&1
		ddctl info -j > /dev/null 2>&1
		ddctl set '!module virtio_net +p' > $OUT/ux-set-$i.txt 2>&1
		ddctl set '!module virtio_net -p' >> $OUT/ux-set-$i.txt 2>&1
	done
	n1=$(noise)
	# at most one probe per boot: 2 lines (unknown keyword, query parse failed)
	# on a stock kernel, none where the netlink family says what it supports
	allowed=2
	ddctl info -j 2>/dev/null | grep -q '"netlink":true' && allowed=0
	check ux-no-probe-noise "$((n1 - n0)) kernel log lines from ddctl's probes (allowed $allowed): $(dmesg | grep 'unknown keyword\|query parse failed' | tail -n 4 | tr '\n' '|')" \
		[ $((n1 - n0)) -le $allowed ]
	ddctl set '!module virtio_net +p' > /dev/null 2>&1
	on=$(control | awk '!/\[virtio_net\]/ && $3 ~ /p/' | wc -l)
	total=$(control | grep -vc '\[virtio_net\]')
	classed=$(control | grep -v '\[virtio_net\]' | grep -Ec "$CLASS_RE")
	check ux-negated-set-applied "$on of $total sites outside virtio_net have p ($classed class sites)" \
		[ $on -gt 0 -a $on -ge $((total - classed)) ]
	reset_all

	# watch --json: one line per module load, the set's keys
	if [ -e $MODDIR/ddctl_sites_256.ko ]; then
		mkdir -p /etc/ddctl.d
		echo 'module ddctl_sites_256 =p' > /etc/ddctl.d/90-ux.conf
		rmmod ddctl_sites_256 2>/dev/null
		ddctl watch --json > $OUT/ux-watch.json 2> $OUT/ux-watch.err &
		wpid=$!
		sleep 1
		load ddctl_sites_256
		# (up to 15 s: a loaded host slows the guest's module load and watch)
		n=1
		while [ $n -le 60 ] && ! grep -q '"keys_patched"' $OUT/ux-watch.json; do
			usleep 250000; n=$((n + 1))
		done
		kill $wpid 2>/dev/null; wait $wpid 2>/dev/null
		rm -f /etc/ddctl.d/90-ux.conf
		check ux-watch-json "$(head -c 300 $OUT/ux-watch.json) $(head -c 200 $OUT/ux-watch.err)" \
			grep -q '^{"event":"module-loaded","module":"ddctl_sites_256","queries":\[{"query":"module ddctl_sites_256 =p","matched":[1-9][0-9]*,"changed":[1-9][0-9]*}\],"changes":\[.*\],"writes":[0-9]*,"split":\(true\|false\),"expanded":false,"verified":\(true\|false\),"keys_patched":\([0-9]*\|null\)}$' $OUT/ux-watch.json
		reset_all
	else
		skip ux-watch-json "ddctl_sites_256.ko not built"
	fi
fi
