#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# fetch-source.sh 7.2
#
# Puts Debian unstable's linux-source-7.2 tarball at
# ${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz, where
# build-kernel.sh looks for it (DDCTL_KBASE=7.2).
#
# The machine's apt configuration is left alone: a throw-away sources list
# (the archive URI this machine already uses, suite sid), lists and cache
# live in a mktemp directory; `apt-get download` fetches the .deb (verified
# against the signed sid Release file with the machine's keyring) and
# `dpkg -x` unpacks it there. Nothing is installed or upgraded from sid.
# Idempotent: a no-op when the tarball is already there. DDCTL_DRY_RUN=1
# says what it would fetch and stops.
# 6.12 comes from the machine's own suite: `apt-get install linux-source-6.12`
# (tests/deps.sh vm).
set -euo pipefail

VER=${1:-}
case "$VER" in
7.2) ;;
6.12) echo "fetch-source.sh: 6.12 is a package of this machine's suite: apt-get install linux-source-6.12" >&2
      exit 2 ;;
*) echo "usage: $0 7.2" >&2; exit 2 ;;
esac
DEST=${DDCTL_SRCCACHE:-/var/cache/ddctl/src}
OUT=$DEST/linux-source-$VER.tar.xz
DRY=
[ "${DDCTL_DRY_RUN:-0}" != 1 ] || DRY="dry run: "
if [ -s "$OUT" ]; then
	echo "fetch-source.sh: $DRY$OUT already there"
	exit 0
fi
if [ -n "$DRY" ]; then
	echo "fetch-source.sh: dry run: would download linux-source-$VER from sid into $OUT"
	exit 0
fi
mkdir -p "$DEST"

SOURCES=${DDCTL_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
uri=
if [ -r "$SOURCES" ]; then
	uri=$(awk '/^URIs:/{print $2; exit}' "$SOURCES")
fi
[ -n "$uri" ] || uri=http://deb.debian.org/debian
echo "fetch-source.sh: linux-source-$VER from $uri sid (download only)" >&2

d=$(mktemp -d /tmp/ddctl-fetch-source.XXXXXX)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/pkg"
echo "deb $uri sid main" > "$d/sources.list"
o=(-o "Dir::Etc::sourcelist=$d/sources.list" -o Dir::Etc::sourceparts=/dev/null
   -o "Dir::State::lists=$d/lists" -o "Dir::Cache=$d/cache"
   -o Dir::State::status=/dev/null -o APT::Sandbox::User=root -q)
apt-get "${o[@]}" update >&2
(cd "$d" && apt-get "${o[@]}" download "linux-source-$VER" >&2)
deb=$(ls "$d"/linux-source-"$VER"_*.deb)
dpkg -x "$deb" "$d/pkg"
tb=$(ls "$d"/pkg/usr/src/linux-source-"$VER".tar.* | head -1)
[ -s "$tb" ] || { echo "fetch-source.sh: no tarball in $deb" >&2; exit 1; }
cp "$tb" "$OUT.tmp.$$"
mv "$OUT.tmp.$$" "$OUT"
echo "fetch-source.sh: $(basename "$deb") -> $OUT" >&2
echo "$OUT"
