#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl follow, run, sessions, reset and diff on the host (TAP output):
a fixture control file whose followed sites already carry the decoration
(so nothing is written), a kmsg stand-in (a file or a FIFO, --kmsg), session
records in a temporary run directory (DDCTL_RUN_DIR). The real kernel paths (changes,
restores, SIGKILL) are tested in the VM (tests/vm/guest/follow.sh)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import (BASH_COMPLETION, DATA, ENABLED, STOCK, Ddctl,  # noqa: E402
                       bash_complete, check, tap, write_followed_control)

tmp = tempfile.mkdtemp(prefix="ddctl-follow-")
ROOT = os.path.join(tmp, "root")
os.mkdir(ROOT)

# virtio_net's three sites print and carry module:function:file:line
CTL = write_followed_control(os.path.join(tmp, "control"))
BEFORE = open(CTL).read()

LOG = (
    "7,10,100,-;virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye again\n"
    "6,11,101,-;some other line\n"
    "7,12,102,-;virtio_net:virtnet_probe:drivers/net/virtio_net.c:10: hello\n"
    " SUBSYSTEM=virtio\n DEVICE=+virtio:virtio0\n"
    "7,13,103,-;virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye\n"
    "7,14,104,-;[77] virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye\n"
    "7,15,105,-;virtio:virtio_dev_probe:drivers/virtio/virtio.c:300: not followed\n"
    "15,16,106,-;virtio_net:virtnet_probe:drivers/net/virtio_net.c:10: from user space\n"
)
KMSG = os.path.join(tmp, "kmsg")
with open(KMSG, "w") as f:
    f.write(LOG)
run = Ddctl(control=CTL, kmsg=KMSG, run_dir=os.path.join(ROOT, "run", "ddctl"),
           env={"NO_COLOR": "1"}, timeout=60)


def untouched():
    sessions = os.path.join(ROOT, "run", "ddctl", "sessions")
    return open(CTL).read() == BEFORE and (not os.path.exists(sessions) or not os.listdir(sessions))


# ---- attribution, columns, counts --------------------------------------
rc, out, err = run("--since-boot", "follow", "module", "virtio_net", "+p")
lines = out.splitlines()
check("follow-lines-exact", rc == 0 and lines == [
    "virtio_net virtnet_remove:20 bye again",
    "virtio_net +virtio:virtio0 virtnet_probe:10  hello",
    "virtio_net virtnet_remove:20 bye",
    "virtio_net virtnet_remove:20 bye"] and untouched(), out + err)
check("follow-counts-sorted", re.search(
    r"4 lines from 3 of 3 followed callsites:\n"
    r" +2  drivers/net/virtio_net.c:20 \[virtio_net\]virtnet_remove\n"
    r" +1  drivers/net/virtio_net.c:10 \[virtio_net\]virtnet_probe\n"
    r" +1  drivers/net/virtio_net.c:20 \[virtio_net\]virtnet_remove\n", err) is not None, err)
check("follow-nothing-to-restore", "following 3 callsites (0 changed)" in err and
      "nothing to restore" in err, err)

rc, out, err = run("--since-boot", "follow", "--raw", "module virtio_net +p")
check("follow-raw", rc == 0 and out.splitlines()[3].endswith(
    " [77] virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye"), out + err)

rc, out, err = run("--since-boot", "--all", "follow", "module virtio_net +p")
others = [l for l in out.splitlines() if l.startswith("-")]
check("follow-all", rc == 0 and len(out.splitlines()) == 7 and len(others) == 3 and
      others[0].split(None, 2)[2] == "some other line", out + err)

rc, out, err = run("--since-boot", "-j", "follow", "module virtio_net +p")
docs = [json.loads(l) for l in out.splitlines()] if rc == 0 else []
check("follow-json", rc == 0 and len(docs) == 5 and docs[1] == {
    "seq": 12, "usec": 102, "file": "drivers/net/virtio_net.c", "line": 10,
    "module": "virtio_net", "function": "virtnet_probe", "device": "+virtio:virtio0",
    "message": "hello"} and docs[0]["device"] is None and
    docs[4]["summary"]["lines"] == 4 and docs[4]["summary"]["other"] == 3 and
    [s["count"] for s in docs[4]["summary"]["sites"]] == [2, 1, 1] and err == "", out + err)

