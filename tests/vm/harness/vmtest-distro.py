#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl on Debian's own kernels (host side); prints TAP.

    vmtest-distro.py debian-6.1|debian-6.12|debian-7 [--ddctl PATH]
                     [--logdir DIR] [--smp N] [--timeout S]

The signed image is downloaded, never built or installed
(kernels/fetch-distro.sh, cached in /var/cache/ddctl/distro), booted under
TCG with its own modules (virtio, bonding, bridge, dm_mod, e1000 with
QEMU's e1000 NIC) and guest/distro.sh. TAP names start with the kind.
Skips (1..0 # SKIP) when QEMU or the download is unavailable.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("kind", choices=["debian-6.1", "debian-6.12", "debian-7"])
    ap.add_argument("--ddctl", default=os.path.join(vmlib.REPO, "build", "cli", "ddctl"))
    ap.add_argument("--logdir", default=os.path.join(vmlib.REPO, "build", "vm-logs"))
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--dry-run", action="store_true",
                    default=os.environ.get("DDCTL_DRY_RUN") == "1",
                    help="say what would boot and stop (DDCTL_DRY_RUN=1)")
    a = ap.parse_args()
    logdir = os.path.abspath(a.logdir)
    if a.dry_run:
        print(f"vmtest-distro: dry run: guest/distro.sh on {a.kind}, -smp {a.smp}, "
              f"ddctl {a.ddctl}, logs in {logdir}")
        return 0
    n = 0
    failed = 0

    def res(st, name, why=""):
        nonlocal n, failed
        n += 1
        if st == "skip":
            print(f"ok {n} - {a.kind}: {name} # SKIP {why}")
        else:
            print(f"{st} {n} - {a.kind}: {name}" + (f" # {why}" if why and st != "ok" else ""))
            if st != "ok":
                failed += 1

    print("TAP version 13")
    try:
        b = vmlib.boot_kind(a.kind, "distro", logdir, ddctl=a.ddctl,
                            stock_fallback=False, smp=a.smp,
                            timeout=a.timeout, mem=1024)
    except vmlib.Unavailable as e:
        print(f"1..0 # SKIP {a.kind}: {e}")
        return 0
    kdir = vmlib.build_kernel(a.kind)
    with open(os.path.join(kdir, "package")) as f:
        print("# packages: " + ", ".join(f.read().split("\n")).strip(", "))
    print(f"# {b.summary()}")
    if b.status == "done":
        res("ok", f"boot ({b.seconds:.0f}s)")
    else:
        res("not ok", "boot", b.status)
        print("# " + "\n# ".join(b.console.splitlines()[-30:]))
    for note in b.notes:
        print(f"# {note}")
    for st, name, why in b.results:
        res(st, name, why)
    if b.bad_lines:
        res("not ok", "no-oops", f"{len(b.bad_lines)} bad lines")
        print("# " + "\n# ".join(b.bad_lines[:20]))
    else:
        res("ok" if b.console else "not ok", "no-oops")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
