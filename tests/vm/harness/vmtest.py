#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The ddctl VM test suite (host side); prints TAP.

    vmtest.py stock|patched [--base 6.12|7.2] [--ddctl PATH] [--logdir DIR]
              [--smp N] [--dry-run]

--base (default: $DDCTL_KBASE, else 6.12) picks the kernel base and its
series (kernel-patches/BASE/); every TAP line names it.  Logs of a base
other than 6.12 go to LOGDIR/BASE/.

Builds/reuses the kernel (tests/vm/kernels/build-kernel.sh), the test modules and
an initramfs, boots the guest with tests/vm/guest/suite.sh and reports:
  boot            guest ran to the end (hang: retried once; patched hangs
                  twice -> the stock kernel is booted to say whose hang)
  a  sanity-*     vCPUs == requested, control file readable, >1000 sites
  d  dyndbg-*     dyndbg=+p on insmod, MOD.dyndbg= and dyndbg= at boot
  b  ddctl-*      the ddctl CLI in the guest (skip: binary missing)
  c  predict-*    for every query set in tests/vm/guest/querysets.txt the
                  prediction of `ddctl --check --json set` equals the real
                  change of the control file (patched: the kernel applies
                  the raw query; stock: `ddctl set` applies it)
  e  no-oops      no Oops/WARNING:/BUG:/Call Trace/... in the serial log
                  or dmesg
