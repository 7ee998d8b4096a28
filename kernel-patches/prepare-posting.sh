#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kernel-patches/prepare-posting.sh [7.2|6.12] OUTDIR
#
# The patches in kernel-patches/ carry no Signed-off-by: the Developer's
# Certificate of Origin (Documentation/process/submitting-patches.rst) is
# a statement a person makes, so the person who posts a sub-series signs
# it, as its author, when they post it.  This script is that step, and the
# only one that writes a sign-off:
#   - applies the whole series on the pristine tarball of its base (as
#     check-series.sh does), one sub-series after the other;
#   - makes the poster (git config user.name / user.email of the caller,
#     refused when unset or the project's address) the author of each
#     commit and adds their Signed-off-by;
#   - writes each sub-series, with its cover letter's text, as numbered
#     patches under OUTDIR/N-TREE/ (git format-patch --cover-letter), and
#     runs checkpatch.pl --strict on them;
#   - prints the git send-email line for each, in merge order.
# Read each patch before you sign it.  Nothing is sent.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${1:-}
OUT=${2:-}
case $BASE in
6.12) TARBALL=${DDCTL_KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz} ;;
7.2) TARBALL=${DDCTL_KSRC_TARBALL:-${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz} ;;
*) echo "usage: $0 7.2|6.12 OUTDIR" >&2; exit 2 ;;
esac
[ -n "$OUT" ] || { echo "usage: $0 7.2|6.12 OUTDIR" >&2; exit 2; }
die() { echo "prepare-posting: $*" >&2; exit 1; }

name=$(git config user.name || true)
email=$(git config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die "set git config user.name and user.email to your own: you sign the patches"
case $email in
*@example.org | *@example.com | *@localhost) die "'$email' is not a person's address" ;;
esac
[ -f "$TARBALL" ] || die "no $TARBALL (tests/vm/kernels/fetch-source.sh $BASE)"
[ ! -e "$OUT" ] || die "$OUT exists: give a new directory"

SERIES=$HERE/$BASE
W=$(mktemp -d /tmp/ddctl-post-$BASE.XXXXXX)
tar -xf "$TARBALL" -C "$W" --strip-components=1
cd "$W"
git init -q
git add -f .
git -c user.name=base -c user.email=base@localhost commit -q -m "base $BASE"
git tag base

prev=base
for sub in "$SERIES"/[0-9]*-*/; do
	sub=$(basename "$sub")
	for p in "$SERIES/$sub"/0*.patch; do
		case $(basename "$p") in 0000-*) continue ;; esac
		git am -q "$p" || die "$sub/$(basename "$p"): git am failed (in $W)"
		git commit -q --amend --no-edit --reset-author --signoff
	done
	git tag "$sub"
	# the cover letter's subject and text, without the mail headers and
	# the stale shortlog/diffstat that format-patch writes again
	cover=$SERIES/$sub/0000-cover-letter.patch
	subject=$(sed -n 's/^Subject: \[PATCH v3 0\/[0-9]*\] //p' "$cover")
	mkdir -p "$OUT/$sub"
	git format-patch -q --cover-letter --subject-prefix="PATCH v3" \
		-o "$OUT/$sub" "$prev..$sub"
	body=$(awk 'f && (/^-- *$/ || /^[^ ].* \([0-9]+\):$/) {exit} f; /^$/ && !f {f=1}' "$cover")
	python3 - "$OUT/$sub/0000-cover-letter.patch" "$subject" "$body" <<'EOF'
import sys
path, subject, body = sys.argv[1:4]
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject, 1)
text = text.replace("*** BLURB HERE ***", body, 1)
open(path, "w").write(text)
EOF
	scripts/checkpatch.pl --strict -q "$OUT/$sub"/0*.patch ||
		die "$sub: checkpatch.pl --strict is not clean"
	prev=$sub
done

echo "prepare-posting: signed by $name <$email>, written to $OUT; in merge order:"
for d in "$OUT"/*/; do
	echo "  git send-email --to=... $d*.patch   # $(basename "$d"), see its cover letter"
done
rm -rf "$W"
