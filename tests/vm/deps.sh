#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what the ddctl VM test suite needs, plus any packages named as
# arguments (tests/deps.sh passes the build and test dependencies).
# Idempotent: packages already
# installed are detected with dpkg -s, and apt-get update/install only run
# when something is missing.
set -euo pipefail
PKGS=(linux-source-6.12 qemu-system-x86 busybox-static flex bison libelf-dev
      bc cpio libssl-dev python3 meson ninja-build gcc make xz-utils
      util-linux kmod ccache
      "$@")
missing=()
for p in "${PKGS[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps.sh: all VM test dependencies installed"
	exit 0
fi
echo "deps.sh: installing: ${missing[*]}"
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
