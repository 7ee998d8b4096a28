# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Formats the control file prints raw: the module
# ddctl_formats (tests/vm/kernels/gen-module.py formats) has two backslash bytes
# before %s as cifs does, raw quotes, a backslash before a quote, before
# octal-looking digits, before n and at the end. ddctl lists them as the
# kernel prints them, and for every query below the sites ddctl --check
# predicts are exactly the sites the kernel changes when ddctl sets it
# (compared on the whole control file, not only the sites ddctl selects).
. /ddctl-tests/lib.sh

# predict_apply QUERIES: from all =_, ddctl's --check prediction and the
# kernel's real change of `ddctl set`: crc, src, np, nr, /tmp/f-pred, /tmp/f-real
predict_apply() {
	reset_all
	cat $CONTROL > /tmp/f-before
	ddctl --check set "$1" > /tmp/f-check 2>&1
	crc=$?
	grep ' -> ' /tmp/f-check | sed 's/ .*//' | sort > /tmp/f-pred
	ddctl set "$1" > /tmp/f-out 2>&1
	src=$?
	cat $CONTROL > /tmp/f-after
	diff -U0 /tmp/f-before /tmp/f-after | sed -n 's/^+\([^+][^ ]*\) .*/\1/p' | sort > /tmp/f-real
	np=$(wc -l < /tmp/f-pred)
	nr=$(wc -l < /tmp/f-real)
}

M=ddctl_formats
load $M || notok formats-load "insmod $M failed"
has_ddctl || { skip formats "ddctl is not in the initramfs"; exit 0; }

# ddctl list shows each format exactly as the control file does
control | awk -v m="[$M]" 'index($2, m) == 1' | sed 's/^[^"]*//' > /tmp/f-kernel
ddctl list -o format "module $M" > /tmp/f-list 2>&1
check formats-list "ddctl list: $(diff /tmp/f-kernel /tmp/f-list | head -5 | tr '\n' '|')" \
	cmp -s /tmp/f-kernel /tmp/f-list

# the same sites predicted and changed, both commands exit 0
same() { [ $crc = 0 -a $src = 0 ] && cmp -s /tmp/f-pred /tmp/f-real; }

nq=0
while IFS= read -r q; do
	nq=$((nq + 1))
	predict_apply "$q"
	note "formats-$nq [$q]: predicted $np, kernel changed $nr, check rc=$crc, set rc=$src"
	check formats-$nq "[$q] predicted $np sites, the kernel changed $nr ($(diff /tmp/f-pred /tmp/f-real | grep '^[-+][^-+]' | head -4 | tr '\n' ' ')); set rc=$src: $(tail -1 /tmp/f-out)" same
done <<'EOF'
format \\\\%s +p
format \\%s +p
format ': \\\\%s tid' +p
format '"%s"' +p
format \\\" +p
format \\012 +p
format ': \\%s' +p
format 'quote " end' +p
format 'backslash \\\\' +p
format 'f04 backslash-n' +p
format tab\there +p
module ddctl_formats !format \\\\ +p
module ddctl_formats !format '"' +p
module ddctl_formats +p; module ddctl_formats !format \\ -p
EOF
reset_all

# every query set of tests/vm/guest/querysets.txt, the modules of the suite loaded
# (the suite's predict-* compares the same on the host; this runs alone,
# with a before/after diff of the whole control file per set)
load_std
load test_dynamic_debug
load ddctl_sites_256
load ddctl_sites_2000
for qf in /ddctl-tests/qsets/*.q; do
	[ -e "$qf" ] || break
	b=$(basename "$qf" .q)
	q=$(cat "$qf")
	predict_apply "$q"
	case $b in
	*error-*) # refused before anything is written
		check qset-$b "check rc=$crc set rc=$src, $nr sites changed" \
			[ $crc != 0 -a $src != 0 -a $nr = 0 ]
		continue ;;
	esac
	check qset-$b "predicted $np sites, the kernel changed $nr ($(diff /tmp/f-pred /tmp/f-real | grep '^[-+][^-+]' | head -4 | tr '\n' ' ')); check rc=$crc set rc=$src: $(tail -1 /tmp/f-out)" same
done
reset_all

# a compact expansion and a compact restore on the real kernel: save a
# state, reset, restore it: the control file as saved, byte for byte
reset_all
ddctl set '!format error +p; func *probe* +f; module ddctl_sites_256 =pmt' > /tmp/f-out 2>&1
r0=$?
cat $CONTROL > /tmp/f-saved
ddctl save /tmp/f.save >> /tmp/f-out 2>&1
r1=$?
reset_all
ddctl -v restore /tmp/f.save >> /tmp/f-out 2>&1
r2=$?
cat $CONTROL > /tmp/f-restored
restored() { [ $r0 = 0 -a $r1 = 0 -a $r2 = 0 ] && cmp -s /tmp/f-saved /tmp/f-restored; }
note "formats-save-restore: $(grep -c . /tmp/f.save) saved lines; $(grep 'write' /tmp/f-out | tail -1)"
check formats-save-restore "set/save/restore rc=$r0/$r1/$r2: $(tail -1 /tmp/f-out); $(diff -U0 /tmp/f-saved /tmp/f-restored | grep -c '^[-+][^-+]') lines differ" restored
reset_all