Skips everything (1..0 # SKIP) when qemu or the kernel is unavailable.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402

GUEST_TESTS = ["sanity-vcpus", "sanity-control-readable",
               "dyndbg-insmod-param", "dyndbg-cmdline-module",
               "dyndbg-boot-param", "sanity-callsites",
               "ddctl-list", "ddctl-list-module", "ddctl-check-writes-nothing",
               "ddctl-set-module", "ddctl-modules", "predict-collected",
               "scale-20000", "scale-20000-ddctl",
               "sh-begin-commit", "sh-undo", "sh-error-line",
               "cfg-apply-config", "cfg-save-restore", "cfg-watch",
               "cfg-persist-modprobe",
               "ux-no-probe-noise", "ux-negated-set-applied", "ux-watch-json",
               "fl-lines-exact", "fl-counts-json", "fl-sigterm", "fl-sighup",
               "fl-error-restores", "fl-other-writer", "fl-sigkill-sessions",
               "fl-sigkill-unit", "fl-run-status", "fl-reset-diff",
               "cmdline-round-trip", "cmdline-status", "gd-rate-guard",
               "gd-next-command", "gd-follow-for", "gd-set-for-expires",
               "gd-set-for-sigkill",
               "ml-run-modprobe", "ml-run-alias", "ml-follow-load", "ml-follow-wildcard",
               "ml-exit-paths",
               "ml-sigkill-restore", "ml-reset-later",
               "nl-info", "nl-dump-equals-control", "nl-atomic-bad-query",
               "nl-net-zero", "nl-dryrun-equals-prediction",
               "nl-apply-verified", "nl-eperm", "nl-monitor", "nl-concurrency",
               "nl-exec-large", "nl-exec-over", "nl-set-large", "nl-monitor-large",
               "nl-monitor-lost", "nl-features", "nl-generation",
               "nl-watch-lost-uevents",
               "k-dump-filter-module", "k-dump-filter-negated",
               "k-dump-consistent", "k-format-bang-literal", "k-extack-reason",
               "k-notify-privileged", "k-netns", "k-query-invalid", "k-batch-memory",
               "k-ftrace-batch", "k-boot-classmap",
               "ks-negation", "ks-transaction", "ks-netlink",
               "ks-kunit-static-keys", "ks-kunit-text-poke-vec",
               "k-stack-flag-read"]
# a built-in file of the tinyconfig+fragment kernel with pr_debug sites
BOOTFILE = os.environ.get("DDCTL_BOOTFILE", "drivers/virtio/virtio_ring.c")

# The queries whose kernel command line words (ddctl persist --cmdline, run
# on the host for the base's query language) the suite boots with: a
# built-in module's function (smpboot.dyndbg=) and a built-in file's format
# with blanks (dyndbg=, the blanks as octal escapes); guard.sh checks their
# sites at the first prompt.
CMDLINE_QUERIES = ["module smpboot func wakeup_secondary_cpu_via_init =pl", ";",
                   "file kernel/irq/irqdomain.c format 'virq allocation failed' +pf"]
FIXTURE = os.path.join(vmlib.REPO, "tests", "fixtures", "control-6.12-stock.txt")

LINE_RE = re.compile(r'^(\S+):(\d+) \[([^\]]*)\](\S+) (=\S*) ')


# Known failures (TAP "# TODO": reported, not counted as failures) of a
# base whose series does not have a fix yet: {base: {test: why}}.  A test
# listed here that passes is reported ok.  Both series (6.12 and 7.2) are
# v2 with the same patches: nothing is pending.
PENDING = {}


class Tap:
    """TAP output; every test name starts with the kernel base ("7.2: boot")."""

    def __init__(self, base="", pending=None):
        self.n = 0
        self.failed = 0
        self.prefix = f"{base}: " if base else ""
        self.pending = pending or {}

    def res(self, status, name, why=""):
        self.n += 1
        todo = self.pending.get(name)
        name = self.prefix + name
        if status == "ok":
            print(f"ok {self.n} - {name}")
        elif status == "skip":
            print(f"ok {self.n} - {name} # SKIP {why}")
        elif todo:
            print(f"not ok {self.n} - {name} # TODO {todo}: {why}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {name}" + (f" # {why}" if why else ""))
        sys.stdout.flush()

    def diag(self, msg):
        for line in str(msg).splitlines():
            print(f"# {line}")


def parse_control(lines):
    sites = []
    for line in lines:
        m = LINE_RE.match(line)
        if m:
            sites.append((m.group(1), int(m.group(2)), m.group(3),
                          m.group(4), m.group(5)))
    return sites


def real_changes(diff_path):
    """(file, line, module, func, old, new) multiset from a diff -U0."""
    minus, plus = [], []
    for line in open(diff_path, errors="replace"):
        if line.startswith("---") or line.startswith("+++"):
            continue
        if line.startswith("-"):
            minus.append(line[1:])
        elif line.startswith("+"):
            plus.append(line[1:])
    old = parse_control(minus)
    new = parse_control(plus)
    out = collections.Counter()
    if len(old) != len(new):
        return None, f"diff not pairwise: {len(old)} - / {len(new)} +"
    for o, n in zip(old, new):
        if o[:4] != n[:4]:
            return None, f"diff lines do not pair up: {o[:4]} vs {n[:4]}"
        out[(o[0], o[1], o[2], o[3], o[4], n[4])] += 1
    return out, None


def predicted_changes(js):
    out = collections.Counter()
    for c in js.get("changes", []):
        out[(c["file"], int(c["line"]), c["module"], c["function"],
             c["old"], c["new"])] += 1
    return out


def fmt_changes(counter, limit=5):
    items = list(counter.elements())[:limit]
    s = "; ".join(f"{f}:{ln} [{m}]{fn} {o}->{n}" for f, ln, m, fn, o, n in items)
    more = sum(counter.values()) - len(items)
    return s + (f" (+{more} more)" if more > 0 else "")


def read(path, default=""):
    try:
        return open(path, errors="replace").read().strip()
    except FileNotFoundError:
        return default


def check_error_set(tap, t, d, q, applied_by, arc, real, err):
    """An invalid set: ddctl must refuse it with 2 and change nothing."""
    prc = read(os.path.join(d, "predict.rc"), None)
    nreal = sum(real.values()) if real else 0
    if prc is None:
        tap.res("skip", t, f"ddctl missing; raw apply rc={arc}, "
                f"{nreal} sites changed")
        return
    perr = read(os.path.join(d, "predict.err"))[:200]
    if prc != "2":
        tap.res("not ok", t, f"ddctl --check accepted invalid [{q}] "
                f"(rc={prc})")
    elif arc == "0":
        tap.res("not ok", t, f"{applied_by} apply of invalid [{q}] "
                "succeeded")
    elif applied_by == "ddctl" and nreal:
        tap.res("not ok", t, f"ddctl refused [{q}] but {nreal} sites "
                "changed (half-applied)")
    else:
        tap.res("ok", t + f" (refused, rc={arc}, {nreal} sites changed "
                f"by the {applied_by} apply)")
        tap.diag(f"  ddctl: {perr}")


def check_predictions(tap, outdir, kind):
    cdir = os.path.join(outdir, "c")
    if not os.path.isdir(cdir):
        tap.res("not ok", "predict", "guest collected no query-set data")
        return
    for name in sorted(os.listdir(cdir)):
        d = os.path.join(cdir, name)
        if not os.path.isdir(d):
            continue
        t = f"predict-{name}"
        q = read(os.path.join(d, "query")).replace("\n", " \\n ")
        if os.path.exists(os.path.join(d, "skipped")):
            tap.res("skip", t, read(os.path.join(d, "skipped")))
            continue
        if os.path.exists(os.path.join(d, "before.txt")):
            tap.diag(f"{name}: reset did not restore the baseline")
        applied_by = read(os.path.join(d, "applied-by"))
        arc = read(os.path.join(d, "apply.rc"), "?")
        real, err = real_changes(os.path.join(d, "diff"))
        if name.split("-", 1)[-1].startswith("error-"):
            check_error_set(tap, t, d, q, applied_by, arc, real, err)
            continue
        if arc != "0":
            tap.res("not ok", t, f"{applied_by} apply of [{q}] failed "
                    f"rc={arc}: {read(os.path.join(d, 'apply.err'))[:300]}")
            continue
        if real is None:
            tap.res("not ok", t, err)
            continue
        pj = os.path.join(d, "predict.json")
        if not os.path.exists(pj):
            tap.res("skip", t, f"ddctl missing; kernel ({applied_by}) "
                    f"changed {sum(real.values())} sites")
            continue
        prc = read(os.path.join(d, "predict.rc"), "?")
        if prc != "0":
            tap.res("not ok", t, f"ddctl --check --json set [{q}] rc={prc}: "
                    f"{read(os.path.join(d, 'predict.err'))[:300]}")
            continue
        try:
            js = json.load(open(pj))
            pred = predicted_changes(js)
        except (ValueError, KeyError, TypeError) as e:
            tap.res("not ok", t, f"bad JSON from ddctl: {e}")
            continue
        if pred == real:
            tap.res("ok", t + f" ({sum(real.values())} sites, "
                    f"applied by {applied_by})")
        else:
            miss = real - pred
            extra = pred - real
            tap.res("not ok", t, f"[{q}] predicted {sum(pred.values())} "
                    f"changes, kernel made {sum(real.values())}")
            if miss:
                tap.diag(f"  not predicted: {fmt_changes(miss)}")
            if extra:
                tap.diag(f"  predicted, did not happen: {fmt_changes(extra)}")


def cmdline_words(ddctl, base):
    """The words of CMDLINE_QUERIES as the host's ddctl writes them, or
    None (no ddctl yet, or one that cannot run here: a cross build)."""
    try:
        r = subprocess.run([ddctl, "--control", FIXTURE, "--kernel", base, "-q",
                            "persist", "--cmdline", *CMDLINE_QUERIES],
                           capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def series_has_netlink():
    """Whether the series of this base adds the dyndbg netlink family."""
    try:
        with open(os.path.join(vmlib.PATCHDIR, "series")) as f:
            return any("netlink" in line for line in f)
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("kind", choices=["stock", "patched", "debug"],
                    help="debug: the patched series with PROVE_LOCKING")
    ap.add_argument("--ddctl", default=os.path.join(vmlib.REPO, "build",
                                                    "cli", "ddctl"))
    ap.add_argument("--logdir", default=os.path.join(vmlib.REPO, "build",
                                                     "vm-logs"))
    ap.add_argument("--base", choices=vmlib.BASES, default=vmlib.BASE,
                    help="kernel base (default $DDCTL_KBASE or 6.12)")
    ap.add_argument("--smp", type=int, default=4)
    # arm64 TCG: the stock suite needs ~10-15 min (one cross-CPU sync
    # per key toggle, each slow under emulation)
    ap.add_argument("--timeout", type=int,
                    default=1800 if vmlib.ARCH == "arm64" else 600)
    ap.add_argument("--dry-run", action="store_true",
                    default=os.environ.get("DDCTL_DRY_RUN") == "1",
                    help="say what would boot and stop (DDCTL_DRY_RUN=1)")
    a = ap.parse_args()
    vmlib.set_base(a.base)
    logdir = os.path.abspath(a.logdir)
    if a.base != "6.12":
        logdir = os.path.join(logdir, a.base)
    if a.dry_run:
        return vmlib.dry_run("vmtest", a.kind, (
            f"the guest suite on {a.kind} {a.base} {vmlib.ARCH}, -smp "
            f"{a.smp}, ddctl {a.ddctl}, logs in {logdir}"))
    tap = Tap(a.base, PENDING.get(a.base) if a.kind != "stock" else None)
    print("TAP version 13")
    tap.diag(f"kernel base {a.base} ({a.kind}; series "
             f"{os.path.relpath(vmlib.PATCHDIR, vmlib.REPO)}), "
             f"logs in {logdir}")
    if not os.path.exists(a.ddctl):
        tap.diag(f"ddctl binary {a.ddctl} missing: ddctl tests will skip")
    guest_kind = "stock" if a.kind == "stock" else "patched"
    append = (f'dyndbg="file {BOOTFILE} +p" ddctl_sites_256.dyndbg=+p '
              f'ddctl.bootfile={BOOTFILE} ddctl.kind={guest_kind}')
    if guest_kind == "patched" and series_has_netlink():
        append += " ddctl.netlink=1"
    words = cmdline_words(a.ddctl, a.base)
    if words:
        append += f" {words} ddctl.cmdline_words=1"
        tap.diag(f"booted with ddctl persist --cmdline's words: {words}")
    if a.kind == "debug":
        # test_dynamic_debug is built in there: its classmap parameter is
        # set at the start of start_kernel(), before the allocator works
        append += (' test_dynamic_debug.p_disjoint_bits=1 '
                   'dyndbg="module test_dynamic_debug class D2_KMS +p"')
    try:
        b = vmlib.boot_kind(a.kind, "suite", logdir, ddctl=a.ddctl,
                            smp=a.smp, timeout=a.timeout,
                            extra_append=append)
    except vmlib.BuildFailed as e:
        if os.environ.get("DDCTL_VM_STRICT") == "1":
            tap.res("not ok", "kernel-build", str(e))
            print(f"1..{tap.n}")
            return 1
        print(f"1..0 # SKIP {a.kind} {a.base} kernel did not build: {e}")
        return 0
    except vmlib.Unavailable as e:
        print(f"1..0 # SKIP {a.kind} {a.base} kernel VM unavailable: {e}")
        return 0
    except Exception as e:  # noqa: BLE001
        tap.res("not ok", "prepare", f"preparing the guest failed: {e}")
        print(f"1..{tap.n}")
        return 1
    tap.diag(f"{a.kind} {a.base}: {b.summary()}")
    # A retried early failure is not necessarily TCG's: say what it was
    # (seen on patched kernels under load: "Oops: int3" in
    # sched_clock_stable(), i.e. a text-poke int3 nobody claimed).
    for prev in b.attempts[:-1]:
        oops = [ln for ln in prev.console.splitlines()
                if re.search(r"Oops|Kernel panic|BUG:|IO-APIC", ln)][:3]
        tap.diag(f"retried boot attempt: {prev.status}, log "
                 f"{os.path.join(getattr(b, 'first_hang', prev.rundir), 'console.log')}"
                 + (": " + " | ".join(oops) if oops else ""))
    if b.status == "done":
        tap.res("ok", f"boot ({b.seconds:.0f}s, {len(b.attempts)} attempt(s))")
    else:
        why = b.status + (f": {b.hang_verdict}" if b.hang_verdict else "")
        tap.res("not ok", "boot", why)
        tail = b.console.splitlines()[-30:]
        tap.diag("console tail:\n" + "\n".join(tail))
    for n in b.notes:
        tap.diag(n)
    got = {}
    for st, name, why in b.results:
        got[name] = (st, why)
    for name in GUEST_TESTS + [n for n in got if n not in GUEST_TESTS]:
        if name in got:
            st, why = got[name]
            tap.res(st, name, why)
        else:
            tap.res("not ok", name, "no result from the guest")
    if b.status == "done":
        check_predictions(tap, b.outdir, guest_kind)
    if b.bad_lines and a.kind == "stock" and vmlib.only_rcu_stalls(b.bad_lines):
        # arm64 TCG: the stock kernel syncs every CPU once per key toggle
        # (kick_all_cpus_sync()), thousands of times in one write without
        # rescheduling; under TCG each sync takes milliseconds and the
        # writer's CPU holds up RCU past the 21 s stall timeout. The storm
        # the series removes, amplified by emulation: reported, not failed.
        tap.res("skip", "no-oops", f"stock kernel under TCG: "
                f"{sum(1 for x in b.bad_lines if vmlib.STALL_RE.search(x))} "
                f"RCU stall report(s) during per-key syncs, nothing else")
        tap.diag("\n".join(b.bad_lines[:20]))
    elif b.bad_lines:
        tap.res("not ok", "no-oops", f"{len(b.bad_lines)} bad lines")
        tap.diag("\n".join(b.bad_lines[:20]))
    elif not b.console:
        tap.res("not ok", "no-oops", "no serial log")
    else:
        tap.res("ok", "no-oops")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