rc, out, err = run("--since-boot", "--top", "follow", "module virtio_net +p")
check("follow-top-not-a-terminal", rc == 0 and out.startswith("4 lines from 3 of 3") and
      "hello" not in out, out + err)

# colours on a terminal (stdout only), none with NO_COLOR
def on_pty(*args, no_color=False):
    return run.on_tty(*args, stdin_tty=False, stderr_tty=False,
                      env={"NO_COLOR": "1" if no_color else None})


rc, out = on_pty("--since-boot", "follow", "module virtio_net +p")
check("follow-colour-terminal", rc == 0 and
      "\033[32mvirtio_net\033[0m +virtio:virtio0 \033[34mvirtnet_probe:10 \033[0m hello" in out and
      "\033[32mvirtio_net\033[0m \033[34mvirtnet_remove:20\033[0m bye again" in out, repr(out))
rc, out = on_pty("--since-boot", "follow", "module virtio_net +p", no_color=True)
check("follow-no-colour", rc == 0 and "\033[" not in out and
      "virtio_net +virtio:virtio0 virtnet_probe:10  hello" in out,
      repr(out))

# ---- the device, filters, timestamps, -n ------------------------------
# records as /dev/kmsg shows them: dev_dbg() lines carry DEVICE= and
# SUBSYSTEM= continuation lines; the message starts "driver device: "
DLOG = (
    "7,20,1000000,-;virtio_net:virtnet_probe:drivers/net/virtio_net.c:10: virtio_net virtio0: probe a\n"
    " DEVICE=+virtio:virtio0\n SUBSYSTEM=virtio\n"
    "7,21,2000000,-;virtio_net:virtnet_probe:drivers/net/virtio_net.c:10: probe b\n"
    " DEVICE=+pci:0000:00:03.0\n SUBSYSTEM=pci\n"
    "7,22,3000000,-;virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: eth0: bye\n"
    " DEVICE=n2\n SUBSYSTEM=net\n"
    "7,23,4000000,-;virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: no device\n"
    "6,24,5000000,-;e1000 0000:00:03.0: other source\n"
    " DEVICE=+pci:0000:00:03.0\n SUBSYSTEM=pci\n"
)
DKMSG = os.path.join(tmp, "kmsg-devices")
with open(DKMSG, "w") as f:
    f.write(DLOG)


def dfollow(*args, **kw):
    return run("--since-boot", "follow", *(args + ("module virtio_net +p",)), kmsg=DKMSG, **kw)


rc, out, err = dfollow()
check("follow-device-text", rc == 0 and out.splitlines() == [
    "virtio_net +virtio:virtio0 virtnet_probe:10  virtio_net virtio0: probe a",
    "virtio_net +pci:0000:00:03.0 virtnet_probe:10  probe b",
    "virtio_net n2 virtnet_remove:20 eth0: bye",
    "virtio_net virtnet_remove:20 no device"], out + err)
rc, out, err = dfollow("--json")
docs = [json.loads(l) for l in out.splitlines()] if rc == 0 else []
check("follow-device-json", rc == 0 and [d.get("device") for d in docs[:4]] ==
      ["+virtio:virtio0", "+pci:0000:00:03.0", "n2", None] and "summary" in docs[4], out + err)
rc, out, err = dfollow("--all")
check("follow-device-other-source", rc == 0 and
      out.splitlines()[-1] == "-          +pci:0000:00:03.0 -                 e1000 0000:00:03.0: other source",
      out + err)


# --device: the DEVICE= value, its name, or the name the message starts with
for name, dev, want in [
        ("follow-device-exact", "+pci:0000:00:03.0", ["probe b"]),
        ("follow-device-name", "0000:00:03.0", ["probe b"]),
        ("follow-device-netdev-index", "n2", ["eth0: bye"]),
        ("follow-device-message-word", "eth0", ["eth0: bye"]),
        ("follow-device-message-second-word", "virtio0", ["virtio_net virtio0: probe a"]),
        ("follow-device-none", "virtio9", [])]:
    rc, out, err = dfollow("--device", dev)
    got = out.splitlines()
    check(name, rc == 0 and len(got) == len(want) and all(map(str.endswith, got, want)) and
          "%d line%s from" % (len(want), "" if len(want) == 1 else "s") in err, out + err)
