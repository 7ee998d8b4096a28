#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Installs what the ddctl VM test suite needs (QEMU, linux-source-6.12, the
# kernel build tools): the "vm" group of tests/deps.sh, which holds the lists.
# Idempotent: a no-op when everything is installed.
exec "$(dirname "$0")/../deps.sh" vm
