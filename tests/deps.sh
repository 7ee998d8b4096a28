#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs everything ddctl needs to build and to run every test suite on a
# Debian 12 machine. Idempotent: a rerun with everything present costs a
# second (dpkg -s), apt-get runs only when something is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PKGS=(gcc clang libclang-rt-14-dev meson ninja-build pkg-config python3
      libkmod-dev libmnl-dev libreadline-dev libcmocka-dev)
missing=()
for p in "${PKGS[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps.sh: installing: ${missing[*]}"
	SUDO=
	[ "$(id -u)" = 0 ] || SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q
	$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ "${DDCTL_SKIP_VM:-0}" != 1 ]; then
	"$here/vm/deps.sh"
fi
