#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The shape of the kernel series in kernel-patches/, checked on the tree (TAP).

usage: test_series.py SRCDIR

For each base (7.2, 6.12), kernel-patches/BASE/ holds per-tree sub-series
(kernel-patches/README.md): one directory per tree, N-TREE/, with a
0000-cover-letter.patch and its patches, and BASE/series listing every patch
in the order they apply. Fails when
  - series names a file that does not exist, or a patch of a sub-series
    is not in series, or series is not ordered by sub-series;
  - a sub-series' subjects are not numbered [PATCH v3 i/N] from 1 to N
    with its cover letter [PATCH v3 0/N], or the two bases' sub-series
    differ in name or in patch count;
  - a patch or cover letter carries a Signed-off-by (a person signs when
    posting: kernel-patches/prepare-posting.sh), or a tag that names the
    project's own address;
  - a cover letter is longer than COVER_MAX lines, or has no Link: to
    the prior work it credits;
  - the uapi header of the netlink family differs between the bases in
    its attributes, commands, limits or version (same family version =
    same attributes; a callsite flag bit may be missing from the base
    whose kernel lacks the flag, 6.12's "d", but a bit both have has one
    value), or libddctl's copy differs from the mainline one's.

Each check first runs on a small synthetic tree that breaks it, so a
check that can no longer fail fails too.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tap import Tap  # noqa: E402

BASES = ("7.2", "6.12")
COVER_MAX = 160
PROJECT_ADDR = "ddctl@example.org"
SUBJ = re.compile(r"^Subject: \[PATCH v3 (\d+)/(\d+)\]", re.M)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def series_lines(base_dir):
    out = []
    for line in read(os.path.join(base_dir, "series")).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


# 7.2 patches that the 6.12 backport does not carry, per sub-series, by
# their file name's slug (after "NNNN-"): the page-wise text poking, a
# speed-up a stable backport does not need (kernel-patches/README.md)
NOT_BACKPORTED = {"1-tip": ("x86-alternative-write-a-page-s-text-poke-sites",)}


def subseries(base_dir):
    """{name: sorted patch file names} of the N-TREE/ directories."""
    subs = {}
    for d in sorted(os.listdir(base_dir)):
        p = os.path.join(base_dir, d)
        if os.path.isdir(p) and re.match(r"^\d+-[a-z0-9-]+$", d):
            subs[d] = sorted(f for f in os.listdir(p) if f.endswith(".patch"))
    return subs


def check_layout(base_dir):
    """Problems of series against the sub-series directories."""
    errs = []
    subs = subseries(base_dir)
    if not subs:
        return ["no N-TREE/ sub-series directories in %s" % base_dir]
    lines = series_lines(base_dir)
    for line in lines:
        if not os.path.isfile(os.path.join(base_dir, line)):
            errs.append("series names %s, which does not exist" % line)
    want = [d + "/" + f for d, fs in subs.items() for f in fs
            if not f.startswith("0000-")]
    if lines != want:
        errs.append("series is not the sub-series' patches in order:\n  series: %s\n  tree:   %s"
                    % (lines, want))
    return errs


def check_numbering(base_dir):
    errs = []
    for d, files in subseries(base_dir).items():
        if not files or not files[0].startswith("0000-cover-letter"):
            errs.append("%s: no 0000-cover-letter.patch" % d)
            continue
        n = len(files) - 1
        for i, f in enumerate(files):
            m = SUBJ.search(read(os.path.join(base_dir, d, f)))
            if not m or (int(m.group(1)), int(m.group(2))) != (i, n):
                errs.append("%s/%s: subject is not [PATCH v3 %d/%d]" % (d, f, i, n))
    return errs


def check_signoff(base_dir):
    errs = []
    for d, files in subseries(base_dir).items():
        for f in files:
            text = read(os.path.join(base_dir, d, f))
            head = text.split("\n---\n", 1)[0]
            if re.search(r"^Signed-off-by:", head, re.M):
                errs.append("%s/%s: carries a Signed-off-by (the poster adds it)" % (d, f))
            for tag in re.findall(r"^[A-Z][A-Za-z-]+-by: .*$", head, re.M):
                if PROJECT_ADDR in tag:
                    errs.append("%s/%s: tag in the project's name: %s" % (d, f, tag))
    return errs


