#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# tests/deps.sh [--print] [build|vm|pkg ...]
#
# Installs what ddctl needs on a Debian 12 machine, by group:
#   build  compilers, meson, the libraries, cmocka, clang for the fuzzers,
#          bash-completion, zsh and fish for the completion tests
#   vm     the QEMU suite: QEMU, linux-source-6.12 and the kernel build tools,
#          and Linux 7.2's source from Debian unstable (download only, with
#          tests/vm/fetch-source.sh 7.2: the machine's apt sources stay as
#          they are; a no-op when the tarball is there)
#   pkg    the Debian package check (tests/pkg/check-deb.sh)
# Without groups: build, plus vm unless DDCTL_SKIP_VM=1, plus pkg unless
# DDCTL_SKIP_PKG=1. --print lists the packages and installs nothing.
# Idempotent: packages already installed are detected with dpkg -s, and
# apt-get update/install only run when something is missing.
set -euo pipefail

build=(gcc clang libclang-rt-14-dev meson ninja-build pkg-config python3
       libkmod-dev libmnl-dev libreadline-dev libcmocka-dev tmux
       bash-completion zsh fish)
vm=(linux-source-6.12 qemu-system-x86 busybox-static flex bison libelf-dev
    bc cpio libssl-dev python3 meson ninja-build gcc make xz-utils
    util-linux kmod ccache)
pkg=(build-essential debhelper dpkg-dev fakeroot lintian)

print=0
if [ "${1:-}" = --print ]; then
	print=1
	shift
fi
groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
	groups=(build)
	[ "${DDCTL_SKIP_VM:-0}" = 1 ] || groups+=(vm)
	[ "${DDCTL_SKIP_PKG:-0}" = 1 ] || groups+=(pkg)
fi
want=()
for g in "${groups[@]}"; do
	case "$g" in
	build) want+=("${build[@]}") ;;
	vm) want+=("${vm[@]}") ;;
	pkg) want+=("${pkg[@]}") ;;
	*) echo "usage: $0 [--print] [build|vm|pkg ...]" >&2; exit 2 ;;
	esac
done
mapfile -t want < <(printf '%s\n' "${want[@]}" | awk '!seen[$0]++')
if [ $print = 1 ]; then
	printf '%s\n' "${want[@]}"
	exit 0
fi

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
# the 7.2 source is not a package of this machine's suite: fetched (download
# only) from Debian unstable into the kernel build cache
fetch_sources() {
	local g
	for g in "${groups[@]}"; do
		if [ "$g" = vm ] && [ "${DDCTL_SKIP_KSRC72:-0}" != 1 ]; then
			$SUDO "$(dirname "$0")/vm/fetch-source.sh" 7.2 >/dev/null
		fi
	done
}

missing=()
for p in "${want[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps.sh: all dependencies installed (${groups[*]})"
	fetch_sources
	exit 0
fi
echo "deps.sh: installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fetch_sources
