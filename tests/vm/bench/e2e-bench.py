#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""End-to-end benchmark (issue 26, item 4): ddctl as a user runs it,
against the raw control-file write, and a large restore, on the stock
kernel and the series; it prints numbers and asserts nothing about speed.

  tests/vm/bench/e2e-bench.py [--kinds stock,patched] [--labels stock=stock,patched=v3]
        [--reps 3] [--m 4] [--ks 8000,2000] [--parts set,restore]
        [--icount 4] [--base 7.2] [--ddctl /tmp/e2e-build/cli/ddctl]
        [--kdir KIND=DIR,...] [--timeout 7200] [--logdir DIR] [--raw FILE]
  tests/vm/bench/e2e-bench.py --table-only RAWFILE [RAWFILE...]

The kernels are poke-bench.py's: build-kernel.sh with the measurement
patch (DDCTL_EXTRA_PATCHES) textpoke-timing.patch on the stock source
("stock") and textpoke-timing-v3.patch on the series of
kernel-patches/<base>/ ("patched"): /sys/kernel/debug/tpbench/last gives
the kernel's own time of every control-file write (txn_ns, write entry
to return), and on v3's patch of every netlink EXEC too, summed over a
command's transactions in /sys/kernel/debug/tpbench/total.  The
initramfs carries the ddctl of --ddctl (a build dir configured with
-Dvm=true; its libraries go along) and the generated
modules ddctl_sites_20000 and ddctl_sites_K of --ks.  Each kind is booted
once with M vCPUs and ddctl.run=e2ebench (tests/vm/guest/e2ebench.sh),
which measures, per repetition, with the guest's clock (adjtimex, µs;
with --icount, QEMU's -icount shift=N,sleep=off: instructions x 2^N ns,
independent of the host's load):

