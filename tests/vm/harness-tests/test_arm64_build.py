#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The arm64 demo's build step, without a kernel (TAP, about a minute).

Runs `DDCTL_ARCH=arm64 tests/vm/demo.sh --build-only` into a scratch build
directory: the demo's own dependency check, its `meson setup` with the
cross file (cross/arm64-linux-gnu.ini) and its `ninja` of ddctl and the
VM helpers (nlexec, nldump) that the arm64 VM suite puts in the guest, then
checks that each of them and libddctl are AArch64 ELF files.  The kernel
build and the boot (~45 min on 2 cores) are left to the documented command.

Needs the `cross` group of tests/deps.sh (the cross compiler and the :arm64
libraries; tests/run-all.sh installs it): skips without it, and fails
instead with DDCTL_VM_STRICT=1 (as tests/run-all.sh sets), unless
DDCTL_SKIP_CROSS=1 left the group out.

    test_arm64_build.py [BUILDDIR]   (default: a temporary directory)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "tests"))
from tap import Tap  # noqa: E402

OUTPUTS = ["cli/ddctl", "libddctl/libddctl.so", "tests/vm/nlexec",
           "tests/vm/nldump"]


def elf_machine(path):
    p = subprocess.run(["readelf", "-h", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    for line in p.stdout.splitlines():
        if line.strip().startswith("Machine:"):
            return line.split(":", 1)[1].strip()
    return p.stdout.strip()[:200] or "not an ELF file"


def main():
    if os.environ.get("DDCTL_SKIP_CROSS") == "1":
        print("1..0 # SKIP DDCTL_SKIP_CROSS=1")
        return
    missing = subprocess.run([os.path.join(REPO, "tests/deps.sh"), "--missing",
                              "build", "cross"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    if missing.returncode != 0 or missing.stdout.strip():
        why = ("the arm64 cross toolchain is not installed (tests/deps.sh "
               "cross): " + " ".join(missing.stdout.split()))
        if os.environ.get("DDCTL_VM_STRICT") == "1":
            print("1..1\nnot ok 1 - arm64-cross-build # " + why)
            sys.exit(1)
        print("1..0 # SKIP " + why)
        return
    tap = Tap()
    tmp = None
    if len(sys.argv) > 1:
        build = os.path.abspath(sys.argv[1])
    else:
        tmp = tempfile.mkdtemp(prefix="ddctl-arm64-build-")
        build = os.path.join(tmp, "build-arm64")
    env = dict(os.environ, DDCTL_ARCH="arm64", DDCTL_BUILD_DIR=build)
    env.pop("DDCTL_DRY_RUN", None)
    t0 = time.time()
    p = subprocess.run([os.path.join(HERE, "..", "demo.sh"), "--build-only"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=1800)
    secs = time.time() - t0
    tail = "\n".join(p.stdout.splitlines()[-25:])
    tap.check("DDCTL_ARCH=arm64 demo.sh --build-only: the demo's cross build "
              f"ends with status 0 ({secs:.0f} s)", p.returncode == 0,
              f"status {p.returncode}; its output ends:\n{tail}")
    for out in OUTPUTS:
        path = os.path.join(build, out)
        m = elf_machine(path) if os.path.exists(path) else "missing"
        tap.check(f"{out} is built for arm64", m == "AArch64",
                  f"{path}: {m}")
    tap.check("--build-only stops before the kernel", p.returncode != 0 or
              "[3/5]" not in p.stdout, tail)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    tap.finish()


if __name__ == "__main__":
    main()
