#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Fails when a symbol of the version script is missing from the man page.
sym=$1 man=$2
missing=0
for s in $(sed -n 's/^[[:space:]]*\(ddctl_[a-z_]*\);$/\1/p' "$sym"); do
	grep -q "^\.BR $s ()" "$man" || { echo "undocumented: $s"; missing=1; }
done
exit $missing
