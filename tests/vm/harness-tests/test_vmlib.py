#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""tests/vm/harness/vmlib.py without QEMU (TAP): the oops scan on x86 and arm64
serial logs (arm64 prints "Call trace:", and an RCU stall report must not
pass as clean), and the QEMU command line per architecture."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
import vmlib  # noqa: E402
from tap import Tap  # noqa: E402

tap = Tap()
check = tap.check


def bad(lines):
    return [ln for ln in lines if vmlib.BAD_RE.search(ln)]


stall = open(os.path.join(HERE, "fixtures", "arm64-rcu-stall.log")).read().splitlines()
b = bad(stall)
check("arm64 RCU stall report (6.12 TCG guest) is caught", len(b) >= 2, b)
check("arm64 'Call trace:' is caught", any("Call trace:" in x for x in b), b)
check("x86 'Call Trace:' is still caught", bad(["[ 1.0] Call Trace:"]))
check("a clean line is not caught", not bad(["[ 1.0] virtio_net virtio0: ok"]))
check("stall-only log is classified as stall", vmlib.only_rcu_stalls(b), b)
check("an Oops is not a stall",
      not vmlib.only_rcu_stalls(b + ["[ 2.0] Internal error: Oops: 0000000096000004"]))
check("no lines: not a stall", not vmlib.only_rcu_stalls([]))

for arch, want, unwanted in (
        ("x86_64", ["qemu-system-x86_64", "console.log", "file:d.bin"], ["-M"]),
        ("arm64", ["qemu-system-aarch64", "virt", "cortex-a57",
                   "virtserialport,chardev=ddctl-data,name=ddctl.data"],
         ["file:d.bin"])):
    vmlib.ARCH = arch
    try:
        cmd = vmlib.qemu_cmd("/k", "/i", 4, 512, "x", "console.log", "d.bin")
    except vmlib.Unavailable as e:
        cmd = [f"Unavailable: {e}"]
    s = " ".join(str(c) for c in cmd)
    check(f"{arch}: QEMU command has {want}",
          all(w in s for w in want if not w.endswith("qemu-system-x86_64")
              and not w.endswith("qemu-system-aarch64"))
          and not any(u in cmd for u in unwanted), s)
    check(f"{arch}: console {vmlib.console_dev()}",
          vmlib.console_dev() == {"x86_64": "ttyS0", "arm64": "ttyAMA0"}[arch])
vmlib.ARCH = "x86_64"

# A kernel given by DDCTL_KDIR that hangs twice is compared with a real
# stock build, not with itself (boot-series.sh boots each patch that way).
import subprocess  # noqa: E402
import tempfile  # noqa: E402
booted, built = [], []
with tempfile.TemporaryDirectory() as t:
    kd = os.path.join(t, "kdir")
    os.makedirs(kd)
    open(os.path.join(kd, "ok"), "w").close()
    saved = (os.environ.get("DDCTL_KDIR"), vmlib.subprocess.run,
             vmlib.build_modules, vmlib.build_kselftest,
             vmlib.build_initramfs, vmlib.boot, vmlib.qemu_binary,
             vmlib.log)

    def fake_run(cmd, **kw):
        built.append(os.path.basename(cmd[0]) + " " + " ".join(cmd[1:]))
        return subprocess.CompletedProcess(cmd, 0, "/cache/stock-build\n", "")

    def fake_boot(kdir, initrd, script, rundir, **kw):
        booted.append(kdir)
        b = vmlib.Boot(rundir)
        b.status = "hang"
        return b
    os.environ["DDCTL_KDIR"] = kd
    vmlib.subprocess.run = fake_run
    vmlib.build_modules = lambda kdir, sizes=None: None
    vmlib.build_kselftest = lambda kdir: None
    vmlib.build_initramfs = lambda kdir, out, ddctl=None, ksdir=None: out
    vmlib.boot = fake_boot
    vmlib.qemu_binary = lambda: "qemu"
    vmlib.log = lambda msg: None   # (its lines would precede the TAP header)
    try:
        b = vmlib.boot_kind("patched", "smoke", t)
    finally:
        (kdir_env, vmlib.subprocess.run, vmlib.build_modules,
         vmlib.build_kselftest, vmlib.build_initramfs, vmlib.boot,
         vmlib.qemu_binary, vmlib.log) = saved
        if kdir_env is None:
            del os.environ["DDCTL_KDIR"]
        else:
            os.environ["DDCTL_KDIR"] = kdir_env
check("DDCTL_KDIR hangs twice: the fallback boots a stock build",
      booted == [kd, "/cache/stock-build"] and built == ["build-kernel.sh stock"],
      f"booted {booted}, built {built}, verdict {b.hang_verdict}")

# a kernel message glued to a result line (seen: 7.2, boot-series patch 4)
b = vmlib.Boot("/nonexistent")
b.console = "\n".join([
    "@@DDCTL@@ BOOTED 7.2.13 nproc=4",
    "@@DDCTL@@ RESULT ok s-off",
    '@@DDCTL@@ RESULT ok s-set[    3.458680] dyndbg: unknown keyword "nosuchkeyword"',
    "@@DDCTL@@ RESULT not ok s-x # reason quoting [    1.000000] dmesg",
    "@@DDCTL@@ RESULT ok s-y[    4.000001] WARNING: CPU: 1 PID: 1 at x",
    "@@DDCTL@@ END rc=0"]) + "\n"
vmlib.parse_console(b)
check("a kernel message glued to a RESULT line: the result and the message",
      b.results == [("ok", "s-off", ""), ("ok", "s-set", ""),
                    ("not ok", "s-x", "reason quoting [    1.000000] dmesg"),
                    ("ok", "s-y", "")]
      and b.rc == 0 and b.nproc == 4
      and b.bad_lines == ["[    4.000001] WARNING: CPU: 1 PID: 1 at x"],
      f"{b.results} rc={b.rc} nproc={b.nproc} bad={b.bad_lines}")
tap.finish()
