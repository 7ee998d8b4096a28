#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# mkinitramfs.sh -k KCACHEDIR -o OUT.cpio.gz [-d DDCTL] [-m MOD.ko]... [-s KSELFTESTDIR]
#
# Builds a busybox-static initramfs for the ddctl VM tests containing:
#   /bin/busybox + applet symlinks
#   /bin/ddctl (+ every shared library ldd reports, at the same absolute
#       path, and the ELF interpreter), if DDCTL exists
#       (default: build/cli/ddctl relative to the repository; a static
#       binary is fine too). Without it the initramfs is built anyway and
#       the ddctl-dependent guest tests skip.
#   /lib/modules/ddctl/*.ko  every .ko in KCACHEDIR/modules plus -m ones
#   /ddctl-tests/            tests/vm/guest/* and the query sets
#   /init                    tests/vm/guest/init
#   /kselftest/              the kernel's dynamic debug selftests, as
#       installed by build-kselftest.sh (-s), if given
# /init mounts proc, sys, devtmpfs, debugfs, runs /ddctl-tests/$NAME.sh
# where NAME comes from ddctl.run=NAME on the kernel command line (default:
# an interactive shell on the console), then powers off.

set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
KDIR= OUT= DDCTL=$REPO/build/cli/ddctl
EXTRA=() KSDIR=
while getopts "k:o:d:m:s:" o; do
	case $o in
	k) KDIR=$OPTARG ;;
	o) OUT=$OPTARG ;;
	d) DDCTL=$OPTARG ;;
	m) EXTRA+=("$OPTARG") ;;
	s) KSDIR=$OPTARG ;;
	*) echo "usage: $0 -k KCACHEDIR -o OUT.cpio.gz [-d DDCTL] [-m MOD.ko]..." >&2; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { echo "usage: $0 -k KCACHEDIR -o OUT.cpio.gz [-d DDCTL] [-m MOD.ko]..." >&2; exit 2; }
BB=$(command -v busybox || true)
[ -x /bin/busybox ] && BB=/bin/busybox
[ -n "$BB" ] || { echo "mkinitramfs.sh: busybox not found (apt-get install busybox-static)" >&2; exit 1; }
if ldd "$BB" >/dev/null 2>&1; then
	echo "mkinitramfs.sh: $BB is not static (apt-get install busybox-static)" >&2; exit 1
fi

R=$(mktemp -d /tmp/ddctl-initramfs.XXXXXX)
chmod 755 "$R" # the initramfs root: unprivileged guest users must reach /bin
trap 'rm -rf "$R"' EXIT
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,etc,root,lib/modules/ddctl,ddctl-tests/qsets}
cp "$BB" "$R/bin/busybox"
for a in $("$BB" --list); do
	[ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done

# ddctl and its libraries
if [ -x "$DDCTL" ]; then
	cp "$DDCTL" "$R/bin/ddctl"
	if ldd "$DDCTL" >/dev/null 2>&1; then
		ldd "$DDCTL" | grep -o '/[^ ]*' | sort -u | while read -r lib; do
			[ -e "$lib" ] || continue
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
			# also make it findable without RUNPATH
			mkdir -p "$R/usr/lib"
			[ -e "$R/usr/lib/$(basename "$lib")" ] || cp -L "$lib" "$R/usr/lib/"
		done
		# libddctl.so from the build dir (in case ldd did not list it
		# because it is dlopen()ed or RUNPATH differs)
		bdir=$(cd "$(dirname "$DDCTL")/.." && pwd)
		find "$bdir" -maxdepth 3 -name 'libddctl.so*' \( -type f -o -type l \) 2>/dev/null | while read -r l; do
			cp -L "$l" "$R/usr/lib/"
		done
		mkdir -p "$R/lib64"
		[ -e "$R/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$R/lib64/"
	fi
	echo "LD_LIBRARY_PATH=/usr/lib" > "$R/etc/ddctl-env"
	# the raw netlink client of the kernel-side tests (same libraries)
	nlx=$(dirname "$DDCTL")/../tests/vm/nlexec
	[ -x "$nlx" ] && cp "$nlx" "$R/bin/nlexec"
	[ -x "${nlx%/*}/nldump" ] && cp "${nlx%/*}/nldump" "$R/bin/nldump"
	echo "mkinitramfs.sh: included $DDCTL" >&2
else
	echo "mkinitramfs.sh: note: $DDCTL does not exist; initramfs without ddctl" >&2
fi

# modules
if [ -n "$KDIR" ]; then
	for ko in "$KDIR"/modules/*.ko; do
		[ -e "$ko" ] && cp "$ko" "$R/lib/modules/ddctl/"
	done
	cp "$KDIR/kernelrelease" "$R/etc/kernelrelease" 2>/dev/null || true
fi
for ko in "${EXTRA[@]}"; do cp "$ko" "$R/lib/modules/ddctl/"; done

# the kernel's selftests (static binaries and sh scripts)
if [ -n "$KSDIR" ] && [ -d "$KSDIR/dynamic_debug" ]; then
	mkdir -p "$R/kselftest"
	cp -a "$KSDIR/dynamic_debug" "$KSDIR/kselftest" "$R/kselftest/"
	echo "mkinitramfs.sh: included the selftests of $KSDIR" >&2
fi

# guest scripts and query sets
cp "$HERE"/guest/*.sh "$R/ddctl-tests/"
cp "$REPO/data/ddctl.service.in" "$R/ddctl-tests/" # follow.sh runs its commands
cp "$HERE/guest/init" "$R/init"
chmod +x "$R/init" "$R"/ddctl-tests/*.sh
if [ -f "$HERE/querysets.txt" ]; then
	awk -v dir="$R/ddctl-tests/qsets" '
		/^== / { n++; name = $2; f = sprintf("%s/%03d-%s.q", dir, n, name); printf "" > f; next }
		/^#/ && !f { next }
		f { print >> f }
	' "$HERE/querysets.txt"
fi

(cd "$R" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) | gzip -1 > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkinitramfs.sh: wrote $OUT ($(du -h "$OUT" | cut -f1))" >&2