part "set" (ddctl_sites_20000 and the built-ins loaded):
  raw            printf 'module ddctl_sites_20000 +p' > control (the
                 shell's builtin, one write), and -p
  ddctl          ddctl -y -q set module ddctl_sites_20000 +p / -p: read,
                 plan, commit, read back and compare (the backend ddctl
                 picks: netlink on the series, the control file on stock)
  ddctl-control, ddctl-netlink   the same with -B control / -B netlink
  check          ddctl -y -q -c set ... +p (read and plan, no write)
  list-control, list-netlink     ddctl -B ... list module ddctl_sites_20000
                 (ddctl's own share: reading the whole table)
  cat            cat control (the kernel's text of the table alone)
  version        ddctl --version (process start), empty (the bracket)
  every set is checked afterwards: all class-less sites of the module p
  (on) or none (off); control-file writes add the kernel's txn_ns.

part "restore" (ddctl_sites_K of --ks loaded too, ~30,000 sites): a
  saved debugging state (~30% of the functions of every module whole,
  flags p, pf, pm, pfl, pmf, and one site in 41 of the others p; about a
  third of the sites) is set raw and saved with `ddctl save`; then per
  repetition, from everything off (op reset: '=_', one write):
  restore          ddctl -q restore FILE (the user's view, backend auto)
  restore-control  ddctl -q -B control restore FILE
  restore-check    ddctl -q -c restore FILE (read and plan only)
  restore-nlraw    the same queries as restore-raw below, sent as netlink
                   EXECs of at most the family's QUERIES_MAX (1,024)
                   queries each by the guest's nlexec, as ddctl splits a
                   set over netlink (netlink kernels only)
  restore-raw      the queries restore sends over the control file
                   (captured once with --capture-writes), split into
                   writes of at most the kernel's write limit at query
                   boundaries and written raw: the sum of their txn_ns is
                   the kernel's time of the restore
  saved-raw        the saved file's own queries (module-qualified) written
                   the same way: the kernel's time of that spelling
  allp / allm      '+p' / '-p' over every site, one write each: the
                   kernel's time of a single +p over the same sites
  restore, restore-control and restore-nlraw carry the kernel's time of
  all their transactions (txn_ns, txns: tpbench/total of v3's timing
  patch; absent on stock's).  After each restore the control file's
  flags column must equal the saved state's.  The control file's write
  limit is probed (a comment of 4095 and one of 4096 bytes).

Goals reported (not asserted): ddctl end to end <= 1.5x the raw write at
20,000 sites (verification kept); the series' kernel time of the
restore <= 2x that of the single +p.

Raw lines ("e2e kind=... op=... us=... [txn_ns=...]" and "e2i ..." for
the sizes) are appended to --raw (default LOGDIR/raw.txt) after the
header of vmlib.write_raw_header; the tables are printed from them (also
with --table-only).  Exit status 0 only when every cell has data, every
guest saw M CPUs and every end state was right.  Not part of any test
suite.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "harness"))
import vmlib  # noqa: E402
from benchfmt import TIMING_KINDS, cell, fmt, median, parse_kv, ratio  # noqa: E402

KIND_PATCHES = TIMING_KINDS

# (part, op, dirs, needs netlink): the cells every boot must fill
SET_OPS = [
    ("raw", ("on", "off"), False),
    ("ddctl", ("on", "off"), False),
    ("ddctl-control", ("on", "off"), False),
    ("ddctl-netlink", ("on", "off"), True),
    ("check", ("on",), False),
    ("list-control", ("-",), False),
    ("list-netlink", ("-",), True),
    ("nldump", ("-",), True),
    ("cat", ("-",), False),
    ("version", ("-",), False),
    ("empty", ("-",), False),
]
RESTORE_OPS = [
    ("restore", ("on",), False),
    ("restore-control", ("on",), False),
    ("restore-check", ("on",), False),
    ("restore-nlraw", ("on",), True),
    ("restore-raw", ("on",), False),
    ("saved-raw", ("on",), False),
    ("reset", ("off",), False),
    ("allp", ("on",), False),
    ("allm", ("off",), False),
]
PART_OPS = {"set": SET_OPS, "restore": RESTORE_OPS}
RATIO_OPS = ("raw", "ddctl", "ddctl-control", "ddctl-netlink", "check")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--kinds", default="stock,patched")
    ap.add_argument("--labels", default="stock=stock,patched=v3")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--m", type=int, default=4, help="vCPUs")
    ap.add_argument("--ks", default="8000,2000",
                    help="the other generated modules of part restore")
    ap.add_argument("--parts", default="set,restore")
    ap.add_argument("--icount", type=int, metavar="SHIFT",
                    help="QEMU -icount shift=SHIFT,sleep=off: the guest's "
                         "clock counts instructions (2^SHIFT ns each)")
    ap.add_argument("--ddctl", default=os.path.join(vmlib.REPO, "build", "cli",
                                                    "ddctl"),
                    help="the ddctl binary for the guest (of a -Dvm=true "
                         "build dir)")
    ap.add_argument("--kdir", default="",
                    help="KIND=DIR,...: a finished build-kernel.sh cache "
                         "dir for KIND instead of building it (the tree's "
                         "patches may have moved on since; the raw header "
                         "records what went into DIR)")
    ap.add_argument("--timeout", type=int, default=7200, help="per boot, s")
    ap.add_argument("--logdir", default="/tmp/ddctl-e2e-bench")
    ap.add_argument("--raw", default=None)
    ap.add_argument("--table-only", metavar="RAWFILE", nargs="+")
    ap.add_argument("--base", choices=vmlib.BASES, default="7.2")
    a = ap.parse_args()

    if a.table_only:
        rows, infos = [], []
        for f in a.table_only:
            r, i = read_raw(f)
            rows += r
            infos += i
        print_tables(rows, infos, None)
        return 0

    vmlib.set_base(a.base)
    kinds = a.kinds.split(",")
    labels = dict(x.split("=", 1) for x in a.labels.split(",") if x)
    for kind in kinds:
        if kind not in KIND_PATCHES:
            ap.error(f"--kinds: unknown kind {kind!r} "
                     f"(known: {', '.join(KIND_PATCHES)})")
    if not os.access(a.ddctl, os.X_OK):
        ap.error(f"--ddctl {a.ddctl}: not an executable (meson setup DIR "
                 "-Dvm=true && ninja -C DIR)")
    clock = "real"
    if a.icount is not None:
        os.environ["DDCTL_QEMU_EXTRA"] = f"-icount shift={a.icount},sleep=off"
        clock = f"icount{a.icount}"
    os.makedirs(a.logdir, exist_ok=True)
    raw = a.raw or os.path.join(a.logdir, "raw.txt")
    ks = [int(k) for k in a.ks.split(",") if k]
    parts = a.parts.split(",")
    kdirs = dict(x.split("=", 1) for x in a.kdir.split(",") if x)

    prep = {}
    for kind in kinds:
        series, extra = KIND_PATCHES[kind]
        os.environ["DDCTL_EXTRA_PATCHES"] = " ".join(extra)
        vmlib.log(f"{kind}: kernel (build-kernel.sh {series}, extra "
                  f"{' '.join(os.path.basename(p) for p in extra)})")
        if kind in kdirs:
            kdir = kdirs[kind]
            if not os.path.exists(os.path.join(kdir, "ok")):
                ap.error(f"--kdir {kind}={kdir}: not a finished build")
        else:
            kdir = vmlib.build_kernel(series, use_kdir=False)
        vmlib.build_modules(kdir, [20000] + ks)
        arch = "" if vmlib.ARCH == "x86_64" else "-" + vmlib.ARCH
        initrd = os.path.join(a.logdir, f"initramfs-{kind}{arch}.cpio.gz")
        vmlib.build_initramfs(kdir, initrd, ddctl=a.ddctl)
        prep[kind] = (kdir, initrd)

    problems = []
    rows, infos = [], []
    m = a.m
    with open(raw, "a") as rf:
        vmlib.write_raw_header(rf, "e2e-bench",
                               {kind: prep[kind][0] for kind in kinds}, labels)
        rf.write(f"# ddctl {a.ddctl}\n")
        for kind in kinds:
            kdir, initrd = prep[kind]
            lb = labels.get(kind, kind)
            app = (f"ddctl.reps={a.reps} ddctl.ks={','.join(map(str, ks))} "
                   f"ddctl.parts={','.join(parts)}")
            rundir = os.path.join(a.logdir, f"{kind}-m{m}")
            la0 = open("/proc/loadavg").read().split()[:3]
            vmlib.log(f"boot {kind} M={m} -> {rundir}")
            b = vmlib.boot(kdir, initrd, "e2ebench", rundir, retry=True,
                           smp=m, mem=1024, timeout=a.timeout,
                           extra_append=app)
            la1 = open("/proc/loadavg").read().split()[:3]
            vmlib.log(f"{kind} M={m}: {b.summary()}")
            rf.write(f"# {kind} M={m} clock {clock}: host loadavg before "
                     f"{' '.join(la0)} after {' '.join(la1)}; boot "
                     f"{b.summary()}\n")
            if b.nproc != m:
                problems.append(f"{kind}: guest saw {b.nproc} CPUs, not {m}")
            done = set()
            base = dict(kind=kind, label=lb, m=str(m), arch=vmlib.ARCH,
                        clock=clock, nproc=str(b.nproc))
            for n in b.notes:
                if n.startswith("BENCH-DONE"):
                    done.add(parse_kv(n)["part"])
                if n.startswith(("BENCH-ERR", "E2E-CMD")):
                    problems.append(f"{kind}: {n}")
                if n.startswith(("BENCH-", "E2E-CMD", "E2E-SAVED", "E2E-RQ")):
                    rf.write(f"# {kind}: {n}\n")
                if n.startswith("E2E-INFO "):
                    d = dict(base)
                    d.update(parse_kv(n[len("E2E-INFO "):]))
                    infos.append(d)
                    rf.write("e2i " + " ".join(f"{k}={v}" for k, v
                                                in d.items()) + "\n")
                if n.startswith("E2E "):
                    d = dict(base)
                    d.update(parse_kv(n[4:]))
                    rows.append(d)
                    rf.write("e2e " + " ".join(f"{k}={v}" for k, v
                                                in d.items()) + "\n")
            for line in b.bad_lines:
                problems.append(f"{kind}: {line}")
            missing = [p for p in parts if p not in done]
            if missing:
                problems.append(f"{kind}: {b.status}, parts "
                                f"{','.join(missing)} unfinished")
            rf.flush()
    problems += check_rows(rows, infos, parts, a.reps, m)
    print_tables(rows, infos, problems)
    return 0 if not problems else 1


def check_rows(rows, infos, parts, reps, m):
    """Every cell filled for every rep, every end state right."""
    problems = []
    for d in rows:
        if d.get("ok") != "1":
            problems.append(f"{d['kind']}: {d['part']} {d['op']} {d['dir']} "
                            f"rep {d['rep']}: end state wrong or rc "
                            f"{d.get('rc')}")
        if d.get("nproc") != str(m):
            problems.append(f"{d['kind']}: {d['op']}: nproc {d.get('nproc')}")
    for kind in sorted({d["kind"] for d in rows + infos}):
        nl = any(i.get("netlink") == "1" for i in infos if i["kind"] == kind)
        for part in parts:
            for op, dirs, needs_nl in PART_OPS[part]:
                if needs_nl and not nl:
                    continue
                for dirn in dirs:
                    have = {d["rep"] for d in rows if d["kind"] == kind and
                            d["part"] == part and d["op"] == op and
                            d["dir"] == dirn}
                    want = {str(r) for r in range(1, reps + 1)}
                    if not want <= have:
                        problems.append(f"{kind}: no data for {part} {op} "
                                        f"{dirn} rep {','.join(sorted(want - have))}")
    return problems


def read_raw(path):
    rows, infos = [], []
    for ln in open(path):
        if ln.startswith("e2e "):
            rows.append(parse_kv(ln[4:]))
        elif ln.startswith("e2i "):
            infos.append(parse_kv(ln[4:]))
    return rows, infos


def print_tables(rows, infos, problems):
    if not rows:
        print("(no data)")
        vmlib.print_problems(problems)
        return
    # a column per (label, clock, arch): runs of other clocks side by side
    cols = []
    for d in rows:
        c = (d["label"], d.get("clock", "real"), d.get("arch", "x86_64"))
        if c not in cols:
            cols.append(c)

    def name(c):
        return c[0] + ("" if c[1] == "real" and len(cols) == 1 else
                       f" ({c[1]})") + ("" if c[2] == "x86_64" else f" {c[2]}")

    def sel(c, part, op, dirn, field="us", once=False):
        """the values of a cell; rep 0 is a one-time operation (ONCE)"""
        out = []
        for d in rows:
            if ((d["label"], d.get("clock", "real"), d.get("arch", "x86_64"))
                    == c and d["part"] == part and d["op"] == op and
                    d["dir"] == dirn and field in d and
                    (d.get("rep") == "0") == once):
                out.append(int(d[field]) / (1000 if field == "us" else 1e6))
        return out

    print("guest clock: " + ", ".join(sorted({c[1] for c in cols})) +
          " (real: QEMU's TCG wall clock, which follows the host's load; "
          "icountN: instructions x 2^N ns, deterministic)")
    print("ms; median (min-max) over the repetitions; wall = the guest's "
          "adjtimex bracket around the command (fork/exec of the bracket "
          "included: see 'empty'); txn = the kernel's time of the write(s) "
          "(tpbench txn_ns; a ddctl command's over netlink too where the "
          "timing patch has tpbench/total)")
    for c in cols:
        inf = {}
        for i in infos:
            if (i["label"], i.get("clock", "real"),
                    i.get("arch", "x86_64")) == c:
                inf.update({k: v for k, v in i.items()
                            if k not in ("part",)})
        print(f"\n{name(c)}: kernel {inf.get('kind', '?')}, vCPUs "
              f"{','.join(sorted({d.get('nproc', '?') for d in rows if d['label'] == c[0]}))}, "
              f"ddctl's backend {inf.get('backend', '?')}, netlink "
              f"{'yes' if inf.get('netlink') == '1' else 'no'}, control-file "
              f"write limit {inf.get('write_limit', '?')} bytes")
    if any(d["part"] == "set" for d in rows):
        print("\nPart 1: module ddctl_sites_20000 +p / -p "
              f"({', '.join(sorted({i['sites'] for i in infos if i.get('part') == 'set' and 'sites' in i}))} "
              "class-less sites), the user's commands\n")
        hdr = ["op", "dir"]
        for c in cols:
            hdr += [f"{name(c)} wall", f"{name(c)} txn",
                    f"{name(c)} wall/raw"]
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for op, dirs, _ in SET_OPS:
            for dirn in dirs:
                cells = []
                for c in cols:
                    w = sel(c, "set", op, dirn)
                    t = sel(c, "set", op, dirn, "txn_ns")
                    rawd = dirn if dirn in ("on", "off") else "on"
                    rw = sel(c, "set", "raw", rawd)
                    cells += [cell(w), cell(t),
                              ratio(median(w), median(rw), 2)
                              if w and op in RATIO_OPS else ""]
                if any(x != "-" for x in cells):
                    print(f"| {op} | {dirn} | " + " | ".join(cells) + " |")
        print("\nGoal 1 (reported, not asserted): ddctl end to end <= 1.5x "
              "the raw write; wall over wall, and with the empty bracket "
              "taken off both\n")
        print("| kernel | command | dir | ddctl wall | raw wall | ratio | "
              "ratio, bracket off | goal |")
        print("|---|---|---|---|---|---|---|---|")
        for c in cols:
            e = median(sel(c, "set", "empty", "-"))
            for op in ("ddctl", "ddctl-control", "ddctl-netlink"):
                for dirn in ("on", "off"):
                    w, rw = (median(sel(c, "set", op, dirn)),
                             median(sel(c, "set", "raw", dirn)))
                    if w != w:
                        continue
                    r2 = (w - e) / (rw - e) if rw == rw and e == e and \
                        rw - e > 0 else float("nan")
                    print(f"| {name(c)} | {op} | {dirn} | {fmt(w)} | "
                          f"{fmt(rw)} | {ratio(w, rw, 2)} | "
                          f"{'-' if r2 != r2 else f'{r2:.2f}x'} | "
                          f"{'met' if r2 == r2 and r2 <= 1.5 else 'missed'} |")
        print("\nddctl's share (part 1, median ms): wall of the control-file "
              "set minus the kernel's txn of its write; reading the table "
              "(list), the kernel's text alone (cat), the netlink dump printed "
              "as control-file lines (nldump), the process start "
              "(version), reading and planning (check)\n")
        print("| kernel | ddctl-control on: wall | its txn | wall - txn | "
              "list-control | list-netlink | cat | nldump | check | version "
              "| empty |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for c in cols:
            w = median(sel(c, "set", "ddctl-control", "on"))
            t = median(sel(c, "set", "ddctl-control", "on", "txn_ns"))
            print(f"| {name(c)} | {fmt(w)} | {fmt(t)} | {fmt(w - t)} | "
                  + " | ".join(fmt(median(sel(c, "set", op, d))) for op, d in
                               (("list-control", "-"), ("list-netlink", "-"),
                                ("cat", "-"), ("nldump", "-"), ("check", "on"),
                                ("version", "-"), ("empty", "-"))) + " |")
    if any(d["part"] == "restore" for d in rows):
        print("\nPart 2: the restore of a saved state\n")
        print("| kernel | sites | class-less | modules | sites on | flags "
              "| saved queries (bytes) | restore queries (bytes) | "
              "control-file writes (restore, saved file) | setup: queries, "
              "writes, txn |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for c in cols:
            inf = {}
            for i in infos:
                if (i["label"], i.get("clock", "real"),
                        i.get("arch", "x86_64")) == c:
                    inf.update(i)
            print(f"| {name(c)} | {inf.get('sites', '-')} | "
                  f"{inf.get('classless', '-')} | {inf.get('modules', '-')} | "
                  f"{inf.get('on', '-')} | {inf.get('flags', '-')} | "
                  f"{inf.get('saved_queries', '-')} ({inf.get('saved_bytes', '-')}) | "
                  f"{inf.get('restore_queries', '-')} ({inf.get('restore_bytes', '-')}) | "
                  f"{inf.get('restore_writes', '-')}, "
                  f"{inf.get('saved_writes', '-')} | "
                  f"{inf.get('setup_queries', '-')}, "
                  f"{inf.get('setup_writes', '-')}, "
                  f"{fmt(int(inf['setup_txn_ns']) / 1e6) if 'setup_txn_ns' in inf else '-'} ms |")
        print()
        hdr = ["op", "dir"]
        for c in cols:
            hdr += [f"{name(c)} wall", f"{name(c)} txn"]
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for op, dirs, _ in RESTORE_OPS:
            for dirn in dirs:
                cells = []
                for c in cols:
                    cells += [cell(sel(c, "restore", op, dirn)),
                              cell(sel(c, "restore", op, dirn, "txn_ns"))]
                print(f"| {op} | {dirn} | " + " | ".join(cells) + " |")
        # once, before the repetitions: ddctl save of the state
        cells = []
        for c in cols:
            cells += [cell(sel(c, "restore", "save", "-", once=True)), "-"]
        print("| save | - | " + " | ".join(cells) + " |")
        print("\nGoal 2 (reported, not asserted): the kernel's time of the "
              "restore <= 2x that of a single '+p' over the same sites "
              "(allp), median ms: its queries as control-file writes "
              "(restore-raw: sum of txn over its writes), as netlink "
              "transactions of up to QUERIES_MAX queries (restore-nlraw), "
              "and `ddctl restore` itself (its transactions, the backend "
              "ddctl picks)\n")
        print("| kernel | +p txn | restore-raw txn (writes) | ratio | "
              "restore-nlraw txn (sets) | ratio | ddctl restore txn (txns) | "
              "ratio | goal (ddctl restore) | saved file's spelling: txn "
              "(writes) | its ratio | ddctl restore wall | wall / its txn |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")

        def field(c, op, f):
            return ",".join(sorted({d.get(f) for d in rows
                                    if d["op"] == op and d["label"] == c[0]
                                    and d.get(f)}))

        for c in cols:
            rt = median(sel(c, "restore", "restore-raw", "on", "txn_ns"))
            nt = median(sel(c, "restore", "restore-nlraw", "on", "txn_ns"))
            dt = median(sel(c, "restore", "restore", "on", "txn_ns"))
            st = median(sel(c, "restore", "saved-raw", "on", "txn_ns"))
            pt = median(sel(c, "restore", "allp", "on", "txn_ns"))
            rw = median(sel(c, "restore", "restore", "on"))
            # the user's restore; without its own txn (stock's timing
            # patch has no tpbench/total) its control-file writes'
            ut = dt if dt == dt else rt
            goal = ("-" if ut != ut or pt != pt or pt <= 0 else
                    "met" if ut / pt <= 2 else "missed")
            print(f"| {name(c)} | {fmt(pt)} | {fmt(rt)} "
                  f"({field(c, 'restore-raw', 'writes')}) | {ratio(rt, pt, 2)} | "
                  f"{fmt(nt)} ({field(c, 'restore-nlraw', 'writes')}) | "
                  f"{ratio(nt, pt, 2)} | {fmt(dt)} "
                  f"({field(c, 'restore', 'txns')}) | {ratio(dt, pt, 2)} | "
                  f"{goal} | {fmt(st)} ({field(c, 'saved-raw', 'writes')}) | "
                  f"{ratio(st, pt, 2)} | {fmt(rw)} | "
                  f"{ratio(rw, ut, 2)} |")
        parts = ("queue_ns", "apply_ns", "ddebug_lock_ns")
        if any(d.get(parts[0]) for d in rows):
            print("\nWhere the kernel's time goes (median ms, summed over "
                  "the writes): the jump label queue and apply calls, the "
                  "hold of ddebug_lock (matching, queueing and applying), "
                  "and the rest of the write (txn - ddebug_lock: parsing, "
                  "the copy from user space)\n")
            print("| kernel | op | txn | ddebug_lock | of it queue | of it apply "
                  "| ddebug_lock - queue - apply | txn - ddebug_lock |")
            print("|---|---|---|---|---|---|---|---|")
            for c in cols:
                for op, dirn in (("restore", "on"), ("restore-control", "on"),
                                 ("restore-nlraw", "on"),
                                 ("restore-raw", "on"), ("saved-raw", "on"),
                                 ("allp", "on"), ("allm", "off")):
                    t, q, a, lk = (median(sel(c, "restore", op, dirn, f))
                                   for f in ("txn_ns",) + parts)
                    if q != q:
                        continue
                    print(f"| {name(c)} | {op} | {fmt(t)} | {fmt(lk)} | "
                          f"{fmt(q)} | {fmt(a)} | {fmt(lk - q - a)} | "
                          f"{fmt(t - lk)} |")
    vmlib.print_problems(problems)


if __name__ == "__main__":
    sys.exit(main())
