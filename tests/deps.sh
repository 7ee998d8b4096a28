#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# tests/deps.sh [--print|--missing] [build|cross|vm|pkg|arm64|riscv64|s390 ...]
#
# Installs what ddctl needs on a Debian 12 machine, by group:
#   build  compilers, meson, the libraries, cmocka, clang for the fuzzers,
#          bash-completion, zsh and fish for the completion tests
#   vm     the QEMU suite: QEMU, linux-source-6.12 and the kernel build tools,
#          mmdebstrap and mkfs.ext4 for the Debian system image (its .debs
#          need the pkg group),
#          and Linux 7.2's source from Debian unstable (download only, with
#          tests/vm/kernels/fetch-source.sh 7.2: the machine's apt sources stay as
#          they are; a no-op when the tarball is there)
#   cross  the arm64 cross build of ddctl, libddctl and the VM helpers (the
#          tools suite's arm64-build test): gcc-aarch64-linux-gnu and the
#          :arm64 libraries (dpkg --add-architecture arm64 first)
#   pkg    the Debian package check (tests/pkg/check-deb.sh)
#   arm64  the arm64 VM suite (vm + cross, qemu-system-arm,
#          busybox-static:arm64 unpacked into /var/cache/ddctl/busybox-arm64);
#          not in the default groups
#   riscv64  the riscv64 guest kernels and their boot (DDCTL_ARCH=riscv64:
#          vm + gcc-riscv64-linux-gnu, qemu-system-misc, opensbi, and
#          busybox-static:riscv64 of Debian unstable, downloaded with a
#          throw-away sources list as fetch-source.sh does, unpacked into
#          /var/cache/ddctl/busybox-riscv64: riscv64 is no release
#          architecture of Debian 12); not in the default groups
#   s390   the s390 kernels' build coverage (DDCTL_ARCH=s390: vm +
#          gcc-s390x-linux-gnu); not in the default groups
# Without groups: build, plus cross unless DDCTL_SKIP_CROSS=1, plus vm
# unless DDCTL_SKIP_VM=1, plus pkg unless DDCTL_SKIP_PKG=1.
# --print lists the packages and installs nothing; --missing lists only
# those not installed (nothing when all are); DDCTL_DRY_RUN=1 says what it
# would install and installs nothing.
# Idempotent: packages already installed are detected with dpkg -s, and
# apt-get update/install only run when something is missing.
set -euo pipefail

build=(gcc clang libclang-rt-14-dev meson ninja-build pkg-config python3
       libkmod-dev liblzma-dev libmnl-dev libreadline-dev libcmocka-dev tmux
       bash-completion zsh fish)
vm=(linux-source-6.12 qemu-system-x86 busybox-static flex bison libelf-dev
    bc cpio libssl-dev python3 meson ninja-build gcc make xz-utils
    util-linux kmod ccache
    mmdebstrap e2fsprogs)
pkg=(build-essential debhelper dpkg-dev fakeroot lintian)
# the arm64 cross build: the cross compiler and the :arm64 libraries ddctl
# links (Debian multiarch; the architecture is added first)
cross=(gcc-aarch64-linux-gnu libc6-dev:arm64 libkmod-dev:arm64
       libmnl-dev:arm64 libreadline-dev:arm64 libcmocka-dev:arm64)
# the arm64 VM suite (meson -Dvm_arm64=true): the cross build and QEMU for
# aarch64; busybox-static:arm64 is downloaded and unpacked into
# $DDCTL_BUSYBOX_DIR, not installed (it would replace the host's busybox)
arm64=(qemu-system-arm)
BUSYBOX_DIR=${DDCTL_BUSYBOX_DIR:-/var/cache/ddctl/busybox-arm64}
# riscv64 and s390 (DDCTL_ARCH=riscv64|s390 build-kernel.sh; riscv64 guests
# boot in qemu-system-riscv64 -M virt, which qemu-system-misc has)
riscv64=(gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-system-misc opensbi
         device-tree-compiler)
BUSYBOX_RV_DIR=${DDCTL_BUSYBOX_RISCV64_DIR:-/var/cache/ddctl/busybox-riscv64}
s390=(gcc-s390x-linux-gnu)

print=0
case "${1:-}" in
--print) print=1; shift ;;
--missing) print=missing; shift ;;
esac
[ "${DDCTL_DRY_RUN:-0}" != 1 ] || [ $print != 0 ] || print=dry
groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
	groups=(build)
	[ "${DDCTL_SKIP_CROSS:-0}" = 1 ] || groups+=(cross)
	[ "${DDCTL_SKIP_VM:-0}" = 1 ] || groups+=(vm)
	[ "${DDCTL_SKIP_PKG:-0}" = 1 ] || groups+=(pkg)
