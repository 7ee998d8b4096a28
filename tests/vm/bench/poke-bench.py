#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Text-poke benchmark: where the time of a K-key dynamic debug
transaction goes, how long the INT3s stay armed, how long the locks are
held, and what it does to the other CPUs; stock vs the series, side by
side.

  tests/vm/bench/poke-bench.py [--kinds stock,patched]
        [--labels stock=stock,patched=v3]
        [--ms 2,4] [--ks 100,2000,20000] [--reps 3] [--reps-k 20000=2]
        [--idle 1] [--base 7.2] [--timeout 3600] [--logdir DIR] [--raw FILE]
  tests/vm/bench/poke-bench.py --table-only RAWFILE

Each kind's kernel is built (or taken from the cache) by build-kernel.sh
with the measurement patch on top (DDCTL_EXTRA_PATCHES):
textpoke-timing.patch on the stock source ("stock"),
textpoke-timing-v3.patch on the series of kernel-patches/<base>/ ("patched"),
with the generated modules ddctl_sites_K and tests/vm/bench/ddctl_spin
(one kthread per CPU calling a dynamic debug site of the toggled set in
a loop). Then, per vCPU count M, each kind is booted in turn with
ddctl.run=pokebench (tests/vm/guest/pokebench.sh), which per K and
repetition writes "module ddctl_sites_K +p ; module ddctl_spin +p" (on)
and the same with -p (off), first with the kthreads asleep (spin=0),
then with them calling the site (spin=1, after an idle interval that
gives their idle rate), and records the kernel's own numbers of each
write (/sys/kernel/debug/tpbench/last): the transaction, its queue and
apply calls, each x86 batch's phases and syncs, the armed window, the
lock hold times, the kthreads' calls per CPU.

Raw lines ("pb kind=... label=... m=... k=... ...") are appended to
--raw (default LOGDIR/raw.txt); the tables are printed from them (also
with --table-only). Asserts nothing about speed; exit status 0 when every
cell has data, every guest saw M CPUs and no write left the wrong number
of sites on. Not part of any test suite. Plots: ipi-bench.py --plot.

The page-wise poking is in the series since 2026-12-03 (then 1-tip/0005,
now 0006);
the run that measured v3 without and with it (raw-poke-v3-icount-
2026-12-03.txt) used kernel-patches/7.2 of commit 1a0d41d as "patched"
and, as a kind "pagewise", that series with the patch file
tests/vm/bench/pagewise-v3.patch of that commit on top.
Kind "pagewise-proto": v2 of the series with the prototype
textpoke-pagewise.patch (a runtime switch, /sys/kernel/debug/
text_poke_pagewise), which measured everything twice in the same boot,
pw=0 (label of "patched") and pw=1 (its own label); v2 is in git
history only (kernel-patches/7.2 before commit 1883db5, e.g. 32b7d36, with
DDCTL_KPATCH_DIR pointing at an export of it).

