#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# build-kselftest.sh KDIR
#
# Builds the kernel's own dynamic debug selftests
# (tools/testing/selftests/dynamic_debug/, added by the series) statically
# linked for the busybox guest, and installs them kselftest-style:
#   OUT/dynamic_debug/{negation.sh,transaction.sh,dyndbg_lib.sh,dyndbg_nl}
#   OUT/kselftest/ktap_helpers.sh
# The last line on stdout is OUT.
#
# KDIR is a kernel cache dir (build-kernel.sh). The source is KDIR/src,
# never written to: tools/, scripts/, Documentation/netlink/,
# include/uapi/ and MAINTAINERS are copied to a scratch tree, and the
# uapi headers are installed with `make -C KDIR/src O=scratch headers`. When KDIR/src has
# no selftests (the stock kernel), the new files of the series
# (the selftests, the YNL spec and uapi header of the netlink family) are
# applied to the scratch tree with `git apply --include`, so stock and
# patched guests run the same binaries. $DDCTL_KSELFTEST_SRC overrides
# the source of the selftest directory itself (a kernel tree being
# edited, e.g. /tmp/k612ks).
#
# Cached by content in ${DDCTL_KSCACHE:-/var/cache/ddctl/kselftest}/<key>/,
# key = sha256 of the selftest, YNL and spec/uapi files that go in.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
KDIR=${1:?usage: build-kselftest.sh KDIR}
SRC=$KDIR/src
BASE=${DDCTL_KBASE:-6.12}
PATCHDIR=${DDCTL_KPATCH_DIR:-$REPO/kernel-patches/$BASE}
KSCACHE=${DDCTL_KSCACHE:-/var/cache/ddctl/kselftest}
ST=tools/testing/selftests/dynamic_debug
case "${DDCTL_ARCH:-x86_64}" in
x86_64) CC="gcc -static" KARCH=x86 ;;
arm64) CC="aarch64-linux-gnu-gcc -static" KARCH=arm64 ;;
riscv64) CC="riscv64-linux-gnu-gcc -static" KARCH=riscv ;;
esac
[ -d "$SRC" ] || { echo "build-kselftest.sh: $SRC: no kernel source" >&2; exit 1; }

W=$(mktemp -d /tmp/ddctl-kselftest.XXXXXX)
trap 'rm -rf "$W"' EXIT
T=$W/tree
mkdir -p "$T/scripts" "$T/Documentation" "$T/include"
cp -a "$SRC/tools" "$T/"
cp -a "$SRC/scripts/subarch.include" "$T/scripts/"
cp -a "$SRC/Documentation/netlink" "$T/Documentation/"
cp -a "$SRC/include/uapi" "$T/include/"
cp -a "$SRC/MAINTAINERS" "$T/" # ynl-gen-c.py finds the tree's root by it (and loops without)
if [ ! -d "$T/$ST" ]; then
	# stock (or a series without the selftests applied): only the new
	# files of the series that the tree lacks
	[ -f "$PATCHDIR/series" ] || { echo "build-kselftest.sh: no $PATCHDIR/series" >&2; exit 1; }
	# (+ the YNL generator's and schema's support for the spec's
	# mcast-group flags, the series' ynl-gen patch: without them the
	# generator (6.12: ynl-gen-c.py, 7.2: pyynl/ynl_gen_c.py) rejects
	# 'sys-admin-perm')
	inc=(--include="$ST/*" --include=tools/net/ynl/ynl-gen-c.py
	     --include=tools/net/ynl/pyynl/ynl_gen_c.py
	     --include=Documentation/netlink/genetlink.yaml)
	for f in Documentation/netlink/specs/dyndbg.yaml include/uapi/linux/dyndbg.h; do
		[ -e "$T/$f" ] || inc+=(--include="$f")
	done
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		(cd "$T" && git apply "${inc[@]}" "$PATCHDIR/$p")
	done < "$PATCHDIR/series"
fi
if [ -n "${DDCTL_KSELFTEST_SRC:-}" ]; then
	rm -rf "${T:?}/$ST"
	cp -a "$DDCTL_KSELFTEST_SRC/$ST" "$T/$ST"
	for f in Documentation/netlink/specs/dyndbg.yaml include/uapi/linux/dyndbg.h; do
		cp "$DDCTL_KSELFTEST_SRC/$f" "$T/$f"
	done
fi
[ -d "$T/$ST" ] || { echo "build-kselftest.sh: no $ST in the source or the series" >&2; exit 1; }

key=$( (cd "$T" && find "$ST" tools/net/ynl tools/testing/selftests/kselftest \
	tools/testing/selftests/lib.mk tools/testing/selftests/kselftest.h \
	tools/testing/selftests/net/ynl.mk \
	Documentation/netlink/specs/dyndbg.yaml include/uapi/linux/dyndbg.h \
	Documentation/netlink/genetlink.yaml \
	-type f -print0 | sort -z | xargs -0 sha256sum; echo "$CC") | sha256sum | cut -c1-32)
OUT=$KSCACHE/$key
if [ -f "$OUT/ok" ]; then
	echo "$OUT"
	exit 0
fi

# uapi headers (linux/dyndbg.h among them), out of the source tree
make -s -C "$SRC" O="$W/hdr" ARCH=$KARCH headers >"$W/hdr.log" 2>&1 ||
	{ tail -5 "$W/hdr.log" >&2; echo "build-kselftest.sh: make headers failed" >&2; exit 1; }
mkdir -p "$W/hdr/usr/include/linux"
cp "$T/include/uapi/linux/dyndbg.h" "$W/hdr/usr/include/linux/"

mkdir -p "$W/out" "$OUT.tmp"
rm -rf "${OUT:?}.tmp"/*
if ! nice make -C "$T/$ST" CC="$CC" KHDR_INCLUDES="-isystem $W/hdr/usr/include" \
	OUTPUT="$W/out" all >"$W/build.log" 2>&1; then
	grep -v '^-e' "$W/build.log" | tail -20 >&2
	echo "build-kselftest.sh: building $ST failed" >&2
	exit 1
fi
# lib.mk's install needs rsync; the same files by hand
mkdir -p "$OUT.tmp/kselftest" "$OUT.tmp/dynamic_debug"
cp -a "$T/$ST"/*.sh "$W/out/dyndbg_nl" "$OUT.tmp/dynamic_debug/"
cp "$T/tools/testing/selftests/kselftest/ktap_helpers.sh" "$OUT.tmp/kselftest/"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
touch "$OUT/ok"
echo "build-kselftest.sh: built $ST into $OUT" >&2
echo "$OUT"
