#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# build-kernel.sh stock|patched|part1|debug|stock-debug
#
# Builds a guest kernel for the ddctl VM tests from a Debian linux-source
# tarball: `make tinyconfig` + tests/vm/kernels/kconfig.fragment (+ the
# kconfig-$ARCH.fragment of a non-x86 target), and for "patched" the series
# in kernel-patches/$BASE/ on top (with kconfig-patched.fragment: its KUnit
# suites); "part1" applies only the entries of
# the series listed in $DDCTL_PART1_PATCHES (default: the RFC's part, the
# first two patches of 1-tip/ and 2-dyndbg/0002-0003: queued static keys,
# sorting, dynamic debug queueing, negation; for the benchmark; the key
# lists exactly the patches applied).
#
# The target is chosen by the environment:
#   DDCTL_KBASE=6.12 (default) | 7.2   the kernel base and its series:
#        6.12  /usr/src/linux-source-6.12.tar.xz (apt-get install
#              linux-source-6.12), kernel-patches/6.12/ (the LTS backport)
#        7.2   $DDCTL_SRCCACHE/linux-source-7.2.tar.xz (fetched from
#              Debian unstable, download only, by fetch-source.sh),
#              kernel-patches/7.2/ (the mainline series)
#   DDCTL_ARCH=x86_64 (default) | arm64 | riscv64 | s390   (cross-built
#        with gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu,
#        gcc-s390x-linux-gnu; each with its kconfig-$ARCH.fragment; the
#        image is arch/arm64/boot/Image, arch/riscv/boot/Image,
#        arch/s390/boot/bzImage; s390 is built, not booted, by the harness)
#   DDCTL_KSRC_TARBALL / DDCTL_KPATCH_DIR override the tarball / series dir.
#   DDCTL_EXTRA_PATCHES="P1 P2"   patches applied after the series (or on
#        the pristine source for stock), e.g. the benchmark's measurement
#        patch tests/vm/bench/textpoke-timing.patch; they are part of the key
#        and the convenience link gets a "+extra" suffix, so such a kernel
#        never stands in for the plain one.
#
# The build lives OUTSIDE the clone, in
#   ${DDCTL_KCACHE:-/var/cache/ddctl/kernels}/<key>/
#       src/        patched or pristine source tree
#       build/      O= build directory (usable for out-of-tree modules)
#       bzImage     the kernel image
#       modules/    virtio_net.ko (+ failover.ko net_failover.ko it needs)
#                   virtio_blk.ko virtio_balloon.ko
#                   test_dynamic_debug.ko
#       info        what went into the key
#       ok          stamp: the build completed
# where <key> = sha256(tarball checksum + fragment + each patch in series).
# A rerun with nothing changed only recomputes the key (seconds) and prints
# the cache path. The last line printed on stdout is always the cache path.
#
# Concurrent invocations for the same key serialise on a flock.
# DDCTL_DRY_RUN=1: check the arguments, compute the key, say whether that
# kernel is cached, print the cache path and stop (nothing is written).

# The whole script is one brace group, so bash parses it completely before
# running it: editing this file while a (10 minute) build runs is safe.
{
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
KIND=${1:-}
BASE=${DDCTL_KBASE:-6.12}
ARCH=${DDCTL_ARCH:-x86_64}
case "$BASE" in
6.12) TARBALL=${DDCTL_KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
      GETSRC="apt-get install linux-source-6.12, or run tests/vm/deps.sh" ;;
7.2)  TARBALL=${DDCTL_KSRC_TARBALL:-${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz}
      GETSRC="run tests/vm/kernels/fetch-source.sh 7.2" ;;
*) echo "build-kernel.sh: DDCTL_KBASE=$BASE: 6.12 or 7.2" >&2; exit 2 ;;
esac
case "$ARCH" in
x86_64) KARCH=x86_64 IMAGE=arch/x86/boot/bzImage CROSS= ;;
arm64)  KARCH=arm64 IMAGE=arch/arm64/boot/Image CROSS=aarch64-linux-gnu- ;;
riscv64) KARCH=riscv IMAGE=arch/riscv/boot/Image CROSS=riscv64-linux-gnu- ;;
s390)   KARCH=s390 IMAGE=arch/s390/boot/bzImage CROSS=s390x-linux-gnu- ;;
*) echo "build-kernel.sh: DDCTL_ARCH=$ARCH: x86_64, arm64, riscv64 or s390" >&2; exit 2 ;;
esac
FRAGMENT=$HERE/kconfig.fragment
ARCH_FRAGMENT=
[ "$ARCH" = x86_64 ] || ARCH_FRAGMENT=$HERE/kconfig-$ARCH.fragment
# "debug": the patched series plus lock debugging (PROVE_LOCKING);
# "stock-debug": the same config without the series (whose crash is it?)
DEBUG_FRAGMENT=$HERE/kconfig-debug.fragment
PATCHED_FRAGMENT=$HERE/kconfig-patched.fragment
PATCHDIR=${DDCTL_KPATCH_DIR:-$REPO/kernel-patches/$BASE}
CACHE=${DDCTL_KCACHE:-/var/cache/ddctl/kernels}
JOBS=${JOBS:-$(nproc)}

