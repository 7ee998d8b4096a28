#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# fetch-distro.sh debian-6.1|debian-6.12|debian-7
#
# Debian's own signed kernel image, no build: the newest
# linux-image-6.1.0-*-amd64 of bookworm (+ -updates, -security), the newest
# linux-image-6.12.*+deb12-amd64 of bookworm-backports, or the newest
# linux-image-7.*-amd64 of unstable. Downloaded (never installed) as
# fetch-source.sh does: a throw-away sources list, lists and cache in a
# mktemp directory, `apt-get download`, `dpkg -x` into
# ${DDCTL_DISTROCACHE:-/var/cache/ddctl/distro}/<package>_<version>/, with
# `bzImage`, `kernelrelease`, `package` and `ok` next to the unpacked tree.
# Idempotent: a cached image is reused (DDCTL_DISTRO_REFRESH=1 asks apt for
# a newer one). Last stdout line: the directory. DDCTL_DRY_RUN=1 says what
# it would do.
set -euo pipefail

KIND=${1:-}
case "$KIND" in
debian-6.1)  suites="bookworm bookworm-updates"; sec=1; pat='^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
debian-6.12) suites="bookworm bookworm-updates bookworm-backports"; sec=1; pat='^linux-image-6\.12\.[0-9.]+\+deb12-amd64$' ;;
debian-7)    suites="sid"; sec=0; pat='^linux-image-7\.[0-9.]+(-[0-9]+|\+deb[0-9]+)-amd64$' ;;
*) echo "usage: $0 debian-6.1|debian-6.12|debian-7" >&2; exit 2 ;;
esac
DEST=${DDCTL_DISTROCACHE:-/var/cache/ddctl/distro}
link=$DEST/$KIND
if [ "${DDCTL_DISTRO_REFRESH:-0}" != 1 ] && [ -e "$link/ok" ] && [ -e "$link/modules/.ok" ]; then
	[ "${DDCTL_DRY_RUN:-0}" != 1 ] || echo "fetch-distro.sh: dry run: $link cached" >&2
	readlink -f "$link"
	exit 0
fi
if [ "${DDCTL_DRY_RUN:-0}" = 1 ]; then
	echo "fetch-distro.sh: dry run: would download the newest package matching $pat from $suites into $DEST"
	exit 0
fi
mkdir -p "$DEST"
exec 9>"$DEST/.lock-$KIND"
flock 9

SOURCES=${DDCTL_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
uri=
if [ -r "$SOURCES" ]; then
	uri=$(awk '/^URIs:/{print $2; exit}' "$SOURCES")
fi
[ -n "$uri" ] || uri=http://deb.debian.org/debian

d=$(mktemp -d /tmp/ddctl-fetch-distro.XXXXXX)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/pkg"
for s in $suites; do echo "deb $uri $s main"; done > "$d/sources.list"
[ "$sec" = 0 ] || echo "deb ${uri%/debian}/debian-security bookworm-security main" >> "$d/sources.list"
o=(-o "Dir::Etc::sourcelist=$d/sources.list" -o Dir::Etc::sourceparts=/dev/null
   -o "Dir::State::lists=$d/lists" -o "Dir::Cache=$d/cache"
   -o Dir::State::status=/dev/null -o APT::Sandbox::User=root -q)
echo "fetch-distro.sh: $KIND from $uri ($suites; download only)" >&2
apt-get "${o[@]}" update >&2
# The newest matching image (signed packages are linux-image-*-amd64; the
# -unsigned ones are not matched).
pkg=$(apt-cache "${o[@]}" pkgnames linux-image- | { grep -E "$pat" || true; } | sort -V | tail -1)
[ -n "$pkg" ] || { echo "fetch-distro.sh: no package matches $pat in $suites" >&2; exit 1; }
ver=$(apt-cache "${o[@]}" policy "$pkg" | awk '/Candidate:/{print $2}')
out=$DEST/${pkg}_$ver
if [ ! -e "$out/ok" ]; then
	# Newer images (7.x) are a package of their own depends: the signed
	# vmlinuz in linux-binary-*, the modules in linux-modules-*.
	rel=${pkg#linux-image-}
	pkgs=("$pkg=$ver")
	for extra in "linux-binary-$rel" "linux-modules-$rel"; do
		if apt-cache "${o[@]}" show "$extra=$ver" >/dev/null 2>&1; then
			pkgs+=("$extra=$ver")
		fi
	done
	(cd "$d" && apt-get "${o[@]}" download "${pkgs[@]}" >&2)
	rm -rf "$out.tmp"
	mkdir -p "$out.tmp"
	for deb in "$d"/*.deb; do
		dpkg -x "$deb" "$out.tmp/root"
	done
	# /boot/vmlinuz-REL (6.x), /usr/lib/modules/REL/vmlinuz (7.x)
	vmlinuz=$(ls "$out.tmp"/root/boot/vmlinuz-* "$out.tmp"/root/usr/lib/modules/*/vmlinuz 2>/dev/null | head -1 || true)
	[ -n "$vmlinuz" ] || { echo "fetch-distro.sh: no vmlinuz in ${pkgs[*]}" >&2; exit 1; }
	cp "$vmlinuz" "$out.tmp/bzImage"
	case "$vmlinuz" in
	*/boot/vmlinuz-*) basename "$vmlinuz" | sed 's/^vmlinuz-//' ;;
	*) basename "$(dirname "$vmlinuz")" ;;
	esac > "$out.tmp/kernelrelease"
	printf '%s\n' "${pkgs[@]}" | tr = ' ' > "$out.tmp/package"
	touch "$out.tmp/ok"
	rm -rf "$out"
	mv "$out.tmp" "$out"
fi
# The guest's modules, flat in modules/ (as build-kernel.sh leaves them;
# the guest's depmod finds the order), decompressed, with what they need
# (modules.dep): virtio for the harness, and distro modules with dynamic
# debug callsites that load without hardware (bonding, bridge, dm_mod) or
# probe QEMU's e1000 NIC.
if [ ! -e "$out/modules/.ok" ]; then
	rel=$(cat "$out/kernelrelease")
	mdir=$out/root/lib/modules/$rel
	if [ ! -d "$mdir" ] && [ -d "$out/root/usr/lib/modules/$rel" ]; then
		mkdir -p "$out/root/lib"
		ln -sfn ../usr/lib/modules "$out/root/lib/modules"
	fi
	# the package leaves modules.dep to the installing machine's depmod
	[ -s "$mdir/modules.dep" ] || depmod -b "$out/root" "$rel"
	rm -rf "$out/modules"
	mkdir -p "$out/modules"
	want="virtio_pci virtio_net virtio_balloon virtio_blk bonding bridge dm_mod e1000"
	deps=$(for m in $want; do
		awk -v m="$m" -F: '{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n); gsub(/-/, "_", n) }
			n == m { print $1; print $2 }' "$mdir/modules.dep"
	done | tr ' ' '\n' | grep . | sort -u)
	for f in $deps; do
		case "$f" in
		*.ko.xz) xz -dc "$mdir/$f" > "$out/modules/$(basename "${f%.xz}")" ;;
		*.ko.zst) zstd -qdc "$mdir/$f" > "$out/modules/$(basename "${f%.zst}")" ;;
		*.ko.gz) gzip -dc "$mdir/$f" > "$out/modules/$(basename "${f%.gz}")" ;;
		*) cp "$mdir/$f" "$out/modules/" ;;
		esac
	done
	touch "$out/modules/.ok"
fi
ln -sfn "$(basename "$out")" "$link"
echo "fetch-distro.sh: $pkg $ver -> $out" >&2
echo "$out"
