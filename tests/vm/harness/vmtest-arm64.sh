#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# vmtest-arm64.sh stock|patched SRCDIR XBUILDDIR [vmtest.py args...]
#
# The arm64 VM suite (meson tests vm-stock-arm64, vm-patched-arm64 with
# -Dvm_arm64=true): cross-builds ddctl, libddctl, nlexec and nldump for
# arm64 in XBUILDDIR (meson setup --cross-file cross/arm64-linux-gnu.ini,
# once; ninja afterwards, so it follows the sources), then runs
# DDCTL_ARCH=arm64 tests/vm/harness/vmtest.py KIND --ddctl XBUILDDIR/cli/ddctl,
# which cross-builds (or reuses) the arm64 kernel and modules and boots
# qemu-system-aarch64 -M virt -cpu cortex-a57 (TCG). Prints TAP; skips
# (1..0 # SKIP why) when the arm64 toolchain or libraries are missing
# (tests/deps.sh arm64 installs them).
set -uo pipefail
KIND=$1 SRC=$2 XB=$3
shift 3
skip() { echo "1..0 # SKIP $*"; exit 0; }
command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (tests/deps.sh arm64)"
command -v qemu-system-aarch64 >/dev/null || skip "no qemu-system-aarch64 (tests/deps.sh arm64)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ ! -f "$XB/build.ninja" ]; then
	if ! meson setup --cross-file "$SRC/cross/arm64-linux-gnu.ini" -Dvm=true \
		"$XB" "$SRC" > "$log" 2>&1; then
		sed 's/^/# /' "$log"
		skip "arm64 cross build: meson setup failed (the :arm64 libraries? tests/deps.sh arm64)"
	fi
fi
if ! ninja -C "$XB" cli/ddctl tests/vm/nlexec tests/vm/nldump > "$log" 2>&1; then
	sed 's/^/# /' "$log"
	echo "1..1"
	echo "not ok 1 - arm64-cross-build # ninja -C $XB failed"
	exit 1
fi
DDCTL_ARCH=arm64 exec "$SRC/tests/vm/harness/vmtest.py" "$KIND" --ddctl "$XB/cli/ddctl" "$@"