die() { echo "build-kernel.sh: error: $*" >&2; exit 1; }
log() { echo "build-kernel.sh: $*" >&2; }

case "$KIND" in
stock|patched|part1|debug|stock-debug) ;;
*) echo "usage: $0 stock|patched|part1|debug|stock-debug" >&2; exit 2 ;;
esac

DRY=${DDCTL_DRY_RUN:-0}
if [ "$DRY" = 1 ] && [ ! -r "$TARBALL" ]; then
	log "dry run: $KIND $BASE $ARCH: kernel source $TARBALL not found ($GETSRC); key unknown"
	echo "$CACHE/unknown"
	exit 0
fi
[ -r "$TARBALL" ] || die "kernel source $TARBALL not found ($GETSRC)"
[ -r "$FRAGMENT" ] || die "config fragment $FRAGMENT not found"
[ -z "$ARCH_FRAGMENT" ] || [ -r "$ARCH_FRAGMENT" ] || die "config fragment $ARCH_FRAGMENT not found"
if [ -n "$CROSS" ] && ! command -v "${CROSS}gcc" >/dev/null; then
	# a dry run checks the arguments; the toolchain is the build's
	[ "${DDCTL_DRY_RUN:-0}" = 1 ] || die "cross compiler ${CROSS}gcc not found (apt-get install gcc-${CROSS%-})"
	log "dry run: cross compiler ${CROSS}gcc not found (apt-get install gcc-${CROSS%-}): a build would stop here"
fi

