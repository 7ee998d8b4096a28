#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# demo.sh: ddctl's "main job" on a host without dynamic debug.
# Installs the dependencies, builds ddctl (meson, in build/ unless
# DDCTL_BUILD_DIR says otherwise), builds (or finds cached) the 6.12
# kernels, an initramfs with ddctl, and boots with -smp 4 in QEMU (TCG):
#   - stdin is a terminal: the patched kernel (stock if
#     kernel-patches/6.12/series is missing), an interactive busybox shell
#     in the guest with ddctl on PATH (exit the shell to power off; Ctrl-A X
#     kills QEMU);
#   - otherwise: a scripted demo, side by side: the stock kernel runs
#     ddctl -v set 'module ddctl_sites_2000 +p; module test_dynamic_debug +p',
#     the patched kernel a short tour (ddctl list, modules, --check with a
#     negated query) and the same set, each kernel powers off, and a table
#     compares them (keys, vCPUs, function-call IPIs, the guest's wall
#     time for the set, stock/patched). On arm64 the stock kernel is shown
#     only if it is built already; DDCTL_KERNEL or DDCTL_KDIR boot one
#     kernel. Exit status 1 when a guest had not SMP vCPUs or the set failed.
# Environment: DDCTL_BUILD_DIR (meson build dir, default build/, or
# build-arm64/ for arm64), DDCTL_KERNEL=stock|patched, DDCTL_KDIR (a
# finished kernel build in the cache, instead of building), SMP (default 4),
# LOGDIR, DDCTL_ARCH=arm64 (the arm64 guest: ddctl cross-built with
# cross/arm64-linux-gnu.ini and -Dvm=true, the same build-arm64/ as the
# arm64 section of tests/vm/README.md, the arm64 kernel,
# qemu-system-aarch64 -M virt).
#   demo.sh --build-only   steps 1 and 2 only (dependencies, ddctl and the
#                          VM helpers): what the tools suite's arm64-build
#                          test runs
#   demo.sh --dry-run      (or DDCTL_DRY_RUN=1) says what it would do and
#                          stops; installs, builds and boots nothing
set -euo pipefail
UNTIL=boot DRY=${DDCTL_DRY_RUN:-0}
for a in "$@"; do
	case "$a" in
	--build-only) UNTIL=build ;;
	--dry-run) DRY=1 ;;
	*) echo "usage: demo.sh [--build-only] [--dry-run]" >&2; exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ARCH=${DDCTL_ARCH:-x86_64}
# what a first run costs here (2 cores shared with other builds): the
# packages, ddctl's build and the kernel's; a later run only boots
case "$ARCH" in
x86_64) BUILD=${DDCTL_BUILD_DIR:-$REPO/build} DEPS=(build vm) XFILE=()
	FIRST="about 10-15 minutes on 2 cores: ddctl ~1 min, the x86 kernel 10-15 min" ;;
arm64) BUILD=${DDCTL_BUILD_DIR:-$REPO/build-arm64} DEPS=(build arm64)
       XFILE=(--cross-file "$REPO/cross/arm64-linux-gnu.ini")
       FIRST="about 20-40 minutes on 2 cores: ddctl's cross build under a minute, the arm64 kernel's cross build 18-35 min (18 min measured on 2 cores shared with two other kernel builds), the test modules and the boot under a minute" ;;
*) echo "demo: DDCTL_ARCH=$ARCH: x86_64 or arm64" >&2; exit 2 ;;
esac
[ $UNTIL = build ] && DEPS=(build $([ "$ARCH" = arm64 ] && echo cross))
SMP=${SMP:-4}
LOGDIR=${LOGDIR:-$BUILD/vm-logs}
if [ "$ARCH" = x86_64 ]; then
	SETUP=(meson setup "$BUILD" "$REPO") VMOPT=()
	COMPILE=(meson compile -C "$BUILD")
else
	# -Dvm=true: the VM helpers (tests/vm/nlexec, nldump) are targets only
	# then (as in tests/vm/README.md's arm64 build-arm64)
	SETUP=(meson setup "${XFILE[@]}" -Dvm=true "$BUILD" "$REPO") VMOPT=(-Dvm=true)
	COMPILE=(ninja -C "$BUILD" cli/ddctl tests/vm/nlexec tests/vm/nldump)
fi

KIND=${DDCTL_KERNEL:-patched}   # DDCTL_KERNEL=stock forces the stock kernel
if [ $KIND = patched ] && [ ! -f "$REPO/kernel-patches/${DDCTL_KBASE:-6.12}/series" ]; then
	echo "demo: kernel-patches/${DDCTL_KBASE:-6.12}/series missing: falling back to the STOCK kernel (no batching, no negation in the kernel; ddctl expands negation itself)"
	KIND=stock
