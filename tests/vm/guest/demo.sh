# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Scripted ddctl demo (tests/vm/demo.sh, stdin not a terminal).
. /ddctl-tests/lib.sh
# the console may be a terminal (arm64's ttyAMA0 is): nobody reads a pager
export DDCTL_PAGER=cat
load_std
load ddctl_sites_256
load ddctl_sites_2000
echo
echo "===== ddctl demo on $(uname -r), $(nproc) vCPUs ====="
ipis() { awk '/Function call interrupts/ { s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; print s }' /proc/interrupts; }
run() { echo; echo "\$ $*"; "$@"; echo "[exit status $?]"; }
if ! has_ddctl; then
	echo "ddctl is not in the initramfs (build it: meson compile -C build)"
	run sh -c "head -n 5 $CONTROL"
else
	run sh -c 'ddctl list | head -n 8'
	run ddctl modules
	run sh -c "ddctl --check set '!module virtio* +p' | tail -n 4"
	before=$(ipis)
	run ddctl -v set 'module ddctl_sites_2000 +p; module test_dynamic_debug +p'
	after=$(ipis)
	run sh -c 'ddctl list --enabled | head -n 8'
	echo
	echo "function-call IPIs (the Function call interrupts row of /proc/interrupts: CAL on x86, IPI1 on arm64): before $before, after $after: $((after - before)) for the set"
	run ddctl set 'module ddctl_sites_2000 -p; module test_dynamic_debug -p'
fi
echo "===== demo done; powering off ====="
