#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""tests/vm/kernels/kbuild-progress.sh, the kernel build's progress report, with a fake `make` that prints kbuild lines (TAP output)."""
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRESS = os.path.join(HERE, "..", "kernels", "kbuild-progress.sh")
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tap import Tap  # noqa: E402

tap = Tap()
check = tap.check
tmp = tempfile.mkdtemp(prefix="ddctl-progress-")
fake = os.path.join(tmp, "make")
with open(fake, "w") as f:
    f.write("#!/bin/sh\n"
            "i=0\n"
            "while [ $i -lt $1 ]; do i=$((i + 1))\n"
            "  echo \"  CC      kernel/f$i.o\"; echo \"  LD      kernel/built-in.a\"; sleep 0.03\n"
            "done\n"
            "exit $2\n")
os.chmod(fake, 0o755)
log = os.path.join(tmp, "build.log")
env = dict(os.environ, DDCTL_PROGRESS_INTERVAL="0.1")


def run(total, objects, status, tty=False):
    argv = [PROGRESS, log, str(total), "compiling stock", "--", fake, str(objects), str(status)]
    if not tty:
        p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        return p.returncode, p.stdout + p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(), out.decode()


rc, out = run(60, 60, 0)
lines = out.splitlines()
check("not a terminal: exit status 0 passed on", rc == 0, out)
check("not a terminal: no carriage returns or escapes", "\r" not in out and "\033" not in out, repr(out))
steps = [int(m.group(2)) for m in (re.search(r"(\d+)/60 objects \((\d+)%\)", l) for l in lines) if m]
check("not a terminal: plain lines with done/total and a rising percentage, at most one per 10%",
      steps and steps == sorted(steps) and len(steps) <= 10
      and len({s // 10 for s in steps}) == len(steps), out)
check("not a terminal: elapsed time and an estimate of the time left",
      any(re.search(r"\d+:\d\d elapsed, ~\d+:\d\d left", l) for l in lines), out)
check("the last line says how many objects and how long",
      re.fullmatch(r"compiling stock: 60 objects compiled in \d+:\d\d", lines[-1]), out)
check("the command's output goes to the log, not the terminal",
      open(log).read().count("  CC ") == 60 and "kernel/f1.o" not in out, out)

rc, out = run(10, 30, 0)
# (whether a sample falls after the 10th object while make still runs is
# timing: require no negative estimate, and the true total at the end)
check("more objects than expected: no negative estimate",
      rc == 0 and "-" not in out.replace("--", "")
      and out.splitlines()[-1].startswith("compiling stock: 30 objects compiled"), out)

rc, out = run(100, 20, 3)
check("a failing build: its exit status, and FAILED on the last line",
      rc == 3 and out.splitlines()[-1].endswith("FAILED (exit 3)"), out)

rc, out = run(60, 60, 0, tty=True)
updates = out.count("\r\033[K")
check("terminal: one line updated in place (\\r, erase to end of line)",
      rc == 0 and updates >= 3 and out.count("\n") <= 2, repr(out))
check("terminal: the updates show done/total, percentage, elapsed, left",
      re.search(r"\d+/60 objects \(\d+%\), \d+:\d\d elapsed, ~\d+:\d\d left", out), repr(out))

p = subprocess.run([PROGRESS, log], capture_output=True, text=True)
check("usage error: exit 2", p.returncode == 2 and "usage" in p.stderr, p.stderr)
shutil.rmtree(tmp)
tap.finish()
