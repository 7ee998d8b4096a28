# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""What the benchmarks share (ipi-bench.py, poke-bench.py, e2e-bench.py):
their raw lines' key=value fields, the kernels with the bench-only timing
patches, and the numbers of their tables (medians, a cell "median
(min-max)", ratios; NaN prints as "-")."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# the measurement patches: stock's and the series' (see RESULTS.md)
TIMING_PATCH = os.path.join(HERE, "textpoke-timing.patch")
TIMING_PATCH_V3 = os.path.join(HERE, "textpoke-timing-v3.patch")
# kind: (build-kernel.sh's series or stock, the extra patches in order)
TIMING_KINDS = {
    "stock": ("stock", [TIMING_PATCH]),
    "patched": ("patched", [TIMING_PATCH_V3]),
}


def parse_kv(s):
    """the key=value fields of a raw line (words without "=" skipped)"""
    return dict(kv.split("=", 1) for kv in s.split() if "=" in kv)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if not n:
        return float("nan")
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def fmt(x):
    if x != x:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def cell(vals):
    """median (min-max) of a list of values"""
    if not vals:
        return "-"
    if len(vals) == 1:
        return fmt(vals[0])
    return f"{fmt(median(vals))} ({fmt(min(vals))}-{fmt(max(vals))})"


def ratio(a, b, digits=1):
    """a / b as "N.Nx" (DIGITS decimals; no decimals from 100x on)"""
    if a != a or b != b or b <= 0:
        return "-"
    return f"{a / b:.{digits}f}x" if a / b < 100 else f"{a / b:,.0f}x"
