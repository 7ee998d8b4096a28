# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# The guest half of the distribution-kernel suite (harness/vmtest-distro.py):
# Debian's own signed kernels, with their own modules (virtio, bonding,
# bridge, dm_mod, e1000 probing QEMU's e1000 NIC), no test modules.
#   a   sanity-*      vCPUs, control file, callsites
#   b   ddctl-*       list, modules, --check on the distro modules' sites
#   q   lang-*        the kernel's flags: 's' (6.6+) and 'd' (7.2+) taken or
#                     refused by the kernel and by ddctl alike, nothing
#                     written on a refusal, the error naming kernel and flag
#   p   predict-*     ddctl --check --json against the kernel's real change
#   f   fl-*          follow and run on the distro modules' own callsites
#   cfg save/restore  the control file byte-identical after a round trip
#   d   d-*           apply-config, watch (a module reloaded), sessions
#                     --restore after SIGKILL, reset to the boot snapshot
. /ddctl-tests/lib.sh
REL=$(uname -r)
MAJ=${REL%%.*}; MIN=${REL#*.}; MIN=${MIN%%[!0-9]*}
has_s=0; has_d=0
[ "$MAJ" -gt 6 -o \( "$MAJ" = 6 -a "$MIN" -ge 6 \) ] && has_s=1
[ "$MAJ" -gt 7 -o \( "$MAJ" = 7 -a "$MIN" -ge 2 \) ] && has_d=1
note "kernel $REL: flag s $has_s, flag d $has_d"

n=$(nproc)
check sanity-vcpus "nproc is $n, wanted ${DDCTL_NCPU:-?}" [ "$n" = "${DDCTL_NCPU:-0}" ]
hdr=$(head -n1 $CONTROL 2>/dev/null)
check sanity-control-readable "header: '$hdr'" \
	[ "$hdr" = "# filename:lineno [module]function flags format" ]
builtin_sites=$(control | wc -l)
for m in virtio_pci virtio_net virtio_balloon bonding bridge dm_mod e1000; do
	modprobe $m || note "modprobe $m failed"
done
sleep 1
total=$(control | wc -l)
cat /proc/modules > $OUT/modules.txt
note "callsites: $builtin_sites built in, $total with modules"
check sanity-callsites "only $total callsites" [ "$total" -gt 1000 ]
for m in bonding bridge dm_mod e1000; do
	c=$(control | awk -v m="[$m]" 'index($2, m) == 1' | wc -l)
	note "module $m: $c callsites"
	check sanity-module-$m "module $m has $c callsites" [ "$c" -gt 0 ]
done
for t in dyndbg-insmod-param dyndbg-cmdline-module; do
	skip $t "needs the project's test modules (test_dynamic_debug, ddctl_sites_256), not built for a distribution kernel"
done
reset_all

if ! has_ddctl; then
	skip ddctl "ddctl binary not in the initramfs"
	exit 0
fi
ddctl --version > $OUT/ddctl-version.txt 2>&1

# ---- b: the CLI on the distro modules' sites ------------------------------
ddctl list module bonding > $OUT/ddctl-list-bonding.txt 2>&1
rc=$?
nb=$(control | awk 'index($2, "[bonding]") == 1' | wc -l)
nl=$(grep -c bonding $OUT/ddctl-list-bonding.txt)
check ddctl-list-module "rc=$rc, $nl lines for $nb bonding sites" [ $rc = 0 -a "$nl" = "$nb" ]
ddctl modules > $OUT/ddctl-modules.txt 2>&1
rc=$?
check ddctl-modules "rc=$rc" eval '[ $rc = 0 ] && grep -q "^e1000 " $OUT/ddctl-modules.txt && grep -q "^bridge " $OUT/ddctl-modules.txt'
cat $CONTROL > /tmp/before
ddctl --check set "module bridge +p" > $OUT/ddctl-check.txt 2>&1
rc=$?
check ddctl-check-writes-nothing "rc=$rc" eval '[ $rc = 0 ] && cat $CONTROL | cmp -s - /tmp/before'

# ---- q: the kernel's flags --------------------------------------------------
# lang_case NAME FLAG HAVE: the kernel and ddctl agree on "module bonding +FLAG"
lang_case() {
	local name=$1 flag=$2 have=$3 krc drc
	reset_all
	cat $CONTROL > /tmp/before
	echo "module bonding +$flag" > $CONTROL 2>/dev/null
	krc=$?
	cat $CONTROL > /tmp/kafter
	reset_all
	cat $CONTROL > /tmp/before
	ddctl set "module bonding +p; module bonding +$flag" > $OUT/lang-$name.txt 2>&1
	drc=$?
	cat $CONTROL > /tmp/dafter
	if [ "$have" = 1 ]; then
		check lang-$name-taken "kernel rc=$krc, ddctl rc=$drc: $(head -c 300 $OUT/lang-$name.txt)" \
			eval '[ $krc = 0 -a $drc = 0 ] && ! cmp -s /tmp/before /tmp/dafter'
	else
		check lang-$name-refused "kernel rc=$krc, ddctl rc=$drc: $(head -c 300 $OUT/lang-$name.txt)" \
			eval '[ $krc != 0 -a $drc = 2 ] && cmp -s /tmp/before /tmp/dafter && grep -q "this kernel ($REL) has no flag .$flag." $OUT/lang-$name.txt'
	fi
}
lang_case s s $has_s
lang_case d d $has_d
for f in p m f l t; do
	lang_case $f $f 1
done
reset_all
ddctl __complete set module bonding + > $OUT/complete.txt 2>&1
want=5
[ $has_s = 1 ] && want=$((want + 1))
[ $has_d = 1 ] && want=$((want + 1))
got=$(wc -l < $OUT/complete.txt)
check lang-complete "$got flag completions, wanted $want: $(cat $OUT/complete.txt | tr '\n' ' ')" [ "$got" = "$want" ]

# ---- p: prediction == reality on the distro modules -------------------------
i=0
for q in "module bonding +p" "module bridge =pmf" "func e1000_* +pl" \
	"file drivers/md/dm*.c +p" "module e1000 format Masking +pt" \
	"!module bonding +p" "module bridge line 1-300 +p" "module dm_mod -p"; do
	i=$((i + 1))
	reset_all
	echo "module dm_mod +p" > $CONTROL
	cat $CONTROL > /tmp/before
	ddctl --check --json set "$q" > /tmp/pred.json 2>/tmp/pred.err
	prc=$?
	ddctl set "$q" > /tmp/apply.txt 2>&1
	arc=$?
	cat $CONTROL > /tmp/after
	want=$(diff /tmp/before /tmp/after | grep -c '^+[^+]')
	got=$(grep -o '"old":' /tmp/pred.json | wc -l)
	check predict-$i "'$q': predicted $got changes, the kernel made $want (rc $prc/$arc)" \
		eval '[ $prc = 0 -a $arc = 0 -a "$got" = "$want" ]'
done

# ---- o: the oracle: the kernel's verdict and change against ddctl's -------
# Each query written raw to the control file (the kernel's verdict: the
# write's status, its change: the diff) and given to ddctl --check --json on
# the same state; a disagreement fails oracle-N. ddctl's own extensions are
# excepted and listed: negation (ddctl expands it; the stock kernel refuses).
long=$(awk 'BEGIN { s = "module bonding format "; for (i = 0; i < 4070; i++) s = s "x"; print s " +p" }')
i=0
while IFS= read -r q; do
	[ -n "$q" ] || continue
	i=$((i + 1))
	reset_all
	echo "module dm_mod +p" > $CONTROL
	cat $CONTROL > /tmp/before
	printf '%s\n' "$q" > $CONTROL 2>/dev/null
	krc=$?
	cat $CONTROL > /tmp/kafter
	kchg=$(diff /tmp/before /tmp/kafter | grep -c '^+[^+]')
	reset_all
	echo "module dm_mod +p" > $CONTROL
	# the query as the kernel reads it, a line of a file: a set argument
	# naming a module that exists nowhere is refused as a typo (ddctl's own
	# check, not the kernel's grammar); -f only warns
	printf '%s\n' "$q" > /tmp/o.q
	ddctl --check --json -f /tmp/o.q > /tmp/o.json 2>/tmp/o.err
	drc=$?
	dchg=$(grep -o '"old":' /tmp/o.json | wc -l)
	[ $krc = 0 ] && kv=ok || kv=refused
	[ $drc = 0 ] && dv=ok || dv=refused
	printf '%s\t%s %s\t%s %s\n' "$(echo "$q" | cut -c1-120)" "$kv" "$kchg" "$dv" "$dchg" >> $OUT/oracle.txt
	check oracle-$i "'$(echo "$q" | cut -c1-80)': kernel $kv ($kchg changed), ddctl $dv ($dchg predicted): $(head -c 200 /tmp/o.err)" \
		eval '[ $kv = $dv -a "$kchg" = "$dchg" ]'
done <<EOF_Q
module bonding +p
module bonding +m
module bonding +f
module bonding +l
module bonding +t
module bonding +s
module bonding +d
module bonding +_
module bonding =_
module bonding -p
module bonding +pmflt
func bond_init +p
func bond_* =pf
file bond_main.c +p
file drivers/net/bonding/bond_main.c +p
file drivers/net/bonding/bond_main.c:bond_enslave +p
file bond_main.c line 1900-2300 +p
module bonding line 1935 +p
module bonding line -1000 +p
module bonding line 4000- +p
format "Begin bond_init" +p
format 'Masking off' +p
format ^Begin +p
format bond\040init +p
module e1000 format Masking +p
module BONDING +p
module bond?ng +p
module dm-mod +p
class FOO +p
module bonding class FOO +p
module bonding +x
module bonding p
module
modul bonding +p
module bonding line 0 +p
module bonding line 10-5 +p
module bonding func bond_init file bond_main.c line 6481 +p
module bonding module e1000 +p
'module bonding' +p
"module" bonding +p
module bonding +p # a comment
$long
EOF_Q
note "oracle: $i queries; ddctl's own extensions excepted: negation (!module, module !x, !format), expanded by ddctl"

# ---- f: follow and run on the distro modules' own sites -------------------
reset_all
cat $CONTROL > /tmp/before
eth=
for i in /sys/class/net/*; do
	d=$(readlink "$i/device/driver" 2>/dev/null)
	[ "${d##*/}" = e1000 ] && eth=${i##*/}
