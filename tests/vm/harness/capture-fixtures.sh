#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Re-captures tests/fixtures/control-6.12-stock*.txt from a booted stock
# 6.12 guest (see tests/fixtures/README.md).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
LOGDIR=${LOGDIR:-$REPO/build/vm-logs}
"$HERE/run-vm.py" --kind stock --script capture --smp 4 --logdir "$LOGDIR" \
	--ddctl /nonexistent
OUT=$LOGDIR/stock-capture/out
cp "$OUT/control.txt" "$REPO/tests/fixtures/control-6.12-stock.txt"
cp "$OUT/control-enabled.txt" "$REPO/tests/fixtures/control-6.12-stock-enabled.txt"
echo "capture-fixtures.sh: kernel $(cat "$OUT/uname.txt")"
wc -l "$REPO"/tests/fixtures/control-6.12-stock*.txt
