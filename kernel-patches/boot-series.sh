#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kernel-patches/boot-series.sh [6.12|7.2] [WORKDIR]
#
# Does every patch of a series boot on its own?  On the pristine tarball of
# its base (as check-series.sh), `git am` one patch at a time; after each,
# build the test VM's kernel (tinyconfig + tests/vm/kernels/kconfig.fragment, the
# "patched" kernel of the VM suite) incrementally in one build directory,
# boot it under QEMU with guest/smoke.sh (tests/vm/harness/run-vm.py, 4 vCPUs) and
# print one line per patch. The base itself is booted first, as patch 0.
#   DDCTL_BOOT_FROM=N   boot from patch N on (the earlier ones are applied
#                       and built over, not booted; default 0)
#   DDCTL_DDCTL=PATH    the ddctl binary for the guest (default
#                       build/cli/ddctl)
# Logs: WORKDIR/log-NN/ (console.log of each boot), WORKDIR/build-NN.log.
# x86_64 only. Exit 1 when a patch does not build or its boot fails.
# Takes ~3-6 min per patch on 2 cores (an incremental build plus a boot):
# run it in the background.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
BASE=${1:-6.12}
W=${2:-/tmp/ddctl-boot-$BASE}
case $BASE in
6.12) TARBALL=${DDCTL_KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz} ;;
7.2) TARBALL=${DDCTL_KSRC_TARBALL:-${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz} ;;
*) echo "usage: $0 [6.12|7.2] [WORKDIR]" >&2; exit 2 ;;
esac
SERIES=$HERE/$BASE
# run-vm.py's stock fallback (a hang twice) and build-kselftest.sh: this base
export DDCTL_KBASE=$BASE
FROM=${DDCTL_BOOT_FROM:-0}
DDCTL=${DDCTL_DDCTL:-$REPO/build/cli/ddctl}
JOBS=${JOBS:-$(nproc)}
FRAGMENT=$REPO/tests/vm/kernels/kconfig.fragment
fail=0
say() { echo "boot-series: $*"; }
die() { say "$*"; exit 2; }
[ -r "$TARBALL" ] || die "kernel source $TARBALL not found (tests/vm/kernels/build-kernel.sh says how to get it)"
[ -x "$DDCTL" ] || die "no ddctl at $DDCTL (meson setup build && ninja -C build, or DDCTL_DDCTL=)"
# kconfig asks about an option a patch adds on stdin: never the series
exec </dev/null

rm -rf "$W"; mkdir -p "$W/src" "$W/build" || die "cannot create $W"
tar -xf "$TARBALL" -C "$W/src" --strip-components=1 || die "cannot extract $TARBALL"
cd "$W/src" || exit 2
GIT=(git -c user.name=boot-series -c user.email=boot-series@localhost)
{ "${GIT[@]}" init -q && "${GIT[@]}" add -f . && "${GIT[@]}" commit -q -m base; } || die "git init of the base failed"
MK=(make -C "$W/src" O="$W/build")
# the VM harness's ccache (build-kernel.sh): objects no patch so far
# changes come from the stock and patched kernel builds
if [ "${DDCTL_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-${DDCTL_KCACHE:-/var/cache/ddctl/kernels}/../ccache}
	export CCACHE_BASEDIR=$W CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	MK+=(CC="ccache gcc")
fi
"${MK[@]}" -s tinyconfig >/dev/null || die "make tinyconfig failed"
(cd "$W/build" && "$W/src/scripts/kconfig/merge_config.sh" -m -O "$W/build" .config "$FRAGMENT" >/dev/null) ||
	die "merge_config.sh failed"
"${MK[@]}" -s olddefconfig >/dev/null || die "make olddefconfig failed"
# (build-kernel.sh checks the same: the test kernel's options all survived)
while IFS= read -r l; do
	case $l in CONFIG_*=*) grep -qx "$l" "$W/build/.config" || die "config: $l did not survive olddefconfig" ;; esac
done < "$FRAGMENT"

