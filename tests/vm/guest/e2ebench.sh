# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# End-to-end benchmark, guest half; driven by tests/vm/bench/e2e-bench.py.
# Not a test: it asserts nothing about speed, it only prints numbers (and
# says when an end state is wrong).  Needs ddctl in the initramfs and a
# kernel with tests/vm/bench/textpoke-timing*.patch
# (/sys/kernel/debug/tpbench/last: txn_ns= is the kernel's time of the
# last control-file write).
#
# Kernel command line (ddctl.X=V -> $DDCTL_X, see guest/init):
#   ddctl.reps=3           repetitions of every measurement
#   ddctl.ks=8000,2000     the other generated modules of part 2
#   ddctl.parts=set,restore  which parts, in this order
#
# Part "set" (only ddctl_sites_20000 loaded, besides the built-ins), per
# repetition, each bracketed by adjtimex (µs of guest time):
#   raw       printf 'module ddctl_sites_20000 +p\n' > control (the shell's
#             builtin: one write), then -p
#   ddctl     ddctl -y -q set module ddctl_sites_20000 +p, then -p (the
#             backend ddctl picks: netlink where the kernel has the family)
#   ddctl-control / ddctl-netlink   the same with -B control / -B netlink
#   check     ddctl -y -q -c set module ddctl_sites_20000 +p (plan only)
#   list-control / list-netlink     ddctl -B ... list module
#             ddctl_sites_20000 > a file on tmpfs (ddctl reads the whole
#             table; its lines are counted after the bracket)
#   cat       cat control > /dev/null (the kernel's text of the table alone)
#   nldump    the netlink dump of every site, printed as control-file
#             lines (tests/vm/guest/nldump.c; netlink kernels only)
#   version   ddctl --version > /dev/null (the process start alone)
#   empty     an empty bracket (the cost of the bracket itself)
# After every set the sites of ddctl_sites_20000 are counted (all on / all
# off) outside the bracket; control-file writes add the kernel's txn_ns.
#
# Part "restore" (ddctl_sites_K of ddctl.ks loaded too): a saved
# debugging state is made once: ~30% of the functions of every module
# (built-ins included) whole, with flags p, pf, pm, pfl or pmf, and one
# site in 41 of the others with p, written raw; its flags column is the
# reference; `ddctl save` writes it to a file.  Per repetition, from
# everything off (`=_`, one raw write, itself timed: op=reset):
#   restore          ddctl -q restore FILE (the user's view; backend auto)
#   restore-control  ddctl -q -B control restore FILE
#   restore-check    ddctl -q -c restore FILE (read, plan: no write)
#   restore-nlraw    the same captured queries as netlink EXECs of at
#                    most the family's QUERIES_MAX queries each (nlexec;
#                    netlink kernels only): the kernel's time of the
#                    restore as the transactions ddctl sends over netlink
#   restore-raw      the queries restore sends, captured once with
#                    --capture-writes (-B control), split into writes of
#                    at most the kernel's write limit at query boundaries
#                    (as ddctl does) and written raw with dd, one write(2)
#                    each; the txn_ns of each write summed
#   saved-raw        the saved file's own queries (module-qualified,
#                    "module M file F func X =flags") split and written
#                    the same way: the kernel's time of the other spelling
#   allp / allm      printf '+p\n' > control (every class-less site, one
#                    write), then '-p'
# restore, restore-control and restore-nlraw add the kernel's time of
# all their transactions (txn_ns= txns= and the parts, tpbench/total).
# after each restore the control file's flags column is compared with
# the reference.  The control-file write limit is probed once: a comment
# of 4095 and one of 4096 bytes.
#
# Lines: @@DDCTL@@ NOTE E2E part=.. op=.. dir=.. rep=.. us=.. rc=.. ok=0|1
#   [txn_ns=..] [writes=..] [sites=..] [queue_ns=.. apply_ns=..
#   ddebug_lock_ns=..: restore-raw, saved-raw, allp, allm] nproc=..
# and E2E-INFO lines (sizes, limits); BENCH-ERR on a wrong state.
. /ddctl-tests/lib.sh