fi
KCACHE=${DDCTL_KCACHE:-/var/cache/ddctl/kernels}
# the cache directory of a kernel kind, and whether it is built
kpath() { DDCTL_DRY_RUN=1 "$HERE/kernels/build-kernel.sh" "$1" 2>/dev/null | tail -n1; }
kcached() { [ -f "$(kpath "$1")/ok" ]; }
# the kernels to boot: the scripted demo shows the same set on the stock
# and on the patched kernel side by side; the interactive one (a
# terminal), DDCTL_KERNEL and DDCTL_KDIR boot one kernel
KINDS=($KIND)
if [ ! -t 0 ] && [ -z "${DDCTL_KERNEL:-}" ] && [ -z "${DDCTL_KDIR:-}" ] && [ $KIND = patched ]; then
	if [ "$ARCH" = x86_64 ] || kcached stock; then
		KINDS=(stock patched)
	elif [ $UNTIL = boot ]; then
		echo "demo: the $ARCH stock kernel is not built (DDCTL_ARCH=$ARCH tests/vm/kernels/build-kernel.sh stock builds it): the patched kernel only, no side by side"
	fi
fi
if [ $UNTIL = boot ] && [ -z "${DDCTL_KDIR:-}" ]; then
	missing=()
	for k in "${KINDS[@]}"; do kcached $k || missing+=($k); done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "demo: first run: installs packages, builds ddctl and the $ARCH ${missing[*]} kernel${missing[1]:+s};"
		echo "demo: $FIRST (each kernel build shows its progress)."
		echo "demo: the kernels are cached in $KCACHE: later runs boot in under a minute."
	fi
fi
if [ "$DRY" = 1 ]; then
	echo "demo: dry run ($ARCH, until $UNTIL): would run"
	echo "demo:   [1/5] tests/deps.sh ${DEPS[*]}"
	DDCTL_DRY_RUN=1 "$REPO/tests/deps.sh" "${DEPS[@]}" | sed 's/^/demo:         /'
	if [ ! -f "$BUILD/build.ninja" ]; then
		echo "demo:   [2/5] ${SETUP[*]}"
	else
		echo "demo:   [2/5] (in the existing $BUILD${VMOPT:+, meson configure -Dvm=true if not set})"
	fi
	echo "demo:         ${COMPILE[*]}"
	[ $UNTIL = build ] && exit 0
	for k in "${KINDS[@]}"; do
		echo "demo:   [3/5] tests/vm/kernels/build-kernel.sh $k (${DDCTL_KDIR:-$(DDCTL_DRY_RUN=1 "$HERE/kernels/build-kernel.sh" $k 2>&1 | head -n1)})"
	done
	echo "demo:   [4/5] tests/vm/harness/mkinitramfs.sh into $LOGDIR/work/, [5/5] boot in QEMU with -smp $SMP: ${KINDS[*]}"
	exit 0
fi
echo "demo: [1/5] dependencies"
"$REPO/tests/deps.sh" "${DEPS[@]}"
echo "demo: [2/5] building ddctl in $BUILD"
t0=$SECONDS
if [ ! -f "$BUILD/build.ninja" ]; then
	"${SETUP[@]}"
