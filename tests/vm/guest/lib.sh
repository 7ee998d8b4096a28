# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Helpers for the guest test scripts (sourced; busybox sh).
# Results are TAP-ish lines on the console prefixed with @@DDCTL@@ so the
# host can pick them out of the kernel's own messages:
#   @@DDCTL@@ RESULT ok NAME
#   @@DDCTL@@ RESULT not ok NAME # reason
#   @@DDCTL@@ RESULT skip NAME # reason
CONTROL=/proc/dynamic_debug/control
[ -r $CONTROL ] || CONTROL=/sys/kernel/debug/dynamic_debug/control
MODDIR=/lib/modules/ddctl
OUT=${DDCTL_OUT:-/out}

ok()    { echo "@@DDCTL@@ RESULT ok $1"; }
notok() { echo "@@DDCTL@@ RESULT not ok $1 # $2"; }
skip()  { echo "@@DDCTL@@ RESULT skip $1 # $2"; }
note()  { echo "@@DDCTL@@ NOTE $*"; }
# check NAME REASON-IF-FAILED COMMAND...: ok NAME if COMMAND succeeds.
# COMMAND is one simple command: a compound condition goes inside it
# (eval '[ ... ] && cmp ...', or a function), never after the check, where
# its result would be thrown away (tests/vm/harness-tests/test_guest_checks.py lints it).
# The caller's variables stay as they were for an eval'ed COMMAND.
check() {
	local _check_name="$1" _check_why="$2"
	shift 2
	if "$@"; then ok "$_check_name"; else notok "$_check_name" "$_check_why"; fi
}

has_ddctl() { command -v ddctl >/dev/null 2>&1; }

# is_builtin_module MODULE: MODULE is built into the kernel (the debug kernel has
# test_dynamic_debug built in): /sys/module has it, /proc/modules does not
is_builtin_module() { [ -d /sys/module/$1 ] && ! grep -q "^$1 " /proc/modules; }

# load MODULE [PARAMS...]: insmod from $MODDIR unless loaded already
load() {
	m=$1; shift
	grep -q "^$m " /proc/modules && return 0
	insmod "$MODDIR/$m.ko" "$@"
}

load_std() {
	for m in failover net_failover virtio_net virtio_blk virtio_balloon; do load $m || note "insmod $m failed"; done
	load test_dynamic_debug || note "insmod test_dynamic_debug failed"
}

# wait_until CMD...: until CMD succeeds, at most 30 s (a guard, not a measure)
wait_until() {
	_wu_i=0
	while ! "$@"; do
		_wu_i=$((_wu_i + 1))
		[ $_wu_i -gt 120 ] && return 1
		usleep 250000 2>/dev/null || sleep 0.25 # busybox; coreutils' sleep (the system image)
	done
}

# function-call IPIs summed over the CPU columns: the row is found by its
# text ("CAL: ... Function call interrupts" on x86, "IPI1: ..." on arm64)
ipis() {
	awk 'NR == 1 { n = NF; next }
	     /Function call interrupts/ { s = 0; for (i = 2; i <= n + 1; i++) s += $i; print s }' /proc/interrupts
}

# microseconds since the epoch (busybox date has no %N; adjtimex has usec)
now_us() {
	adjtimex | awk '/tv_sec/ { s = $2 } /tv_usec/ { u = $2 }
		END { printf "%d%06d\n", s, u }'
}

# the control file without its header line
control() { tail -n +2 $CONTROL; }

# flags column of every site of module M, one per line
flags_of_module() { control | awk -v m="[$1]" 'index($2, m) == 1 { print $3 }'; }

# class-restricted sites: " class:NAME" or " class unknown, _id:N"
CLASS_RE=' class(:| unknown)'

# reset every site (including class-restricted ones) to =_
reset_all() {
	echo '=_' > $CONTROL
	for c in $(control | sed -n 's/.* class:\([^ ]*\)$/\1/p' | sort -u); do
		echo "class $c =_" > $CONTROL
	done
}

[ "$1" = load ] && load_std