def check_covers(base_dir):
    errs = []
    for d, files in subseries(base_dir).items():
        if not files or not files[0].startswith("0000-"):
            continue
        text = read(os.path.join(base_dir, d, files[0]))
        n = text.count("\n")
        if n > COVER_MAX:
            errs.append("%s: cover letter has %d lines (at most %d)" % (d, n, COVER_MAX))
        if not re.search(r"^Link: https://", text, re.M):
            errs.append("%s: cover letter has no Link: to prior work" % d)
    return errs


UAPI_PATCH = re.compile(r"^\+\+\+ b/include/uapi/linux/dyndbg\.h\n(?:@@[^\n]*\n)((?:\+[^\n]*\n)+)", re.M)


def uapi_of(base_dir):
    """The uapi header a base's series creates, or None."""
    for d, files in subseries(base_dir).items():
        for f in files:
            m = UAPI_PATCH.search(read(os.path.join(base_dir, d, f)))
            if m:
                return "".join(line[1:] + "\n" for line in m.group(1).splitlines())
    return None


def uapi_abi(text):
    """The header's ABI: defines and enumerators with their values, comments
    and layout dropped."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    items = []
    for m in re.finditer(r"^#define\s+(\w+)\s+(.+)$", text, re.M):
        if not m.group(1).startswith("_UAPI"):
            items.append("%s=%s" % (m.group(1), m.group(2).strip()))
    for body in re.findall(r"enum\s*\w*\s*\{(.*?)\}", text, re.S):
        for e in body.split(","):
            e = " ".join(e.split())
            if e:
                items.append(e)
    return items


FLAG_BIT = re.compile(r"^DYNDBG_SITE_FLAGS_\w+ = ")


def same_family(a, b):
    """The same ABI, but for flag bits only one of them has."""
    fa = {x for x in a if FLAG_BIT.match(x)}
    fb = {x for x in b if FLAG_BIT.match(x)}
    names = lambda fs: {x.split(" = ")[0]: x for x in fs}  # noqa: E731
    na, nb = names(fa), names(fb)
    if any(na[k] != nb[k] for k in na.keys() & nb.keys()):
        return False
    return [x for x in a if x not in fa] == [x for x in b if x not in fb]


def check_uapi(srcdir):
    errs = []
    heads = {b: uapi_of(os.path.join(srcdir, "kernel-patches", b)) for b in BASES}
    for b, h in heads.items():
        if h is None:
            errs.append("%s: no series patch creates include/uapi/linux/dyndbg.h" % b)
    if errs:
        return errs
    abi = {b: uapi_abi(h) for b, h in heads.items()}
    if not same_family(abi["7.2"], abi["6.12"]):
        only = sorted(set(abi["7.2"]) ^ set(abi["6.12"]))
        errs.append("the bases' uapi headers differ: %s" % only[:8])
    lib = os.path.join(srcdir, "libddctl", "uapi", "linux", "dyndbg.h")
    if os.path.exists(lib) and uapi_abi(read(lib)) != abi["7.2"]:
        only = sorted(set(uapi_abi(read(lib))) ^ set(abi["7.2"]))
        errs.append("libddctl/uapi/linux/dyndbg.h differs from the 7.2 series': %s" % only[:8])
    return errs


def patch(subject, body="Body.\n", sob=False, tags=""):
    return ("From 0 Mon Sep 17 00:00:00 2001\nFrom: x <x@y>\nSubject: %s\n\n%s%s%s---\n"
            % (subject, body, tags, "Signed-off-by: x <x@y>\n" if sob else ""))


def synthetic(tmp, mutate=None):
    """A good two-sub-series tree, then @mutate(base_dir)."""
    b = os.path.join(tmp, "kernel-patches", "7.2")
    for d, n in (("1-tip", 2), ("2-dyndbg", 1)):
        os.makedirs(os.path.join(b, d))
        with open(os.path.join(b, d, "0000-cover-letter.patch"), "w") as f:
            f.write(patch("[PATCH v3 0/%d] c" % n, "Link: https://example.com/x\n"))
        for i in range(1, n + 1):
            with open(os.path.join(b, d, "%04d-p.patch" % i), "w") as f:
                f.write(patch("[PATCH v3 %d/%d] p" % (i, n)))
    with open(os.path.join(b, "series"), "w") as f:
        f.write("1-tip/0001-p.patch\n1-tip/0002-p.patch\n2-dyndbg/0001-p.patch\n")
    if mutate:
        mutate(b)
    return b


def main():
    srcdir = sys.argv[1]
    t = Tap()
    checks = [
        ("layout", check_layout, lambda b: open(os.path.join(b, "series"), "w").write(
            "2-dyndbg/0001-p.patch\n1-tip/0001-p.patch\n1-tip/0002-p.patch\n")),
        ("numbering", check_numbering, lambda b: open(os.path.join(b, "1-tip", "0002-p.patch"), "w").write(
            patch("[PATCH v3 2/3] p"))),
        ("no sign-off", check_signoff, lambda b: open(os.path.join(b, "1-tip", "0001-p.patch"), "w").write(
            patch("[PATCH v3 1/2] p", sob=True))),
        ("cover letters", check_covers, lambda b: open(os.path.join(b, "2-dyndbg", "0000-cover-letter.patch"), "w").write(
            patch("[PATCH v3 0/1] c", "line\n" * (COVER_MAX + 5)))),
    ]
    for name, fn, breaker in checks:
        with tempfile.TemporaryDirectory() as tmp:
            good = fn(synthetic(tmp))
        with tempfile.TemporaryDirectory() as tmp:
            bad = fn(synthetic(tmp, breaker))
        t.check("%s: the check passes a good tree and fails a broken one" % name,
                not good and bad, "good: %s\nbroken: %s" % (good, bad))
        for base in BASES:
            errs = fn(os.path.join(srcdir, "kernel-patches", base))
            t.check("%s: kernel-patches/%s" % (name, base), not errs, "\n".join(errs))
    same = uapi_abi("#define A 1\nenum { X = 1, Y, };\n") == uapi_abi("/* c */\n#define A\t1\nenum {\n\tX = 1,\n\tY,\n};\n")
    differ = uapi_abi("enum { X = 1, Y, };") != uapi_abi("enum { X = 1, Z, Y, };")
    t.check("uapi: comparison ignores layout and sees a new attribute", same and differ)
    fl = ["DYNDBG_SITE_FLAGS_P = 1", "X = 1"]
    t.check("uapi: a flag bit one base lacks is allowed, a different value is not",
            same_family(fl + ["DYNDBG_SITE_FLAGS_D = 64"], fl)
            and not same_family(["DYNDBG_SITE_FLAGS_P = 2", "X = 1"], fl)
            and not same_family(fl + ["Y"], fl))
    errs = check_uapi(srcdir)
    t.check("uapi: one family ABI in 7.2, 6.12 and libddctl", not errs, "\n".join(errs))
    a = subseries(os.path.join(srcdir, "kernel-patches", "7.2"))
    b = subseries(os.path.join(srcdir, "kernel-patches", "6.12"))
    # 7.2's patches the backport leaves out on purpose (kernel-patches/
    # README.md says which and why), by the slug of their file name
    missing = {sub: [f for f in files if any(f[5:].startswith(slug) for slug in
                                             NOT_BACKPORTED.get(sub, ()))]
               for sub, files in a.items()}
    t.check("7.2's patches the backport leaves out are in 7.2 and not in 6.12",
            all(len(missing.get(sub, ())) == len(slugs) for sub, slugs in NOT_BACKPORTED.items())
            and not any(f[5:].startswith(slug) for sub, slugs in NOT_BACKPORTED.items()
                        for slug in slugs for f in b.get(sub, ())),
            "7.2: %s\n6.12: %s" % (a, b))
    want = {k: len(v) - len(missing.get(k, ())) for k, v in a.items()}
    t.check("the bases have the same sub-series and patch counts, but for those",
            want == {k: len(v) for k, v in b.items()},
            "7.2 less those: %s\n6.12: %s" % (want, {k: len(v) for k, v in b.items()}))
    t.finish()


if __name__ == "__main__":
    main()