NPROC=$(nproc)
TPB=/sys/kernel/debug/tpbench
REPS=${DDCTL_REPS:-3}
M20=ddctl_sites_20000
W=/tmp/e2e
mkdir -p $W

txn() { sed -n 's/^txn_ns=\([0-9]*\) .*/\1/p' $TPB/last; }
# tpb_read FILE: "txn queue apply ddebug_lock [txns]" (ns) of a tpbench
# line, one read (queue, apply: the jump label calls; ddebug_lock: its
# hold, the matching and the queueing; txns: tpbench/total's count)
tpb_read() {
	sed -n 's/^txn_ns=\([0-9]*\) .* queue_ns=\([0-9]*\) .* apply_ns=\([0-9]*\) .* ddebug_lock_ns=\([0-9]*\) .* spin=[0-9,]*\( txns=\([0-9]*\)\)\{0,1\}$/\1 \2 \3 \4 \6/p' "$1"
}
# last_add: add the last write's txn and parts to TXSUM QSUM ASUM LSUM
last_add() {
	set -- $(tpb_read $TPB/last)
	TXSUM=$((TXSUM + $1)) QSUM=$((QSUM + $2)) ASUM=$((ASUM + $3))
	LSUM=$((LSUM + $4))
}
# the parts of the last write(s), for emit
parts() { echo "queue_ns=$QSUM apply_ns=$ASUM ddebug_lock_ns=$LSUM"; }
# tpbench/total (v3's timing patch): the sums over every transaction
# (control-file write or netlink EXEC) since total_reset; total_get sets
# TXSUM QSUM ASUM LSUM and NTX (empty without the file: stock's patch)
total_reset() { [ -w $TPB/total ] && echo 0 > $TPB/total; }
total_get() {
	NTX=
	[ -r $TPB/total ] || return 0
	TXSUM=0 QSUM=0 ASUM=0 LSUM=0
	set -- $(tpb_read $TPB/total)
	[ $# = 5 ] || return 0
	TXSUM=$1 QSUM=$2 ASUM=$3 LSUM=$4 NTX=$5
}
# the kernel's time of a command's transactions, for emit (nothing
# without tpbench/total)
total_parts() { [ -n "$NTX" ] && echo "txn_ns=$TXSUM txns=$NTX $(parts)"; }

# sites of module $1 whose flags contain p; class-less sites of module $1
count_p() { control | awk -v a="[$1]" 'index($2, a) == 1 && $3 ~ /p/' | wc -l; }
# a site of a class: the control file's line ends with its class after
# the format (a format's own text may hold " class")
CLASSED='/" class:[^ ]+$/ || /" class unknown, _id:[0-9]+$/'
count_all() { control | awk -v a="[$1]" "index(\$2, a) == 1 && !($CLASSED)" | wc -l; }
count_on() { control | awk '$3 != "=_"' | wc -l; }

# emit PART OP DIR REP US RC OK EXTRA...
emit() {
	note "E2E part=$1 op=$2 dir=$3 rep=$4 us=$5 rc=$6 ok=$7 nproc=$NPROC" "$8"
}

# raw QUERY: one write of QUERY by the shell's builtin; sets US RC TX
raw() {
	t0=$(now_us)
	printf '%s\n' "$1" > $CONTROL
	RC=$?
	t1=$(now_us)
	US=$((t1 - t0)); TX=$(txn)
}

# timed CMD...: run CMD (output to $W/out.txt); sets US RC
timed() {
	t0=$(now_us)
	"$@" > $W/out.txt 2>&1
	RC=$?
	t1=$(now_us)
	US=$((t1 - t0))
	[ $RC = 0 ] || note "E2E-CMD rc=$RC: $* :: $(head -c 300 $W/out.txt | tr '\n' '|')"
}

# split FILE (one query a line) into $W/$2.NNNNN of at most LIMIT bytes,
# whole lines, greedily (as ddctl's chunk_end()); prints the count
split_writes() {
	rm -f $W/$2.*
	awk -v lim=$LIMIT -v pre="$W/$2." '
		function flush() { if (n) { close(f); k++ }; n = 0 }
		{ l = length($0) + 1
		  if (n + l > lim) flush()
		  f = sprintf("%s%05d", pre, k); printf "%s\n", $0 > f; n += l }
		END { flush(); print k + 0 }' "$1"
}

# exec_sets PREFIX: each $W/PREFIX.* (one query a line) as one netlink
# EXEC by nlexec; sets US RC NW
exec_sets() {
	NW=0 RC=0
	t0=$(now_us)
	for f in $W/$1.*; do
		[ -f "$f" ] || continue
		nlexec "$(cat $f)" > $W/nlexec.out 2>&1 || { RC=1; note "BENCH-ERR nlexec $f: $(head -c 300 $W/nlexec.out | tr '\n' '|')"; }
		NW=$((NW + 1))
	done
	t1=$(now_us)
	US=$((t1 - t0))
}

# write_chunks PREFIX: each $W/PREFIX.* as one write; sets US RC TXSUM NW
write_chunks() {
	TXSUM=0 NW=0 RC=0 QSUM=0 ASUM=0 LSUM=0
	t0=$(now_us)
	for f in $W/$1.*; do
		[ -f "$f" ] || continue
		dd if=$f of=$CONTROL bs=8192 conv=notrunc 2>/dev/null || RC=1
		last_add
		NW=$((NW + 1))
	done
	t1=$(now_us)
	US=$((t1 - t0))
}

BOOT_SITES=$(control | wc -l)
note "BENCH-START $(uname -r) nproc=$NPROC reps=$REPS ks=${DDCTL_KS:-8000,2000} parts=${DDCTL_PARTS:-set,restore} sites=$BOOT_SITES"
[ -r $TPB/last ] || { note "BENCH-ERR no $TPB/last: the kernel lacks textpoke-timing.patch"; exit 0; }
has_ddctl || { note "BENCH-ERR no ddctl in the guest"; exit 0; }
note "E2E-INFO ddctl=$(ddctl --version 2>&1 | head -n1 | tr ' ' '_') backend=$(ddctl info --json 2>/dev/null | sed -n 's/.*"backend":"\([a-z-]*\)".*/\1/p')"

# the control file's write limit: a comment of N bytes (newline included)
LIMIT=
for n in 4095 4096 8191; do
	{ printf '#'; head -c $((n - 2)) /dev/zero | tr '\0' ' '; printf '\n'; } > $W/probe
	if dd if=$W/probe of=$CONTROL bs=16384 conv=notrunc 2>/dev/null; then
		LIMIT=$n; r=ok
	else
		r=refused
	fi
	note "E2E-INFO limit_probe bytes=$(wc -c < $W/probe) $r"
done
[ -n "$LIMIT" ] || { note "BENCH-ERR no probe write accepted"; LIMIT=4095; }
note "E2E-INFO write_limit=$LIMIT"

NL=0
load $M20 || { note "BENCH-ERR insmod $M20 failed"; exit 0; }
ddctl -q -B netlink list module $M20 > /dev/null 2>&1 && NL=1
note "E2E-INFO netlink=$NL"

# ---------------------------------------------------------------- set
part_set() {
	K20=$(count_all $M20)
	note "E2E-INFO part=set module=$M20 sites=$K20 all_sites=$(control | wc -l)"
	r=1
	while [ $r -le $REPS ]; do
		for dir in on off; do
			want=$K20 fl=+p
			[ $dir = off ] && want=0 fl=-p
			raw "module $M20 $fl"
			n=$(count_p $M20)
			ok=1; [ "$RC" = 0 ] && [ "$n" = "$want" ] || { ok=0; note "BENCH-ERR raw $dir rep=$r: rc=$RC, $n sites p, expected $want"; }
			emit set raw $dir $r $US $RC $ok "txn_ns=$TX sites=$n writes=1"
		done
		for b in auto control netlink; do
			[ $b = netlink ] && [ $NL = 0 ] && continue
			opt=; [ $b = auto ] || opt="-B $b"
			op=ddctl; [ $b = auto ] || op=ddctl-$b
			for dir in on off; do
				want=$K20 fl=+p
				[ $dir = off ] && want=0 fl=-p
				pre=$(cat $TPB/last)
				total_reset
				timed ddctl $opt -y -q set module $M20 $fl
				total_get
				n=$(count_p $M20)
				ok=1; [ "$RC" = 0 ] && [ "$n" = "$want" ] || { ok=0; note "BENCH-ERR $op $dir rep=$r: rc=$RC, $n sites p, expected $want"; }
				# the kernel's time of ddctl's transactions (tpbench/total:
				# netlink too); without it only a control-file write's
				x=$(total_parts)
				[ -z "$x" ] && [ "$(cat $TPB/last)" != "$pre" ] && x="txn_ns=$(txn)"
				emit set $op $dir $r $US $RC $ok "$x sites=$n"
			done
		done
		# plan only: from the off state, what +p would do
		timed ddctl -y -q -c set module $M20 +p
		n=$(count_p $M20)
		ok=1; [ "$RC" = 0 ] && [ "$n" = 0 ] || ok=0
		emit set check on $r $US $RC $ok "sites=$n"
		for b in control netlink; do
			[ $b = netlink ] && [ $NL = 0 ] && continue
			timed ddctl -B $b list module $M20
			n=$(grep -c "$M20" $W/out.txt)
			ok=1; [ "$RC" = 0 ] && [ "$n" -ge "$K20" ] || ok=0
			emit set list-$b - $r $US $RC $ok "lines=$n"
		done
		timed cat $CONTROL
		emit set cat - $r $US $RC 1 "bytes=$(wc -c < $W/out.txt)"
		# the kernel's dump over netlink, each site printed as a
		# control-file line by libddctl (no table, no plan)
		if [ $NL = 1 ] && command -v nldump >/dev/null 2>&1; then
			timed nldump
			n=$(grep -c "$M20" $W/out.txt)
			ok=1; [ "$RC" = 0 ] && [ "$n" -ge "$K20" ] || ok=0
			emit set nldump - $r $US $RC $ok "lines=$n"
		fi
		timed ddctl --version
		emit set version - $r $US $RC 1 ""
		timed true
		emit set empty - $r $US 0 1 ""
		r=$((r + 1))
	done
}

# ------------------------------------------------------------ restore
# the saved state: per (module, file, function) in the control file's
# order, function number i: i % 10 in {0, 3, 6} whole, flags by i % 7;
# of the other functions' sites, every 41st (by site number) with p
make_state() {
	control | awk '
		/" class:[^ ]+$/ || /" class unknown, _id:[0-9]+$/ { next }
		{ fl = $1; sub(/:[0-9]+$/, "", fl); ln = $1; sub(/^.*:/, "", ln)
		  mf = $2; mod = mf; sub(/^\[/, "", mod); sub(/\].*$/, "", mod)
		  fn = mf; sub(/^\[[^]]*\]/, "", fn)
		  key = mod " " fl " " fn
		  if (!(key in idx)) { idx[key] = nf++; done[key] = 0 }
		  i = idx[key]; s++
		  if (i % 10 == 0 || i % 10 == 3 || i % 10 == 6) {
			if (!done[key]) {
				split("p pf p pm p pfl pmf", F, " ")
				printf "module %s file %s func %s +%s\n", mod, fl, fn, F[i % 7 + 1]
				done[key] = 1
			}
		  } else if (s % 41 == 0)
			printf "module %s file %s line %s +p\n", mod, fl, ln
		}' > $W/state.q
}