done
note "network interface: ${eth:-none}"
# e1000's hw functions print through netdev_dbg with a PCI parent: decorated
ddctl run module e1000 +p -- sh -c "ip link set $eth up; sleep 1; ip link set $eth down" \
	> $OUT/fl-run.txt 2> $OUT/fl-run.err
rc=$?
lines=$(grep -c . $OUT/fl-run.txt)
check fl-run-e1000 "rc=$rc, $lines attributed lines: $(tail -c 300 $OUT/fl-run.err)" \
	eval '[ $rc = 0 -a "$lines" -gt 0 ] && grep -q "^e1000 " $OUT/fl-run.txt'
check fl-run-restored "the control file after run differs" eval 'cat $CONTROL | cmp -s - /tmp/before'
dmesg | grep -i 'e1000' | tail -n 40 > $OUT/fl-dmesg.txt
note "e1000 kernel lines: $(grep -c 'e1000:' $OUT/fl-dmesg.txt); first: $(grep 'e1000:' $OUT/fl-dmesg.txt | head -n 1 | cut -c1-120)"
ddctl follow module bonding +p > $OUT/fl-follow.txt 2> $OUT/fl-follow.err &
fpid=$!
sleep 2
echo +bond7 > /sys/class/net/bonding_masters 2>/dev/null
ip link set bond7 up 2>/dev/null
ip link set bond7 down 2>/dev/null
echo -bond7 > /sys/class/net/bonding_masters 2>/dev/null
sleep 1
kill -TERM $fpid
wait $fpid
rc=$?
check fl-follow-sigterm "rc=$rc: $(tail -c 300 $OUT/fl-follow.err)" eval '[ $rc = 0 -o $rc = 143 ] && cat $CONTROL | cmp -s - /tmp/before'
# bond7 has no parent device: netdev_dbg prints it undecorated, whatever
# the flags; follow attributes those lines by the bonding sites' formats
note "follow bonding: $(grep -c . $OUT/fl-follow.txt) lines shown; $(grep 'lines from' $OUT/fl-follow.err)"
check fl-follow-undecorated "no bond7 line attributed to bonding: $(head -c 300 $OUT/fl-follow.txt)" \
	grep -q '^bonding .*bond7' $OUT/fl-follow.txt

