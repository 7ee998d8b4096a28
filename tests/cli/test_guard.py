#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""A session's end conditions on the host (TAP output): the rate guard
(--max-rate, on by default for follow and run), the line budget
(--max-lines) and the time box (--for) of follow, run and set, fed by a
kmsg stand-in whose records carry the kernel's timestamps (the guard counts
on the kernel's clock, so a file is a flood or not whatever the host's
speed); bad values are usage errors that change nothing. The real kernel
(the guard firing on a module printing in a loop, set --for killed and
restored) is tested in the VM (tests/vm/guest/guard.sh)."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import Ddctl, check, tap, write_followed_control  # noqa: E402

tmp = tempfile.mkdtemp(prefix="ddctl-guard-")
RUN = os.path.join(tmp, "run", "ddctl")
SESSIONS = os.path.join(RUN, "sessions")
os.makedirs(SESSIONS)

# virtio_net's three sites print and carry module:function:file:line
CTL = write_followed_control(os.path.join(tmp, "control"))
BEFORE = open(CTL).read()
SITES = ["virtnet_remove:drivers/net/virtio_net.c:20",
         "virtnet_probe:drivers/net/virtio_net.c:10"]


def kmsg(name, n, step_usec, loud=0):
    """N records of the followed sites STEP_USEC apart on the kernel's
    clock; the first LOUD of every 4 from virtnet_remove, else probe."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        for i in range(n):
            site = SITES[0] if i % 4 < loud else SITES[1]
            f.write("7,%d,%d,-;virtio_net:%s: line %d\n" % (i + 1, 1000000 + i * step_usec, site, i))
    return path


FLOOD = kmsg("flood", 6000, 50, loud=3)      # 6000 lines in 0.3 s
CALM = kmsg("calm", 300, 20000)              # 50 lines a second for 6 s
run = Ddctl(control=CTL, kmsg=FLOOD, run_dir=RUN, env={"NO_COLOR": "1"}, timeout=60)


def untouched():
    return open(CTL).read() == BEFORE and not os.listdir(SESSIONS)


# ---- the rate guard ------------------------------------------------------
rc, out, err = run("--since-boot", "follow", "module virtio_net +p")
shown = len(out.splitlines())
check("guard-default-fires", rc == 1 and 0 < shown < 6000 and
      "rate guard: the followed callsites printed 5001 lines within a second (--max-rate 5000/s)" in err
      and untouched(), "rc=%d shown=%d %s" % (rc, shown, err))
# the loudest first, from the per-site counts
loud = re.search(r"\n +(\d+)  drivers/net/virtio_net\.c:20 \[virtio_net\]virtnet_remove\n"
                 r" +(\d+)  drivers/net/virtio_net\.c:10 \[virtio_net\]virtnet_probe\n", err)
check("guard-loudest-sites", loud is not None and int(loud.group(1)) > int(loud.group(2)), err)
rc, out, err = run("--since-boot", "-q", "follow", "--max-rate", "100/s", "module virtio_net +p")
check("guard-quiet-still-reports", rc == 1 and len(out.splitlines()) == 101 and
      "rate guard" in err and "101 lines from 2 of 3" in err, err)
rc, out, err = run("--since-boot", "follow", "--max-rate", "0", "module virtio_net +p")
check("guard-off", rc == 0 and len(out.splitlines()) == 6000 and "rate guard" not in err, err)
rc, out, err = run("--since-boot", "follow", "--max-rate", "100", "module virtio_net +p", kmsg=CALM)
check("guard-calm-under-rate", rc == 0 and len(out.splitlines()) == 300 and "rate guard" not in err, err)
rc, out, err = run("--since-boot", "follow", "--max-rate", "40/s", "module virtio_net +p", kmsg=CALM)
check("guard-calm-over-rate", rc == 1 and len(out.splitlines()) == 41 and "41 lines within a second" in err, err)
# the guard counts what the sites print, not what the filters show
rc, out, err = run("--since-boot", "follow", "--max-rate", "50", "--grep", "^line 5999$",
                   "module virtio_net +p")
check("guard-counts-unshown-lines", rc == 1 and out == "" and "51 lines within a second" in err, out + err)
rc, out, err = run("--since-boot", "-j", "follow", "--max-rate", "10", "module virtio_net +p")
docs = [json.loads(l) for l in out.splitlines()] if out else []
check("guard-json-end", rc == 1 and len(docs) == 12 and docs[-1]["summary"]["end"] == "max-rate" and
      docs[-1]["summary"]["lines"] == 11, out + err)
rc, out, err = run("--since-boot", "run", "--max-rate", "10", "module virtio_net +p", "--",
                   "sh", "-c", "exit 3")
check("guard-run-keeps-command-status", rc == 3 and "rate guard" in err, err)

# ---- --max-lines ----------------------------------------------------------
rc, out, err = run("--since-boot", "follow", "--max-lines", "7", "module virtio_net +p")
check("max-lines", rc == 0 and len(out.splitlines()) == 7 and "7 lines (--max-lines): stopping" in err,
      out + err)
rc, out, err = run("--since-boot", "-j", "follow", "--max-lines", "7", "--grep", "^line 5999$",
                   "module virtio_net +p")
check("max-lines-counts-unshown", rc == 0 and json.loads(out)["summary"]["end"] == "max-lines", out + err)

# ---- --for: the time box ---------------------------------------------------
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
w = os.open(fifo, os.O_RDWR)  # a writer that never writes: only the time ends it
rc, out, err = run("follow", "--for", "1s", "module virtio_net +p", kmsg=fifo)
check("for-follow-ends", rc == 0 and "the time is up (--for 1s): stopping" in err and untouched(), err)
rc, out, err = run("-j", "run", "--for", "500ms", "module virtio_net +p", "--", "sleep", "1", kmsg=fifo)
check("for-run-json-end", rc == 0 and json.loads(out)["summary"]["end"] == "time", out + err)
rc, out, err = run("run", "--for", "500ms", "module virtio_net +p", "--", "sh", "-c", "sleep 1; exit 4",
                   kmsg=fifo)
check("for-run-waits-for-command", rc == 4 and "sh goes on; waiting for it to end" in err, out + err)

# a follow --for session's record says when it ends; sessions shows the time left
p = run.popen("follow", "--for", "1h", "module virtio_net +pt", kmsg=fifo,
              capture=os.path.join(tmp, "cap"))
for _ in range(200):
    if os.listdir(SESSIONS):
        break
    time.sleep(0.05)
rc, out = run.on_tty("sessions", env={"PAGER": "cat"})
err = ""
row = [r for r in out.splitlines() if r.split()[:1] == [str(p.pid)]]
check("for-sessions-left", rc == 0 and out.split()[:5] == ["PID", "STARTED", "STATE", "LEFT", "COMMAND"]
      and row and re.search(r" running +(59m[0-9]{2}s|1h00m) +ddctl follow", row[0]), out + err)
rc, out, err = run("sessions", "--json")
doc = json.loads(out) if rc == 0 else []
check("for-sessions-json-until", len(doc) == 1 and 3590 < doc[0]["until"] - time.time() <= 3601, out + err)
p.kill()
p.wait()
rc, out, err = run("sessions")
check("for-killed-ended", rc == 0 and re.search(r" ended +(59m[0-9]{2}s|1h00m) ", out), out + err)
rc, out, err = run("sessions", "--restore", capture=os.path.join(tmp, "cap"))
check("for-killed-restored", rc == 0 and "restored the session of pid %d" % p.pid in out and
      not os.listdir(SESSIONS), out + err)
os.close(w)

# set --for: applied, recorded with its end, restored when the time is up
cap = os.path.join(tmp, "cap-set")
p = run.popen("set", "--for", "1h", "module virtio_net +pt", capture=cap)
for _ in range(200):
    if os.listdir(SESSIONS):
        break
    time.sleep(0.05)
rc, out, err = run("sessions", "--json")
doc = json.loads(out) if rc == 0 else []
check("set-for-record", len(doc) == 1 and doc[0]["pid"] == p.pid and doc[0]["running"] and
      doc[0]["command"] == "ddctl set module virtio_net +pt" and doc[0]["until"] > time.time() + 3500,
      out + err)
p.send_signal(signal.SIGTERM)
out, err = p.communicate(timeout=60)
check("set-for-signal-restores", p.returncode == 0 and "restoring early" in err and
      os.path.exists(cap) and "module virtio_net +pt" in open(cap).read() and
      not os.listdir(SESSIONS), out + err)
rc, out, err = run("set", "--for", "300ms", "module virtio_net +pt", capture=cap)
check("set-for-time-up", rc == 0 and "restoring in 300ms" in err and
      "the time is up (--for 0.3s)" in err and not os.listdir(SESSIONS), out + err)
rc, out, err = run("--check", "set", "--for", "1h", "module virtio_net +pt")
check("set-for-check", rc == 0 and "would change" in out and untouched(), out + err)

# ---- bad input: usage errors, nothing changed --------------------------------
BAD = [("--for", "0", "--for: a duration above zero"), ("--for", "-5s", "--for: a duration"),
       ("--for", "5x", "not '5x'"), ("--for", "", "--for: a duration"),
       ("--for", "400d", "at most a year"), ("--for", "nan", "not 'nan'"),
       ("--max-rate", "abc", "--max-rate: lines a second"), ("--max-rate", "-1", "not '-1'"),
       ("--max-rate", "5/h", "not '5/h'"), ("--max-rate", "1e3", "not '1e3'"),
       ("--max-lines", "0", "--max-lines: a number of lines (1 or more), not '0'"),
       ("--max-lines", "x", "not 'x'"), ("--max-lines", "-3", "not '-3'")]
for cmd in ("follow", "run", "set"):
    for opt, value, want in BAD:
        if cmd == "set" and opt != "--for":
            continue
        extra = ["--", "true"] if cmd == "run" else []
        rc, out, err = run(cmd, opt, value, "module virtio_net +pt", *extra, kmsg=FLOOD)
        check("bad-%s%s-%s" % (cmd, opt, value or "empty"), rc == 2 and want in err and
              untouched(), err)
rc, out, err = run("set", "--max-rate", "10", "module virtio_net +pt")
check("bad-set-max-rate", rc == 2 and "--max-rate" in err and untouched(), err)
rc, out, err = run("list", "--for", "5s")
check("bad-list-for", rc == 2 and "--for" in err, err)

subprocess.run(["rm", "-rf", tmp])
tap.finish()