elif [ ${#VMOPT[@]} -gt 0 ] && ! meson introspect --buildoptions "$BUILD" | python3 -c 'import json, sys
sys.exit(not any(o["name"] == "vm" and o["value"] for o in json.load(sys.stdin)))'; then
	# a build dir set up without the VM helpers (an older demo.sh)
	meson configure "$BUILD" -Dvm=true
fi
"${COMPILE[@]}"
DDCTL=$BUILD/cli/ddctl
[ -x "$DDCTL" ] || echo "demo: warning: $DDCTL was not built; the guest will lack ddctl"
echo "demo: ddctl built in $((SECONDS - t0)) s"
[ $UNTIL = boot ] || exit 0

# prepare KIND: the kernel (KDIR; KIND may fall back to stock), its test
# modules and an initramfs (INITRD)
prepare() {
	echo "demo: [3/5] the $KIND kernel"
	t0=$SECONDS
	if [ -n "${DDCTL_KDIR:-}" ]; then
		# a finished build (as in vmlib.py), e.g. the arm64 kernel of an older series
		[ -e "$DDCTL_KDIR/ok" ] || { echo "demo: DDCTL_KDIR=$DDCTL_KDIR is not a finished build" >&2; exit 1; }
		KDIR=$DDCTL_KDIR
		KIND=$(sed -n 's/^kind //p' "$KDIR/info")
	elif ! KDIR=$("$HERE/kernels/build-kernel.sh" $KIND | tail -n1); then
		if [ $KIND = patched ]; then
			echo "demo: the patched kernel did not build: falling back to the STOCK kernel"
			KIND=stock
			KDIR=$("$HERE/kernels/build-kernel.sh" stock | tail -n1)
		else
			exit 1
		fi
	fi
	echo "demo: kernel ready in $((SECONDS - t0)) s"
	t0=$SECONDS
	for k in 256 2000; do "$HERE/kernels/gen-module.py" --build "$KDIR" $k >/dev/null; done
	echo "demo: test modules ready in $((SECONDS - t0)) s"
	echo "demo: [4/5] initramfs"
	mkdir -p "$LOGDIR/work"
	INITRD=$LOGDIR/work/initramfs-demo-$KIND-$ARCH.cpio.gz
	"$HERE/harness/mkinitramfs.sh" -k "$KDIR" -o "$INITRD" -d "$DDCTL"
	if [ "$ARCH" = arm64 ]; then
		QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57) CONSOLE=ttyAMA0
	else
		QEMU=(qemu-system-x86_64) CONSOLE=ttyS0
	fi
	QEMU+=(-accel tcg -smp "$SMP" -m 512 -kernel "$KDIR/$(cat "$KDIR/image" 2>/dev/null || echo bzImage)"
	      -initrd "$INITRD" -no-reboot -nic none -display none
	      -device virtio-balloon-pci)
}

if [ -t 0 ]; then
	prepare
	echo "demo: [5/5] booting the $KIND kernel ($(cat "$KDIR/kernelrelease")) with -smp $SMP"
	echo "=================================================================="
	echo " Interactive: a busybox shell in the guest, ddctl on PATH."
	echo " Load the test modules: sh /ddctl-tests/lib.sh load"
	echo " Try: ddctl list | head; ddctl modules; ddctl --check set '!module virtio* +p'"
	echo " 'exit' powers the guest off; Ctrl-A X kills QEMU."
	echo "=================================================================="
	exec "${QEMU[@]}" -serial mon:stdio \
		-append "console=$CONSOLE loglevel=5 panic=-1 ddctl.run=shell ddctl.ncpu=$SMP"
fi

# the scripted demo: each kernel in turn (the stock one runs only the
# headline set), then the table of the set's numbers
ROWS=() bad=0
for want in "${KINDS[@]}"; do
	KIND=$want
	prepare
	LOG=$LOGDIR/demo-$KIND-$ARCH.console.log
	echo "demo: [5/5] booting the $KIND kernel ($(cat "$KDIR/kernelrelease")) with -smp $SMP; stdin is not a terminal: scripted demo (serial log: $LOG)"
	what=
	[ ${#KINDS[@]} -gt 1 ] && [ $KIND = stock ] && what=set
	t0=$SECONDS
	timeout 600 "${QEMU[@]}" -monitor none -serial stdio \
		-append "console=$CONSOLE loglevel=5 panic=-1 ddctl.run=demo ddctl.ncpu=$SMP${what:+ ddctl.demo=$what}" \
		< /dev/null > "$LOG" || true
	sed -n '/===== ddctl demo/,/===== demo done/p' "$LOG" | grep -v '^@@DDCTL@@ '
	echo "demo: the guest booted, ran the demo and powered off in $((SECONDS - t0)) s"
	row=$(sed -n 's/^@@DDCTL@@ DEMO //p' "$LOG" | tr -d '\r' | tail -n1)
	if [ -z "$row" ]; then
		echo "demo: the $KIND kernel's demo gave no numbers (see $LOG)" >&2
		bad=1
		continue
	fi
	ROWS+=("kind=$KIND $row")
done

# the table: kernel, keys, vCPUs, IPIs, guest seconds; with both kernels a
# last row of the stock/patched ratios
echo
printf '%s\n' "${ROWS[@]}" | awk -v smp="$SMP" '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
	  n++; name[n] = v["kind"] " " v["release"]; keys[n] = v["keys"]; cpus[n] = v["nproc"]
	  ipi[n] = v["ipis"]; chk[n] = v["check_ipis"]; us[n] = v["us"]; kind[n] = v["kind"]; rc[n] = v["rc"]
	  if (v["nproc"] != smp) badcpu = badcpu " " v["kind"]
	  if (v["rc"] != 0) badrc = badrc " " v["kind"] }
	function grp(x,   s, r) { s = sprintf("%d", x); r = ""
		while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
		return s r }
	END {
	  printf "%-28s %6s %6s %8s %8s %8s\n", "kernel", "keys", "vCPUs", "IPIs", "--check", "guest s"
	  for (i = 1; i <= n; i++) {
		printf "%-28s %6s %6s %8s %8s %8.2f\n", name[i], grp(keys[i]), cpus[i], grp(ipi[i]), grp(chk[i]), us[i] / 1e6
		if (kind[i] == "stock") s = i; else if (kind[i] == "patched") p = i }
	  if (s && p)
		printf "%-28s %6s %6s %7sx %8s %7.1fx\n", "ratio stock/patched", "", "",
		       (ipi[p] > 0 ? grp(int(ipi[s] / ipi[p] + 0.5)) : "-"), "", (us[p] > 0 ? us[s] / us[p] : 0)
	  if (badcpu != "") printf "demo: the guest did not have %d vCPUs:%s\n", smp, badcpu
	  if (badrc != "") printf "demo: the set failed on:%s\n", badrc
	  exit (badcpu != "" || badrc != "") }' || bad=1
echo "keys: the sites the set changed (a static key each); IPIs: function-call IPIs on all"
echo "CPUs while the set ran (/proc/interrupts); --check: the same for the set with --check,"
echo "which writes nothing (ddctl's own and the idle guest's IPIs); guest s: the set's wall time"
exit $bad