rc, out, err = dfollow("--all", "--device", "0000:00:03.0")
check("follow-device-all", rc == 0 and len(out.splitlines()) == 2 and
      out.splitlines()[1].endswith("other source"), out + err)

rc, out, err = dfollow("--grep", "^probe|bye$")
check("follow-grep-regex", rc == 0 and [l.split()[-1] for l in out.splitlines()] == ["b", "bye"] and
      "2 lines from 2 of 3" in err, out + err)
rc, out, err = dfollow("--grep", "no device")
check("follow-grep-fixed", rc == 0 and out.splitlines() == ["virtio_net virtnet_remove:20 no device"],
      out + err)
rc, out, err = dfollow("--grep", "(")
check("follow-grep-bad", rc == 2 and "--grep: not an extended regular expression" in err and
      out == "" and untouched(), out + err)

# --since: seconds since boot; a time ago; it reads from the log's start
rc, out, err = run("follow", "--since", "2.5", "module virtio_net +p", kmsg=DKMSG)
check("follow-since-monotonic", rc == 0 and [l.split()[-1] for l in out.splitlines()] ==
      ["bye", "device"], out + err)
rc, out, err = run("follow", "--since", "0", "module virtio_net +p", kmsg=DKMSG)
check("follow-since-zero-all", rc == 0 and len(out.splitlines()) == 4, out + err)
rc, out, err = run("follow", "--since", "1000000000s", "module virtio_net +p", kmsg=DKMSG)
check("follow-since-ago", rc == 0 and len(out.splitlines()) == 4, out + err)
for bad in ("3x", "-1", "", "s"):
    rc, out, err = run("follow", "--since", bad, "module virtio_net +p", kmsg=DKMSG)
    check("follow-since-bad-%s" % (bad or "empty"), rc == 2 and "--since: seconds since boot" in err
          and untouched(), out + err)

# -n N: stop after N lines, and restore
rc, out, err = dfollow("-n", "2")
check("follow-lines-n", rc == 0 and len(out.splitlines()) == 2 and "2 lines shown (-n): stopping" in err
      and "2 lines from 1 of 3" in err and untouched(), out + err)
rc, out, err = dfollow("--lines=1", "--grep", "bye")
check("follow-lines-after-filter", rc == 0 and out.splitlines() == ["virtio_net n2 virtnet_remove:20 eth0: bye"],
      out + err)
for bad in ("0", "x", "-3"):
    rc, out, err = run("follow", "module virtio_net +p", "--lines", bad, kmsg=DKMSG)
    check("follow-lines-bad-%s" % bad, rc == 2 and "-n, --lines: a number of lines" in err, out + err)
rc, out, err = run("--since-boot", "run", "-n", "1", "module virtio_net +p", "--", "true", kmsg=DKMSG)
check("run-lines-n", rc == 0 and len(out.splitlines()) == 1, out + err)

# --timestamps: monotonic (the default) as dmesg shows it; realtime; no change without
rc, out, err = dfollow("--timestamps")
check("follow-timestamps-monotonic", rc == 0 and out.splitlines()[0] ==
      "[    1.000000] virtio_net +virtio:virtio0 virtnet_probe:10  virtio_net virtio0: probe a" and
      out.splitlines()[3] == "[    4.000000] virtio_net virtnet_remove:20 no device", out + err)
rc2, out2, err2 = dfollow("--timestamps=monotonic")
check("follow-timestamps-monotonic-named", rc2 == 0 and out2 == out, out2 + err2)
rc, out, err = dfollow("--timestamps=realtime")
check("follow-timestamps-realtime", rc == 0 and len(out.splitlines()) == 4 and all(
    re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d{4} virtio_net ", l)
    for l in out.splitlines()), out + err)
rc, out, err = dfollow("--timestamps=utc")
check("follow-timestamps-bad", rc == 2 and "--timestamps: monotonic or realtime" in err, out + err)
rc, out, err = dfollow("--timestamps", "--json")
check("follow-timestamps-json-unchanged", rc == 0 and json.loads(out.splitlines()[0])["usec"] == 1000000,
      out + err)

