# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Kernel series v2: the review's defects, guest side. Sourced by
# suite.sh last. Skipped on kernels without the dyndbg netlink family.
#   k-dump-filter-module   a dump filtered by one large module ends, once per site
#   k-dump-filter-negated  a dump filtered by !module virtio* ends, right sites
#   k-dump-consistent      dumps while a module loads and unloads: complete or NLM_F_DUMP_INTR
#   k-format-bang-literal  "format !x" matches the text "!x" (all kernels)
#   k-extack-reason        an EXEC error's extack names the query ("query 2: ...")
#                          within the 80-character cut
#   k-neg-empty-value      "module !", "func !", "file !", "!module ''" are
#                          refused (EINVAL, a log line) and change nothing:
#                          an empty pattern negated would select every site
#   k-neg-empty-extack     an empty (negated) value over netlink: EXEC fails, the
#                          extack says why
#   k-notify-privileged    nobody cannot subscribe to the notify group
#   k-netns                the family from another network namespace: exec and
#                          dump work, notifications reach init_net only
#   k-query-invalid        the structured family's checks (uapi v3): each bad
#                          nested query (negate bit without its spec, line-min
#                          above line-max, no flags, an empty selector, bits
#                          the policy refuses, a GET filter with flags) is
#                          refused (EINVAL) and changes nothing
#   k-ftrace-batch         20,000-site transactions while the function tracer is
#                          switched on and off (ftrace patches text meanwhile):
#                          right end state (warnings: the no-oops check); the
#                          debug kernel (PROVE_LOCKING, ...) has the tracer
#   k-boot-classmap        built-in test_dynamic_debug booted with its classmap
#                          parameter and a dyndbg= class query (debug kernel):
#                          the sites end as on stock 6.12 (the parameter, set
#                          before the tables exist, matches nothing)
#   k-batch-memory         a 20,000-key transaction's peak extra kernel memory
#                          (Slab + VmallocUsed, sampled during the write)
#   k-stack-flag-read      7.2's 'd' flag (dump_stack): ddctl reads a control
#                          file showing it and predicts around it (skip on
#                          kernels that refuse +d)
KTESTS="k-extack-reason k-neg-empty-extack k-dump-filter-module k-dump-filter-negated k-dump-consistent
k-notify-privileged k-netns k-query-invalid k-batch-memory k-ftrace-batch"
# standalone (run-vm.py --script kernel): the helpers and the usual modules
if [ -z "$CONTROL" ]; then
	. /ddctl-tests/lib.sh
	[ -f /tmp/boot-control.txt ] || cat $CONTROL > /tmp/boot-control.txt
	load_std
fi

# "format !x" has always matched the text "!x" (v1 made it a negation):
# on every kernel, a raw write changes exactly the class-less sites whose
# format contains "!", and ddctl predicts exactly that
reset_all
# (the format: from the first '"' to the last; 6.12 prints inner quotes raw)
want=$(control | grep -Ev "$CLASS_RE" | awk '{ i = index($0, "\""); f = substr($0, i + 1); sub(/"[^"]*$/, "", f); if (index(f, "!")) n++ } END { print n + 0 }')
pred=$(ddctl --check --json set 'format ! +p' 2>&1 | sed -n 's/.*"changed":\([0-9]*\).*/\1/p' | head -n1)
echo 'format ! +p' > $CONTROL
got=$(control | grep -Ev "$CLASS_RE" | awk '$3 != "=_"' | wc -l)
reset_all
echo '!format ! +p' > $CONTROL 2>/dev/null
neg=$(control | awk '$3 != "=_"' | wc -l)
reset_all
if [ "$DDCTL_KIND" = stock ]; then
	negok=1; [ "$neg" = 0 ] || negok=0   # stock: "!format" is an unknown keyword
else
	all=$(control | grep -Evc "$CLASS_RE")
	negok=0; [ "$neg" = $((all - want)) ] && negok=1
