#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""IPI benchmark, per key toggle and per transaction: stock vs part 1 vs part 2 (6.12),
static-key toggles.

  tests/vm/bench/ipi-bench.py [--ms 2,3,4,5] [--ks b,2000,20000] [--reps 3]
        [--reps-k 20000=2] [--kinds stock,patched] [--timeout 3600]
        [--modes a,b] [--nl-kinds patched] [--ddctl PATH]
        [--logdir /tmp/ddctl-ipi-bench] [--raw FILE] [--table-only RAWFILE]
        [--base 6.12|7.2]   (DDCTL_ARCH=arm64|riscv64: that guest)
  tests/vm/bench/ipi-bench.py --plot RAWFILE... [--plot-out DIR] [--ms 2,4]

--base (default $DDCTL_KBASE, else 6.12) picks the kernel base and its
series, as for vmtest.py; the raw file records it in a "# base" line.

Transactions (three kernels, netlink):
  tests/vm/bench/ipi-bench.py --kinds stock,part1,patched --modes z,p \
        --ks 100,2000,20000 --ms 2,3,4,5 ...
  modes z (net-zero "ON ; OFF", one write) and p ("ON" one write, reset
  "module ddctl_sites_K =_" outside the measurement); on the --nl-kinds
  (default patched = the whole series) also nz/np, the same sets as one
  netlink DYNDBG_CMD_EXEC (tests/vm/nlexec, put into the initramfs from
  the meson build dir of --ddctl). The table then has one row per
  (K, M, set) with stock, part 1, part 2 control file and part 2 netlink
  side by side, ratios and the model (stock 3(M-1) per key per toggle,
  part 1 3(M-1) per 256 keys per toggle, part 2 3(M-1) per transaction
  that changes a key, 0 for a net-zero one). Add mode e (and ne on the
  netlink kinds) for the noise floor: the same bracket around nothing
  (around a netlink dry run that matches nothing), per K and kind.

Per key toggle (the defaults, modes a,b):

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