# only the log from now on without --since-boot (a file: its end)
rc, out, err = run("follow", "module virtio_net +p")
check("follow-from-now", rc == 0 and out == "" and "0 lines from 0 of 3" in err, out + err)

qfile = os.path.join(tmp, "q.conf")
with open(qfile, "w") as f:
    f.write("# the set\nfunc virtnet_remove +p\n")
rc, out, err = run("--since-boot", "follow", "-f", qfile)
check("follow-f-file", rc == 0 and len(out.splitlines()) == 3 and
      "of 2 followed callsites" in err, out + err)

# the shell's follow command, then the next line of the script
rc, out, err = run("shell", stdin="follow --since-boot module virtio_net +p\nlist module virtio\n")
check("shell-follow", rc == 0 and len(out.splitlines()) == 6 and out.splitlines()[4].startswith("=_ ") and
      "4 lines from 3 of 3" in err, out + err)

# ---- a FIFO: lines as they come, SIGTERM stops and (here) restores nothing
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
w = os.open(fifo, os.O_RDWR)
p = run.popen("follow", "module virtio_net +p", kmsg=fifo)
os.write(w, LOG.encode())
first = p.stdout.readline()  # the first attributed line arrived
p.send_signal(signal.SIGTERM)
out, err = p.communicate(timeout=60)
os.close(w)
check("follow-fifo-sigterm", p.returncode == 0 and first.endswith("bye again\n") and
      "stopping" in err and "4 lines from 3 of 3" in err and untouched(), first + out + err)

w = os.open(fifo, os.O_RDWR)  # a writer before ddctl opens it
p = run.popen("follow", "module virtio_net +p", kmsg=fifo)
os.write(w, LOG.encode())
got = [p.stdout.readline() for _ in range(4)]  # ddctl has read them all
os.close(w)  # the end of the stand-in ends the session
out, err = p.communicate(timeout=60)
check("follow-fifo-end", p.returncode == 0 and got[3].endswith(" bye\n") and out == "" and
      "4 lines from 3 of 3" in err, "".join(got) + out + err)

# ---- bad input: a clear error, nothing written, no record --------------
rc, out, err = run("follow", "module virtio_net +x")
check("follow-bad-query", rc == 2 and 'query 1 "module virtio_net +x"' in err and untouched(), err)
rc, out, err = run("follow")
check("follow-no-query", rc == 2 and "follow needs at least one query" in err, err)
rc, out, err = run("follow", "module virtio_net +p", kmsg=os.path.join(tmp, "nope"))
check("follow-no-kmsg", rc == 1 and "nothing was changed" in err and untouched(), err)
# a set that needs a change on a file that is not the kernel's: refused,
# nothing changed, no record left behind
rc, out, err = run("follow", "module virtio +p")
check("follow-refused-nothing-left", rc == 1 and "nothing written" in err and
      open(CTL).read() == BEFORE and not os.listdir(os.path.join(ROOT, "run", "ddctl", "sessions")),
      err)
rc, out, err = run("--check", "follow", "module virtio +p")
check("follow-check", rc == 0 and "query 2: module virtio +mfsl" in out and
      "would change 2 sites" in out and untouched(), out + err)

# ---- run ------------------------------------------------------------------
rc, out, err = run("--since-boot", "run", "module virtio_net +p", "--", "sh", "-c", "exit 5")
check("run-exit-status", rc == 5 and len(out.splitlines()) == 4 and untouched(), out + err)
rc, out, err = run("run", "module virtio_net +p", "--", "/nonexistent/cmd")
check("run-missing-command", rc == 127 and "cannot run /nonexistent/cmd" in err, err)
rc, out, err = run("run", "module virtio_net +p")
check("run-needs-dashdash", rc == 2 and "run needs queries, '--' and a command" in err, err)
outfile = os.path.join(tmp, "lines.txt")
rc, out, err = run("--since-boot", "run", "-o", outfile, "module", "virtio_net", "+p", "--", "true")
check("run-output-file", rc == 0 and out == "" and
      len(open(outfile).read().splitlines()) == 4, out + err)
