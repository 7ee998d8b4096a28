# SPDX-License-Identifier: GPL-2.0-or-later
# IPI benchmark (issue 3), guest half; driven by tests/vm/bench/ipi-bench.py.
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
#
# Per repetition, for mode a (one write(2) of "ON ; OFF") and mode b (two
# writes, "ON" then "OFF"):
#   CAL and TLB rows of /proc/interrupts summed over all CPUs before and
#   after, wall time around the write(s) (adjtimex, microseconds), then an
#   idle interval of the same length measured the same way (noise).
# One line per repetition on the console:
#   @@DDCTL@@ NOTE BENCH k=.. mode=a|b rep=N keys=.. nproc=.. ncpuinfo=..
#       cal=.. tlb=.. us=.. idle_cal=.. idle_tlb=.. idle_us=..
. /ddctl-tests/lib.sh

NPROC=$(nproc)
NCPUINFO=$(grep -c '^processor' /proc/cpuinfo)

# "CAL TLB" summed over the CPU columns
ints() {
	awk 'NR == 1 { n = NF; next }
	     $1 == "CAL:" || $1 == "TLB:" {
		s = 0; for (i = 2; i <= n + 1; i++) s += $i
		v[$1] = s }
	     END { printf "%d %d\n", v["CAL:"], v["TLB:"] }' /proc/interrupts
}

# microseconds since the epoch (busybox date has no %N; adjtimex has usec)
now_us() {
	adjtimex | awk '/tv_sec/ { s = $2 } /tv_usec/ { u = $2 }
		END { printf "%d%06d\n", s, u }'
}

# sites of the current key set whose flags contain p
count_p() {
	if [ "$MOD" ]; then
		control | awk -v m="[$MOD]" 'index($2, m) == 1 && $3 ~ /p/' | wc -l
	else
		control | awk '$3 ~ /p/' | wc -l
	fi
}

# run_one MODE REP: one measurement + its idle interval
run_one() {
	mode=$1 rep=$2
	set -- $(ints); c0=$1 l0=$2
	t0=$(now_us)
	if [ "$mode" = a ]; then
		printf '%s\n' "$ON ; $OFF" > $CONTROL || note "BENCH-ERR write a failed k=$K"
	else
		printf '%s\n' "$ON" > $CONTROL || note "BENCH-ERR write b1 failed k=$K"
		printf '%s\n' "$OFF" > $CONTROL || note "BENCH-ERR write b2 failed k=$K"
	fi
	t1=$(now_us)
	set -- $(ints); c1=$1 l1=$2
	us=$((t1 - t0))
	# idle: the same bracket around a sleep of the same length
	set -- $(ints); j0=$1 m0=$2
	s0=$(now_us)
	sleep "$(awk -v u=$us 'BEGIN { printf "%.6f", u / 1e6 }')"
	s1=$(now_us)
	set -- $(ints); j1=$1 m1=$2
	left=$(count_p)
	[ "$left" = 0 ] || note "BENCH-ERR k=$K mode=$mode rep=$rep: $left sites still +p"
	note "BENCH k=$K mode=$mode rep=$rep keys=$KEYS sites=$SITES nproc=$NPROC" \
	     "ncpuinfo=$NCPUINFO cal=$((c1 - c0)) tlb=$((l1 - l0)) us=$us" \
	     "idle_cal=$((j1 - j0)) idle_tlb=$((m1 - m0)) idle_us=$((s1 - s0))"
}

note "BENCH-START $(uname -r) nproc=$NPROC ncpuinfo=$NCPUINFO ks=${DDCTL_KS:-b}"
load_std
# timer overhead: two consecutive now_us calls
t0=$(now_us); t1=$(now_us)
note "BENCH-TIMER overhead_us=$((t1 - t0))"

for K in $(echo "${DDCTL_KS:-b}" | tr ',' ' '); do
	if [ "$K" = b ]; then
		MOD= ON='+p' OFF='-p'
		SITES=$(control | wc -l)
	else
		MOD=ddctl_sites_$K ON="module $MOD +p" OFF="module $MOD -p"
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
		run_one a $r
		run_one b $r
		r=$((r + 1))
	done
	note "BENCH-DONE k=$K"
done
note "BENCH-END"
