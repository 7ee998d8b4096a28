# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Text-poke benchmark, guest half; driven by tests/vm/bench/poke-bench.py.
# Not a test: it asserts nothing about speed, it only prints numbers.
# Needs a kernel with tests/vm/bench/textpoke-timing.patch (the
# /sys/kernel/debug/tpbench/ files) and the module ddctl_spin.
#
# Kernel command line (ddctl.X=V -> $DDCTL_X, see guest/init):
#   ddctl.ks=100,2000,20000   the generated modules ddctl_sites_K, in order
#   ddctl.reps=3              repetitions per K (ddctl.repsK=R overrides)
#   ddctl.idle=1              seconds of the idle interval of the spin rate
#   ddctl.spinks=100,2000     the K with spin=1 (default: all); on stock, a
#                             key costs three syncs, each waiting for every
#                             busy vCPU to be scheduled by the host: under
#                             TCG a 20,000-key write with the spinners
#                             running takes tens of minutes
#   ddctl.spinreps=N          spin=1 in the first N repetitions only
#   ddctl.pw=1                (kernel with textpoke-pagewise.patch) every
#                             measurement twice, pw=0 with per-site poking,
#                             pw=1 with /sys/kernel/debug/text_poke_pagewise
#
# Per K and repetition, twice: spin=0 (ddctl_spin's kthreads asleep) and
# spin=1 (one kthread per CPU calling ddctl_spin's site in a loop; first
# an idle interval of ddctl.idle s, the kernel's count of their calls per
# CPU), each time two transactions, one write each:
#   on   "module ddctl_sites_K +p ; module ddctl_spin +p"
#   off  "module ddctl_sites_K -p ; module ddctl_spin -p"
# bracketed by the CAL row of /proc/interrupts (summed over the CPUs) and
# adjtimex (µs), followed by /sys/kernel/debug/tpbench/last (the kernel's
# own timing of the write, see the patch). One line per transaction:
#   @@DDCTL@@ NOTE PB k=.. rep=.. spinners=0|1 pw=0|1 dir=on|off keys=.. nproc=..
#       cal=.. us=.. [idle_ns=.. idle_spin=c0,c1,..] txn_ns=.. ... spin=c0,..
#   (spin=: the kthreads' calls per CPU during the write; idle_spin: in the
#   idle interval of idle_ns)
# The same on every architecture the harness boots (DDCTL_ARCH=arm64: the
# calls are the "Function call interrupts" row too, IPI1; the kernel's
# line has no x86 batch numbers that mean anything there, all 0, and the
# parts of each aarch64_insn_patch_text_nosync() instead, a64*_ns). With
# /sys/kernel/debug/tpbench/a64 (arm64) each pair of transactions runs
# twice, with those timers (a64=1 in the kernel's line) and without them
# (a64=0: the transaction's and the queue's time without their cost).
# Likewise with /sys/kernel/debug/tpbench/fine (x86, the kernel with
# textpoke-timing-fine.patch): fine=1, the parts of each queue call
# (q*_ns) and the per-site timers, then fine=0 without any of them.
# And with /sys/kernel/debug/jump_label_fastsize (the prototype
# jump-label-size-proto.patch) each of those twice: fastsize=0, the
# decoder sizes each site, then fastsize=1, its bytes do.
. /ddctl-tests/lib.sh

NPROC=$(nproc)
TPB=/sys/kernel/debug/tpbench
RUN=/sys/module/ddctl_spin/parameters/run

# sites of ddctl_sites_K and ddctl_spin whose flags contain p
count_p() {
	control | awk -v a="[$MOD]" -v b="[ddctl_spin]" \
		'(index($2, a) == 1 || index($2, b) == 1) && $3 ~ /p/' | wc -l
}

# one_txn DIR QUERY EXTRA: the write, its bracket and the kernel's numbers
one_txn() {
	dir=$1 q=$2 extra=$3
	c0=$(ipis); t0=$(now_us)
	printf '%s\n' "$q" > $CONTROL || note "BENCH-ERR write $dir failed k=$K"
	t1=$(now_us); c1=$(ipis)
	last=$(cat $TPB/last)
	left=$(count_p)
	want=0; [ "$dir" = on ] && want=$KEYS
	[ "$left" = "$want" ] || note "BENCH-ERR k=$K rep=$r dir=$dir: $left sites +p, expected $want"
	note "PB k=$K rep=$r spinners=$spin pw=$pw dir=$dir keys=$KEYS nproc=$NPROC" \
	     "cal=$((c1 - c0)) us=$((t1 - t0)) $extra $last"
}

note "BENCH-START $(uname -r) nproc=$NPROC ks=${DDCTL_KS:-100} reps=${DDCTL_REPS:-3}"
[ -r $TPB/last ] || { note "BENCH-ERR no $TPB/last: the kernel lacks textpoke-timing.patch"; exit 0; }
load ddctl_spin || { note "BENCH-ERR insmod ddctl_spin failed"; exit 0; }
[ -w $RUN ] || { note "BENCH-ERR no $RUN"; exit 0; }
IDLE=${DDCTL_IDLE:-1}
PW=/sys/kernel/debug/text_poke_pagewise
PWS=0
if [ "${DDCTL_PW:-0}" = 1 ]; then
	[ -w $PW ] && PWS="0 1" || note "BENCH-ERR ddctl.pw=1 but no $PW"
fi
A64=$TPB/a64
A64S=1
[ -w $A64 ] && A64S="1 0"
FINE=$TPB/fine
FINES=1
[ -w $FINE ] && FINES="1 0"
FS=/sys/kernel/debug/jump_label_fastsize
FSS=-
[ -w $FS ] && FSS="0 1"

for K in $(echo "${DDCTL_KS:-100}" | tr ',' ' '); do
	MOD=ddctl_sites_$K
	load $MOD || { note "BENCH-ERR insmod $MOD failed"; continue; }
	ON="module $MOD +p ; module ddctl_spin +p"
	OFF="module $MOD -p ; module ddctl_spin -p"
	printf '%s\n' "$ON" > $CONTROL
	KEYS=$(count_p)
	printf '%s\n' "$OFF" > $CONTROL
	eval reps=\${DDCTL_REPS$K:-${DDCTL_REPS:-3}}
	note "BENCH-SET k=$K keys=$KEYS reps=$reps"
	r=1
	while [ $r -le $reps ]; do
		spins=0
		case ",${DDCTL_SPINKS:-$K}," in *",$K,"*)
			[ $r -le "${DDCTL_SPINREPS:-$reps}" ] && spins="0 1" ;;
		esac
		for spin in $spins; do
		for pw in $PWS; do
			[ "$PWS" = 0 ] || echo $pw > $PW
			echo $spin > $RUN
			idle=
			if [ $spin = 1 ]; then
				sleep 0.2
				echo > $TPB/spin
				sleep $IDLE
				set -- $(sed 's/ns=\([0-9]*\) spin=/\1 /' $TPB/spin)
				idle="idle_ns=$1 idle_spin=$2"
			fi
			for a64 in $A64S; do
			for fine in $FINES; do
			for fs in $FSS; do
				[ "$A64S" = 1 ] || echo $a64 > $A64
				[ "$FINES" = 1 ] || echo $fine > $FINE
				ex=$idle
				[ "$fs" = - ] || { echo $fs > $FS; ex="$idle fastsize=$fs"; }
				one_txn on "$ON" "$ex"
				one_txn off "$OFF" "$ex"
			done
			done
			done
			echo 0 > $RUN
		done
		done
		r=$((r + 1))
	done
	note "BENCH-DONE k=$K"
done
note "BENCH-END"
