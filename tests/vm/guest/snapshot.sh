# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# A consistent snapshot while a module unloads. The kernel hands the
# control file out a page per read() and finds its place again each time:
# a module unloaded between two reads shifts the sites after it. Each
# round loads ddctl_sites_20000 (else _2000), then ddctl_sites_256 (all =p)
# after it, and unloads the first while ddctl lists the callsites: every list
# has ddctl_sites_256's 256 sites exactly once, or ddctl says it found no
# consistent snapshot (never a list with sites missing or repeated).
# Sourced by suite.sh; also runs alone (run-vm.py --script snapshot).
. /ddctl-tests/lib.sh

SNAPTESTS="snap-list-while-unloading"
# the module unloaded: the bigger, the longer each read takes
BIG=ddctl_sites_20000
[ -e $MODDIR/$BIG.ko ] || BIG=ddctl_sites_2000
if ! has_ddctl || [ ! -e $MODDIR/$BIG.ko -o ! -e $MODDIR/ddctl_sites_256.ko ]; then
	for t in $SNAPTESTS; do skip $t "ddctl or the ddctl_sites modules not in the initramfs"; done
else
	whole=0; torn=0; refused=0
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		rmmod ddctl_sites_256 2>/dev/null
		rmmod $BIG 2>/dev/null
		insmod $MODDIR/$BIG.ko
		insmod $MODDIR/ddctl_sites_256.ko dyndbg=+p
		ddctl list > $OUT/snap-list.txt 2> $OUT/snap-list.err &
		lpid=$!
		# unload while ddctl has the control file open
		w=0
		while [ $w -lt 100000 ] && kill -0 $lpid 2>/dev/null &&
		      ! ls -l /proc/$lpid/fd 2>/dev/null | grep -q dynamic_debug/control; do
			w=$((w + 1))
		done
		rmmod $BIG
		wait $lpid
		rc=$?
		n=$(awk '$3 == "ddctl_sites_256"' $OUT/snap-list.txt | wc -l)
		if [ $rc = 0 -a "$n" = 256 ]; then
			whole=$((whole + 1))
		elif [ $rc != 0 ] && grep -q 'no consistent snapshot' $OUT/snap-list.err; then
			refused=$((refused + 1))
		else
			torn=$((torn + 1))
			note "round $i: rc=$rc, $n of 256 ddctl_sites_256 sites listed"
		fi
	done
	rmmod ddctl_sites_256 2>/dev/null
	note "snapshot while unloading: $whole whole lists, $refused refused, $torn with sites missing or repeated"
	check snap-list-while-unloading "$whole whole lists, $refused refused, $torn with sites missing or repeated" \
		[ $torn = 0 ]
fi
