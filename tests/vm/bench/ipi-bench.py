#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""IPI benchmark of issue 3: stock vs patched 6.12, static-key toggles.

  tests/vm/bench/ipi-bench.py [--ms 2,3,4,5] [--ks b,2000,20000] [--reps 3]
        [--reps-k 20000=2] [--kinds stock,patched] [--timeout 3600]
        [--logdir /tmp/ddctl-ipi-bench] [--raw FILE] [--table-only RAWFILE]

Builds (or reuses) the stock and patched kernels, the ddctl_sites_K modules
and a bench initramfs through the existing harness (build-kernel.sh,
gen-module.py, mkinitramfs.sh via vmlib), then boots each kernel once per
vCPU count M with ddctl.run=bench (tests/vm/guest/bench.sh), which for each
key set K measures, R times each:
  (a) one write(2) of "ON ; OFF" to the control file,
  (b) two writes, "ON" then "OFF",
as the CAL and TLB rows of /proc/interrupts summed over all CPUs and the
wall time of the write(s), followed by an idle interval of the same length
measured the same way (subtracted, scaled to the write's length).
Key sets: b = every callsite of the kernel with the virtio modules and
test_dynamic_debug loaded ("+p" / "-p"); N = only the sites of the
generated module ddctl_sites_N ("module ddctl_sites_N +p" / "... -p").

Prints a table (stock, patched, ratio, and the int3-protocol model:
stock 6(M-1) IPIs per key per +p/-p pair, patched 3(M-1) per batch of
<=256 keys per toggle) and appends every per-run line to --raw.
Asserts nothing about speed; exit status 0 when every cell has data and
every guest saw M CPUs. Not part of any test suite.
"""
import argparse
import math
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import vmlib  # noqa: E402

BENCH_RE = re.compile(r"^BENCH (.*)$")


def parse_kv(s):
    return dict(kv.split("=", 1) for kv in s.split() if "=" in kv)


def model(kind, m, keys):
    if kind == "stock":
        return 6 * (m - 1) * keys
    return 2 * math.ceil(keys / 256) * 3 * (m - 1)


def boot_bench(kind, kdir, initrd, m, ks, reps, reps_k, timeout, logdir,
               tag=""):
    app = f"ddctl.ks={','.join(ks)} ddctl.reps={reps}"
    for k, r in reps_k.items():
        app += f" ddctl.reps{k}={r}"
    rundir = os.path.join(logdir, f"{kind}-m{m}{tag}")
    vmlib.log(f"boot {kind} M={m} ks={','.join(ks)} reps={reps} "
              f"{reps_k or ''} (timeout {timeout}s) -> {rundir}")
    b = vmlib.boot(kdir, initrd, "bench", rundir, retry=False, smp=m,
                   mem=768, timeout=timeout, extra_append=app)
    vmlib.log(f"{kind} M={m}: {b.summary()}")
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ms", default="2,3,4,5")
    ap.add_argument("--ks", default="b,2000,20000")
    ap.add_argument("--kinds", default="stock,patched")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--reps-k", default="",
                    help="per-key-set repetitions, e.g. 20000=2")
    ap.add_argument("--timeout", type=int, default=3600,
                    help="per boot, seconds")
    ap.add_argument("--logdir", default="/tmp/ddctl-ipi-bench")
    ap.add_argument("--raw", default=None,
                    help="append raw per-run lines here "
                         "(default LOGDIR/raw.txt)")
    ap.add_argument("--table-only", metavar="RAWFILE",
                    help="only print the table of an existing raw file")
    a = ap.parse_args()

    if a.table_only:
        print_table([parse_kv(ln) for ln in open(a.table_only)
                     if ln.startswith("run ")], None)
        return 0

    ms = [int(x) for x in a.ms.split(",")]
    ks = a.ks.split(",")
    kinds = a.kinds.split(",")
    reps_k = dict(x.split("=") for x in a.reps_k.split(",") if x)
    os.makedirs(a.logdir, exist_ok=True)
    raw = a.raw or os.path.join(a.logdir, "raw.txt")
    sizes = [int(k) for k in ks if k != "b"]

    prep = {}
    for kind in kinds:
        kdir = vmlib.build_kernel(kind)
        vmlib.build_modules(kdir, sizes)
        initrd = os.path.join(a.logdir, f"initramfs-{kind}.cpio.gz")
        # no ddctl binary: the benchmark writes the control file itself
        vmlib.build_initramfs(kdir, initrd, ddctl="/nonexistent")
        prep[kind] = (kdir, initrd)
        vmlib.log(f"{kind}: {kdir} ({open(os.path.join(kdir, 'kernelrelease')).read().strip()})")

    runs = []
    problems = []
    with open(raw, "a") as rf:
        rf.write(f"# ipi-bench start {time.strftime('%Y-%m-%dT%H:%M:%S')} "
                 f"argv={' '.join(sys.argv[1:])}\n")
        for kind in kinds:
            rf.write(f"# {kind} kernel {prep[kind][0]}\n")
        for m in ms:
            for kind in kinds:
                kdir, initrd = prep[kind]
                todo = list(ks)
                r_reps, r_k = a.reps, dict(reps_k)
                for attempt in range(2):
                    b = boot_bench(kind, kdir, initrd, m, todo, r_reps, r_k,
                                   a.timeout, a.logdir,
                                   "" if attempt == 0 else f".retry{attempt}")
                    if b.nproc != m:
                        problems.append(f"{kind} M={m}: guest saw "
                                        f"{b.nproc} CPUs")
                    done = set()
                    for n in b.notes:
                        if n.startswith("BENCH-DONE"):
                            done.add(parse_kv(n)["k"])
                        if n.startswith(("BENCH-ERR", "BENCH-PRE",
                                         "BENCH-SET", "BENCH-TIMER",
                                         "BENCH-START")):
                            rf.write(f"# {kind} M={m}: {n}\n")
                        mm = BENCH_RE.match(n)
                        if mm:
                            d = parse_kv(mm.group(1))
                            d.update(kind=kind, m=str(m))
                            runs.append(d)
                            rf.write("run " + " ".join(
                                f"{k}={v}" for k, v in d.items()) + "\n")
                    for line in b.bad_lines:
                        problems.append(f"{kind} M={m}: {line}")
                    rf.write(f"# {kind} M={m}: boot {b.summary()}\n")
                    rf.flush()
                    todo = [k for k in todo if k not in done]
                    if not todo:
                        break
                    problems.append(f"{kind} M={m}: {b.status}, key sets "
                                    f"{','.join(todo)} unfinished; retrying "
                                    f"with fewer repetitions")
                    r_reps = max(1, r_reps // 2)
                    r_k = {k: max(1, int(v) // 2) for k, v in r_k.items()}
                    for k in todo:
                        if k != "b":
                            r_k.setdefault(k, r_reps)
                print_table(runs, None, partial=True)
    print()
    print_table(runs, problems)
    return 0 if not problems else 1


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def n0(x):
    """integer with thousands separators; no "-0" """
    return "-" if math.isnan(x) else f"{round(x) + 0:,}"


def print_table(runs, problems, partial=False):
    cells = {}
    for d in runs:
        key = (d["k"], int(d["m"]), d["mode"], d["kind"])
        us, ius = int(d["us"]), max(1, int(d["idle_us"]))
        scale = us / ius
        net = int(d["cal"]) - int(d["idle_cal"]) * scale
        tlb = int(d["tlb"]) - int(d["idle_tlb"]) * scale
        c = cells.setdefault(key, {"net": [], "tlb": [], "ms": [],
                                   "keys": set(), "ncpu": set(),
                                   "idle": []})
        c["net"].append(net)
        c["tlb"].append(tlb)
        c["ms"].append(us / 1000)
        c["idle"].append(int(d["idle_cal"]))
        c["keys"].add(int(d["keys"]))
        c["ncpu"].add((int(d["nproc"]), int(d["ncpuinfo"])))
    if not cells:
        print("(no data yet)")
        return
    ks = sorted({c[0] for c in cells}, key=lambda k: -1 if k == "b" else int(k))
    ms = sorted({c[1] for c in cells})
    hdr = ("| K | keys | M | cpus | mode | R | stock CAL | patched CAL | "
           "ratio | model stock | model patched | stock TLB | patched TLB | "
           "stock ms | patched ms | ms ratio |")
    print(("partial " if partial else "") + "table:")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for k in ks:
        for m in ms:
            for mode in ("a", "b"):
                s = cells.get((k, m, mode, "stock"))
                p = cells.get((k, m, mode, "patched"))
                if not s and not p:
                    continue
                keys = sorted((s or p)["keys"] | (p or s)["keys"])
                kk = keys[0]
                ncpu = sorted((s or {"ncpu": set()})["ncpu"] |
                              (p or {"ncpu": set()})["ncpu"])
                cpus = ",".join(f"{a}" if a == b else f"{a}/{b}"
                                for a, b in ncpu)
                if len(ncpu) != 1 or ncpu[0] != (m, m):
                    cpus += " (!)"
                sn = mean(s["net"]) if s else float("nan")
                pn = mean(p["net"]) if p else float("nan")
                st = mean(s["tlb"]) if s else float("nan")
                pt = mean(p["tlb"]) if p else float("nan")
                sm = mean(s["ms"]) if s else float("nan")
                pm = mean(p["ms"]) if p else float("nan")
                reps = "/".join(str(len(c["net"])) if c else "-"
                                for c in (s, p))
                ratio = sn / pn if p and s and pn > 0 else float("nan")
                mr = sm / pm if p and s and pm > 0 else float("nan")
                label = "all (built-in+mods)" if k == "b" else f"mod {k}"
                mode_s = '"+p ; -p" 1 write' if mode == "a" else \
                    '"+p", "-p" 2 writes'
                print(f"| {label} | {'/'.join(map(str, keys))} | {m} | "
                      f"{cpus} | {mode_s} | {reps} | {n0(sn)} | {n0(pn)} | "
                      f"{n0(ratio)}x | {model('stock', m, kk):,} | "
                      f"{model('patched', m, kk):,} | {n0(st)} | {n0(pt)} | "
                      f"{n0(sm)} | {n0(pm)} | "
                      f"{'-' if math.isnan(mr) else f'{mr:.1f}'}x |")
    if problems is not None:
        print()
        print("problems:" if problems else "problems: none")
        for pr in problems:
            print(f"  {pr}")


if __name__ == "__main__":
    sys.exit(main())