fi
check k-format-bang-literal "format ! +p: kernel changed $got, ddctl predicted '$pred', $want formats contain '!'; !format ! +p changed $neg" \
	[ "$want" -gt 0 -a "$got" = "$want" -a "$pred" = "$want" -a $negok = 1 ]

# an empty negated value: the empty pattern matches nothing, so "module !"
# would select every class-less site (v2 took it); "l" patches no code
reset_all
if echo '!module * +_' > $CONTROL 2>/dev/null; then
	n=0 rej=0
	l0=$(dmesg | grep -c 'negated [a-z]* needs a value')
	for q in 'module ! +l' 'func ! +l' 'file ! +l' "!module '' +l"; do
		n=$((n + 1))
		echo "$q" > $CONTROL 2>/dev/null || rej=$((rej + 1))
	done
	chg=$(control | awk '$3 != "=_"' | wc -l)
	l1=$(dmesg | grep -c 'negated [a-z]* needs a value')
	reset_all
	check k-neg-empty-value "$rej of $n writes refused, $chg sites changed, $((l1 - l0)) 'needs a value' log lines" \
		[ $rej = $n -a "$chg" = 0 -a $((l1 - l0)) = $n ]
elif [ "$DDCTL_KIND" = patched ]; then
	notok k-neg-empty-value "the patched kernel refuses '!module * +_'"
else
	skip k-neg-empty-value "kernel without negated match-specs"
fi

# the classmap parameter of built-in code is set by parse_args() before
# the allocator works: v1 reached kvzalloc() there (and got NULL)
if is_builtin_module test_dynamic_debug &&
   grep -q 'test_dynamic_debug.p_disjoint_bits=1' /proc/cmdline; then
	# (the sites as booted: saved before any test reset them)
	kms=$(awk '$2 == "[test_dynamic_debug]do_cats" && / class:D2_KMS/' /tmp/boot-control.txt | head -n1 | awk '{ print $3 }')
	core=$(awk '$2 == "[test_dynamic_debug]do_cats" && / class:D2_CORE/' /tmp/boot-control.txt | head -n1 | awk '{ print $3 }')
	bits=$(cat /sys/module/test_dynamic_debug/parameters/p_disjoint_bits 2>/dev/null)
	enomem=$(dmesg | grep -c 'dyndbg.*-12\|dyndbg.*ENOMEM')
	check k-boot-classmap "D2_KMS site $kms (want =p: dyndbg=), D2_CORE site $core (want =_, as on stock), p_disjoint_bits=$bits, $enomem ENOMEM lines" \
		[ "$kms" = "=p" -a "$core" = "=_" -a "$enomem" = 0 ]
else
	skip k-boot-classmap "test_dynamic_debug is not built in (the debug kernel has it built in)"
fi
# Linux 7.2 has a 'd' flag (dump_stack() after the message): the kernel is
# probed by writing it (6.12 refuses it); ddctl must read such a control
# file, show the flag and keep it in its predictions. 'p' stays off on
# these sites (a printed message would dump a "Call Trace").
reset_all
if ! has_ddctl; then
	skip k-stack-flag-read "ddctl not in the initramfs"
elif ! echo 'module test_dynamic_debug +d' > $CONTROL 2>/dev/null; then
	skip k-stack-flag-read "kernel without the 'd' flag"
else
	nd=$(control | grep -Ev "$CLASS_RE" | grep -c '\[test_dynamic_debug\].* =d ')
	ddctl list module test_dynamic_debug > $OUT/k-stack-list.txt 2>&1
	rc=$?
	ld=$(grep -c '=d ' $OUT/k-stack-list.txt)
	ddctl --check --json set 'module test_dynamic_debug +f' > $OUT/k-stack-check.json 2>&1
	crc=$?
	fd=$(grep -o '"new":"=fd"' $OUT/k-stack-check.json | wc -l)
	check k-stack-flag-read "$nd sites at =d; ddctl list rc=$rc showed $ld; ddctl --check rc=$crc predicted $fd sites at =fd" \
		[ "$nd" -gt 0 -a $rc = 0 -a "$ld" = "$nd" -a $crc = 0 -a "$fd" = "$nd" ]