# ---- cfg: save and restore round trip -------------------------------------
reset_all
echo "module bonding +pf; module e1000 =pl" > $CONTROL
cat $CONTROL > /tmp/saved-state
ddctl save > /tmp/s.conf 2> $OUT/save.err
src=$?
reset_all
ddctl restore /tmp/s.conf > $OUT/restore.txt 2>&1
rrc=$?
check cfg-save-restore "save rc=$src, restore rc=$rrc" eval '[ $src = 0 -a $rrc = 0 ] && cat $CONTROL | cmp -s - /tmp/saved-state'

# ---- d: apply-config, watch, sessions, reset on this kernel ---------------
# state checks: the sites as configured, the control file byte-identical
# after a killed session is restored and after reset
reset_all
mkdir -p /etc/ddctl.d /run/ddctl
echo 'module bridge =pl' > /etc/ddctl.d/90-distro.conf
ddctl apply-config > $OUT/d-apply.txt 2>&1
rc=$?
bad=$(control | awk '$2 ~ /^\[bridge\]/ && $3 != "=pl"' | wc -l)
check d-apply-config "rc=$rc, $bad bridge sites not =pl: $(head -c 300 $OUT/d-apply.txt)" \
	[ $rc = 0 -a "$bad" = 0 ]
reset_all
ddctl watch > $OUT/d-watch.txt 2>&1 &
wpid=$!
sleep 2
rmmod bridge 2>> $OUT/d-watch.txt && modprobe bridge
bad=-1
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	n=$(control | awk '$2 ~ /^\[bridge\]/' | wc -l)
	bad=$(control | awk '$2 ~ /^\[bridge\]/ && $3 != "=pl"' | wc -l)
	[ "$n" -gt 0 -a "$bad" = 0 ] && break
	sleep 1
