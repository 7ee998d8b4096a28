#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kernel-patches/check-series.sh [6.12|7.2] [WORKDIR]
#
# What a maintainer checks before a series is posted, patch by patch, on
# the pristine tarball of its base (see build-kernel.sh for where those
# come from):
#   - `git am` applies it;
#   - scripts/checkpatch.pl --strict has nothing to say;
#   - it builds on its own in each configuration below: the objects the
#     patch touches, compiled with -Werror, and
#     after the last patch the whole kernel, linked;
#   - tools/net/ynl/ynl-regen.sh -f leaves the generated files unchanged.
# Configurations (tinyconfig + tests/vm/kernels/kconfig.fragment, then):
#   default, NET=n, JUMP_LABEL=n, DYNAMIC_DEBUG_CORE=y without
#   DYNAMIC_DEBUG, MODULES=n.
# Prints one line per patch and configuration; exit 1 when one fails.
# Takes a while (2 cores: ~20 min): run it in the background.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
BASE=${1:-6.12}
W=${2:-/tmp/ddctl-check-$BASE}
case $BASE in
6.12) TARBALL=${DDCTL_KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz} ;;
7.2) TARBALL=${DDCTL_KSRC_TARBALL:-${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz} ;;
*) echo "usage: $0 [6.12|7.2] [WORKDIR]" >&2; exit 2 ;;
esac
SERIES=$HERE/$BASE
JOBS=${JOBS:-$(nproc)}
fail=0
say() { echo "check-series: $*"; }
bad() { echo "check-series: FAIL: $*"; fail=1; }

# Is OBJ (dir/name.o) built in configuration C?  Its line in dir/Makefile
# names the option: obj-y (or lib-y) always, obj-$(CONFIG_X) when X is
# y in C's .config; objects the Makefile does not list directly (parts of
# a composite object) count as built.
in_config() {
	local mk=$W/src/$(dirname "$2")/Makefile o line opt
	o=$(basename "$2")
	line=$(grep -E "^(obj|lib)-[^ ]*[[:space:]]*[:+]?=.*[[:space:]]${o//./\\.}([[:space:]]|\$)" "$mk" 2>/dev/null | head -n1)
	if [ -z "$line" ]; then
		# a .c file that another .c of its directory #includes (e.g.
		# alternative_kunit.c) is no object: its includer is built
		! grep -qs "^#include \"${o%.o}\.c\"" "$W/src/$(dirname "$2")"/*.c
		return
	fi
	opt=$(echo "$line" | sed -n 's/^[a-z]*-\$(\(CONFIG_[A-Z0-9_]*\)).*/\1/p')
	[ -n "$opt" ] || return 0
	grep -q "^$opt=y" "$W/o-$1/.config"
}

# checkpatch messages the series keeps on purpose, one per line (a
# message's first line, as a fixed string): the headers it adds function
# prototypes to (include/linux/jump_label.h, arch/x86/include/asm/
# text-patching.h) declare all of theirs extern, and the review asked to
# follow the file; the page-wise text poking reads back what it wrote
# with __text_poke()'s own BUG_ON() (1-tip/0006 on 7.2: the next step
# must not write into a site whose INT3 did not land, and there is no
# way back from a half-patched batch); checkpatch asks about MAINTAINERS
# whenever a patch adds a file, and the files the series adds lie under
# existing F: entries (tools/testing/selftests/dynamic_debug/ for the
# netlink selftest of 4-netlink/0002).
ACCEPTED_CHECKS='CHECK: extern prototypes should be avoided in .h files
WARNING: Do not crash the kernel unless it is absolutely unavoidable
WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?'

# checkpatch -q output -> its messages (a message and its context lines,
# up to the blank line after it), accepted ones or the others
checkpatch_messages() { # OUT accepted|other
	printf '%s\n\n' "$1" | awk -v want="$2" -v acc="$ACCEPTED_CHECKS" '
		BEGIN { n = split(acc, a, "\n") }
		/^$/ { if (m != "") { if ((want == "accepted") == ok) printf "%s\n", m }
		       m = ""; next }
		m == "" { ok = 0; for (i = 1; i <= n; i++) if (index($0, a[i]) == 1) ok = 1
			  if ($0 ~ /^total: /) next }
		{ m = m (m == "" ? "" : "\n") $0 }'
}
accepted_checks() {
	local n
	n=$(checkpatch_messages "$1" accepted | grep -c '^\(CHECK\|WARNING\|ERROR\)')
	[ "$n" = 0 ] || echo "$n message(s) on the accepted list"
}
other_checks() { checkpatch_messages "$1" other; }

