# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The numbers of the benchmarks' tables (poke-bench.py, e2e-bench.py):
medians, a cell "median (min-max)", ratios; NaN prints as "-"."""


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
