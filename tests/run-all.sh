#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Runs every ddctl test suite from a clean clone:
#   1. unit, cli, shell, tools and vm suites on a normal build (build/),
#   2. unit, cli and shell suites again under ASan+UBSan (build-asan/),
#   3. the libFuzzer targets for a bounded number of runs, each printing the
#      coverage it reached (build-fuzz/),
#   4. the Debian packages: dpkg-buildpackage from a clean export of HEAD,
#      lintian, the packaged ddctl and libddctl-dev at work (tests/pkg/check-deb.sh),
#   5. the parse and scale benchmarks (numbers only, never a pass/fail),
# then prints the totals over everything as "N passed, N failed".
# DDCTL_SKIP_VM=1 leaves out the QEMU suite (for quick local runs);
# DDCTL_SKIP_PKG=1 leaves out the Debian packages (and their build tools);
# DDCTL_SKIP_CROSS=1 the arm64 cross toolchain and the tools suite's
# arm64-build test (the arm64 demo's build step, no kernel);
# DDCTL_VM_DEBUG=1 adds the patched kernel with PROVE_LOCKING (vm-debug).
# The vm suite runs the stock and patched 6.12 kernels (vm-stock, vm-patched)
# and the patched 7.2 kernel (vm-patched-7.2), and Debian's own 6.1, 6.12 and
# 7.x kernels, downloaded, not built (vm-debian-*); DDCTL_VM_ALL=1 adds the
# stock 7.2 kernel (vm-stock-7.2).
# DDCTL_DRY_RUN=1 says what it would install and run, and stops.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/tests/deps.sh" || { echo "run-all: installing dependencies failed"; echo "0 passed, 1 failed"; exit 1; }

fuzz_runs=${DDCTL_FUZZ_RUNS:-20000}
# A kernel patch that does not apply or build is a failure here, not a skip.
export DDCTL_VM_STRICT=${DDCTL_VM_STRICT:-1}
suites=(--suite unit --suite cli --suite shell --suite tools)
[ "${DDCTL_SKIP_VM:-0}" = 1 ] || suites+=(--suite vm)
if [ "${DDCTL_DRY_RUN:-0}" = 1 ]; then
	echo "run-all: dry run: would run, in $top:"
	echo "run-all:   build/ (-Dvm=$([ "${DDCTL_SKIP_VM:-0}" = 1 ] && echo false || echo true)): meson test ${suites[*]}"
	echo "run-all:   build-asan/: --suite unit --suite cli --suite shell; build-fuzz/: $fuzz_runs runs per target"
	echo "run-all:   Debian packages: $([ "${DDCTL_SKIP_PKG:-0}" = 1 ] && echo skipped || echo tests/pkg/check-deb.sh); benchmarks"
	[ "${DDCTL_SKIP_VM:-0}" = 1 ] || for k in "stock 6.12" "patched 6.12" "patched 7.2"; do
		set -- $k
		DDCTL_KBASE=$2 DDCTL_DRY_RUN=1 tests/vm/kernels/build-kernel.sh $1 2>&1 >/dev/null | sed 's/^/run-all:   /'
	done
	exit 0
fi
status=0
logs=()