rc, out, err = run("run", "module virtio_net +p", "--", "sh", "-c", 'echo "$1"', "x", "-v")
check("run-command-options-untouched", rc == 0 and out == "-v\n", out + err)

# ---- session records ------------------------------------------------------
sdir = os.path.join(ROOT, "run", "ddctl", "sessions")
os.makedirs(sdir, exist_ok=True)
dead = subprocess.Popen(["true"])
dead.wait()
record = ("pid=%d\nstarttime=1\nstart=1700000000\ncommand=ddctl follow module virtio_net +p\n"
          "[during]\nmodule virtio_net =pmfsl\n[restore]\nmodule virtio_net =p\n" % dead.pid)
with open(os.path.join(sdir, "%d-1.session" % dead.pid), "w") as f:
    f.write(record)
mine = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]
with open(os.path.join(sdir, "%d-%s.session" % (os.getpid(), mine)), "w") as f:
    f.write(record.replace("pid=%d" % dead.pid, "pid=%d" % os.getpid())
            .replace("starttime=1", "starttime=" + mine))
rc, out = run.on_tty("sessions", env={"PAGER": "cat"})
rows = out.splitlines()
err = ""
check("sessions-list", rc == 0 and rows[0].split() == ["PID", "STARTED", "STATE", "LEFT", "COMMAND"] and
      any(r.split()[0] == str(dead.pid) and " ended " in r for r in rows) and
      any(r.split()[0] == str(os.getpid()) and " running " in r for r in rows) and err == "",
      out + err)
rc, out, err = run("sessions", "--json")
doc = json.loads(out) if rc == 0 else []
check("sessions-json", rc == 0 and sorted(d["running"] for d in doc) == [False, True] and
      doc[0]["restore"] == "module virtio_net =p\n", out + err)
rc, out, err = run("list", "module", "virtio")
check("ended-session-noticed", rc == 0 and
      ("the session of pid %d (ddctl follow module virtio_net +p) ended without restoring"
       % dead.pid) in err and str(os.getpid()) not in err, err)
rc, out, err = run("--check", "sessions", "--restore")
check("sessions-restore-check", rc == 0 and
      ("session of pid %d (ddctl follow module virtio_net +p) would be restored" % dead.pid) in out
      and len(os.listdir(sdir)) == 2 and open(CTL).read() == BEFORE, out + err)
with open(os.path.join(sdir, "junk.session"), "w") as f:
    f.write("not a record\n")
rc, out, err = run("sessions")
check("sessions-bad-record", rc == 0 and "junk.session: not a session record" in err, out + err)
for n in os.listdir(sdir):
    os.unlink(os.path.join(sdir, n))

# ---- boot snapshot, reset, diff ------------------------------------------
rc, out, err = run("reset", control=STOCK)
check("reset-no-snapshot", rc == 1 and
      "no boot snapshot %s" % os.path.join(ROOT, "run", "ddctl", "boot.conf") in err and
      "nothing was changed" in err, err)
# why there is none, and what takes one (no unit of ddctl is enabled on
# the host running this suite)
NOSNAP_WHY = ("are not enabled", "did not take one", "takes it early at boot")
check("reset-no-snapshot-says-why", any(w in err for w in NOSNAP_WHY) and
      "ddctl save --boot" in err, err)
rc, out, err = run("diff", os.path.join(ROOT, "run", "ddctl", "boot.conf"), "-", control=STOCK)
check("diff-no-snapshot-says-why", rc == 1 and "no boot snapshot" in err and
      any(w in err for w in NOSNAP_WHY), err)
rc, out, err = run("--check", "save", "--boot", control=ENABLED)
boot = os.path.join(ROOT, "run", "ddctl", "boot.conf")
check("save-boot-check-writes-nothing", rc == 0 and not os.path.exists(boot), out + err)
rc, out, err = run("save", "--boot", control=ENABLED)
text = open(boot).read() if os.path.exists(boot) else ""
check("save-boot", rc == 0 and "module test_dynamic_debug =p" in text, out + err)
rc, out, err = run("save", "--boot", control=STOCK)
check("save-boot-kept", rc == 0 and "kept the boot snapshot" in out and open(boot).read() == text,
      out + err)