fi
reset_all

if ! has_ddctl || ! command -v nldump >/dev/null 2>&1; then
	for t in $KTESTS; do skip $t "ddctl or nldump not in the initramfs"; done
elif ! ddctl info -j 2>/dev/null | grep -q '"netlink":true'; then
	for t in $KTESTS; do
		if [ "$DDCTL_NETLINK" = 1 ]; then
			notok $t "the kernel should have the dyndbg netlink family"
		else
			skip $t "kernel without the dyndbg netlink family"
		fi
	done
else
	grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
	grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >> /etc/group
	asnobody() { su -s /bin/sh nobody -c "LD_LIBRARY_PATH=/usr/lib $*"; }
	load ddctl_sites_20000 || note "insmod ddctl_sites_20000 failed"

	# extack messages are cut at 80 characters: the kernel's own message
	# ("query N: reason", on the nested attribute) fits, so the netlink core
	# never warns; query 1 is valid, query 2 negates a file it does not give
	t0=$(dmesg | grep -c 'truncated extack')
	nlexec -r 'file=drivers/net/virtio_net.c,flags=p/p' 'func=virtnet_*,negate=2,flags=p/p' > $OUT/k-extack.txt 2>&1
	msg=$(sed -n 's/^msg=//p' $OUT/k-extack.txt)
	t1=$(dmesg | grep -c 'truncated extack')
	chg=$(control | awk '$3 != "=_"' | wc -l)
	reset_all
	check k-extack-reason "msg='$msg' (${#msg} characters), $((t1 - t0)) 'truncated extack' warnings, $chg sites changed" \
		[ "${msg#query 2: }" != "$msg" -a ${#msg} -gt 10 -a ${#msg} -lt 80 -a "$t1" = "$t0" -a "$chg" = 0 ]

	# an empty value over netlink (strings have at least one byte): an empty
	# negated func would select every site; refused, with the reason
	nlexec -r 'func=,negate=4,flags=l/l' > $OUT/k-neg-empty.txt 2>&1
	rc=$(sed -n 's/^rc=\(-*[0-9]*\).*/\1/p' $OUT/k-neg-empty.txt)
	msg=$(sed -n 's/^msg=//p' $OUT/k-neg-empty.txt)
	chg=$(control | awk '$3 != "=_"' | wc -l)
	reset_all
	check k-neg-empty-extack "rc=$rc, msg='$msg', $chg sites changed" \
		[ "$rc" = -22 -a -n "$msg" -a "$chg" = 0 ]

	# a filter that rejects the tables before a large one: v1 re-walked
	# the large table forever (the table cursor never moved past them)
	# (a match-spec without "class" selects only sites without a class)
	want=$(control | grep -Ev "$CLASS_RE" | awk 'index($2, "[ddctl_sites_20000]") == 1' | wc -l)
	asnobody "timeout 60 nldump 'module ddctl_sites_20000'" > /tmp/k-dump 2> $OUT/k-dump.err
	rc=$?
	tail -n +2 /tmp/k-dump > /tmp/k-dump.sites
	got=$(wc -l < /tmp/k-dump.sites)
	uniq=$(sort -u /tmp/k-dump.sites | wc -l)
	other=$(grep -vc '\[ddctl_sites_20000\]' /tmp/k-dump.sites)
	note "k-dump-filter-module: $got sites dumped, $uniq unique, $want class-less sites in the module"
	check k-dump-filter-module "rc=$rc (124: did not end in 60 s), $got sites, $uniq unique, $other of other modules, want $want: $(head -c 200 $OUT/k-dump.err)" \
		[ $rc = 0 -a "$got" = "$want" -a "$uniq" = "$want" -a "$other" = 0 -a "$want" -gt 19000 ]

	want=$(control | grep -Ev "$CLASS_RE" | awk '{ m = $2; sub(/^\[/, "", m); sub(/\].*/, "", m); if (m !~ /^virtio/) n++ } END { print n + 0 }')
	asnobody "timeout 60 nldump '!module virtio*'" > /tmp/k-dump 2> $OUT/k-dump-neg.err
	rc=$?
	tail -n +2 /tmp/k-dump > /tmp/k-dump.sites
	got=$(wc -l < /tmp/k-dump.sites)
	uniq=$(sort -u /tmp/k-dump.sites | wc -l)
	bad=$(grep -c '\[virtio' /tmp/k-dump.sites)
	check k-dump-filter-negated "rc=$rc, $got sites, $uniq unique, $bad of virtio* modules, want $want: $(head -c 200 $OUT/k-dump-neg.err)" \
		[ $rc = 0 -a "$got" = "$want" -a "$uniq" = "$want" -a "$bad" = 0 ]

	# dumps while a module is unloaded and loaded again and again: each
	# dump is whole (every other site once, all or none of the cycling
	# module) or reported interrupted (NLM_F_DUMP_INTR: EINTR), never a
	# silent gap or a repeat
	load ddctl_sites_256 || note "insmod ddctl_sites_256 failed"
	control > /tmp/k-ctl
	full=$(grep -c '\[ddctl_sites_256\]' /tmp/k-ctl)
	nother=$(grep -vc '\[ddctl_sites_256\]' /tmp/k-ctl)
	dupbase=$(( $(wc -l < /tmp/k-ctl) - $(sort -u /tmp/k-ctl | wc -l) ))
	touch /tmp/k-cycle
	( while [ -f /tmp/k-cycle ]; do rmmod ddctl_sites_256; insmod $MODDIR/ddctl_sites_256.ko; done ) > /dev/null 2>&1 &
	lpid=$!
	bad=0; intr=0; whole=0; n=0; why=
	while [ $n -lt 20 ]; do
		n=$((n + 1))
		nldump > /tmp/k-c 2> /tmp/k-c.err
		if [ $? != 0 ]; then
			if grep -q 'Interrupted system call' /tmp/k-c.err; then
				intr=$((intr + 1))
			else
				bad=$((bad + 1)); why="$why; $(head -c 100 /tmp/k-c.err)"
			fi
			continue
		fi
		tail -n +2 /tmp/k-c > /tmp/k-c.s
		dup=$(( $(wc -l < /tmp/k-c.s) - $(sort -u /tmp/k-c.s | wc -l) ))
		c=$(grep -c '\[ddctl_sites_256\]' /tmp/k-c.s)
		o=$(grep -vc '\[ddctl_sites_256\]' /tmp/k-c.s)
		if [ $dup = $dupbase ] && [ $c = 0 -o $c = $full ] && [ $o = $nother ]; then
			whole=$((whole + 1))
		else
			bad=$((bad + 1)); why="$why; dump $n: $c of $full cycling sites, $o of $nother others, $dup repeats"
		fi
	done
	rm -f /tmp/k-cycle
	wait $lpid
	load ddctl_sites_256
	note "k-dump-consistent: $n dumps: $whole whole, $intr interrupted (NLM_F_DUMP_INTR), $bad bad"
	# (dumps overlap the loop all along: some must have been flagged)
	check k-dump-consistent "$bad of $n dumps neither whole nor interrupted, $intr flagged$why" \
		[ $bad = 0 -a $n -gt 0 -a $intr -gt 0 ]

	# the notifications carry root's query text: v1 let anyone subscribe
	# (the monitor then runs until timeout kills it: busybox's timeout
	# exits 143, coreutils' 124)
	asnobody "timeout 5 ddctl monitor -j" > /tmp/k-mon 2> $OUT/k-notify.err
	rc=$?
	check k-notify-privileged "rc=$rc (124/143: subscribed, killed by timeout), stderr: $(head -c 200 $OUT/k-notify.err)" \
		[ $rc != 124 -a $rc != 143 -a $rc != 0 ]

	# network namespaces: dynamic debug is global, the family works in any
	# netns (netnsok), and notifications go to listeners in init_net only
	# (the kernel-doc and dynamic-debug-howto.rst say so)
	if ! unshare -n true 2>/dev/null; then
		skip k-netns "kernel without network namespaces (the debug kernel has them)"
	else
		reset_all
		ddctl monitor -j > /tmp/k-ns-init 2> /tmp/k-ns-init.err &
		p1=$!
		unshare -n ddctl monitor -j > /tmp/k-ns-other 2> /tmp/k-ns-other.err &
		p2=$!
		trap 'kill $p1 $p2 2>/dev/null' EXIT
		# both subscribed (the line comes after the subscription)
		n=0; while [ $n -lt 60 ] && ! { grep -q 'waiting for changes' /tmp/k-ns-init.err &&
		      grep -q 'waiting for changes' /tmp/k-ns-other.err; }; do sleep 0.5; n=$((n + 1)); done
		echo 'module ddctl_sites_256 +p' > $CONTROL
		# an EXEC from the other namespace (root there is root): applied,
		# over netlink only (no fallback to the control file)
		unshare -n ddctl --backend netlink set 'module ddctl_sites_256 -p' > $OUT/k-netns-exec.txt 2>&1
		xrc=$?
		n=0; while [ $n -lt 20 ] && [ "$(grep -c '"sites_changed":' /tmp/k-ns-init)" -lt 2 ]; do sleep 1; n=$((n + 1)); done
		sleep 2	# time for a notification leaked to the other netns to arrive
		alive=0; kill -0 $p1 2>/dev/null && kill -0 $p2 2>/dev/null && alive=1
		kill $p1 $p2 2>/dev/null; wait $p1 $p2 2>/dev/null
		trap - EXIT
		# dump (GET) from the other namespace: every class-less site
		nd=$(unshare -n timeout 60 nldump 'module ddctl_sites_256' 2>/dev/null | grep -c 'ddctl_sites_256')
		want=$(control | grep -Ev "$CLASS_RE" | grep -c '\[ddctl_sites_256\]')
		ni=$(grep -c '"sites_changed":' /tmp/k-ns-init)
		no=$(grep -c '"sites_changed":' /tmp/k-ns-other)
		sub=$(cat /tmp/k-ns-init.err /tmp/k-ns-other.err | grep -c 'waiting for changes')
		reset_all
		check k-netns "monitors subscribed: $sub of 2, alive: $alive; init_net listener: $ni notifications (want 2), other netns listener: $no (want 0), netlink exec from the other netns rc=$xrc ($(head -c 150 $OUT/k-netns-exec.txt)), dump there: $nd of $want sites; other: $(head -c 150 /tmp/k-ns-other.err)" \
			[ "$sub" = 2 -a $alive = 1 -a "$ni" = 2 -a "$no" = 0 -a $xrc = 0 -a "$nd" = "$want" -a "$want" -gt 200 ]
	fi

	# the memory a 20,000-key batch takes while it runs (freed after):
	# v1 kept the queued keys in an xarray indexed by key address, ~1 node
	# of 576 bytes per key (~11 MB); v2 a vector of pointers (<= 16 bytes
	# per key) and x86 its text_poke vector (<= 32 bytes per site)
	reset_all
	memkb() { awk '/^(Slab|VmallocUsed):/ { n += $2 } END { print n }' /proc/meminfo; }
	base=$(memkb)
	touch /tmp/k-sample
	( peak=0; while [ -f /tmp/k-sample ]; do m=$(memkb); [ $m -gt $peak ] && peak=$m; done; echo $peak > /tmp/k-peak ) &
	spid=$!
	sleep 1
	idle=$(memkb)
	echo 'module ddctl_sites_20000 +p' > $CONTROL
	rm -f /tmp/k-sample
	wait $spid
	peak=$(cat /tmp/k-peak)
	keys=$(flags_of_module ddctl_sites_20000 | grep -cx '=p')
	reset_all
	extra=$((peak - base))
	note "k-batch-memory: $keys keys turned on in one write: peak Slab+VmallocUsed $peak kB, before $base kB (idle sampler $idle kB): +$extra kB, $((extra * 1024 / (keys > 0 ? keys : 1))) bytes per key"
	check k-batch-memory "+$extra kB over $keys keys (v1's xarray: ~11,000 kB; goal <= 16 B/key for the key vector + 32 B/site for x86's)" \
		[ "$keys" -gt 19000 -a "$extra" -lt 2048 ]

	# ftrace and a batch patching text at the same time: v1 kept its batch
	# state in the shared text_poke queue, so ftrace's entries could be
	# merged into a dynamic debug batch (and allocate on ftrace's path).
	# The function tracer is switched on once, limited to functions of
	# ddctl_sites_20000 (which nothing calls), and its filter flipped
	# between two halves of them: each flip makes ftrace patch ~2,400
	# sites in 256-entry batches, next to the jump labels the writes
	# patch. Not the tracer itself on and off: each switch also toggles
	# the sched_switch/sched_wakeup tracepoints, hot jump labels, and
	# under TCG stock 6.12 dies of an unclaimed int3 there too
	# (guest/ftrace.sh, ft-limited, on the stock-debug kernel).
	T=/sys/kernel/tracing
	[ -d $T/options ] || mount -t tracefs tracefs $T 2>/dev/null
	A='*_p0*:mod:ddctl_sites_20000' B='*_p1*:mod:ddctl_sites_20000'
	if ! grep -qw function $T/available_tracers 2>/dev/null; then
		skip k-ftrace-batch "kernel without the function tracer (the debug kernel has it)"
	elif ! echo "$A" > $T/set_ftrace_filter 2>/dev/null ||
	     [ "$(wc -l < $T/set_ftrace_filter)" -lt 500 ]; then
		skip k-ftrace-batch "cannot limit the function tracer to ddctl_sites_20000 ($(wc -l < $T/set_ftrace_filter) functions)"
		echo > $T/set_ftrace_filter
	elif ! echo "$B" > $T/set_ftrace_filter || ! echo function > $T/current_tracer; then
		notok k-ftrace-batch "cannot switch the function tracer on ($(cat $T/current_tracer))"
		echo > $T/set_ftrace_filter
	else
		nb=$(wc -l < $T/set_ftrace_filter)
		echo "$A" > $T/set_ftrace_filter
		na=$(wc -l < $T/set_ftrace_filter)
		echo "$B" > $T/set_ftrace_filter
		note "k-ftrace-batch: the filter flips between $na and $nb functions of ddctl_sites_20000"
		reset_all
		touch /tmp/k-ftrace; rm -f /tmp/k-ftrace.err
		echo 0 > /tmp/k-ftrace.started; echo 0 > /tmp/k-ftrace.done
		# each filter write is numbered before it starts and counted
		# done after it returns. A write of the control file overlaps
		# flip k if k started before the write ended and was not done
		# when it began: started(after) > done(before). A flip that
		# waits for the batch's text_mutex counts (it had started), so
		# a slow kernel whose flips each outlast a write is seen too.
		( n=0; while [ -f /tmp/k-ftrace ]; do
			for f in "$A" "$B"; do
				n=$((n + 1)); echo $n > /tmp/k-ftrace.started
				if ! echo "$f" > $T/set_ftrace_filter; then
					echo "filter write $n failed" > /tmp/k-ftrace.err
					exit 0
				fi
				echo $n > /tmp/k-ftrace.done
			done
		  done ) &
		fpid=$!
		trap 'rm -f /tmp/k-ftrace; kill $fpid 2>/dev/null; echo nop > $T/current_tracer' EXIT
		i=0; bad=0; during=0
		while [ $i -lt 4 ]; do
			d0=$(cat /tmp/k-ftrace.done)
			echo 'module ddctl_sites_20000 +p' > $CONTROL
			s1=$(cat /tmp/k-ftrace.started)
			on=$(flags_of_module ddctl_sites_20000 | grep -cx '=p')
			d2=$(cat /tmp/k-ftrace.done)
			echo 'module ddctl_sites_20000 -p' > $CONTROL
			s3=$(cat /tmp/k-ftrace.started)
			off=$(flags_of_module ddctl_sites_20000 | grep -cx '=p')
			[ "$on" -gt 19000 -a "$off" = 0 ] || bad=$((bad + 1))
			[ "$s1" -gt "$d0" ] && during=$((during + 1))
			[ "$s3" -gt "$d2" ] && during=$((during + 1))
			i=$((i + 1))
		done
		rm -f /tmp/k-ftrace
		wait $fpid
		trap - EXIT
		ferr=$(cat /tmp/k-ftrace.err 2>/dev/null)
		fbug=$(dmesg | grep -ciE 'ftrace (bug|failed)|unexpected op')
		# the tracer's view: the functions of the last filter are traced
		nen=$(grep -c 'ddctl_sites_20000' $T/enabled_functions 2>/dev/null)
		echo nop > $T/current_tracer
		echo > $T/set_ftrace_filter
		cur=$(cat $T/current_tracer)
		note "k-ftrace-batch: $i rounds of +p/-p over ddctl_sites_20000, $(cat /tmp/k-ftrace.done) filter writes meanwhile, a write in flight during $during of $((2 * i)) control-file writes"
		check k-ftrace-batch "$bad of $i rounds in the wrong state (last: $on on, $off left on), tracer $cur, $nen functions traced at the end (want $nb), a flip in flight during $during writes, ${ferr:-no flip failed}, $fbug ftrace bug lines" \
			[ $bad = 0 -a "$cur" = nop -a "$nen" = "$nb" -a "$during" -gt 0 -a -z "$ferr" -a "$fbug" = 0 ]
	fi

	# the structured family's own checks: each set is a valid query 1 and
	# a bad query 2, all refused with EINVAL and nothing changed; what the
	# handler refuses names the query ("query 2: "; an empty selector),
	# what the attribute policy refuses (negate bits outside enum
	# dyndbg_match, flag bits outside the valid set, a module name over 63
	# bytes) has the core's message; a value bit outside its selector is
	# refused by 7.2's bitfield32 policy and by 6.12's handler (either);
	# a GET filter with flags is refused too
	reset_all
	long=$(head -c 64 /dev/zero | tr '\0' m)
	ok='module=ddctl_sites_256,flags=p/p'
	nbad=0; nnamed=0; n=0; why=
	for bad in 'module=x,line_min=10,line_max=5,flags=p/p:named' \
		   'negate=1,func=x,flags=p/p:named' \
		   'module=ddctl_sites_256:named' \
		   'module=,flags=p/p:named' \
		   'module=ddctl_sites_256,flags=_/_:named' \
		   'module=ddctl_sites_256,flags=p/_:either' \
		   'module=x,negate=16,flags=p/p:policy' \
		   'module=x,flags=0x80/0x80:policy' \
		   "module=$long,flags=p/p:policy"; do
		n=$((n + 1))
		nlexec -r "$ok" "${bad%:*}" > $OUT/k-invalid-$n.txt 2>&1
		on=$(control | grep -c '\[ddctl_sites_256\].* =p ')
		reset_all
		if ! grep -q '^rc=-22 ' $OUT/k-invalid-$n.txt || [ "$on" != 0 ]; then
			nbad=$((nbad + 1)); why="$why; ${bad%:*}: $on on, $(head -n1 $OUT/k-invalid-$n.txt)"
		elif [ "${bad##*:}" = named ] && ! grep -q '^msg=query 2: ' $OUT/k-invalid-$n.txt; then
			nbad=$((nbad + 1)); why="$why; ${bad%:*}: $(grep msg= $OUT/k-invalid-$n.txt)"
		fi
	done
	nldump -r 'module=ddctl_sites_256,flags=p/p' > /dev/null 2> $OUT/k-invalid-get.err
	grc=$?
	check k-query-invalid "$nbad of $n bad sets not refused as they should be$why; GET with flags: rc=$grc $(head -n1 $OUT/k-invalid-get.err)" \
		eval '[ $nbad = 0 -a $grc = 1 ] && grep -q "Invalid argument" $OUT/k-invalid-get.err'
fi