rm -rf "$W"; mkdir -p "$W/src"
tar -xf "$TARBALL" -C "$W/src" --strip-components=1
cd "$W/src"
git init -q && git add -f . && git -c user.name=base -c user.email=base@localhost commit -q -m base

configs="default net-n jump-label-n dd-core-only modules-n"
for c in $configs; do
	o=$W/o-$c
	mkdir -p "$o"
	make -s O="$o" tinyconfig >/dev/null
	cp "$REPO/tests/vm/kernels/kconfig.fragment" "$o/frag"
	case $c in
	net-n) printf 'CONFIG_NET=n\n' >> "$o/frag" ;;
	jump-label-n) printf 'CONFIG_JUMP_LABEL=n\n' >> "$o/frag" ;;
	dd-core-only) printf 'CONFIG_DYNAMIC_DEBUG=n\nCONFIG_DYNAMIC_DEBUG_CORE=y\n' >> "$o/frag" ;;
	modules-n) printf 'CONFIG_MODULES=n\n' >> "$o/frag" ;;
	esac
	(cd "$o" && "$W/src/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$o/frag" >/dev/null)
	make -s O="$o" olddefconfig >/dev/null
	make -s O="$o" -j"$JOBS" prepare >/dev/null 2>&1 || bad "$c: make prepare"
done

# (the series is read on fd 3 and make's stdin is /dev/null: kconfig asks
# about an option a patch adds on stdin, and would eat the series' next
# lines; olddefconfig after each patch gives new options their defaults)
n=0
nseries=$(sed 's/#.*//' "$SERIES/series" | grep -c '[^[:space:]]')
exec </dev/null
while read -r p <&3; do
	p=${p%%#*}; p=$(echo $p)
	[ -n "$p" ] || continue
	n=$((n + 1))
	if ! git -c user.name=check -c user.email=check@localhost am -q "$SERIES/$p" >/dev/null 2>&1; then
		bad "$p: git am"; git am --abort 2>/dev/null; break
	fi
	for c in $configs; do
		make -s O="$W/o-$c" olddefconfig >/dev/null 2>&1 || bad "$p [$c]: olddefconfig"
	done
	# the patches carry no Signed-off-by (prepare-posting.sh adds the
	# poster's): checkpatch reads the commit as it would be posted, with
	# the checker as author and signer
	git -c user.name=check -c user.email=check@localhost commit -q --amend --no-edit --reset-author --signoff
	out=$(git format-patch -1 --stdout | scripts/checkpatch.pl --strict -q - 2>/dev/null)
	acc=$(accepted_checks "$out")
	[ -z "$acc" ] || say "$p: checkpatch, accepted: $acc"
	out=$(other_checks "$out")
	[ -z "$out" ] || bad "$p: checkpatch: $(echo "$out" | head -3)"
	objs=$(git show --name-only --format= HEAD | sed -n 's/\.c$/.o/p' | grep -v '^tools/\|^Documentation/')
	for c in $configs; do
		ok=()
		for obj in $objs; do
			# only objects this configuration builds (kbuild compiles a
			# single object asked for by name even when its obj-$(CONFIG_X)
			# is off)
			in_config "$c" "$obj" || continue
			make -s O="$W/o-$c" KCFLAGS=-Werror "$obj" >"$W/log" 2>&1 && { ok+=("$obj"); continue; }
			grep -q "No rule to make target" "$W/log" && continue
			bad "$p [$c] $obj: $(grep -m3 -E 'error|warning' "$W/log")"
		done
		say "$n $p [$c]: ${#ok[@]} objects built"
	done
done 3< "$SERIES/series"
[ "$n" = "$nseries" ] || bad "applied $n of the $nseries patches of $SERIES/series"

for c in $configs; do
	if make -s O="$W/o-$c" -j"$JOBS" >"$W/log-$c" 2>&1; then
		say "whole series [$c]: kernel built and linked"
	else
		bad "whole series [$c]: $(grep -m3 -E 'error|undefined' "$W/log-$c")"
	fi
done
if [ -x tools/net/ynl/ynl-regen.sh ]; then
	tools/net/ynl/ynl-regen.sh -f >/dev/null 2>&1
	[ -z "$(git status --porcelain -- include lib)" ] && say "ynl-regen: generated files up to date" ||
		bad "ynl-regen changes: $(git status --porcelain -- include lib | head -3)"
fi
exit $fail
