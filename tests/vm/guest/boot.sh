# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Boot only (for boot-crash statistics): report and power off.
. /ddctl-tests/lib.sh
ok booted
