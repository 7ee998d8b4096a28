#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kbuild-progress.sh LOG TOTAL LABEL -- COMMAND [ARG...]
#
# Runs COMMAND (a kernel `make`) with its output in LOG and reports progress
# on stderr: objects compiled (kbuild's "  CC" lines in LOG) of the expected
# TOTAL, a percentage, the elapsed time and an estimate of the time left.
# On a terminal: one line, updated every second. Otherwise: a plain line at
# every 10% and at the end. Exits with COMMAND's status.
# DDCTL_PROGRESS_INTERVAL: seconds between updates (default 1).
set -uo pipefail
[ $# -ge 5 ] && [ "$4" = -- ] || { echo "usage: $0 LOG TOTAL LABEL -- COMMAND [ARG...]" >&2; exit 2; }
log=$1 total=$2 label=$3
shift 4
interval=${DDCTL_PROGRESS_INTERVAL:-1}
tty=0
[ -t 2 ] && tty=1

mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

"$@" >"$log" 2>&1 &
pid=$!
t0=$SECONDS
step=0
while kill -0 "$pid" 2>/dev/null; do
	sleep "$interval"
	done_=$(grep -c '^  CC ' "$log" 2>/dev/null)
	elapsed=$((SECONDS - t0))
	pct=$((done_ * 100 / total))
	[ $pct -le 99 ] || pct=99
	line="$label: $done_/$total objects ($pct%), $(mmss $elapsed) elapsed"
	if [ "$done_" -ge "$total" ]; then
		line="$label: $done_ objects (more than the expected $total), $(mmss $elapsed) elapsed, finishing"
	elif [ "$done_" -gt 0 ] && [ $pct -ge 2 ]; then
		left=$((elapsed * (total - done_) / done_))
		line+=", ~$(mmss $left) left"
	fi
	if [ $tty = 1 ]; then
		printf '\r\033[K%s' "$line" >&2
	elif [ $((pct / 10)) -gt $step ]; then
		step=$((pct / 10))
		echo "$line" >&2
	fi
done
wait "$pid"
rc=$?
[ $tty = 0 ] || printf '\r\033[K' >&2
echo "$label: $(grep -c '^  CC ' "$log") objects compiled in $(mmss $((SECONDS - t0)))$([ $rc = 0 ] || echo ", FAILED (exit $rc)")" >&2
exit $rc
