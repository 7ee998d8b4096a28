#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# mkinitramfs.sh -k KCACHEDIR -o OUT.cpio.gz [-d DDCTL] [-m MOD.ko]... [-s KSELFTESTDIR]
#
# DDCTL_ARCH=arm64: an arm64 initramfs (the arm64 busybox-static, a
# cross-built DDCTL and its libraries from /usr/lib/aarch64-linux-gnu).
# DDCTL_ARCH=riscv64: the same with the riscv64 busybox-static (Debian
# unstable's, unpacked by tests/deps.sh riscv64) and riscv64-linux-gnu.
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
REPO=$(cd "$HERE/../../.." && pwd)
GUEST=$(cd "$HERE/../guest" && pwd)
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
ARCH=${DDCTL_ARCH:-x86_64}
BB=$(command -v busybox || true)
[ -x /bin/busybox ] && BB=/bin/busybox
[ -n "$BB" ] || { echo "mkinitramfs.sh: busybox not found (apt-get install busybox-static)" >&2; exit 1; }
if ldd "$BB" >/dev/null 2>&1; then
	echo "mkinitramfs.sh: $BB is not static (apt-get install busybox-static)" >&2; exit 1
fi
# The host's busybox lists the applets (it cannot run an arm64 one); the
# guest gets the busybox of its architecture.
BB_LIST=$BB
case "$ARCH" in
x86_64) ELF_MACHINE='X86-64' MULTIARCH=x86_64-linux-gnu ;;
arm64)
	ELF_MACHINE=AArch64 MULTIARCH=aarch64-linux-gnu
	# busybox-static:arm64, unpacked (not installed: it would replace
	# the host's busybox) by tests/deps.sh arm64 into
	BB=${DDCTL_BUSYBOX_ARM64:-/var/cache/ddctl/busybox-arm64/root/bin/busybox}
	[ -x "$BB" ] || { echo "mkinitramfs.sh: arm64 busybox $BB not found (run tests/deps.sh arm64)" >&2; exit 1; }
	;;
riscv64)
	ELF_MACHINE=RISC-V MULTIARCH=riscv64-linux-gnu
	# busybox-static:riscv64 of Debian unstable (riscv64 is no release
	# architecture of Debian 12), unpacked by tests/deps.sh riscv64 into
	# (merged /usr: usr/bin/busybox)
	BB=${DDCTL_BUSYBOX_RISCV64:-/var/cache/ddctl/busybox-riscv64/root/usr/bin/busybox}
	[ -x "$BB" ] || { echo "mkinitramfs.sh: riscv64 busybox $BB not found (run tests/deps.sh riscv64)" >&2; exit 1; }
	;;