done
kill -TERM $wpid; wait $wpid
check d-watch "$bad bridge sites not =pl after the reload under watch: $(head -c 300 $OUT/d-watch.txt)" \
	[ "$bad" = 0 ]
rm -f /etc/ddctl.d/90-distro.conf
reset_all
cat $CONTROL > /tmp/before
ddctl follow module bonding +p > /dev/null 2> $OUT/d-sess.err &
fpid=$!
sleep 3
kill -KILL $fpid; wait $fpid
on=$(control | awk '$2 ~ /^\[bonding\]/ && $3 != "=_"' | wc -l)
ddctl sessions > $OUT/d-sessions.txt 2>&1
ddctl sessions --restore >> $OUT/d-sessions.txt 2>&1
rc=$?
check d-sessions-restore "rc=$rc, $on bonding sites were on after SIGKILL: $(head -c 300 $OUT/d-sessions.txt)" \
	eval '[ $rc = 0 -a "$on" -gt 0 ] && cat $CONTROL | cmp -s - /tmp/before'
rm -f /run/ddctl/boot.conf
ddctl save --boot > $OUT/d-reset.txt 2>&1
ddctl set 'module e1000 +pf; module dm_mod +p' >> $OUT/d-reset.txt 2>&1
ddctl reset >> $OUT/d-reset.txt 2>&1
rc=$?
check d-reset "rc=$rc, the control file after reset differs from the boot snapshot: $(head -c 300 $OUT/d-reset.txt)" \
	eval '[ $rc = 0 ] && cat $CONTROL | cmp -s - /tmp/before'
reset_all
exit 0