patches=()
if [ "$KIND" != stock ] && [ "$KIND" != stock-debug ]; then
	[ -f "$PATCHDIR/series" ] || die "no patch series: $PATCHDIR/series does not exist yet (kernel patches not written); only 'stock' can be built"
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
		[ -n "$line" ] || continue
		[ -f "$PATCHDIR/$line" ] || die "patch '$line' listed in $PATCHDIR/series does not exist"
		patches+=("$PATCHDIR/$line")
	done < "$PATCHDIR/series"
	[ ${#patches[@]} -gt 0 ] || die "$PATCHDIR/series lists no patches"
	if [ "$KIND" = part1 ]; then
		want=${DDCTL_PART1_PATCHES:-1-tip/0001-* 1-tip/0002-* 2-dyndbg/0002-* 2-dyndbg/0003-*}
		p1=()
		for p in "${patches[@]}"; do
			for w in $want; do
				# shellcheck disable=SC2053
				[[ ${p#"$PATCHDIR"/} == $w ]] && { p1+=("$p"); break; }
			done
		done
		[ ${#p1[@]} -gt 0 ] && [ ${#p1[@]} -lt ${#patches[@]} ] || die "DDCTL_PART1_PATCHES='$want' selects ${#p1[@]} of the ${#patches[@]} patches"
		patches=("${p1[@]}")
	fi
fi

extras=()
for p in ${DDCTL_EXTRA_PATCHES:-}; do
	[ -f "$p" ] || die "DDCTL_EXTRA_PATCHES: $p does not exist"
	extras+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
done
[ ${#extras[@]} -eq 0 ] || patches+=("${extras[@]}")

[ "$DRY" = 1 ] || mkdir -p "$CACHE"

# Tarball checksum: hashing 150 MB costs ~0.5 s, but cache it by size+mtime
# anyway so a rerun is as cheap as possible.
tb_stat=$(stat -c '%s %Y' "$TARBALL")
tb_sumfile=$CACHE/.tarball-sha256
tb_sum=
if [ -f "$tb_sumfile" ] && [ "$(head -n1 "$tb_sumfile")" = "$TARBALL $tb_stat" ]; then
	tb_sum=$(sed -n 2p "$tb_sumfile")
fi
if [ -z "$tb_sum" ]; then
	tb_sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	[ "$DRY" = 1 ] ||
		{ printf '%s\n%s\n' "$TARBALL $tb_stat" "$tb_sum" > "$tb_sumfile.$$" && mv "$tb_sumfile.$$" "$tb_sumfile"; }
fi

info=$( {
	echo "tarball $(basename "$TARBALL") sha256 $tb_sum"
	echo "fragment sha256 $(sha256sum < "$FRAGMENT" | cut -d' ' -f1)"
	echo "kind $KIND"
	# (the default target adds nothing: keys of 6.12 x86 builds stay valid)
	[ "$BASE" = 6.12 ] || echo "base $BASE"
	[ -z "$ARCH_FRAGMENT" ] || echo "arch $ARCH fragment sha256 $(sha256sum < "$ARCH_FRAGMENT" | cut -d' ' -f1)"
	case $KIND in patched|debug) echo "patched fragment sha256 $(sha256sum < "$PATCHED_FRAGMENT" | cut -d' ' -f1)" ;; esac
	case $KIND in *debug) echo "debug fragment sha256 $(sha256sum < "$DEBUG_FRAGMENT" | cut -d' ' -f1)" ;; esac
	for p in "${patches[@]}"; do
		echo "patch $(basename "$p") sha256 $(sha256sum < "$p" | cut -d' ' -f1)"
	done
} )
key=$(printf '%s\n' "$info" | sha256sum | cut -d' ' -f1)
OUT=$CACHE/$key

if [ "$DRY" = 1 ]; then
	if [ -f "$OUT/ok" ]; then
		log "dry run: $KIND $BASE $ARCH: key $key: cached"
	else
		log "dry run: $KIND $BASE $ARCH: key $key: not built yet (would build it, ${#patches[@]} patches)"
	fi
	echo "$OUT"
	exit 0
fi

if [ -f "$OUT/ok" ]; then
	log "$KIND kernel up to date (cached)"
	echo "$OUT"
	exit 0
fi

mkdir -p "$OUT"
exec 9> "$OUT/.lock"
if ! flock -n 9; then
	log "another build of $KIND ($key) is running; waiting for its lock"
	flock 9
fi
if [ -f "$OUT/ok" ]; then
	log "$KIND kernel built by a concurrent invocation"
	echo "$OUT"
	exit 0
fi

# What a build costs, from the last one of this architecture this cache saw
# (an arm64 cross build takes 3-4 times an x86 one): its time (info) and its
# objects (build.log), for the estimate up front and the progress line.
last=
for stamp in $(ls -td "$CACHE"/*/ok 2>/dev/null); do
	if [ -z "$ARCH_FRAGMENT" ]; then
		grep -q '^arch ' "${stamp%/ok}/info" 2>/dev/null && continue
	else
		grep -q "^arch $ARCH " "${stamp%/ok}/info" 2>/dev/null || continue
	fi
	last=${stamp%/ok}
	break
done
last_secs=
expected=1210   # objects of the stock tinyconfig + fragment build
if [ -n "$last" ]; then
	last_secs=$(sed -n 's/^built in \([0-9]*\) s.*/\1/p' "$last/info" | tail -n1)
	n=$(grep -c '^  CC ' "$last/build.log" 2>/dev/null) && [ "$n" -gt 0 ] && expected=$n
fi
t0=$(date +%s)
log "building $KIND kernel in $OUT (-j$JOBS)"
if [ -n "$last_secs" ]; then
	log "this takes about $(( (last_secs + 59) / 60 )) min (the last kernel build here took $last_secs s); once, then it is cached"
else
	if [ -z "$ARCH_FRAGMENT" ]; then
		log "this takes 6-10 min on 2 cores the first time (less with more cores); once, then it is cached"
	else
		log "this takes 18-35 min on 2 cores the first time (a cross build; less with more cores); once, then it is cached"
	fi
fi
printf '%s\n' "$info" > "$OUT/info"

# Source tree: (re)extract from scratch so a half-applied series never
# survives a failed attempt.
# (A pristine tree left by a failed stock build is reused.)
if [ "$KIND" = stock ] && [ ${#extras[@]} -eq 0 ] && [ -f "$OUT/src/.ddctl-pristine" ]; then
	log "reusing extracted source in $OUT/src"
else
	rm -rf "$OUT/src" "$OUT/src.tmp"
	mkdir -p "$OUT/src.tmp"
	log "extracting $TARBALL"
	tar -xf "$TARBALL" -C "$OUT/src.tmp" --strip-components=1
	[ "$KIND" != stock ] || [ ${#extras[@]} -gt 0 ] || touch "$OUT/src.tmp/.ddctl-pristine"
	mv "$OUT/src.tmp" "$OUT/src"
fi

if [ ${#patches[@]} -gt 0 ]; then
	for p in "${patches[@]}"; do
		log "applying $(basename "$p")"
		if ! patch -d "$OUT/src" -p1 --forward --batch --quiet < "$p" > "$OUT/patch.log" 2>&1; then
			cat "$OUT/patch.log" >&2
			rm -rf "$OUT/src"
			die "patch $(basename "$p") does not apply to $(basename "$TARBALL") (see output above)"
		fi
	done
fi

mkdir -p "$OUT/build"
MK=(make -C "$OUT/src" O="$OUT/build" ARCH=$KARCH)
[ -z "$CROSS" ] || MK+=(CROSS_COMPILE=$CROSS)
# ccache (if installed) makes rebuilds for a new key cheap when most of the
# code is unchanged (e.g. only a commit message in a patch changed, or
# patched vs stock). Paths are made relative to the cache so that the
# <key> directory name does not defeat it.
if [ "${DDCTL_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$(dirname "$CACHE")/ccache}
	export CCACHE_BASEDIR=$CACHE CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	MK+=(CC="ccache ${CROSS}gcc")
	log "using ccache ($CCACHE_DIR)"
fi
"${MK[@]}" -s tinyconfig
fragments=("$FRAGMENT")
case $KIND in patched|debug) fragments+=("$PATCHED_FRAGMENT") ;; esac
[ -z "$ARCH_FRAGMENT" ] || fragments+=("$ARCH_FRAGMENT")
case $KIND in *debug) fragments+=("$DEBUG_FRAGMENT") ;; esac
(cd "$OUT/build" && "$OUT/src/scripts/kconfig/merge_config.sh" -m -O "$OUT/build" "$OUT/build/.config" "${fragments[@]}" >/dev/null)
"${MK[@]}" -s olddefconfig

# Every option in the fragments must have survived olddefconfig. A later
# fragment overrides an earlier one; "# CONFIG_X is not set" in an arch
# fragment drops an option of kconfig.fragment that the arch lacks.
bad=0
while IFS='=' read -r opt want; do
	got=$(grep -E "^$opt=" "$OUT/build/.config" | head -n1 | cut -d= -f2- || true)
	if [ "$got" != "$want" ]; then
		echo "build-kernel.sh: config: $opt wanted ${want:-not set}, got '${got:-is not set}'" >&2
		bad=1
	fi
done < <(cat "${fragments[@]}" | awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { i = index($0, "="); k = substr($0, 1, i - 1); if (!(k in v)) o[n++] = k; v[k] = substr($0, i + 1) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { k = $2; if (!(k in v)) o[n++] = k; v[k] = "" }
	END { for (i = 0; i < n; i++) print o[i] "=" v[o[i]] }')
[ $bad = 0 ] || die "kconfig fragment not fully applied (missing dependencies?); see above"

log "compiling (log: $OUT/build.log)"
if ! "$HERE/kbuild-progress.sh" "$OUT/build.log" "$expected" "build-kernel.sh: compiling $KIND" -- \
	"${MK[@]}" -j"$JOBS" "$(basename "$IMAGE")" modules; then
	tail -n 40 "$OUT/build.log" >&2
	die "kernel build failed; full log in $OUT/build.log"
fi

command -v ccache >/dev/null && [ -n "${CCACHE_DIR:-}" ] && log "ccache: $(ccache -s 2>/dev/null | grep -iE '^ *(hits|cache hit)' | head -1 | tr -s ' ')"
mkdir -p "$OUT/modules"
for m in failover net_failover virtio_net virtio_blk virtio_balloon test_dynamic_debug; do
	ko=$(find "$OUT/build" -name "$m.ko" | head -n1)
	# built in by a fragment (the debug kernel's test_dynamic_debug)
	[ -n "$ko" ] || ! grep -q "/$m\.ko\$" "$OUT/build/modules.builtin" 2>/dev/null || continue
	[ -n "$ko" ] || die "module $m.ko was not built"
	cp "$ko" "$OUT/modules/"
done
cp "$OUT/build/$IMAGE" "$OUT/$(basename "$IMAGE")"
echo "$(basename "$IMAGE")" > "$OUT/image"
"${MK[@]}" -s kernelrelease > "$OUT/kernelrelease"
echo "built in $(( $(date +%s) - t0 )) s on $(date -u +%FT%TZ)" >> "$OUT/info"
touch "$OUT/ok"
# Convenience symlink: latest build of each kind.
link=$KIND
[ "$BASE" = 6.12 ] && [ "$ARCH" = x86_64 ] || link=$KIND-$BASE-$ARCH
[ ${#extras[@]} -eq 0 ] || link=$link+extra
ln -sfn "$key" "$CACHE/$link"
log "done in $(( $(date +%s) - t0 )) s"
echo "$OUT"
exit 0
}