*) echo "mkinitramfs.sh: DDCTL_ARCH=$ARCH: x86_64, arm64 or riscv64" >&2; exit 2 ;;
esac
# elf_machine FILE: "AArch64", "Advanced Micro Devices X86-64", ...
elf_machine() { LC_ALL=C readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
# The shared libraries FILE... need, recursively (DT_NEEDED, resolved in
# $LIBDIRS), one path a line: ldd cannot run a foreign binary.
needed_libs() {
	local todo=("$@") seen=" " f n d
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		for n in $(LC_ALL=C readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case "$seen" in *" $n "*) continue ;; esac
			seen="$seen$n "
			for d in $LIBDIRS; do
				if [ -e "$d/$n" ]; then
					echo "$d/$n"
					todo+=("$d/$n")
					break
				fi
			done
		done
	done
}

R=$(mktemp -d /tmp/ddctl-initramfs.XXXXXX)
chmod 755 "$R" # the initramfs root: unprivileged guest users must reach /bin
trap 'rm -rf "$R"' EXIT
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,etc,root,lib/modules/ddctl,ddctl-tests/qsets}
cp "$BB" "$R/bin/busybox"
for a in $("$BB_LIST" --list); do
	[ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done

# ddctl and its libraries
if [ -x "$DDCTL" ] && [ -n "$(elf_machine "$DDCTL")" ] && ! elf_machine "$DDCTL" | grep -q "$ELF_MACHINE"; then
	echo "mkinitramfs.sh: $DDCTL is built for $(elf_machine "$DDCTL"), not $ARCH (for arm64: a cross build, see cross/arm64-linux-gnu.ini)" >&2
	exit 1
fi
if [ -x "$DDCTL" ] && [ "$ARCH" != x86_64 ]; then
	cp "$DDCTL" "$R/bin/ddctl"
	bdir=$(cd "$(dirname "$DDCTL")/.." && pwd)
	LIBDIRS="$bdir/libddctl /lib/$MULTIARCH /usr/lib/$MULTIARCH"
	mkdir -p "$R/usr/lib"
	bins=("$DDCTL")
	for b in "$bdir/tests/vm/nlexec" "$bdir/tests/vm/nldump"; do
		[ -x "$b" ] && bins+=("$b")
	done
	needed_libs "${bins[@]}" | while read -r lib; do
		cp -L "$lib" "$R/usr/lib/"
	done
	# the ELF interpreter, at the path the binary asks for
	interp=$(LC_ALL=C readelf -l "$DDCTL" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
	mkdir -p "$R$(dirname "$interp")"
	cp -L "$interp" "$R$interp"
	echo "LD_LIBRARY_PATH=/usr/lib" > "$R/etc/ddctl-env"
	for b in "${bins[@]:1}"; do cp "$b" "$R/bin/"; done
	echo "mkinitramfs.sh: included $DDCTL ($ARCH)" >&2
elif [ -x "$DDCTL" ]; then
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
	# kmod's modprobe and depmod (busybox's read no /run/modprobe.d and
	# write no modules.dep.bin, which libkmod needs for a module's path):
	# /kmod/bin, for the checks of modules loaded during a session
	if kmod=$(command -v kmod) && ldd "$kmod" >/dev/null 2>&1; then
		cp -L "$kmod" "$R/usr/bin/kmod"
		ldd "$kmod" | grep -o '/[^ ]*' | sort -u | while read -r lib; do
			if [ -e "$lib" ] && [ ! -e "$R/usr/lib/$(basename "$lib")" ]; then
				cp -L "$lib" "$R/usr/lib/"
			fi
		done
		mkdir -p "$R/kmod/bin"
		ln -s /usr/bin/kmod "$R/kmod/bin/modprobe"
		ln -s /usr/bin/kmod "$R/kmod/bin/depmod"
	fi
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
# a copy of ddctl_sites_256 whose sites are on by default (as if built
# with DEBUG), under a name of its own: reset's check of a module loaded
# after the boot snapshot
if [ -e "$R/lib/modules/ddctl/ddctl_sites_256.ko" ] && [ "$ARCH" = x86_64 ]; then
	python3 "$REPO/tests/vm/harness/default-on-module.py" "$R/lib/modules/ddctl/ddctl_sites_256.ko" \
		ddctl_sites_256 ddctl_deflt_256 256 "$R/lib/modules/ddctl/ddctl_deflt_256.ko" ||
		echo "mkinitramfs.sh: note: no default-on copy of ddctl_sites_256" >&2
fi

# the kernel's selftests (static binaries and sh scripts)
if [ -n "$KSDIR" ] && [ -d "$KSDIR/dynamic_debug" ]; then
	mkdir -p "$R/kselftest"
	cp -a "$KSDIR/dynamic_debug" "$KSDIR/kselftest" "$R/kselftest/"
	echo "mkinitramfs.sh: included the selftests of $KSDIR" >&2
fi

# guest scripts and query sets
cp "$GUEST"/*.sh "$R/ddctl-tests/"
cp "$REPO/data/ddctl.service.in" "$R/ddctl-tests/" # follow.sh runs its commands
cp "$GUEST/init" "$R/init"
chmod +x "$R/init" "$R"/ddctl-tests/*.sh
if [ -f "$GUEST/querysets.txt" ]; then
	awk -v dir="$R/ddctl-tests/qsets" '
		/^== / { n++; name = $2; f = sprintf("%s/%03d-%s.q", dir, n, name); printf "" > f; next }
		/^#/ && !f { next }
		f { print >> f }
	' "$GUEST/querysets.txt"
fi

(cd "$R" && find . -print0 | cpio --null -o -H newc --quiet -R 0:0) | gzip -1 > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkinitramfs.sh: wrote $OUT ($(du -h "$OUT" | cut -f1))" >&2
