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
# cross/arm64-linux-gnu.ini, the arm64 kernel, qemu-system-aarch64 -M virt).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ARCH=${DDCTL_ARCH:-x86_64}
case "$ARCH" in
x86_64) BUILD=${DDCTL_BUILD_DIR:-$REPO/build} DEPS=(build vm) XFILE=() ;;
arm64) BUILD=${DDCTL_BUILD_DIR:-$REPO/build-arm64} DEPS=(build arm64)
       XFILE=(--cross-file "$REPO/cross/arm64-linux-gnu.ini") ;;
*) echo "demo: DDCTL_ARCH=$ARCH: x86_64 or arm64" >&2; exit 2 ;;
esac
SMP=${SMP:-4}
LOGDIR=${LOGDIR:-$BUILD/vm-logs}

KCACHE=${DDCTL_KCACHE:-/var/cache/ddctl/kernels}
if ! ls "$KCACHE"/*/ok >/dev/null 2>&1; then
	echo "demo: first run: installs packages, builds ddctl and a Linux 6.12 kernel;"
	echo "demo: about 10-15 minutes on 2 cores (the kernel build shows its progress)."
	echo "demo: the kernel is cached in $KCACHE: later runs boot in under a minute."
fi
echo "demo: [1/5] dependencies"
"$REPO/tests/deps.sh" "${DEPS[@]}"
echo "demo: [2/5] building ddctl in $BUILD"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "${XFILE[@]}" "$BUILD" "$REPO"
fi
if [ "$ARCH" = x86_64 ]; then
	meson compile -C "$BUILD"
else
	ninja -C "$BUILD" cli/ddctl tests/vm/nlexec tests/vm/nldump
fi
DDCTL=$BUILD/cli/ddctl
[ -x "$DDCTL" ] || echo "demo: warning: $DDCTL was not built; the guest will lack ddctl"

echo "demo: [3/5] kernel"
KIND=${DDCTL_KERNEL:-patched}   # DDCTL_KERNEL=stock forces the stock kernel
if [ $KIND = patched ] && [ ! -f "$REPO/kernel-patches/${DDCTL_KBASE:-6.12}/series" ]; then
	echo "demo: kernel-patches/${DDCTL_KBASE:-6.12}/series missing: falling back to the STOCK kernel (no batching, no negation in the kernel; ddctl expands negation itself)"
	KIND=stock
fi
if [ -n "${DDCTL_KDIR:-}" ]; then
	# a finished build (as in vmlib.py), e.g. the arm64 kernel of an older series
	[ -e "$DDCTL_KDIR/ok" ] || { echo "demo: DDCTL_KDIR=$DDCTL_KDIR is not a finished build" >&2; exit 1; }
	KDIR=$DDCTL_KDIR
	KIND=$(sed -n 's/^kind //p' "$KDIR/info")
elif ! KDIR=$("$HERE/build-kernel.sh" $KIND | tail -n1); then
	if [ $KIND = patched ]; then
		echo "demo: the patched kernel did not build: falling back to the STOCK kernel"
		KIND=stock
		KDIR=$("$HERE/build-kernel.sh" stock | tail -n1)
	else
		exit 1
	fi
fi
for k in 256 2000; do "$HERE/gen-module.py" --build "$KDIR" $k >/dev/null; done

echo "demo: [4/5] initramfs"
mkdir -p "$LOGDIR/work"
INITRD=$LOGDIR/work/initramfs-demo-$KIND-$ARCH.cpio.gz
"$HERE/mkinitramfs.sh" -k "$KDIR" -o "$INITRD" -d "$DDCTL"

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
	timeout 600 "${QEMU[@]}" -monitor none -serial stdio \
		-append "console=$CONSOLE loglevel=5 panic=-1 ddctl.run=demo ddctl.ncpu=$SMP" \
		< /dev/null | tee "$LOG" | grep -v '^@@DDCTL@@ BOOTED' | sed -n '/===== ddctl demo/,/===== demo done/p'
fi