rc, out, err = run("--check", "reset", control=STOCK)
check("reset-check", rc == 0 and "would change 15 sites" in out, out + err)
rc, out, err = run("diff", boot, "-", control=STOCK)
check("diff-text", rc == 1 and out.endswith("15 callsites differ\n") and
      re.search(r"^\S+:\d+ \[virtio_ring\]\S+ =pfl -> =_$", out, re.M) is not None, out + err)
rc, out, err = run("diff", "--json", boot, "-", control=STOCK)
doc = json.loads(out) if rc == 1 else {}
check("diff-json", rc == 1 and doc.get("count") == 15 and len(doc["differences"]) == 15 and
      set(doc["differences"][0]) == {"file", "line", "module", "function", "a", "b"}, out + err)
rc, out, err = run("diff", "-", "-", control=STOCK)
check("diff-same", rc == 0 and out == "0 callsites differ\n", out + err)
rc, out, err = run("diff", boot, control=STOCK)
check("diff-usage", rc == 2 and "diff needs two states" in err, err)

# ---- the unit: stale sessions and the boot snapshot before ddctl.d -----
unit = open(os.path.join(DATA, "ddctl.service.in")).read()
execs = re.findall(r"^(ExecStart\w*)=(.*)$", unit, re.M)
check("unit-start-order", execs == [
    ("ExecStartPre", "-@sbindir@/ddctl sessions --restore"),
    ("ExecStartPre", "-@sbindir@/ddctl save --boot"),
    ("ExecStart", "@sbindir@/ddctl apply-config")], unit)

# bash completion: follow and run take -o FILE, list -o COLUMNS
if os.path.exists(BASH_COMPLETION):
    with open(os.path.join(tmp, "lines.out"), "w"):
        pass

    def bash(*words):
        return set(bash_complete(words, cwd=tmp)[0].split())

    check("completion-follow-output-file", bash("ddctl", "follow", "-o", "lines.o") == {"lines.out"} and
          bash("ddctl", "run", "--output", "lines.o") == {"lines.out"} and
          bash("ddctl", "list", "-o", "modu") == {"module"},
          bash("ddctl", "follow", "-o", "lines.o"))
    check("completion-follow-filters", {"--grep", "--device", "--timestamps", "--lines"} <=
          bash("ddctl", "follow", "--") and bash("ddctl", "follow", "--timestamps", "=", "re") == {"realtime"} and
          bash("ddctl", "follow", "--grep", "") == set(),
          bash("ddctl", "follow", "--timestamps", "=", "re"))
    check("completion-commands", {"follow", "run", "sessions", "reset", "diff"} <=
          bash("ddctl", ""), "")

# ---- aliases: resolved before planning, and said ------------------------
# an alias libkmod knows (modprobe.d under DDCTL_CONFIG_ROOT): the session
# is planned on the module it names, as the commit and --check are
AROOT = os.path.join(tmp, "alias-root")
os.makedirs(os.path.join(AROOT, "etc", "modprobe.d"))
with open(os.path.join(AROOT, "etc", "modprobe.d", "vring.conf"), "w") as f:
    f.write("alias vring virtio_ring\n")
ACTL = os.path.join(tmp, "alias-control")
shutil.copy(STOCK, ACTL)
ACAP = os.path.join(tmp, "alias-writes")
arun = Ddctl(control=ACTL, config_root=AROOT, run_dir=os.path.join(tmp, "alias-run"),
             kmsg=KMSG, env={"NO_COLOR": "1"}, timeout=60)
n_ring = sum(1 for l in open(STOCK) if "[virtio_ring]" in l)
rc, out, err = arun("--check", "set", "module vring +p")
check("alias-check-resolved", rc == 0 and "would change %d sites" % n_ring in out and
      "vring" in err and "virtio_ring" in err, "rc=%d %s%s" % (rc, out, err))
p = arun.popen("--capture-writes", ACAP, "follow", "module vring +p")
started = ""
while "following" not in started and p.poll() is None:
    started += p.stderr.readline()
p.send_signal(signal.SIGTERM)
out, err = p.communicate(timeout=30)
check("alias-follow-planned-on-module", "following %d callsites" % n_ring in started and
      "virtio_ring" in started + err, "%s%s" % (started, err))

subprocess.run(["rm", "-rf", tmp])
tap.finish()
