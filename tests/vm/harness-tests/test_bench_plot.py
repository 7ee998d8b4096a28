#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The benchmarks' printing and plotting code on the recorded raw data of
tests/vm/bench/ (no QEMU, TAP): poke-bench.py --table-only prints every
table with a row per recorded cell, e2e-bench.py --table-only a row per
recorded operation and the goals of its parts, and ipi-bench.py --plot draws one PNG
per architecture of the recorded files (a SKIP where matplotlib is
missing)."""
import glob
import re
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "bench")
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tap import Tap  # noqa: E402

tap = Tap()
check = tap.check


def run(*argv):
    p = subprocess.run([sys.executable] + list(argv), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


poke_raws = sorted(glob.glob(os.path.join(BENCH, "raw-poke-*.txt")))
check("poke-bench raw data is recorded", poke_raws, "no tests/vm/bench/raw-poke-*.txt")
for raw in poke_raws:
    name = os.path.basename(raw)
    cells = {(d["label"], d["k"], d["m"], d["spinners"], d["dir"])
             for d in (dict(kv.split("=", 1) for kv in ln.split()[1:] if "=" in kv)
                       for ln in open(raw) if ln.startswith("pb "))}
    rc, out, err = run(os.path.join(BENCH, "poke-bench.py"), "--table-only", raw)
    check(f"{name}: --table-only exits 0", rc == 0, err)
    rows = [ln for ln in out.splitlines() if ln.startswith("| ") and "| txn |" in ln]
    # one txn row per (K, M, spin, dir), all labels side by side in it
    want = {(k, m, s, d) for _, k, m, s, d in cells}
    check(f"{name}: a txn row per recorded K, M, spinners and direction",
          len(rows) == len(want), f"{len(rows)} rows for {len(want)} cells\n{out[-2000:]}")
    labels = sorted({c[0] for c in cells})
    check(f"{name}: every kind is a column ({', '.join(labels)})",
          all(lb in out for lb in labels), out[:2000])
    spun = any(c[3] == "1" for c in cells)
    check(f"{name}: the other CPUs' table has rows exactly when the spinners ran",
          "calls per ms" in out and spun == any(ln.startswith("| ") and " | on | " in ln
                                                for ln in out.splitlines()), out[-2000:])

e2e_raws = sorted(glob.glob(os.path.join(BENCH, "raw-e2e-*.txt")))
check("e2e-bench raw data is recorded", e2e_raws, "no tests/vm/bench/raw-e2e-*.txt")
for raw in e2e_raws:
    name = os.path.basename(raw)
    recs = [dict(kv.split("=", 1) for kv in ln.split()[1:] if "=" in kv)
            for ln in open(raw) if ln.startswith("e2e ")]
    rc, out, err = run(os.path.join(BENCH, "e2e-bench.py"), "--table-only", raw)
    check(f"{name}: --table-only exits 0", rc == 0, err)
    rows = [ln for ln in out.splitlines() if ln.startswith("| ")]
    # every recorded (part, op, dir) has its row in its part's table
    want = {(d["part"], d["op"], d["dir"]) for d in recs}
    missing = [c for c in want if not any(ln.startswith(f"| {c[1]} | {c[2]} |")
                                          for ln in rows)]
    check(f"{name}: a row per recorded operation and direction ({len(want)})",
          recs and not missing, f"missing {missing}\n{out[-2000:]}")
    labels = sorted({d["label"] for d in recs})
    check(f"{name}: every kind is a column ({', '.join(labels)})",
          all(f"{lb} " in out for lb in labels), out[:2000])
    # goal 1 is the "set" part's, goal 2 the "restore" part's (--parts)
    parts = {d["part"] for d in recs}
    goals = [g for g, p in (("Goal 1", "set"), ("Goal 2", "restore")) if p in parts]
    check(f"{name}: the goals of its parts are reported ({', '.join(goals)})",
          goals and all(g in out for g in goals), out[-2000:])

raws = sorted(glob.glob(os.path.join(BENCH, "raw-*.txt")))
tmp = tempfile.mkdtemp(prefix="ddctl-plot-")
rc, out, err = run(os.path.join(BENCH, "ipi-bench.py"), "--plot", *raws,
                   "--plot-out", tmp, "--ms", "2,4")
if rc and "needs matplotlib" in err:
    tap.skip("ipi-bench.py --plot draws the recorded data", err.strip())
else:
    check("ipi-bench.py --plot exits 0", rc == 0, err)
    pngs = sorted(glob.glob(os.path.join(tmp, "plot-*.png")))
    # every architecture a raw file names (its header's "arch X", its
    # lines' arch=X), and the two the oldest files leave unnamed
    archs = {"x86_64", "arm64"}
    for raw in raws:
        with open(raw) as fp:
            for head, field in re.findall(r"^# base \S+ arch (\w+)| arch=(\w+)",
                                          fp.read(), re.M):
                archs.add(head or field)
    want = sorted(f"plot-{a}.png" for a in archs)
    check(f"one plot per architecture ({', '.join(sorted(archs))})",
          [os.path.basename(p) for p in pngs] == want, f"{pngs}\n{out}")
    for p in pngs:
        with open(p, "rb") as fp:
            head = fp.read(8)
        check(f"{os.path.basename(p)} is a PNG of some size",
              head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(p) > 10000,
              f"{head!r} {os.path.getsize(p)} bytes")
    check("--plot prints the files it wrote", sorted(out.split()) == pngs, out)
tap.finish()
