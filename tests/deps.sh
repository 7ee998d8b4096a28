#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs everything ddctl needs to build and to run every test suite on a
# Debian 12 machine, the QEMU suite's needs included (tests/vm/deps.sh does
# the work). Idempotent: with everything present it costs a second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/vm/deps.sh" gcc clang libclang-rt-14-dev meson ninja-build \
	pkg-config python3 libkmod-dev libmnl-dev libreadline-dev libcmocka-dev \
	tmux