flags_column() { control | awk '{ print $1, $2, $3 }'; }

# differing lines between the reference and the control file now
state_diff() {
	flags_column > $W/now.txt
	awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	     { m = FNR; if (a[FNR] != $0) d++ }
	     END { print d + (n > m ? n - m : m - n) }' $W/ref.txt $W/now.txt
}

all_off() {
	raw '=_'
	emit restore reset off $1 $US $RC "$([ "$RC" = 0 ] && [ "$(count_on)" = 0 ] && echo 1 || echo 0)" "txn_ns=$TX writes=1"
}

part_restore() {
	for k in $(echo "${DDCTL_KS:-8000,2000}" | tr ',' ' '); do
		load ddctl_sites_$k || note "BENCH-ERR insmod ddctl_sites_$k failed"
	done
	raw '=_'
	NSITES=$(control | wc -l)
	NCL=$(control | awk "!($CLASSED)" | wc -l)
	NMOD=$(control | awk '{ m = $2; sub(/\].*/, "", m); print m }' | sort -u | wc -l)
	make_state
	split_writes $W/state.q setup > /dev/null
	write_chunks setup
	[ $RC = 0 ] || note "BENCH-ERR the state's setup writes failed"
	ON=$(count_on)
	flags_column > $W/ref.txt
	control > $OUT/control-saved-state.txt
	control | awk '$3 != "=_" { print $3 }' | sort | uniq -c | tr -s ' ' | tr '\n' ',' > $W/mix
	note "E2E-INFO part=restore sites=$NSITES classless=$NCL modules=$NMOD on=$ON setup_queries=$(wc -l < $W/state.q) setup_writes=$NW setup_txn_ns=$TXSUM flags=$(sed 's/ //g; s/,$//' $W/mix)"
	timed ddctl save $W/saved.conf
	emit restore save - 0 $US $RC "$([ $RC = 0 ] && echo 1 || echo 0)" "bytes=$(wc -c < $W/saved.conf)"
	SQ=$(grep -vc '^#' $W/saved.conf)
	note "E2E-INFO saved_queries=$SQ saved_bytes=$(wc -c < $W/saved.conf) saved_func=$(grep -c ' func ' $W/saved.conf) saved_line=$(grep -c ' line ' $W/saved.conf) saved_module_only=$(grep -v '^#' $W/saved.conf | grep -vc ' file \| func \| line ')"
	head -n 12 $W/saved.conf | while read -r l; do note "E2E-SAVED $l"; done
	cp $W/saved.conf $OUT/saved.conf 2>/dev/null
	all_off 0
	rm -f $W/cap.txt
	ddctl -q -B control --capture-writes $W/cap.txt restore $W/saved.conf > $W/out.txt 2>&1 ||
		note "BENCH-ERR capture of the restore failed: $(head -c 300 $W/out.txt | tr '\n' '|')"
	[ "$(count_on)" = 0 ] || note "BENCH-ERR the captured restore wrote to the kernel"
	NCH=$(split_writes $W/cap.txt rq)
	grep -v '^#' $W/saved.conf > $W/saved.q
	NSQ=$(split_writes $W/saved.q sq)
	cp $W/cap.txt $OUT/restore-queries.txt 2>/dev/null
	note "E2E-INFO restore_queries=$(wc -l < $W/cap.txt) restore_bytes=$(wc -c < $W/cap.txt) restore_writes=$NCH restore_func=$(grep -c 'func ' $W/cap.txt) restore_line=$(grep -c 'line ' $W/cap.txt) restore_module=$(grep -c '^module ' $W/cap.txt) saved_writes=$NSQ"
	head -n 6 $W/cap.txt | while read -r l; do note "E2E-RQ $l"; done
	# the same queries as netlink EXECs of at most the family's
	# QUERIES_MAX each (as ddctl splits a set), sent by nlexec
	NLQ=
	if [ $NL = 1 ] && command -v nlexec > /dev/null 2>&1; then
		NLQ=$(nlexec -F | sed -n 's/.*queries_max=\([0-9]*\).*/\1/p')
		case "$NLQ" in
		''|0) note "BENCH-ERR nlexec -F gave no queries_max"; NLQ= ;;
		*) rm -f $W/nq.*
		   awk -v n=$NLQ -v pre="$W/nq." '{ f = sprintf("%s%05d", pre, int((NR - 1) / n)); print > f }' $W/cap.txt
		   note "E2E-INFO restore_nl_sets=$(ls $W/nq.* | wc -l) queries_max=$NLQ" ;;
		esac
	fi
	r=1
	while [ $r -le $REPS ]; do
		for op in restore restore-control; do
			opt=; [ $op = restore-control ] && opt="-B control"
			total_reset
			timed ddctl -q $opt restore $W/saved.conf
			total_get
			d=$(state_diff)
			ok=1; [ "$RC" = 0 ] && [ "$d" = 0 ] || { ok=0; note "BENCH-ERR $op rep=$r: rc=$RC, $d lines differ from the saved state"; }
			emit restore $op on $r $US $RC $ok "diff=$d $(total_parts)"
			all_off $r
		done
		if [ -n "$NLQ" ]; then
			total_reset
			exec_sets nq
			total_get
			d=$(state_diff)
			ok=1; [ "$RC" = 0 ] && [ "$d" = 0 ] || { ok=0; note "BENCH-ERR restore-nlraw rep=$r: rc=$RC, $d lines differ from the saved state"; }
			emit restore restore-nlraw on $r $US $RC $ok "writes=$NW diff=$d $(total_parts)"
			all_off $r
		fi
		timed ddctl -q -c restore $W/saved.conf
		ok=1; [ "$RC" = 0 ] && [ "$(count_on)" = 0 ] || ok=0
		emit restore restore-check on $r $US $RC $ok ""
		write_chunks rq
		d=$(state_diff)
		ok=1; [ "$RC" = 0 ] && [ "$d" = 0 ] || { ok=0; note "BENCH-ERR restore-raw rep=$r: rc=$RC, $d lines differ from the saved state"; }
		emit restore restore-raw on $r $US $RC $ok "txn_ns=$TXSUM writes=$NW diff=$d $(parts)"
		all_off $r
		write_chunks sq
		d=$(state_diff)
		ok=1; [ "$RC" = 0 ] && [ "$d" = 0 ] || { ok=0; note "BENCH-ERR saved-raw rep=$r: rc=$RC, $d lines differ from the saved state"; }
		emit restore saved-raw on $r $US $RC $ok "txn_ns=$TXSUM writes=$NW diff=$d $(parts)"
		all_off $r
		raw '+p'
		n=$(control | awk '$3 ~ /p/' | wc -l)
		ok=1; [ "$RC" = 0 ] && [ "$n" = "$NCL" ] || { ok=0; note "BENCH-ERR allp rep=$r: $n sites p, expected $NCL"; }
		TXSUM=0 QSUM=0 ASUM=0 LSUM=0; last_add
		emit restore allp on $r $US $RC $ok "txn_ns=$TX sites=$n writes=1 $(parts)"
		raw '-p'
		n=$(count_on)
		ok=1; [ "$RC" = 0 ] && [ "$n" = 0 ] || ok=0
		TXSUM=0 QSUM=0 ASUM=0 LSUM=0; last_add
		emit restore allm off $r $US $RC $ok "txn_ns=$TX sites=$n writes=1 $(parts)"
		r=$((r + 1))
	done
}

for p in $(echo "${DDCTL_PARTS:-set,restore}" | tr ',' ' '); do
	case $p in
	set) part_set ;;
	restore) part_restore ;;
	*) note "BENCH-ERR unknown part $p" ;;
	esac
	note "BENCH-DONE part=$p"
done
note "BENCH-END"