# missing_results RUNVM-OUTPUT: every check smoke.sh lists has a result
SMOKE_TESTS=$(sed -n 's/^SMOKE_TESTS="\(.*\)"$/\1/p' "$REPO/tests/vm/guest/smoke.sh")
missing_results() {
	local t r=0
	for t in $SMOKE_TESTS; do
		grep -qE "^(ok|not ok|skip) +$t( |\$)" "$1" && continue
		echo "no result for $t" >> "$1"; r=1
	done
	return $r
}

# boot_one NN NAME: build what is applied now, make it a kernel directory
# as build-kernel.sh leaves one (DDCTL_KDIR), boot it with smoke.sh
boot_one() {
	local nn=$1 name=$2 k=$W/kernel t0 m ko built append=
	t0=$(date +%s)
	if ! "${MK[@]}" olddefconfig > "$W/build-$nn.log" 2>&1 ||
	   ! "${MK[@]}" -j"$JOBS" bzImage modules >> "$W/build-$nn.log" 2>&1; then
		say "FAIL $nn $name: build (log $W/build-$nn.log)"; fail=1; return
	fi
	rm -rf "$k"; mkdir -p "$k/modules"
	ln -s "$W/src" "$k/src"; ln -s "$W/build" "$k/build"
	cp "$W/build/arch/x86/boot/bzImage" "$k/"; echo bzImage > "$k/image"
	for m in failover net_failover virtio_net virtio_blk virtio_balloon test_dynamic_debug; do
		ko=$(find "$W/build" -name "$m.ko" | head -n1)
		[ -n "$ko" ] || { say "FAIL $nn $name: module $m.ko was not built"; fail=1; return; }
		cp "$ko" "$k/modules/"
	done
	"${MK[@]}" -s kernelrelease > "$k/kernelrelease"
	touch "$k/ok"
	built=$(( $(date +%s) - t0 ))
	# what the patches so far add: smoke.sh then fails where it would skip
	"${GIT[@]}" log --format=%s | grep -q 'negated match-specs' && append="$append ddctl.negation=1"
	[ -f Documentation/netlink/specs/dyndbg.yaml ] && append="$append ddctl.netlink=1"
	rm -rf "$W/log-$nn"
	if DDCTL_KDIR=$k python3 "$REPO/tests/vm/harness/run-vm.py" --kind patched --script smoke \
		--sizes 256 --timeout 300 --logdir "$W/log-$nn" --ddctl "$DDCTL" \
		--append "${append# }" > "$W/boot-$nn.txt" 2>&1 &&
	   missing_results "$W/boot-$nn.txt"; then
		say "ok   $nn $name: built in $built s; $(grep -c '^ok' "$W/boot-$nn.txt") ok, $(grep -c '^skip' "$W/boot-$nn.txt") skip ($(grep '^skip' "$W/boot-$nn.txt" | awk '{print $2}' | tr '\n' ' '))"
	else
		say "FAIL $nn $name: boot (see $W/boot-$nn.txt)"; sed 's/^/    /' "$W/boot-$nn.txt"; fail=1
	fi
	grep '^note:' "$W/boot-$nn.txt" | sed 's/^/    /'
}

n=0
[ "$FROM" -gt 0 ] || boot_one 00 "$(basename "$TARBALL")"
nseries=$(sed 's/#.*//' "$SERIES/series" | grep -c '[^[:space:]]')
while read -r p <&3; do
	p=${p%%#*}; p=$(echo $p)
	[ -n "$p" ] || continue
	n=$((n + 1))
	if ! "${GIT[@]}" am -q "$SERIES/$p" >/dev/null 2>&1; then
		say "FAIL $p: git am"; "${GIT[@]}" am --abort 2>/dev/null; fail=1; break
	fi
	[ "$n" -ge "$FROM" ] || continue
	boot_one "$(printf %02d $n)" "$p"
done 3< "$SERIES/series"
[ "$n" = "$nseries" ] || { say "FAIL: applied $n of the $nseries patches"; fail=1; }
[ $fail = 0 ] && say "all $nseries patches of $BASE booted" || say "FAILED"
exit $fail
