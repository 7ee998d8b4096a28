#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Boot a ddctl test guest and run one guest script.

  run-vm.py [--kind stock|patched] [--smp 4] [--mem 512] [--timeout 300]
            [--script NAME] [--append 'k=v ...'] [--logdir build/vm-logs]
            [--ddctl build/cli/ddctl] [--sizes 256,2000,20000] [--dry-run]

Builds (or reuses from /var/cache/ddctl) the kernel, the test modules and
the initramfs, boots QEMU (TCG), retries once on a hang (and, for the
patched kernel, boots the stock kernel to tell whose hang it is), prints the
guest's results and exits 0 when the script finished with status 0, every
result is ok/skip and the log has no Oops/WARNING/BUG.
Logs: LOGDIR/KIND-SCRIPT/{console.log,cmd.txt,data.bin,out/}.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--kind", default="stock",
                    choices=["stock", "patched", "debug", "stock-debug"])
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--mem", type=int, default=512)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--script", default="suite")
    ap.add_argument("--append", default="")
    ap.add_argument("--logdir", default=os.path.join(vmlib.REPO, "build",
                                                     "vm-logs"))
    ap.add_argument("--ddctl", default=os.path.join(vmlib.REPO, "build",
                                                    "cli", "ddctl"))
    ap.add_argument("--sizes", default=",".join(map(str, vmlib.MODULE_SIZES)),
                    help="the ddctl_sites_K modules to build (K,K,...)")
    ap.add_argument("--dry-run", action="store_true",
                    default=os.environ.get("DDCTL_DRY_RUN") == "1",
                    help="say what would boot and stop (DDCTL_DRY_RUN=1)")
    a = ap.parse_args()
    sizes = tuple(int(k) for k in a.sizes.split(",") if k)
    if a.dry_run:
        return vmlib.dry_run("run-vm", a.kind, (
            f"guest/{a.script}.sh on {a.kind} {vmlib.BASE} {vmlib.ARCH}, "
            f"-smp {a.smp}, append '{a.append}', modules {sizes}"))
    try:
        b = vmlib.boot_kind(a.kind, a.script, os.path.abspath(a.logdir),
                            ddctl=a.ddctl, sizes=sizes, smp=a.smp, mem=a.mem,
                            timeout=a.timeout, extra_append=a.append)
    except vmlib.Unavailable as e:
        print(f"run-vm: cannot run: {e}", file=sys.stderr)
        return 77
    for st, name, why in b.results:
        print(f"{st:6} {name}" + (f"  # {why}" if why else ""))
    for n in b.notes:
        print(f"note: {n}")
    for line in b.bad_lines:
        print(f"BAD: {line}")
    if b.hang_verdict:
        print(f"hang: {b.hang_verdict}")
    print(f"run-vm: {a.kind} {a.script}: {b.summary()}; results in {b.rundir}")
    if b.nproc != a.smp:
        print(f"BAD: guest sees {b.nproc} CPUs, {a.smp} requested")
    good = (b.status == "done" and b.rc == 0 and not b.bad_lines and
            b.nproc == a.smp and
            all(r[0] != "not ok" for r in b.results))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
