#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# demo.sh: ddctl's "main job" on a host without dynamic debug.
# Installs the dependencies, builds ddctl (meson, in build/ unless
# DDCTL_BUILD_DIR says otherwise), builds the patched 6.12 kernel (stock if
# kernel-patches/series is missing), an initramfs with ddctl, and boots it
# with -smp 4 in QEMU (TCG):
#   - stdin is a terminal: an interactive busybox shell in the guest with
#     ddctl on PATH (exit the shell to power off; Ctrl-A X kills QEMU);
#   - otherwise: a scripted demo (ddctl list, modules, --check with a
#     negated query, -v set, list --enabled, IPIs before/after), then
#     power off.
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
if [ $UNTIL = boot ] && [ -z "${DDCTL_KDIR:-}" ] &&
	! [ -f "$(DDCTL_DRY_RUN=1 "$HERE/kernels/build-kernel.sh" $KIND 2>/dev/null | tail -n1)/ok" ]; then
	echo "demo: first run: installs packages, builds ddctl and the $ARCH $KIND kernel;"
	echo "demo: $FIRST (the kernel build shows its progress)."
	echo "demo: the kernel is cached in $KCACHE: later runs boot in under a minute."
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
	echo "demo:   [3/5] tests/vm/kernels/build-kernel.sh $KIND (${DDCTL_KDIR:-$(DDCTL_DRY_RUN=1 "$HERE/kernels/build-kernel.sh" $KIND 2>&1 | head -n1)})"
	echo "demo:   [4/5] tests/vm/harness/mkinitramfs.sh into $LOGDIR/work/, [5/5] boot in QEMU with -smp $SMP"
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

echo "demo: [3/5] kernel"
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

echo "demo: [5/5] booting the $KIND kernel ($(cat "$KDIR/kernelrelease")) with -smp $SMP"
if [ "$ARCH" = arm64 ]; then
	QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57) CONSOLE=ttyAMA0
else
	QEMU=(qemu-system-x86_64) CONSOLE=ttyS0
fi
QEMU+=(-accel tcg -smp "$SMP" -m 512 -kernel "$KDIR/$(cat "$KDIR/image" 2>/dev/null || echo bzImage)"
      -initrd "$INITRD" -no-reboot -nic none -display none
      -device virtio-balloon-pci)
if [ -t 0 ]; then
	echo "=================================================================="
	echo " Interactive: a busybox shell in the guest, ddctl on PATH."
	echo " Load the test modules: sh /ddctl-tests/lib.sh load"
	echo " Try: ddctl list | head; ddctl modules; ddctl --check set '!module virtio* +p'"
	echo " 'exit' powers the guest off; Ctrl-A X kills QEMU."
	echo "=================================================================="
	exec "${QEMU[@]}" -serial mon:stdio \
		-append "console=$CONSOLE loglevel=5 panic=-1 ddctl.run=shell ddctl.ncpu=$SMP"
else
	LOG=$LOGDIR/demo-$KIND-$ARCH.console.log
	echo "demo: stdin is not a terminal: scripted demo (serial log: $LOG)"
	t0=$SECONDS
	timeout 600 "${QEMU[@]}" -monitor none -serial stdio \
		-append "console=$CONSOLE loglevel=5 panic=-1 ddctl.run=demo ddctl.ncpu=$SMP" \
		< /dev/null | tee "$LOG" | grep -v '^@@DDCTL@@ BOOTED' | sed -n '/===== ddctl demo/,/===== demo done/p'
	echo "demo: the guest booted, ran the demo and powered off in $((SECONDS - t0)) s"
fi
