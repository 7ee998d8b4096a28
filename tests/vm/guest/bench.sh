# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# IPI benchmark, guest half; driven by tests/vm/bench/ipi-bench.py.
# Not a test: it asserts nothing about speed, it only prints numbers.
#
# Kernel command line (ddctl.X=V -> $DDCTL_X, see guest/init):
#   ddctl.ks=b,2000,20000   which key sets, in this order:
#       b      all callsites of the kernel (built-in + failover net_failover
#              virtio_net virtio_blk virtio_balloon test_dynamic_debug),
#              queries "+p" / "-p"
#       N      the generated module ddctl_sites_N is loaded (after b) and only
#              its sites are toggled: "module ddctl_sites_N +p" / "... -p"
#   ddctl.reps=3            repetitions of (a) and of (b) per key set
#   ddctl.repsN=R           repetitions for key set N (overrides reps)
#   ddctl.modes=a,b         what is measured per repetition, in this order:
#       a   one write(2) of "ON ; OFF" (per key toggle)
#       b   two writes, "ON" then "OFF" (per key toggle)
#       z   = a: the net-zero set "ON ; OFF" in one write (transactions)
#       p   one write of "ON" (turns the keys on); the reset "RESET"
#           (ddctl_sites_N: "module ddctl_sites_N =_") is written after the
#           idle interval, outside the measurement (transactions)
#       nz  "ON ; OFF" as one DYNDBG_CMD_EXEC over netlink (nlexec; part 2)
#       np  "ON" as one DYNDBG_CMD_EXEC over netlink, reset as for p
#       e   nothing: the empty bracket (its residual after the idle
#           subtraction is the noise floor of the control-file modes)
#       ne  a netlink dry run of a query that matches nothing (the noise
#           floor of the netlink modes: nlexec's fork/exec + one round trip)
#
# Per repetition and mode:
#   CAL and TLB rows of /proc/interrupts summed over all CPUs before and
#   after (IPI: every "IPIn:" row, arm64 and riscv64; 0 on x86), wall
#   time around the write(s) (adjtimex, microseconds), then an idle
#   interval of the same length measured the same way (noise).
# One line per repetition on the console:
#   @@DDCTL@@ NOTE BENCH k=.. mode=a|b rep=N keys=.. nproc=.. ncpuinfo=..
#       cal=.. tlb=.. us=.. idle_cal=.. idle_tlb=.. idle_us=.. ipi=..
#       idle_ipi=..
. /ddctl-tests/lib.sh

NPROC=$(nproc)
NCPUINFO=$(grep -c '^processor' /proc/cpuinfo)

# "CAL TLB IPI" summed over the CPU columns. The rows are found by their
# description: x86 "CAL: ... Function call interrupts" and "TLB: ... TLB
# shootdowns"; arm64 "IPI1: ... Function call interrupts" (where
# kick_all_cpus_sync() lands) and no TLB row (arm64 broadcasts TLB
# invalidations in hardware: TLB is 0 there); riscv64 "IPI1: ... Function
# call interrupts" (flush_icache_all()'s on_each_cpu() with S-mode IPIs),
# no TLB row either. IPI: all "IPIn:" rows together (arm64, riscv64:
# rescheduling, IRQ work, timer broadcast ... too; x86 has none: 0).
ints() {
	awk 'NR == 1 { n = NF; next }
	     /Function call interrupts/ || /TLB shootdowns/ {
		s = 0; for (i = 2; i <= n + 1; i++) s += $i
		v[/TLB/ ? "TLB" : "CAL"] = s }
	     $1 ~ /^IPI[0-9]+:$/ { for (i = 2; i <= n + 1; i++) ipi += $i }
	     END { printf "%d %d %d\n", v["CAL"], v["TLB"], ipi }' /proc/interrupts
}

# sites of the current key set whose flags contain p
count_p() {
	if [ "$MOD" ]; then
		control | awk -v m="[$MOD]" 'index($2, m) == 1 && $3 ~ /p/' | wc -l
	else
		control | awk '$3 ~ /p/' | wc -l
	fi
}

NLX=nlexec    # guest/init exported LD_LIBRARY_PATH from /etc/ddctl-env

