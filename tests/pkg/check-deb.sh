#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# tests/pkg/check-deb.sh [REV]: the Debian package check (TAP on stdout).
#
# Builds ddctl, libddctl0 and libddctl-dev with `dpkg-buildpackage -us -uc -b`
# from a clean export of REV (default HEAD; never in the work tree), runs
# lintian on them (errors and warnings fail), and checks that they install and
# run: each .deb is unpacked with `dpkg -x` into an empty root, where the
# packaged ddctl runs on a fixture with the packaged libddctl.so.0 and a
# program builds with the packaged header and pkg-config file; apt-get
# --simulate resolves the packages' dependencies against this machine.
# Unpacking instead of `dpkg -i` keeps the check from changing the machine
# (developers run it too) while testing the files, the ELF dependencies and
# the Depends fields; the maintainer scripts are debhelper's own.
# Logs, lintian's output and the .debs stay in build-deb/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-HEAD}
out=$top/build-deb
fixture=tests/fixtures/control-6.12-stock.txt
t0=$(date +%s)
n=0
failed=0
result() { # ok(0/1) name [log]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
		[ -z "${3:-}" ] || tail -n 40 "$3" | sed 's/^/# /'
	fi
}
finish() {
	echo "1..$n"
	echo "# packaging check: $(( $(date +%s) - t0 )) s"
	exit $((failed > 0))
}

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d /tmp/ddctl-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"   # the cli suite runs ddctl (RPATH in here) as a normal user too
src=$work/ddctl
mkdir -p "$src"
if ! git -C "$top" archive "$rev" | tar -x -C "$src" 2>"$out/export.log"; then
	result 1 "export $rev with git archive" "$out/export.log"
	finish
fi

(cd "$src" && DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b) \
	>"$out/build.log" 2>&1
result $? "dpkg-buildpackage -us -uc -b (dh_auto_test: unit, cli, shell suites)" "$out/build.log"
grep -E '^(Ok|Fail|Skipped|Timeout):' "$out/build.log" | tail -n 4 | tr -s ' ' | sed 's/^/# dh_auto_test /'
cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out/" 2>/dev/null
changes=$(ls "$work"/*.changes 2>/dev/null | head -n1)
if [ -z "$changes" ]; then
	finish
fi

lintian --fail-on error,warning --display-info --pedantic "$changes" >"$out/lintian.txt" 2>&1
result $? "lintian: no errors or warnings (output below)"
sed 's/^/# lintian: /' "$out/lintian.txt"

root=$work/root
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
for p in ddctl libddctl0 libddctl-dev; do
	dpkg -x "$work/${p}_${version}_$(dpkg --print-architecture).deb" "$root" || failed=$((failed + 1))
done
export LD_LIBRARY_PATH=$root/usr/lib/$ma
# /etc/ddctl.d exists on a fresh install (`ddctl save /etc/ddctl.d/X.conf`),
# empty: no conffile; purge takes what ddctl wrote (postrm)
dpkg-deb -c "$work/ddctl_${version}_$(dpkg --print-architecture).deb" >"$out/ddctl-contents.txt" 2>&1
grep -q ' \./etc/ddctl\.d/$' "$out/ddctl-contents.txt" &&
	! dpkg-deb -I "$work/ddctl_${version}_$(dpkg --print-architecture).deb" conffiles >/dev/null 2>&1
result $? "ddctl ships /etc/ddctl.d, empty, and no conffile" "$out/ddctl-contents.txt"
ddctl=$root/usr/sbin/ddctl
ldd "$ddctl" >"$out/ldd.txt" 2>&1
grep -q "libddctl.so.0 => $root/usr/lib/$ma/libddctl.so.0" "$out/ldd.txt"
result $? "packaged ddctl links the packaged libddctl.so.0" "$out/ldd.txt"

"$ddctl" --version >"$out/version.txt" 2>&1
# the first line; the library's path and the build features follow
[ "$(head -n 1 "$out/version.txt")" = "ddctl ${version%%-*}" ] &&
	grep -q '^  features: .*+libkmod' "$out/version.txt"
result $? "ddctl --version prints 'ddctl ${version%%-*}'" "$out/version.txt"

"$ddctl" --control "$top/$fixture" list >"$out/list.txt" 2>&1 &&
	grep -q 'init/main.c' "$out/list.txt" && grep -q run_init_process "$out/list.txt"
result $? "ddctl --control $fixture list" "$out/list.txt"

sites=$(grep -vc '^#' "$top/$fixture")
{
	cflags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$ma/pkgconfig:/usr/lib/$ma/pkgconfig:/usr/share/pkgconfig \
		pkg-config --cflags --libs libddctl) &&
	echo "cc $cflags" &&
	cc -o "$work/count-sites" "$top/tests/pkg/count-sites.c" $cflags &&
	"$work/count-sites" "$top/$fixture" | tee "$work/count" && [ "$(cat "$work/count")" = "$sites" ]
} >"$out/dev.txt" 2>&1
result $? "libddctl-dev: a client builds with pkg-config libddctl and reads $sites sites" "$out/dev.txt"

(cd "$work" && apt-get install --simulate --no-install-recommends \
	./ddctl_*.deb ./libddctl0_*.deb ./libddctl-dev_*.deb) >"$out/apt-simulate.txt" 2>&1
result $? "apt-get install --simulate resolves the packages' dependencies" "$out/apt-simulate.txt"

finish