setup() { # dir, options...
	local dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

echo "== build (gcc) and suites: ${suites[*]} [${SECONDS}s]"
setup build -Dvm=$([ "${DDCTL_SKIP_VM:-0}" = 1 ] && echo false || echo true) \
	-Dvm_debug=$([ "${DDCTL_VM_DEBUG:-0}" = 1 ] && echo true || echo false) \
	-Dvm_all=$([ "${DDCTL_VM_ALL:-0}" = 1 ] && echo true || echo false) &&
	meson compile -C build >/dev/null || status=1
# What the vm suite needs but does not boot, made in the background at a
# lower priority while the host suites and the first guest suites run: the
# kernels (stock and patched 6.12, patched 7.2), Debian's kernels and the
# system images. A guest suite keeps about one of the two cores busy (TCG
# running a shell script in the guest), so the next kernel builds on the
# other. Each of these serialises on its own lock (build-kernel.sh,
# fetch-distro.sh, mkimage-system.sh), so a suite that needs one waits for
# it here, or makes it itself if this one failed. Logs: build/vm-logs/prebuild.log.
prebuild=
if [ "${DDCTL_SKIP_VM:-0}" != 1 ] && [ -d build ]; then
	mkdir -p build/vm-logs
	(
		# nice 10 for it and its children; and for its autogroup (the
		# scheduler shares the CPU between sessions first: meson runs each
		# test in a session of its own, this one shares run-all's, idle then)
		renice -n 10 -p $BASHPID > /dev/null 2>&1 || true
		echo 10 2>/dev/null > /proc/$BASHPID/autogroup || true
		for k in "6.12 stock" "6.12 patched" "7.2 patched"; do
			set -- $k
			echo "== build-kernel.sh $2 ($1) [${SECONDS}s]"
			DDCTL_KBASE=$1 tests/vm/kernels/build-kernel.sh $2 2>&1 | tail -n 3
		done
		for k in debian-6.1 debian-6.12 debian-7; do
			echo "== fetch-distro.sh $k [${SECONDS}s]"
			tests/vm/kernels/fetch-distro.sh $k 2>&1 | tail -n 3
		done
		for k in debian-6.12 patched-7.2; do
			echo "== mkimage-system.sh $k [${SECONDS}s]"
			tests/vm/harness/mkimage-system.sh $k 2>&1 | tail -n 3
		done
		echo "== done [${SECONDS}s]"
	) > build/vm-logs/prebuild.log 2>&1 < /dev/null &
	prebuild=$!
fi
meson test -C build --print-errorlogs "${suites[@]}" || status=1
logs+=(build/meson-logs/testlog.json)
# (done by now: every suite that needed one of them waited for it)
[ -z "$prebuild" ] || kill $prebuild 2>/dev/null

echo "== ASan+UBSan build: unit, cli and shell suites [${SECONDS}s]"
setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dvm=false &&
	meson compile -C build-asan >/dev/null || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --print-errorlogs --suite unit --suite cli --suite shell || status=1
logs+=(build-asan/meson-logs/testlog.json)

echo "== libFuzzer targets, $fuzz_runs runs each (coverage: edges of the instrumented library) [${SECONDS}s]"
# tests/fuzz/meson.build instruments its own copy of the library
# (-fsanitize=fuzzer-no-link); fewer than $fuzz_min_cov edges means it is not.
fuzz_min_cov=50
fuzz_pass=0
fuzz_fail=0
if CC=clang setup build-fuzz -Dfuzz=true -Dvm=false -Db_sanitize=address,undefined \
	-Db_lundef=false -Dc_args= &&
	meson compile -C build-fuzz >/dev/null; then
	for f in query control uevent netlink script kmsg save-roundtrip ko-dyndbg; do
		corpus=$(mktemp -d)
		cp tests/fuzz/corpus-$f/* "$corpus/"
		log=build-fuzz/fuzz-$f.log
		if build-fuzz/tests/fuzz/fuzz-$f -runs="$fuzz_runs" -max_len=4096 \
			"$corpus" >"$log" 2>&1; then
			cov=$(sed -n 's/^#[0-9]*[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\).*/\1/p' "$log")
			if [ "${cov:-0}" -ge $fuzz_min_cov ]; then
				echo "fuzz-$f: ok, $fuzz_runs runs, cov: $cov edges, $(ls "$corpus" | wc -l) corpus entries"
				fuzz_pass=$((fuzz_pass + 1))
			else
				echo "fuzz-$f: FAILED: cov: ${cov:-?} edges (< $fuzz_min_cov: library not instrumented?)"
				fuzz_fail=$((fuzz_fail + 1))
			fi
		else
			echo "fuzz-$f: FAILED"; tail -40 "$log"
			fuzz_fail=$((fuzz_fail + 1))
		fi
		rm -rf "$corpus"
	done
else
	echo "fuzz build failed"
	fuzz_fail=$((fuzz_fail + 1))
fi

echo "== Debian packages: build, lintian, install (tests/pkg/check-deb.sh; logs in build-deb/) [${SECONDS}s]"
pkg_pass=0
pkg_fail=0
if [ "${DDCTL_SKIP_PKG:-0}" = 1 ]; then
	echo "skipped (DDCTL_SKIP_PKG=1)"
else
	pkg_tap=$(mktemp)
	tests/pkg/check-deb.sh | tee "$pkg_tap"
	pkg_rc=${PIPESTATUS[0]}
	pkg_pass=$(grep -c '^ok ' "$pkg_tap")
	pkg_fail=$(grep -c '^not ok ' "$pkg_tap")
	[ "$pkg_rc" = 0 ] || [ "$pkg_fail" -gt 0 ] || pkg_fail=1
	rm -f "$pkg_tap"
fi

echo "== benchmark: parse+filter a 100k-site control file (numbers, not a test) [${SECONDS}s]"
build/tests/bench-parse 100000 || true
echo "== benchmark: distribution scale, Debian's 30k-site table and 10^5 sites (numbers, not a test) [${SECONDS}s]"
build/tests/bench-scale tests/fixtures/debian-6.1-control.txt.xz || true

python3 - "$((fuzz_pass + pkg_pass))" "$((fuzz_fail + pkg_fail))" "${logs[@]}" <<'PY'
import json, re, sys
passed, failed = int(sys.argv[1]), int(sys.argv[2])
skipped = todo = 0
for path in sys.argv[3:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        continue
    for line in lines:
        t = json.loads(line)
        out = t.get("stdout") or ""
        tap = [l for l in out.splitlines() if re.match(r"(not )?ok\b", l)]
        if t.get("protocol", "").lower() == "tap" or tap:
            for l in tap:
                if l.startswith("not ok") and re.search(r"#\s*TODO\b", l):
                    todo += 1   # a known failure, listed in the test
                elif "# SKIP" in l.upper():
                    skipped += 1
                elif l.startswith("ok"):
                    passed += 1
                else:
                    failed += 1
            if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL") and not any(l.startswith("not ok") for l in tap):
                failed += 1
        elif t["result"] == "OK":
            passed += 1
        elif t["result"] == "SKIP":
            skipped += 1
        else:
            failed += 1
print("%d passed, %d failed, %d skipped, %d known failures (TODO)" % (passed, failed, skipped, todo))
sys.exit(1 if failed else 0)
PY
rc=$?
[ $status -eq 0 ] || rc=1
exit $rc
