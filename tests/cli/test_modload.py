#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Modules that load after ddctl knows its queries (TAP output), on the host:
follow/run's load-time file in /run/modprobe.d below DDCTL_CONFIG_ROOT (its
options line, keyed by the module an alias names; removed on every exit
path and by `sessions --restore` after SIGKILL; stale ones cleaned; refused
in a directory others can write), the session record naming the modules,
their defaults given back, and `reset` leaving alone the sites of a module
the boot snapshot does not list. The kernel side (modprobe of a module whose
init prints) is tested in the VM (tests/vm/guest/follow.sh)."""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import STOCK, Ddctl, check, tap  # noqa: E402

tmp = tempfile.mkdtemp(prefix="ddctl-modload-")
ROOT = os.path.join(tmp, "root")
MPD = os.path.join(ROOT, "run", "modprobe.d")
RUN = os.path.join(tmp, "run")
os.makedirs(os.path.join(ROOT, "etc", "modprobe.d"))
with open(os.path.join(ROOT, "etc", "modprobe.d", "alias.conf"), "w") as f:
    f.write("alias ddctl_alias_of_later ddctl_later_mod\n")
CTL = os.path.join(tmp, "control")
shutil.copy(STOCK, CTL)
# the kernel log: a FIFO that stays open, so that follow waits
KMSG = os.path.join(tmp, "kmsg")
os.mkfifo(KMSG)
kmsg_writer = os.open(KMSG, os.O_RDWR | os.O_NONBLOCK)
CAP = os.path.join(tmp, "writes")
run = Ddctl(control=CTL, capture=CAP, kmsg=KMSG, config_root=ROOT, run_dir=RUN,
            env={"NO_COLOR": "1"}, timeout=60)


def ours():
    return sorted(glob.glob(os.path.join(MPD, "ddctl-session-*.conf")))


def records():
    return sorted(glob.glob(os.path.join(RUN, "sessions", "*.session")))


def clean():
    for p in ours() + records():
        os.unlink(p)


def started(p, want=lambda: bool(ours()), timeout=30):
    """Waits for the session to be under way (its file there); liveness only."""
    end = time.monotonic() + timeout
    while not want() and p.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    return want()


# ---- the load-time file while the command runs ---------------------------
rc, out, err = run("run", "module ddctl_later_mod +p", "--", "sh", "-c",
                   "cat %s/ddctl-session-*.conf" % MPD)
check("load-time-file-during-run",
      rc == 0 and 'options ddctl_later_mod dyndbg="+p; +mfsl"' in out and
      "ddctl_later_mod" in err, "rc=%d\n%s%s" % (rc, out, err))
check("load-time-file-removed-after-run", rc == 0 and not ours() and not records(),
      "%s %s" % (ours(), records()))

# an alias: the options are keyed by the module it names (kmod looks them up so)
rc, out, err = run("run", "module ddctl_alias_of_later +p", "--", "sh", "-c",
                   "cat %s/ddctl-session-*.conf" % MPD)
check("load-time-file-alias-resolved",
      rc == 0 and 'options ddctl_later_mod dyndbg="+p; +mfsl"' in out and
      "ddctl_alias_of_later" not in out.split("dyndbg")[0], "rc=%d\n%s%s" % (rc, out, err))

# the record names the file and the module before the file exists
rc, out, err = run("run", "module ddctl_later_mod +p", "--", "sh", "-c",
                   "cat %s/sessions/*.session" % RUN)
check("record-names-load-time-file", rc == 0 and re.search(
    r"^modprobe=.*/run/modprobe\.d/ddctl-session-\d+-\d+\.conf$", out, re.M) and
    re.search(r"^module=ddctl_later_mod$", out, re.M), "rc=%d\n%s%s" % (rc, out, err))

# a loaded module gets no load-time file (its sites are set now)
rc, out, err = run("run", "module virtio_net +p", "--", "sh", "-c",
                   "ls %s 2>/dev/null | grep -c ddctl-session || true" % MPD)
check("no-load-time-file-for-loaded", rc == 0 and out.strip() == "0", out + err)

# ---- every exit path removes it ----------------------------------------
for name, sig in (("sigint", signal.SIGINT), ("sigterm", signal.SIGTERM),
                  ("sighup", signal.SIGHUP), ("sigquit", signal.SIGQUIT)):
    clean()
    p = run.popen("follow", "module ddctl_later_mod +p")
    up = started(p)
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    check("load-time-file-removed-" + name, up and not ours() and not records(),
          "up=%s %s %s %s" % (up, ours(), records(), err))

clean()
rc, out, err = run("run", "module ddctl_later_mod +p", "--", "/nonexistent/command")
check("load-time-file-removed-command-fails", rc == 127 and not ours() and not records(),
      "rc=%d %s %s" % (rc, ours(), err))

clean()
p = run.popen("run", "module ddctl_later_mod +p", "--", "sleep", "60")
up = started(p)
p.kill()
p.wait()
left = ours()
rc, out, err = run("sessions", "--restore")
check("load-time-file-sigkill-then-sessions-restore",
      up and len(left) == 1 and rc == 0 and not ours() and not records(),
      "up=%s left=%s rc=%d now=%s %s" % (up, left, rc, ours(), err))
subprocess.run(["pkill", "-P", str(p.pid), "sleep"], check=False)

# a record is trusted with no other path: a forged modprobe= is not removed
clean()
victim = os.path.join(tmp, "victim.conf")
open(victim, "w").write("keep me\n")
os.makedirs(os.path.join(RUN, "sessions"), exist_ok=True)
with open(os.path.join(RUN, "sessions", "999999999-1.session"), "w") as f:
    f.write("pid=999999999\nstarttime=1\nstart=0\ncommand=ddctl run x\n"
            "modprobe=%s\nmodule=ddctl_later_mod\n[during]\n[restore]\n" % victim)
rc, out, err = run("sessions", "--restore")
check("forged-modprobe-path-not-removed", os.path.exists(victim) and "is not its load-time file" in err
      and not records(), "rc=%d exists=%s %s" % (rc, os.path.exists(victim), err))

# ---- stale files of ddctl's own pattern; a directory others can write ----
clean()
os.makedirs(MPD, exist_ok=True)
stale = os.path.join(MPD, "ddctl-session-999999999-1.conf")
other = os.path.join(MPD, "someone-else.conf")
for path in (stale, other):
    with open(path, "w") as f:
        f.write("options x dyndbg=+p\n")
rc, out, err = run("run", "module ddctl_later_mod +p", "--", "true")
check("stale-load-time-file-cleaned", rc == 0 and not os.path.exists(stale) and
      os.path.exists(other), "rc=%d %s" % (rc, os.listdir(MPD)))
os.unlink(other)

os.chmod(MPD, 0o777)
rc, out, err = run("run", "module ddctl_later_mod +p", "--", "sh", "-c",
                   "ls %s | grep -c ddctl-session || true" % MPD)
check("load-time-dir-writable-by-others-refused",
      rc == 0 and out.strip() == "0" and "only root may write it" in err and not records(),
      "rc=%d %s%s" % (rc, out, err))
os.chmod(MPD, 0o755)

# ---- a later module's sites get their defaults back --------------------
# the record of a killed session names ddctl_later_mod, which has loaded
# since: its sites (=p now, no object to read here) are switched off
LATER = os.path.join(tmp, "control-later")
with open(STOCK) as f, open(LATER, "w") as o:
    text = f.read()
    o.write(text + "drivers/later/later.c:10 [ddctl_later_mod]later_init =pmfsl \"init\\012\"\n")
clean()
p = run.popen("run", "module ddctl_later_mod +p", "--", "sleep", "60")
up = started(p, lambda: bool(records()))
p.kill()
p.wait()
subprocess.run(["pkill", "-P", str(p.pid), "sleep"], check=False)
open(CAP, "w").close()
rc, out, err = run("sessions", "--restore", control=LATER)
writes = open(CAP).read()
check("later-module-restored-sessions-restore",
      up and rc == 0 and re.search(r"module ddctl_later_mod =_?$", writes, re.M) and
      "defaults are unknown" in err and not records(),
      "rc=%d writes=%r %s" % (rc, writes, err))

# ---- reset: a module the boot snapshot does not list ----------------------
# the snapshot is taken without ddctl_later_mod; it loads later with its
# sites default-on (=p); reset must not switch them off
BOOTCTL = os.path.join(tmp, "control-boot")
shutil.copy(STOCK, BOOTCTL)
NOW = os.path.join(tmp, "control-now")
with open(NOW, "w") as o:
    o.write(text + "drivers/later/later.c:10 [ddctl_later_mod]later_init =p \"init\\012\"\n"
            "drivers/later/later.c:12 [ddctl_later_mod]later_init =p \"done\\012\"\n")
rrun = Ddctl(control=BOOTCTL, capture=CAP, config_root=ROOT, run_dir=os.path.join(tmp, "rrun"),
             env={"NO_COLOR": "1"}, timeout=60)
rc, out, err = rrun("save", "--boot")
snap = open(os.path.join(tmp, "rrun", "boot.conf")).read() if rc == 0 else ""
check("boot-snapshot-lists-modules", rc == 0 and re.search(
    r"^# modules: .*\bvirtio_net\b", snap, re.M) and snap.rstrip().endswith(
    "# end of the ddctl saved state"), "rc=%d %s" % (rc, err))
open(CAP, "w").close()
rc, out, err = rrun("reset", control=NOW)
writes = open(CAP).read()
check("reset-leaves-later-module-default-on",
      rc == 0 and "ddctl_later_mod" not in writes and "ddctl_later_mod" in err,
      "rc=%d writes=%r %s%s" % (rc, writes, out, err))

subprocess.run(["rm", "-rf", tmp])
tap.finish()
