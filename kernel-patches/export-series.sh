#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kernel-patches/export-series.sh 7.2|6.12 GITDIR REV TREE:N...
#
# Writes a series kept as commits in a kernel git tree back into
# kernel-patches/BASE/: the commits base..REV of GITDIR (a tree whose tag
# `base` is the pristine tarball, as check-series.sh makes it), cut into
# sub-series in merge order by TREE:N (the last N commits before the next
# sub-series), e.g.
#
#   kernel-patches/export-series.sh 7.2 /tmp/k72 v3 1-tip:7 2-dyndbg:9 3-ynl:1 4-netlink:2
#
# Each sub-series' patches are replaced (git format-patch --zero-commit,
# "[PATCH v3 i/N]", also for N = 1); its cover letter keeps its text (the
# lines after its Subject: up to the shortlog), and gets the new count in
# its subject and a new shortlog and diffstat; BASE/series is rewritten.
# A Signed-off-by in a commit is refused (prepare-posting.sh signs).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${1:-}; GIT=${2:-}; REV=${3:-}
[ $# -ge 4 ] && [ -d "$HERE/$BASE" ] || {
	echo "usage: $0 7.2|6.12 GITDIR REV TREE:N..." >&2; exit 2; }
shift 3
DEST=$HERE/$BASE
die() { echo "export-series: $*" >&2; exit 1; }

total=0
for s in "$@"; do total=$((total + ${s#*:})); done
have=$(git -C "$GIT" rev-list --count "base..$REV")
[ "$have" = "$total" ] || die "base..$REV has $have commits, the sub-series add up to $total"
! git -C "$GIT" log --format=%B "base..$REV" | grep -q '^Signed-off-by:' ||
	die "a commit in base..$REV carries a Signed-off-by"

O=$(mktemp -d)
trap 'rm -rf "$O"' EXIT
from=base left=$total
for s in "$@"; do
	tree=${s%%:*} n=${s#*:}
	left=$((left - n))
	to=$(git -C "$GIT" rev-parse "$REV~$left")
	mkdir -p "$DEST/$tree"
	git -C "$GIT" format-patch -q --zero-commit --numbered --cover-letter \
		--subject-prefix="PATCH v3" -o "$O/$tree" "$from..$to"
	cover=$DEST/$tree/0000-cover-letter.patch
	new=$O/$tree/0000-cover-letter.patch
	if [ -f "$cover" ]; then
		# the old letter's header and text, then the new shortlog and stat
		awk -v n="$n" '
			/^Subject: \[PATCH v3 0\/[0-9]+\]/ { sub(/0\/[0-9]+\]/, "0/" n "]") }
			/^[^ ].* \([0-9]+\):$/ { exit }
			{ print }' "$cover" > "$O/head"
		awk 'f { print } /^[^ ].* \([0-9]+\):$/ { f = 1; print }' "$new" > "$O/tail"
		cat "$O/head" "$O/tail" > "$new"
	fi
	find "$DEST/$tree" -name '0[0-9][0-9][0-9]-*.patch' -delete
	cp "$O/$tree"/*.patch "$DEST/$tree/"
	from=$to
done
{
	grep '^#' "$DEST/series" 2>/dev/null || true
	for s in "$@"; do
		(cd "$DEST" && ls "${s%%:*}"/0*.patch | grep -v '/0000-')
	done
} > "$O/series"
cp "$O/series" "$DEST/series"
echo "export-series: $total patches in $DEST ($*)"
