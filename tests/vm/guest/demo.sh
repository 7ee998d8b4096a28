# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Scripted ddctl demo (tests/vm/demo.sh, stdin not a terminal).
# ddctl.demo=set: only the headline set (the stock kernel's half of the
# side by side); otherwise the tour around it too.
# The headline set's numbers go to the host as one line:
#   @@DDCTL@@ DEMO release=R nproc=N keys=K ipis=I check_ipis=C us=U rc=S
# (C: the IPIs of the same set with --check, which writes nothing: the
# noise of ddctl itself and of the idle guest)
. /ddctl-tests/lib.sh
# the console may be a terminal (arm64's ttyAMA0 is): nobody reads a pager
export DDCTL_PAGER=cat
load_std
load ddctl_sites_256
load ddctl_sites_2000
echo
echo "===== ddctl demo on $(uname -r), $(nproc) vCPUs ====="

# run 'COMMAND LINE': print it as a user types it, then run it
run() { echo; echo "\$ $1"; eval "$1"; echo "[exit status $?]"; }

SET='module ddctl_sites_2000 +p; module test_dynamic_debug +p'
if ! has_ddctl; then
	echo "ddctl is not in the initramfs (build it: meson compile -C build)"
	run "head -n 5 $CONTROL"
else
	if [ "$DDCTL_DEMO" != set ]; then
		run 'ddctl list | head -n 8'
		run 'ddctl modules'
		run "ddctl --check set '!module virtio* +p' | tail -n 4"
	fi
	# the IPIs of ddctl itself and of the idle guest: the same set with
	# --check reads as much and writes nothing
	b0=$(ipis)
	ddctl --check set "$SET" > /dev/null 2>&1
	b1=$(ipis)
	echo
	echo "\$ ddctl -v set '$SET'"
	c0=$(ipis)
	t0=$(now_us)
	ddctl -v set "$SET" > /tmp/set.out 2>&1
	rc=$?
	t1=$(now_us)
	c1=$(ipis)
	cat /tmp/set.out
	echo "[exit status $rc]"
	keys=$(sed -n 's/^changed \([0-9]*\) site.*/\1/p' /tmp/set.out)
	echo
	echo "function-call IPIs (the Function call interrupts row of /proc/interrupts: CAL on x86, IPI1 on arm64): before $c0, after $c1: $((c1 - c0)) for the set ($((b1 - b0)) for the same set with --check, which writes nothing)"
	echo "@@DDCTL@@ DEMO release=$(uname -r) nproc=$(nproc) keys=${keys:-0} ipis=$((c1 - c0)) check_ipis=$((b1 - b0)) us=$((t1 - t0)) rc=$rc"
	if [ "$DDCTL_DEMO" != set ]; then
		run 'ddctl list --enabled | head -n 8'
		run "ddctl set 'module ddctl_sites_2000 -p; module test_dynamic_debug -p'"
	fi
fi
echo "===== demo done; powering off ====="