--plot draws, from raw files of this script (its "run" lines: "+p" over
K keys, IPIs less the idle rate, the guest's wall time) and of
poke-bench.py (its "pb" lines: "on" with the spinners asleep, the raw IPI
bracket and the kernel's own transaction time), IPIs and time against K,
log-log, one line per kind (poke-bench's label: stock, v2, v3) and vCPU
count (--ms), one PNG per architecture: DIR/plot-ARCH.png (--plot-out,
default this directory). Needs matplotlib (python3-matplotlib).
"""
import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "harness"))
import vmlib  # noqa: E402
from benchfmt import parse_kv  # noqa: E402

BENCH_RE = re.compile(r"^BENCH (.*)$")


def model(kind, m, keys):
    if kind == "stock":
        return 6 * (m - 1) * keys
    return 2 * math.ceil(keys / 256) * 3 * (m - 1)


def sync_ipis(m):
    """function-call IPIs of one architecture flush of the jump-label
    queue: x86 text_poke_bp_batch() = 3 text_poke_sync() rounds, 3(M-1);
    arm64 arch_jump_label_transform_apply() = one kick_all_cpus_sync(),
    M-1 (the instructions are written at queue time); riscv64 the same
    with one flush_icache_all() = on_each_cpu() (S-mode IPIs: -M
    virt,aia=aplic-imsic), M-1"""
    return (m - 1) if vmlib.ARCH in ("arm64", "riscv64") else 3 * (m - 1)


def flush_model_text():
    return {"arm64": "arm64, M-1 IPIs per kick_all_cpus_sync(): ",
            "riscv64": "riscv64, M-1 IPIs per flush_icache_all() "
                       "(on_each_cpu()): "}.get(
        vmlib.ARCH, "int3 protocol, 3(M-1) IPIs per text_poke_bp_batch(): ")


def model4(kind, m, keys, mode):
    """IPIs per transaction; mode z = net-zero (2 toggles of each
    key), p = one toggle of each key"""
    toggles = 2 if mode.endswith("z") else 1
    if kind == "stock":
        return toggles * keys * sync_ipis(m)
    if kind == "part1":
        return toggles * math.ceil(keys / 256) * sync_ipis(m)
    return 0 if toggles == 2 else sync_ipis(m)


def boot_bench(kind, kdir, initrd, m, ks, reps, reps_k, timeout, logdir,
               tag="", modes=None):
    app = f"ddctl.ks={','.join(ks)} ddctl.reps={reps}"
    if modes:
        app += f" ddctl.modes={','.join(modes)}"
    for k, r in reps_k.items():
        app += f" ddctl.reps{k}={r}"
    rundir = os.path.join(logdir, f"{kind}-m{m}{tag}")
    vmlib.log(f"boot {kind} M={m} ks={','.join(ks)} reps={reps} "
              f"{reps_k or ''} modes={modes} (timeout {timeout}s) -> {rundir}")
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
    ap.add_argument("--modes", default="a,b",
                    help="a,b (per key toggle) or z,p (transactions); see above")
    ap.add_argument("--nl-kinds", default="patched",
                    help="kinds that also run the netlink modes nz/np "
                         "(only with --modes z,p)")
    ap.add_argument("--ddctl", default=os.path.join(vmlib.REPO, "build",
                                                     "cli", "ddctl"),
                    help="ddctl binary of a meson build dir whose "
                         "tests/vm/nlexec goes into the initramfs "
                         "(netlink modes only)")
    ap.add_argument("--logdir", default="/tmp/ddctl-ipi-bench")
    ap.add_argument("--raw", default=None,
                    help="append raw per-run lines here "
                         "(default LOGDIR/raw.txt)")
    ap.add_argument("--table-only", metavar="RAWFILE",
                    help="only print the table of an existing raw file")
    ap.add_argument("--base", choices=vmlib.BASES, default=vmlib.BASE,
                    help="kernel base (default $DDCTL_KBASE or 6.12)")
    ap.add_argument("--plot", nargs="+", metavar="RAWFILE",
                    help="draw IPIs and time against K from these raw files")
    ap.add_argument("--plot-out", default=HERE, metavar="DIR",
                    help="where --plot writes plot-ARCH.png")
    a = ap.parse_args()
    vmlib.set_base(a.base)

    if a.plot:
        ms = {int(x) for x in a.ms.split(",")}
        for path in plot(a.plot, a.plot_out, ms):
            print(path)
        return 0

    if a.table_only:
        runs = [parse_kv(ln) for ln in open(a.table_only)
                if ln.startswith("run ")]
        if any(d["mode"] in ("z", "p", "nz", "np", "e") for d in runs):
            print_table4(runs, None)
        else:
            print_table(runs, None)
        return 0

    ms = [int(x) for x in a.ms.split(",")]
    ks = a.ks.split(",")
    kinds = a.kinds.split(",")
    reps_k = dict(x.split("=") for x in a.reps_k.split(",") if x)
    os.makedirs(a.logdir, exist_ok=True)
    raw = a.raw or os.path.join(a.logdir, "raw.txt")
    sizes = [int(k) for k in ks if k != "b"]
    modes = a.modes.split(",")
    nl_kinds = a.nl_kinds.split(",") if a.nl_kinds else []
    transactions = any(x in ("z", "p", "e") for x in modes)

    def kind_modes(kind):
        if not transactions:
            return modes if modes != ["a", "b"] else None
        return modes + (["n" + x for x in modes if x in ("z", "p", "e")]
                        if kind in nl_kinds else [])

    prep = {}
    for kind in kinds:
        kdir = vmlib.build_kernel(kind)
        vmlib.build_modules(kdir, sizes)
        initrd = os.path.join(a.logdir, f"initramfs-{kind}"
                              f"{'' if vmlib.ARCH == 'x86_64' else '-' + vmlib.ARCH}"
                              f".cpio.gz")
        # no ddctl binary: the benchmark writes the control file itself;
        # the netlink modes need nlexec (copied from ddctl's build dir)
        nl = transactions and kind in nl_kinds
        if nl and not os.path.exists(os.path.join(
                os.path.dirname(a.ddctl), "..", "tests", "vm", "nlexec")):
            sys.exit(f"netlink modes: no tests/vm/nlexec next to {a.ddctl} "
                     f"(ninja -C build)")
        vmlib.build_initramfs(kdir, initrd,
                              ddctl=a.ddctl if nl else "/nonexistent")
        prep[kind] = (kdir, initrd)
        vmlib.log(f"{kind}: {kdir} ({open(os.path.join(kdir, 'kernelrelease')).read().strip()})")

    runs = []
    problems = []
    with open(raw, "a") as rf:
        vmlib.write_raw_header(rf, "ipi-bench",
                               {kind: prep[kind][0] for kind in kinds})
        for m in ms:
            for kind in kinds:
                kdir, initrd = prep[kind]
                todo = list(ks)
                r_reps, r_k = a.reps, dict(reps_k)
                for attempt in range(2):
                    la0 = open("/proc/loadavg").read().split()[:3]
                    b = boot_bench(kind, kdir, initrd, m, todo, r_reps, r_k,
                                   a.timeout, a.logdir,
                                   "" if attempt == 0 else f".retry{attempt}",
                                   modes=kind_modes(kind))
                    la1 = open("/proc/loadavg").read().split()[:3]
                    rf.write(f"# {kind} M={m}: host loadavg before "
                             f"{' '.join(la0)} after {' '.join(la1)}\n")
                    if b.nproc != m:
                        problems.append(f"{kind} M={m}: guest saw "
                                        f"{b.nproc} CPUs")
                    done = set()
                    for n in b.notes:
                        if n.startswith("BENCH-DONE"):
                            done.add(parse_kv(n)["k"])
                        if n.startswith("BENCH-ERR"):
                            problems.append(f"{kind} M={m}: {n}")
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
                (print_table4 if transactions else print_table)(runs, None,
                                                          partial=True)
    print()
    (print_table4 if transactions else print_table)(runs, problems)
    return 0 if not problems else 1


def plot_series(paths, ms):
    """{arch: {(label, m, source): {k: [(ipis, ms), ...]}}} from raw files:
    ipi-bench "run" lines of mode p (source "wall": IPIs less the idle
    rate, the guest's wall time) and poke-bench "pb" lines of dir=on,
    spin=0 (source "kernel": the raw IPI bracket, the kernel's txn time)"""
    out, srcs = {}, {}
    for path in paths:
        arch, base = "x86_64", "?"
        for ln in open(path):
            if ln.startswith("#"):
                w = ln.split()
                if "arch" in w[:-1]:
                    arch = w[w.index("arch") + 1]
                if "BENCH-START" in w:
                    base = ".".join(w[w.index("BENCH-START") + 1]
                                    .split(".")[:2])
                continue
            if ln.startswith("run "):
                d = parse_kv(ln[4:])
                if d.get("mode") != "p" or d["k"] == "b":
                    continue
                us, ius = int(d["us"]), max(1, int(d["idle_us"]))
                ipis = int(d["cal"]) - int(d["idle_cal"]) * us / ius
                key = (f"{d['kind']} {base}", int(d["m"]), "wall")
                val = (ipis, us / 1000)
            elif ln.startswith("pb "):
                d = parse_kv(ln[3:])
                if d.get("dir") != "on" or d.get("spinners") != "0":
                    continue
                # arm64 boots that measured each write with the per-write
                # timers too: the time without them, as the tables' txn
                if d.get("a64") == "1":
                    continue
                arch = d.get("arch", arch)
                key = (f"{d['label']} {base}", int(d["m"]),
                       f"kernel, {d.get('clock', 'real')} clock")
                val = (int(d["cal"]), int(d["txn_ns"]) / 1e6)
            else:
                continue
            if key[1] not in ms:
                continue
            out.setdefault(arch, {}).setdefault(key, {}) \
               .setdefault(int(d["k"]), []).append(val)
            srcs.setdefault(arch, [])
            if os.path.basename(path) not in srcs[arch]:
                srcs[arch].append(os.path.basename(path))
    return out, srcs


def plot(paths, outdir, ms):
    """plot-ARCH.png per architecture in OUTDIR; returns the paths"""
    try:
        import matplotlib
    except ImportError:
        # Debian's python3-matplotlib is for Debian's python3; another
        # python3 first in PATH (pyenv) does not see it
        deb = "/usr/bin/python3"
        if (os.path.exists(deb) and os.path.realpath(sys.executable)
                != os.path.realpath(deb)
                and not os.environ.get("DDCTL_PLOT_REEXEC")):
            os.environ["DDCTL_PLOT_REEXEC"] = "1"
            sys.stdout.flush()
            os.execv(deb, [deb, os.path.abspath(sys.argv[0])] + sys.argv[1:])
        sys.exit("ipi-bench.py --plot: needs matplotlib "
                 "(apt-get install python3-matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    written = []
    styles = ["-", "--", ":", "-."]
    data, srcs = plot_series(paths, ms)
    for arch, series in sorted(data.items()):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
        labels = sorted({s[0] for s in series})
        colors = {lb: f"C{i}" for i, lb in enumerate(labels)}
        msl = sorted({s[1] for s in series})
        for (label, m, source), byk in sorted(series.items()):
            ks = sorted(byk)
            ipis = [max(1, median([v[0] for v in byk[k]])) for k in ks]
            tms = [median([v[1] for v in byk[k]]) for k in ks]
            kw = dict(color=colors[label], marker="o" if source.startswith("kernel")
                      else "s", linestyle=styles[msl.index(m) % len(styles)],
                      label=f"{label} M={m} ({source})")
            ax1.plot(ks, ipis, **kw)
            ax2.plot(ks, tms, **kw)
        for ax, what in ((ax1, "function-call IPIs per transaction"),
                         (ax2, "time per transaction (ms)")):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("K (keys turned on in one write)")
            ax.set_ylabel(what)
            ax.grid(True, which="both", alpha=0.3)
        ax1.legend(fontsize=7)
        ax1.set_title("kernel: poke-bench's raw IPI bracket\nwall: "
                      "ipi-bench's, less the idle rate (clamped at 1)",
                      fontsize=8)
        ax2.set_title("kernel: the write's own time (textpoke-timing.patch;\n"
                      "icount clock: instructions x 16 ns); wall: guest "
                      "bracket, TCG wall clock", fontsize=8)
        fig.suptitle(f"dynamic debug '+p' over K keys, {arch}, QEMU TCG "
                     f"(sources: {', '.join(srcs[arch])})",
                     fontsize=9)
        fig.tight_layout()
        path = os.path.join(outdir, f"plot-{arch}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def n0(x):
    """integer with thousands separators; no "-0" """
    return "-" if math.isnan(x) else f"{round(x) + 0:,}"


def collect(runs):
    cells = {}
    for d in runs:
        key = (d["k"], int(d["m"]), d["mode"], d["kind"])
        us, ius = int(d["us"]), max(1, int(d["idle_us"]))
        scale = us / ius
        c = cells.setdefault(key, {"net": [], "tlb": [], "ms": [],
                                   "keys": set(), "ncpu": set(),
                                   "idle": [], "nl_keys": set(), "raw": []})
        c["net"].append(int(d["cal"]) - int(d["idle_cal"]) * scale)
        c["tlb"].append(int(d["tlb"]) - int(d["idle_tlb"]) * scale)
        c["ms"].append(us / 1000)
        c["idle"].append(int(d["idle_cal"]))
        c["raw"].append(int(d["cal"]))
        c["keys"].add(int(d["keys"]))
        c["ncpu"].add((int(d["nproc"]), int(d["ncpuinfo"])))
        if d.get("nl_keys"):
            c["nl_keys"].add(int(d["nl_keys"]))
    return cells


def ratio(x, y):
    """x / y for IPI counts; y within the idle noise (< 1) -> ">=x" """
    if math.isnan(x) or math.isnan(y):
        return "-"
    if y < 1:
        return f">={x:,.0f}x"
    return f"{x / y:,.0f}x" if x / y >= 10 else f"{x / y:.1f}x"


def print_table4(runs, problems, partial=False):
    """One row per (K, M, set): stock | part 1 | part 2 ctl |
    part 2 netlink"""
    cells = collect(runs)
    if not cells:
        print("(no data yet)")
        return
    cols = (("stock", "stock", ""), ("part1", "part1", ""),
            ("p2 ctl", "patched", ""), ("p2 nl", "patched", "n"))
    ks = sorted({c[0] for c in cells}, key=lambda k: -1 if k == "b" else int(k))
    ms = sorted({c[1] for c in cells})
    print(("partial " if partial else "") + "table (transactions):")
    hdr = ("| K | keys | M | cpus | set | R s/1/2c/2n | CAL stock | CAL part1 "
           "| CAL p2 ctl | CAL p2 nl | model stock | model part1 | model p2 "
           "| stock/part1 | stock/p2 ctl | part1/p2 ctl | p2 ctl/p2 nl "
           "| TLB s/1/2c/2n | ms stock | ms part1 | ms p2 ctl | ms p2 nl "
           "| ms stock/part1 | ms stock/p2 ctl | ms part1/p2 ctl |")
    print(hdr)
    print("|" + "---|" * (hdr.count("|") - 1))
    for k in ks:
        for m in ms:
            for mode in ("z", "p", "e"):
                cs = [cells.get((k, m, pre + mode, kind))
                      for _, kind, pre in cols]
                if not any(cs):
                    continue
                keys = sorted(set().union(*(c["keys"] for c in cs if c)))
                kk = keys[0]
                ncpu = sorted(set().union(*(c["ncpu"] for c in cs if c)))
                cpus = ",".join(f"{x}" if x == y else f"{x}/{y}"
                                for x, y in ncpu)
                if len(ncpu) != 1 or ncpu[0] != (m, m):
                    cpus += " (!)"
                net = [mean(c["net"]) if c else float("nan") for c in cs]
                tlb = [mean(c["tlb"]) if c else float("nan") for c in cs]
                wall = [mean(c["ms"]) if c else float("nan") for c in cs]
                reps = "/".join(str(len(c["net"])) if c else "-" for c in cs)
                label = "all" if k == "b" else f"mod {k}"
                set_s = {"z": '"+p ; -p" (net 0)', "p": '"+p"',
                         "e": "(nothing: noise floor)"}[mode]
                mr = [("-" if math.isnan(x) or math.isnan(y) or y <= 0
                       else f"{x / y:.1f}x")
                      for x, y in ((wall[0], wall[1]), (wall[0], wall[2]),
                                   (wall[1], wall[2]))]
                print(f"| {label} | {'/'.join(map(str, keys))} | {m} | {cpus} "
                      f"| {set_s} | {reps} | "
                      + " | ".join(n0(x) for x in net) + " | "
                      + (" | ".join(f"{model4(x, m, kk, mode):,}"
                                    for x in ("stock", "part1", "patched"))
                         if mode != "e" else "0 | 0 | 0") + " | "
                      f"{ratio(net[0], net[1])} | {ratio(net[0], net[2])} | "
                      f"{ratio(net[1], net[2])} | {ratio(net[2], net[3])} | "
                      + "/".join(n0(x) for x in tlb) + " | "
                      + " | ".join(n0(x) for x in wall) + " | "
                      + " | ".join(mr) + " |")
    print()
    print("(CAL/TLB: mean over R of the count during the transaction minus "
          "the idle count scaled to its length, summed over all CPUs; ms: "
          "wall time of the transaction in the guest; model: "
          + flush_model_text() + "stock per "
          + "key per toggle, part 1 per <=256 keys per toggle, part 2 per "
          "transaction that changes a key, 0 for a net-zero one)")
    # the cover letter's layout: raw counts (no idle subtraction), median
    print()
    print("raw CAL counts during the transaction (no idle subtraction), "
          "median over R (the cover letter's layout):")
    print()
    print("  K     set      M | stock  | 1-4   | 1-7 ctl | 1-7 nl | "
          + ("  M-1" if sync_ipis(2) == 1 else "3(M-1)")
          + " | floor ctl/nl")
    print("  ------------------+--------+-------+---------+--------+-------"
          "+-------------")
    for k in ks:
        for mode in ("z", "p"):
            for m in ms:
                cs = [cells.get((k, m, pre + mode, kind))
                      for _, kind, pre in cols]
                if not any(cs):
                    continue
                fl = [cells.get((k, m, pre + "e", "patched"))
                      for pre in ("", "n")]
                med = [f"{median(c['raw']):g}" if c else "-"
                       for c in cs + fl]
                print(f"  {k:<5} {'+p;-p' if mode == 'z' else '+p':<8} {m} |"
                      f" {med[0]:>6} | {med[1]:>5} | {med[2]:>7} |"
                      f" {med[3]:>6} | {sync_ipis(m):>5} | {med[4]}/{med[5]}")
    # every "IPIn:" row (arm64, riscv64; bench.sh's ipi=, absent in
    # older raw files and 0 on x86): what else the write sends
    ipis = {}
    for d in runs:
        if "ipi" in d:
            ipis.setdefault((d["k"], int(d["m"]), d["mode"], d["kind"]),
                            []).append((int(d["ipi"]), int(d["idle_ipi"]),
                                        int(d["cal"])))
    if any(v[0] for vs in ipis.values() for v in vs):
        print()
        print("all IPIn rows summed over the CPUs (raw, median over R; "
              "idle: the same-length idle bracket; CAL: its Function call "
              "row):")
        print()
        print("  K     set      M | kind     | IPIs  | idle | CAL   | "
              "keys  | IPIs/key")
        for (k, m, md, kind), vs in sorted(ipis.items()):
            keys = next((int(d["keys"]) for d in runs
                         if d["k"] == k and d["mode"] == md), 0)
            mi = median([v[0] for v in vs])
            print(f"  {k:<5} {md:<8} {m} | {kind:<8} | {mi:>5g} |"
                  f" {median([v[1] for v in vs]):>4g} |"
                  f" {median([v[2] for v in vs]):>5g} | {keys:>5} |"
                  f" {mi / keys if keys else float('nan'):.3f}")
    nlk = {(k, m, md): sorted(c["nl_keys"]) for (k, m, md, kind), c
           in cells.items() if c["nl_keys"]}
    if nlk:
        print("netlink keys_patched reported: " + "; ".join(
            f"K={k} M={m} {md}: {'/'.join(map(str, v))}"
            for (k, m, md), v in sorted(nlk.items())))
    vmlib.print_problems(problems)


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
    vmlib.print_problems(problems)


if __name__ == "__main__":
    sys.exit(main())