fi
want=()
for g in "${groups[@]}"; do
	case "$g" in
	build) want+=("${build[@]}") ;;
	cross) want+=("${cross[@]}") ;;
	vm) want+=("${vm[@]}") ;;
	pkg) want+=("${pkg[@]}") ;;
	arm64) want+=("${vm[@]}" "${cross[@]}" "${arm64[@]}") ;;
	riscv64) want+=("${vm[@]}" "${riscv64[@]}") ;;
	s390) want+=("${vm[@]}" "${s390[@]}") ;;
	*) echo "usage: $0 [--print|--missing] [build|cross|vm|pkg|arm64|riscv64|s390 ...]" >&2; exit 2 ;;
	esac
done
mapfile -t want < <(printf '%s\n' "${want[@]}" | awk '!seen[$0]++')
if [ $print = 1 ]; then
	printf '%s\n' "${want[@]}"
	exit 0
fi

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
FETCH=$(dirname "$0")/vm/kernels/fetch-source.sh
# the 7.2 source is not a package of this machine's suite: fetched (download
# only) from Debian unstable into the kernel build cache
fetch_sources() {
	local g
	for g in "${groups[@]}"; do
		if [ "$g" = vm ] && [ "${DDCTL_SKIP_KSRC72:-0}" != 1 ]; then
			$SUDO "$FETCH" 7.2 >/dev/null
		fi
	done
}

export DEBIAN_FRONTEND=noninteractive
want_arm64=0
case " ${groups[*]} " in *" arm64 "*|*" cross "*) want_arm64=1 ;; esac
want_busybox=0
case " ${groups[*]} " in *" arm64 "*) want_busybox=1 ;; esac
# (with :arm64 libraries installed, an unqualified name that has both
# instances is "ambiguous" to dpkg -s: then ask for the native one)
native=$(dpkg --print-architecture)
missing=()
for p in "${want[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$native" >/dev/null 2>&1 ||
		missing+=("$p")
done
if [ $print = missing ]; then
	[ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
	exit 0
fi
if [ $print = dry ]; then
	echo "deps.sh: dry run: groups ${groups[*]}: ${#want[@]} packages, would install: ${missing[*]:-nothing}"
	case " ${groups[*]} " in *" vm "*)
		[ -x "$FETCH" ] || { echo "deps.sh: $FETCH is missing" >&2; exit 1; }
		echo "deps.sh: dry run: would run $FETCH 7.2" ;;
	esac
	exit 0
fi
updated=0
if [ $want_arm64 = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps.sh: dpkg --add-architecture arm64"
	$SUDO dpkg --add-architecture arm64
	$SUDO apt-get update -q
	updated=1
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps.sh: installing: ${missing[*]}"
	[ $updated = 1 ] || $SUDO apt-get update -q
	$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ $want_busybox = 1 ] && [ ! -x "$BUSYBOX_DIR/root/bin/busybox" ]; then
	echo "deps.sh: busybox-static:arm64 -> $BUSYBOX_DIR (downloaded, not installed)"
	$SUDO mkdir -p "$BUSYBOX_DIR"
	(cd "$BUSYBOX_DIR" && $SUDO apt-get download -q busybox-static:arm64 &&
	 $SUDO dpkg -x busybox-static_*_arm64.deb root)
	missing+=(busybox-static:arm64)
fi
if [[ " ${groups[*]} " == *" riscv64 "* ]] && [ ! -x "$BUSYBOX_RV_DIR/root/usr/bin/busybox" ]; then
	echo "deps.sh: busybox-static:riscv64 (Debian unstable) -> $BUSYBOX_RV_DIR (downloaded, not installed)"
	uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	d=$(mktemp -d /tmp/ddctl-busybox-rv.XXXXXX)
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	echo "deb [arch=riscv64] $uri sid main" > "$d/sources.list"
	o=(-o "Dir::Etc::sourcelist=$d/sources.list" -o Dir::Etc::sourceparts=/dev/null
	   -o "Dir::State::lists=$d/lists" -o "Dir::Cache=$d/cache"
	   -o Dir::State::status=/dev/null -o APT::Sandbox::User=root
	   -o APT::Architecture=riscv64 -o APT::Architectures::=riscv64 -q)
	$SUDO apt-get "${o[@]}" update >/dev/null
	(cd "$d" && $SUDO apt-get "${o[@]}" download busybox-static:riscv64)
	$SUDO mkdir -p "$BUSYBOX_RV_DIR"
	$SUDO cp "$d"/busybox-static_*_riscv64.deb "$BUSYBOX_RV_DIR/"
	$SUDO rm -rf "$d"
	(cd "$BUSYBOX_RV_DIR" && $SUDO dpkg -x busybox-static_*_riscv64.deb root)
	missing+=(busybox-static:riscv64)
fi
fetch_sources
[ ${#missing[@]} -gt 0 ] || echo "deps.sh: all dependencies installed (${groups[*]})"