Kind "fine" (x86): the series, textpoke-timing-v3.patch and
textpoke-timing-fine.patch, which times the parts of each jump label
queue call (q*_ns: the vector's reserve, text_mutex's lock and unlock,
the already-queued check, __jump_label_patch(), the vector add, and one
timestamp's cost) and has a runtime switch for every per-site timer
(/sys/kernel/debug/tpbench/fine): each write is measured with them
(label "v3fine") and without them (label "v3fine-untimed"), in the same
boot, so the table says what the timers themselves cost.
The kind "fastsize" (the prototype jump-label-size-proto.patch on top
of "fine": arch_jump_entry_size() from the site's bytes, switched at run
time; raw-poke-v3-fastsize-icount-2026-12-04.txt) is retired: the series
sizes sites from their bytes since 2026-12-04 (1-tip/0004), and the
prototype is in git history (commit dcdcc47).

DDCTL_ARCH=arm64: the arm64 guest of vmlib (qemu-system-aarch64 -M virt
-cpu cortex-a57), cross-built kernels and modules (ddctl_spin too, with
the kernel build's ARCH and CROSS_COMPILE). arm64 has no batch of its
own: arch_jump_label_transform_queue() writes the instruction at once
(aarch64_insn_patch_text_nosync(): fixmap map, write, unmap, cache
maintenance) and arch_jump_label_transform_apply() is one
kick_all_cpus_sync(), so "queue" is the writes and "apply" the kick; the
timing patches' arm64 hunk also times the parts of each write (a64poke,
a64map, a64write, a64unmap, a64cache, and a64null, the cost of one
timestamp), which the arm64 tables show instead of x86's batch phases,
syncs, armed window and text_mutex (not taken on arm64), with the share
of the queue time that is the per-instruction fixmap map and unmap
(what a page-wise write would save), timestamps subtracted.
"""
import argparse
import importlib.machinery
import importlib.util
import fcntl
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "harness"))
import vmlib  # noqa: E402
from benchfmt import (TIMING_KINDS, TIMING_PATCH, TIMING_PATCH_V3,  # noqa: E402
                      cell, fmt, median,
                      parse_kv, ratio)

PAGEWISE_PROTO = os.path.join(HERE, "textpoke-pagewise.patch")
FINE_PATCH = os.path.join(HERE, "textpoke-timing-fine.patch")
# kind: (the series or stock, the extra patches in order)
KIND_PATCHES = dict(TIMING_KINDS,
                    **{"pagewise-proto": ("patched", [TIMING_PATCH, PAGEWISE_PROTO]),
                       "fine": ("patched", [TIMING_PATCH_V3, FINE_PATCH])})
SPIN_SRC = os.path.join(HERE, "ddctl_spin")


def kbuild_arch_args(kbuild):
    """ARCH= and CROSS_COMPILE= of the kernel in KBUILD (none for x86):
    gen-module.py's, which cross-builds the generated modules the same way"""
    loader = importlib.machinery.SourceFileLoader(
        "gen_module", os.path.join(vmlib.KERNELS, "gen-module.py"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod.kbuild_arch_args(kbuild)


def build_spin(kdir):
    """ddctl_spin.ko against KDIR/build, cached as KDIR/modules/ddctl_spin.ko
    (cross-built for a cross-built kernel)"""
    ko = os.path.join(kdir, "modules", "ddctl_spin.ko")
    src = os.path.join(SPIN_SRC, "ddctl_spin.c")
    if os.path.exists(ko) and os.path.getmtime(ko) >= os.path.getmtime(src):
        return ko
    top = "/var/cache/ddctl/extmod"
    os.makedirs(top, exist_ok=True)
    # one build at a time in the shared source dir (as gen-module.py)
    with open(os.path.join(top, ".ddctl_spin.lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        work = os.path.join(top, "ddctl_spin")
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(SPIN_SRC, work)
        kbuild = os.path.join(kdir, "build")
        r = subprocess.run(["make", "-C", kbuild, f"M={work}",
                            f"-j{os.cpu_count() or 1}"] +
                           kbuild_arch_args(kbuild) + ["modules"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if r.returncode:
            sys.stderr.write(r.stdout[-4000:])
            sys.exit(f"poke-bench: building ddctl_spin against {kbuild} failed")
        shutil.copy(os.path.join(work, "ddctl_spin.ko"), ko + ".tmp")
        os.rename(ko + ".tmp", ko)
    return ko


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--kinds", default="stock,patched")
    ap.add_argument("--labels", default="stock=stock,patched=v3",
                    help="names of the kinds in the tables and plots "
                         "(the series' version: v2, v3)")
    ap.add_argument("--ms", default="2,4")
    ap.add_argument("--ks", default="100,2000,20000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--reps-k", default="", help="e.g. 20000=2")
    ap.add_argument("--idle", default="1",
                    help="seconds of the spinners' idle interval")
    ap.add_argument("--spin-ks", default="stock=100/2000",
                    help="KIND=K/K/..,...: the K measured with the spinners "
                         "running, per kind (default: all K; stock's "
                         "per-key syncs make 20,000 keys with busy vCPUs "
                         "take tens of minutes under TCG)")
    ap.add_argument("--kind-ks", default="",
                    help="KIND=K/K/..,...: other K for that kind")
    ap.add_argument("--icount", type=int, metavar="SHIFT",
                    help="QEMU -icount shift=SHIFT,sleep=off: the guest's "
                         "clock counts instructions (2^SHIFT ns each), so "
                         "times do not depend on the host's load; with "
                         "--spin-ks KIND=none for every kind (the spinners "
                         "stall the round-robin vCPUs)")
    ap.add_argument("--spin-reps", type=int, default=0,
                    help="spinners in the first N repetitions only "
                         "(0: all)")
    ap.add_argument("--timeout", type=int, default=3600, help="per boot, s")
    ap.add_argument("--logdir", default="/tmp/ddctl-poke-bench")
    ap.add_argument("--raw", default=None)
    ap.add_argument("--table-only", metavar="RAWFILE")
    ap.add_argument("--base", choices=vmlib.BASES, default="7.2")
    a = ap.parse_args()

    if a.table_only:
        print_tables(read_raw(a.table_only), None)
        return 0

    vmlib.set_base(a.base)
    os.environ["DDCTL_EXTRA_PATCHES"] = TIMING_PATCH
    kinds = a.kinds.split(",")
    labels = dict(x.split("=", 1) for x in a.labels.split(",") if x)
    ms = [int(x) for x in a.ms.split(",")]
    ks = a.ks.split(",")
    reps_k = dict(x.split("=") for x in a.reps_k.split(",") if x)
    spin_ks = dict(x.split("=", 1) for x in a.spin_ks.split(",") if x)
    kind_ks = dict(x.split("=", 1) for x in a.kind_ks.split(",") if x)
    clock = "real"
    if a.icount is not None:
        os.environ["DDCTL_QEMU_EXTRA"] = f"-icount shift={a.icount},sleep=off"
        clock = f"icount{a.icount}"
    os.makedirs(a.logdir, exist_ok=True)
    raw = a.raw or os.path.join(a.logdir, "raw.txt")

    labels.setdefault("pagewise-proto", labels.get("patched", "patched") + "+pagewise")
    labels.setdefault("fine", "v3fine")
    for kind in kinds:
        if kind not in KIND_PATCHES:
            ap.error(f"--kinds: unknown kind {kind!r} "
                     f"(known: {', '.join(KIND_PATCHES)})")
    prep = {}
    for kind in kinds:
        series, extra = KIND_PATCHES[kind]
        os.environ["DDCTL_EXTRA_PATCHES"] = " ".join(extra)
        kdir = vmlib.build_kernel(series, use_kdir=False)
        vmlib.build_modules(kdir, [int(k) for k in
                                   kind_ks.get(kind, "/".join(ks)).split("/")])
        build_spin(kdir)
        arch = "" if vmlib.ARCH == "x86_64" else "-" + vmlib.ARCH
        initrd = os.path.join(a.logdir, f"initramfs-{kind}{arch}.cpio.gz")
        vmlib.build_initramfs(kdir, initrd, ddctl="/nonexistent")
        prep[kind] = (kdir, initrd)

    problems = []
    rows = []
    with open(raw, "a") as rf:
        vmlib.write_raw_header(rf, "poke-bench",
                               {kind: prep[kind][0] for kind in kinds}, labels)
        for m in ms:
            for kind in kinds:
                kdir, initrd = prep[kind]
                kks = kind_ks.get(kind, "/".join(ks)).split("/")
                app = (f"ddctl.ks={','.join(kks)} ddctl.reps={a.reps} "
                       f"ddctl.idle={a.idle}")
                if kind == "pagewise-proto":
                    app += " ddctl.pw=1"
                if kind in spin_ks:
                    app += f" ddctl.spinks={spin_ks[kind].replace('/', ',')}"
                if a.spin_reps:
                    app += f" ddctl.spinreps={a.spin_reps}"
                for k, r in reps_k.items():
                    app += f" ddctl.reps{k}={r}"
                rundir = os.path.join(a.logdir, f"{kind}-m{m}")
                la0 = open("/proc/loadavg").read().split()[:3]
                vmlib.log(f"boot {kind} M={m} -> {rundir}")
                b = vmlib.boot(kdir, initrd, "pokebench", rundir, retry=True,
                               smp=m, mem=768, timeout=a.timeout,
                               extra_append=app)
                la1 = open("/proc/loadavg").read().split()[:3]
                vmlib.log(f"{kind} M={m}: {b.summary()}")
                rf.write(f"# {kind} M={m} clock {clock}: host loadavg before {' '.join(la0)}"
                         f" after {' '.join(la1)}; boot {b.summary()}\n")
                if b.nproc != m:
                    problems.append(f"{kind} M={m}: guest saw {b.nproc} CPUs")
                done = set()
                for n in b.notes:
                    if n.startswith("BENCH-DONE"):
                        done.add(parse_kv(n)["k"])
                    if n.startswith("BENCH-ERR"):
                        problems.append(f"{kind} M={m}: {n}")
                    if n.startswith(("BENCH-ERR", "BENCH-SET", "BENCH-START")):
                        rf.write(f"# {kind} M={m}: {n}\n")
                    if n.startswith("PB "):
                        d = parse_kv(n[3:])
                        lb = labels.get(kind, kind)
                        if kind == "pagewise-proto" and d.get("pw") == "0":
                            lb = labels.get("patched", "patched")
                        if d.get("fine") == "0":
                            lb += "-untimed"
                        d.update(kind=kind, label=lb, m=str(m),
                                 arch=vmlib.ARCH, clock=clock)
                        rows.append(d)
                        rf.write("pb " + " ".join(f"{k}={v}" for k, v
                                                  in d.items()) + "\n")
                for line in b.bad_lines:
                    problems.append(f"{kind} M={m}: {line}")
                missing = [k for k in kks if k not in done]
                if missing:
                    problems.append(f"{kind} M={m}: {b.status}, K "
                                    f"{','.join(missing)} unfinished")
                rf.flush()
    print_tables(rows, problems)
    return 0 if not problems else 1


def read_raw(path):
    return [parse_kv(ln[3:]) for ln in open(path) if ln.startswith("pb ")]


def ms(ns):
    return int(ns) / 1e6


def other_cpus_rate(d, field, ns_field, every=False):
    """calls per ms of the CPUs other than the one the write started on
    (cpu0; the writer may move: cpu1 is where it ended), summed, or of
    every CPU; and their count"""
    counts = [int(x) for x in d[field].split(",")]
    skip = set() if every else {int(d.get("cpu0", -1))}
    others = [c for i, c in enumerate(counts) if i not in skip]
    t = int(d[ns_field]) / 1e6
    return (sum(others) / t if t > 0 else float("nan")), len(others)


METRICS = [
    # (column, raw field, what)
    ("txn", "txn_ns", "write entry to return"),
    ("queue", "queue_ns", "sum of arch_jump_label_transform_queue()"),
    ("apply", "apply_ns", "sum of arch_jump_label_transform_apply()"),
    ("batches", "batch_n", "x86 batches (count)"),
    ("prep", "prep_ns", "sum over batches: entry to the first INT3 (sort)"),
    ("phase1", "phase1_ns", "INT3 writes"),
    ("sync1", "sync1_ns", ""),
    ("phase2", "phase2_ns", "tail writes"),
    ("sync2", "sync2_ns", ""),
    ("phase3", "phase3_ns", "first-byte writes"),
    ("sync3", "sync3_ns", ""),
    ("armed max", "armed_max", "longest INT3-armed window of one batch"),
    ("text_mutex max", "text_mutex_max", "longest hold"),
    ("text_mutex sum", "text_mutex_ns", ""),
    ("jump_label_mutex max", "jump_label_mutex_max", ""),
    ("jump_label_mutex sum", "jump_label_mutex_ns", ""),
    ("ddebug_lock max", "ddebug_lock_max", ""),
    ("wall", "us", "guest wall time of the write (µs bracket)"),
    ("IPIs", "cal", "function-call IPIs, raw bracket"),
]
# x86, the kind "fine" (textpoke-timing-fine.patch): the parts of each
# queue call, after "queue"; rows only where a boot recorded them
Q_METRICS = [
    ("q: timestamp", "qnull_ns", "one timestamp's cost per call, included once in each part below"),
    ("q: vector reserve", "qreserve_ns", "smp_text_poke_vec_reserve()"),
    ("q: text_mutex lock", "qlock_ns", "mutex_lock() and the hold timer's start"),
    ("q: queued check", "qqueued_ns", "jump_label_site_queued()"),
    ("q: __jump_label_patch", "qpatch_ns", "the new instruction, the old one checked"),
    ("q: vector add", "qadd_ns", "smp_text_poke_vec_add(): text_poke_loc_init(), the decoder"),
    ("q: text_mutex unlock", "qunlock_ns", "the hold timer's end and mutex_unlock()"),
]
Q_FIELDS = {m[1] for m in Q_METRICS}
# x86's batch, INT3 and text_mutex (the x86 hooks): not on other arches
X86_ONLY = ("batches", "prep", "phase1", "sync1", "phase2", "sync2",
            "phase3", "sync3", "armed max", "text_mutex max", "text_mutex sum")
# arm64 (the timing patches' arm64 hunk), after "apply"; the writes'
# timers (a64=1) and what they cost: every other row is of the writes
# without them (a64=0) where the boot measured both
A64_METRICS = [
    ("kicks", "apply_n", "apply calls: kick_all_cpus_sync() (count)"),
    ("txn, write timers on", "txn_ns", "txn of the writes with a64=1"),
    ("queue, write timers on", "queue_ns", "queue of the writes with a64=1"),
    ("writes", "a64poke_n", "aarch64_insn_patch_text_nosync() calls (count)"),
    ("write calls", "a64poke_ns", "their sum, entry to return"),
    ("fixmap map", "a64map_ns", "patch_map()"),
    ("insn store", "a64write_ns", "copy_to_kernel_nofault(), 4 bytes"),
    ("fixmap unmap", "a64unmap_ns", "patch_unmap(): PTE clear, TLBI"),
    ("cache maint", "a64cache_ns", "caches_clean_inval_pou()"),
    ("timestamp", "a64null_ns", "one timestamp's cost, per write"),
    ("map+unmap % of queue", "a64mapunmap_pct",
     "(map + unmap, less a timestamp each) / the queue without the timers "
     "(with them, less nine timestamps per write, if not measured)"),
]
# the A64_METRICS of the writes with the timers on (the rest: off)
A64_TIMED = {m[0] for m in A64_METRICS} - {"kicks"}
COUNT_COLS = ("batches", "IPIs", "writes", "kicks")


def arch_metrics(arch):
    if arch == "x86_64":
        i = [m[0] for m in METRICS].index("queue") + 1
        return METRICS[:i] + Q_METRICS + METRICS[i:]
    out = []
    for m in METRICS:
        if m[0] not in X86_ONLY:
            out.append(m)
        if m[0] == "apply":
            out += A64_METRICS
    return out


def metric(d, field):
    if field == "us":
        return int(d["us"]) / 1000
    if field in ("cal", "batch_n", "a64poke_n", "apply_n"):
        return float(d[field])
    if field == "a64mapunmap_pct":
        # each measured part includes one timestamp's cost (a64null per
        # write); the queue span includes nine per write
        null = int(d["a64null_ns"])
        q = int(d["queue_ns"]) - 9 * null
        mu = int(d["a64map_ns"]) + int(d["a64unmap_ns"]) - 2 * null
        return 100.0 * mu / q if q > 0 else float("nan")
    return ms(d[field])


def has_field(d, field):
    if field == "a64mapunmap_pct":
        return "a64map_ns" in d and int(d.get("a64poke_n", 0)) > 0
    return field in d


def a64_rows(v, timed):
    """the writes of one cell with the arm64 write timers on (TIMED) or
    off; all of them where the boot did not switch them (no a64=)"""
    if not any("a64" in d for d in v):
        return v
    return [d for d in v if d.get("a64") == ("1" if timed else "0")]


def mapunmap_pct(v):
    """map+unmap % of the queue of one label's writes V: the timed
    writes' map and unmap (less one timestamp each) over the untimed
    writes' queue; without untimed writes, over the timed queue less the
    nine timestamps per write inside it"""
    timed = [d for d in a64_rows(v, True) if has_field(d, "a64mapunmap_pct")]
    untimed = a64_rows(v, False)
    if not timed:
        return []
    if untimed is v or not untimed:
        return [metric(d, "a64mapunmap_pct") for d in timed]
    mu = median([(int(d["a64map_ns"]) + int(d["a64unmap_ns"])
                  - 2 * int(d["a64null_ns"])) for d in timed])
    q = median([int(d["queue_ns"]) for d in untimed])
    return [100.0 * mu / q] if q > 0 else []


def print_tables(rows, problems):
    if not rows:
        print("(no data)")
        return
    labels = []
    for d in rows:
        if d["label"] not in labels:
            labels.append(d["label"])
    base = labels[0]
    ks = sorted({d["k"] for d in rows}, key=int)
    msv = sorted({int(d["m"]) for d in rows})
    clocks = sorted({d.get("clock", "real") for d in rows})
    print("guest clock: " + ", ".join(clocks) + " (real: QEMU's TCG wall "
          "clock, which follows the host's load; icountN: instructions "
          "x 2^N ns, deterministic)")
    for arch in sorted({d.get("arch", "x86_64") for d in rows}):
        for spin in ("0", "1"):
            for dirn in ("on", "off"):
                print(f"\n{arch}: transaction \"{dirn}\" (+p / -p over "
                      f"ddctl_sites_K and ddctl_spin), spinners "
                      f"{'running' if spin == '1' else 'asleep'}: "
                      "median (min-max) over the repetitions, ms unless said\n")
                hdr = ["K", "keys", "M", "cpus", "metric"] + labels + \
                    [f"{base}/{x}" for x in labels[1:]]
                print("| " + " | ".join(hdr) + " |")
                print("|" + "---|" * len(hdr))
                for k in ks:
                    for m in msv:
                        sel = {lb: [d for d in rows
                                    if d["label"] == lb and d["k"] == k
                                    and int(d["m"]) == m and d["spinners"] == spin
                                    and d["dir"] == dirn
                                    and d.get("arch", "x86_64") == arch]
                               for lb in labels}
                        if not any(sel.values()):
                            continue
                        keys = sorted({d["keys"] for v in sel.values()
                                       for d in v})
                        cpus = sorted({d["nproc"] for v in sel.values()
                                       for d in v})
                        for col, field, _ in arch_metrics(arch):
                            if col.endswith("timers on") and not any(
                                    "a64" in d for v in sel.values()
                                    for d in v):
                                continue
                            if field == "a64mapunmap_pct":
                                vals = {lb: mapunmap_pct(v)
                                        for lb, v in sel.items()}
                            else:
                                vals = {lb: [metric(d, field) for d in
                                             (a64_rows(v, col in A64_TIMED)
                                              if arch != "x86_64" else v)
                                             if has_field(d, field)]
                                        for lb, v in sel.items()}
                            if (arch != "x86_64" or field in Q_FIELDS) and \
                                    not any(vals.values()):
                                continue
                            if col in COUNT_COLS:
                                cells = [fmt(median(vals[lb])) for lb in labels]
                            else:
                                cells = [cell(vals[lb]) for lb in labels]
                            rat = [ratio(median(vals[base]), median(vals[lb]))
                                   if "%" not in col else "-"
                                   for lb in labels[1:]]
                            print(f"| {k} | {'/'.join(keys)} | {m} | "
                                  f"{','.join(cpus)} | {col} | "
                                  + " | ".join(cells + rat) + " |")
        # the other CPUs
        print(f"\n{arch}: calls per ms of ddctl_spin's kthreads on the CPUs "
              "other than the one the write started on (summed over them), "
              "idle (before the transaction, same boot) and during it, "
              "median (min-max); the same ratio over every CPU; the calls "
              "the other CPUs lost to the write (idle rate x the write's "
              "time - their calls during it), in ms of their idle rate; in "
              "how many writes the writer ended on another CPU\n")
        hdr = ["K", "M", "dir", "other CPUs"] + \
            [f"{lb} {w}" for lb in labels
             for w in ("idle", "during", "during/idle", "all CPUs during/idle",
                       "lost, ms", "writer moved")]
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for k in ks:
            for m in msv:
                for dirn in ("on", "off"):
                    cells = []
                    n_other = set()
                    for lb in labels:
                        v = [d for d in rows if d["label"] == lb and d["k"] == k
                             and int(d["m"]) == m and d["spinners"] == "1"
                             and d["dir"] == dirn and "idle_spin" in d
                             and d.get("arch", "x86_64") == arch]
                        idle, during, rel, rel_all, lost = [], [], [], [], []
                        moved = 0
                        for d in v:
                            i, n1 = other_cpus_rate(d, "idle_spin", "idle_ns")
                            t, n2 = other_cpus_rate(d, "spin", "txn_ns")
                            ia, _ = other_cpus_rate(d, "idle_spin", "idle_ns", True)
                            ta, _ = other_cpus_rate(d, "spin", "txn_ns", True)
                            n_other.add(n2)
                            idle.append(i)
                            during.append(t)
                            rel.append(t / i if i > 0 else float("nan"))
                            rel_all.append(ta / ia if ia > 0 else float("nan"))
                            txn_ms = int(d["txn_ns"]) / 1e6
                            lost.append((i - t) * txn_ms / i if i > 0
                                        else float("nan"))
                            moved += d.get("cpu0") != d.get("cpu1")
                        cells += [cell(idle), cell(during),
                                  (f"{median(rel):.2f}" if rel else "-"),
                                  (f"{median(rel_all):.2f}" if rel_all else "-"),
                                  cell(lost),
                                  (f"{moved}/{len(v)}" if v else "-")]
                    if not any(c != "-" for c in cells):
                        continue
                    print(f"| {k} | {m} | {dirn} | "
                          f"{','.join(map(str, sorted(n_other)))} | "
                          + " | ".join(cells) + " |")
    vmlib.print_problems(problems)


if __name__ == "__main__":
    sys.exit(main())