# run_one MODE REP: one measurement + its idle interval
run_one() {
	mode=$1 rep=$2 extra=
	set -- $(ints); c0=$1 l0=$2 i0=$3
	t0=$(now_us)
	case $mode in
	a|z)
		printf '%s\n' "$ON ; $OFF" > $CONTROL || note "BENCH-ERR write $mode failed k=$K" ;;
	b)
		printf '%s\n' "$ON" > $CONTROL || note "BENCH-ERR write b1 failed k=$K"
		printf '%s\n' "$OFF" > $CONTROL || note "BENCH-ERR write b2 failed k=$K" ;;
	p)
		printf '%s\n' "$ON" > $CONTROL || note "BENCH-ERR write p failed k=$K" ;;
	nz)
		$NLX "$ON ; $OFF" > /tmp/nl.out 2>&1 || note "BENCH-ERR nlexec nz failed k=$K: $(cat /tmp/nl.out)" ;;
	np)
		$NLX "$ON" > /tmp/nl.out 2>&1 || note "BENCH-ERR nlexec np failed k=$K: $(cat /tmp/nl.out)" ;;
	e)	: ;;
	ne)
		$NLX -n "module ddctl_nosuch_module +p" > /tmp/nl.out 2>&1 || note "BENCH-ERR nlexec ne failed k=$K: $(cat /tmp/nl.out)" ;;
	esac
	t1=$(now_us)
	case $mode in n*)
		extra="nl_keys=$(sed -n 's/.*keys_patched=\([0-9]*\).*/\1/p' /tmp/nl.out)" ;;
	esac
	set -- $(ints); c1=$1 l1=$2 i1=$3
	us=$((t1 - t0))
	# idle: the same bracket around a sleep of the same length (its
	# argument computed outside the bracket)
	zz=$(awk -v u=$us 'BEGIN { printf "%.6f", u / 1e6 }')
	set -- $(ints); j0=$1 m0=$2 k0=$3
	s0=$(now_us)
	sleep "$zz"
	s1=$(now_us)
	set -- $(ints); j1=$1 m1=$2 k1=$3
	left=$(count_p)
	case $mode in
	p|np)
		[ "$left" = "$KEYS" ] || note "BENCH-ERR k=$K mode=$mode rep=$rep: $left sites +p, expected $KEYS"
		printf '%s\n' "$RESET" > $CONTROL || note "BENCH-ERR reset failed k=$K"
		left=$(count_p) ;;
	esac
	[ "$left" = 0 ] || note "BENCH-ERR k=$K mode=$mode rep=$rep: $left sites still +p"
	note "BENCH k=$K mode=$mode rep=$rep keys=$KEYS sites=$SITES nproc=$NPROC" \
	     "ncpuinfo=$NCPUINFO cal=$((c1 - c0)) tlb=$((l1 - l0)) us=$us" \
	     "idle_cal=$((j1 - j0)) idle_tlb=$((m1 - m0)) idle_us=$((s1 - s0))" \
	     "ipi=$((i1 - i0)) idle_ipi=$((k1 - k0))" $extra
}

MODES=$(echo "${DDCTL_MODES:-a,b}" | tr ',' ' ')
note "BENCH-START $(uname -r) nproc=$NPROC ncpuinfo=$NCPUINFO ks=${DDCTL_KS:-b} modes=${DDCTL_MODES:-a,b}"
case " $MODES " in *" n"*)
	command -v nlexec >/dev/null 2>&1 || note "BENCH-ERR nlexec not in the initramfs" ;;
esac
load_std
# timer overhead: two consecutive now_us calls
t0=$(now_us); t1=$(now_us)
note "BENCH-TIMER overhead_us=$((t1 - t0))"

for K in $(echo "${DDCTL_KS:-b}" | tr ',' ' '); do
	if [ "$K" = b ]; then
		MOD= ON='+p' OFF='-p' RESET='=_'
		SITES=$(control | wc -l)
	else
		MOD=ddctl_sites_$K ON="module $MOD +p" OFF="module $MOD -p" RESET="module $MOD =_"
		load $MOD || { note "BENCH-ERR insmod $MOD failed"; continue; }
		SITES=$(control | awk -v m="[$MOD]" 'index($2, m) == 1' | wc -l)
	fi
	pre=$(count_p)
	# (files built with -DDEBUG start with =p; the warm-up -p clears them)
	[ "$pre" = 0 ] || note "BENCH-PRE k=$K: $pre sites +p at boot:" \
		$(control | awk '$3 ~ /p/ { print $1 }' | head -n 8)
	# warm-up pair; counts the keys one ON toggles
	printf '%s\n' "$ON" > $CONTROL
	KEYS=$(count_p)
	printf '%s\n' "$OFF" > $CONTROL
	KU=$(echo "$K" | tr a-z A-Z)
	eval reps=\${DDCTL_REPS$KU:-${DDCTL_REPS:-3}}
	note "BENCH-SET k=$K sites=$SITES keys=$KEYS reps=$reps on='$ON' off='$OFF'"
	r=1
	while [ $r -le $reps ]; do
		for mode in $MODES; do run_one $mode $r; done
		r=$((r + 1))
	done
	note "BENCH-DONE k=$K"
done
note "BENCH-END"
