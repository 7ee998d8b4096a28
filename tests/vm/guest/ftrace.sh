# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Text patching stress, on any kernel with the function tracer (the debug
# kernel): tells a crash of the text_poke machinery itself (stock, or TCG)
# apart from one the series causes.
#   ft-limited   the function tracer limited to the functions of an idle
#                module switched on and off 10 x rounds times, nothing else
#   ft-alone     the function tracer switched on and off, nothing else
#   ft-dyndbg    the same while 20,000 dynamic debug sites go on and off
# Each only checks the end state; the host checks the log for Oops/WARNING.
# Rounds: ddctl.ftrace_rounds=N on the kernel command line (default 20).
. /ddctl-tests/lib.sh
load_std
load ddctl_sites_20000 || note "insmod ddctl_sites_20000 failed"
R=$(sed -n 's/.*ddctl\.ftrace_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
R=${R:-20}
T=/sys/kernel/tracing
[ -d $T/options ] || mount -t tracefs tracefs $T 2>/dev/null
note "ftrace.sh: $(grep -c ^processor /proc/cpuinfo) CPUs, $(wc -l < $T/available_filter_functions 2>/dev/null) traceable functions, $R rounds"
if ! grep -qw function $T/available_tracers 2>/dev/null; then
	skip ft-alone "kernel without the function tracer"
	skip ft-dyndbg "kernel without the function tracer"
	exit 0
fi
# the tracer limited to functions nothing calls: it still toggles the
# sched_switch/sched_wakeup tracepoints (hot jump labels) on every switch
echo ':mod:ddctl_sites_20000' > $T/set_ftrace_filter
# switch the tracer on and off $1 times; n: the switches done
switches() {
	n=0
	while [ $n -lt "$1" ]; do
		echo function > $T/current_tracer; echo nop > $T/current_tracer; n=$((n + 1))
	done
}
switches $((R * 10))
check ft-limited "tracer $(cat $T/current_tracer) after $n switches" [ "$(cat $T/current_tracer)" = nop ]
echo > $T/set_ftrace_filter
switches "$R"
check ft-alone "tracer $(cat $T/current_tracer) after $n switches" [ "$(cat $T/current_tracer)" = nop ]

touch /tmp/ft
( n=0; while [ -f /tmp/ft ]; do echo function > $T/current_tracer; echo nop > $T/current_tracer; n=$((n + 1)); done; echo $n > /tmp/ft.n ) &
fpid=$!
i=0; bad=0
while [ $i -lt "$R" ]; do
	echo 'module ddctl_sites_20000 +p' > $CONTROL
	on=$(flags_of_module ddctl_sites_20000 | grep -cx '=p')
	echo 'module ddctl_sites_20000 -p' > $CONTROL
	off=$(flags_of_module ddctl_sites_20000 | grep -cx '=p')
	[ "$on" -gt 19000 -a "$off" = 0 ] || bad=$((bad + 1))
	i=$((i + 1))
done
rm -f /tmp/ft
wait $fpid
note "ft-dyndbg: $i rounds of +p/-p over ddctl_sites_20000, $(cat /tmp/ft.n) tracer switches meanwhile"
check ft-dyndbg "$bad of $i rounds in the wrong state, tracer $(cat $T/current_tracer)" \
	[ $bad = 0 -a "$(cat $T/current_tracer)" = nop ]
