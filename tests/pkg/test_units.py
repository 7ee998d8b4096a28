#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl.service's start as systemd runs it, without systemd (TAP output):
its ExecStartPre= and ExecStart= lines in order, a failing line without a
"-" prefix ending the start, with ddctl on fixture control files
(--capture-writes shows what reached the "kernel"). The configuration must
apply even when the session restore or the boot snapshot before it fails,
and the failing step must say why."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DATA, STOCK, Ddctl, check, tap  # noqa: E402

UNIT = open(os.path.join(DATA, "ddctl.service.in")).read()
EXECS = re.findall(r"^(ExecStartPre|ExecStart)=(.*)$", UNIT, re.M)
tmp = tempfile.mkdtemp(prefix="ddctl-units-")
ROOT = os.path.join(tmp, "root")
os.makedirs(os.path.join(ROOT, "etc/ddctl.d"))
with open(os.path.join(ROOT, "etc/ddctl.d/10-x.conf"), "w") as f:
    f.write("module virtio_ring =pt\n")
CAP = os.path.join(tmp, "writes")


def start_unit(control, run_dir):
    """The unit's start: (whether it succeeded, the log of each command,
    whether apply-config ran and wrote the configuration)."""
    if os.path.exists(CAP):
        os.unlink(CAP)
    run = Ddctl(control=control, capture=CAP, config_root=ROOT, run_dir=run_dir, timeout=60)
    log = []
    for key, line in EXECS:
        prefix, command = re.match(r"^([-@:+!]*?)(@sbindir@/ddctl\b.*)$", line).groups()
        ignore = "-" in prefix
        argv = shlex.split(command)
        p = subprocess.run(run.argv(*argv[1:]), env=run.environ(), capture_output=True,
                           text=True, timeout=60)
        log.append("%s=%s: exit %d\n%s" % (key, line, p.returncode, p.stderr))
        if p.returncode and not ignore:
            return False, "".join(log), False
    applied = os.path.exists(CAP) and "module virtio_ring =pt" in open(CAP).read()
    return True, "".join(log), applied


check("unit-exec-lines", [k for k, _ in EXECS] == ["ExecStartPre", "ExecStartPre", "ExecStart"] and
      "apply-config" in EXECS[-1][1], EXECS)
check("unit-apply-config-failure-fails-unit", not EXECS[-1][1].startswith("-"), EXECS[-1])

# nothing fails: the configuration applies (unchanged behaviour)
ok, log, applied = start_unit(STOCK, os.path.join(tmp, "run-ok"))
check("unit-start-applies", ok and applied, log)

# the run directory is not one: neither the records nor the snapshot
notadir = os.path.join(tmp, "not-a-directory")
open(notadir, "w").close()
ok, log, applied = start_unit(STOCK, os.path.join(notadir, "ddctl"))
check("unit-applies-when-run-dir-unusable", ok and applied and "boot snapshot" in log, log)

# a session record that cannot be restored
bad = os.path.join(tmp, "run-bad-record")
os.makedirs(os.path.join(bad, "sessions"))
with open(os.path.join(bad, "sessions", "999999-1.session"), "w") as f:
    f.write("pid=999999\nstarttime=1\nstart=1700000000\ncommand=ddctl follow module main +p\n"
            "[during]\nmodule main =pmfsl\n[restore]\nmodule main +x\n")
ok, log, applied = start_unit(STOCK, bad)
check("unit-applies-when-session-restore-fails", ok and applied and
      "could not restore" in log, log)

# a state save cannot name in full: every site of the stock table on
everything = os.path.join(tmp, "control-all-on")
with open(STOCK) as f, open(everything, "w") as o:
    lines = f.read().splitlines(True)
    o.write(lines[0])
    o.writelines(l.replace(" =_ ", " =p ", 1) for l in lines[1:])
ok, log, applied = start_unit(everything, os.path.join(tmp, "run-all-on"))
check("unit-applies-when-state-not-saveable", ok and applied, log)


def settings(text):
    """A unit's KEY=VALUE lines: {key: [values in order]}."""
    out = {}
    for key, value in re.findall(r"^(\w+)=(.*)$", text, re.M):
        out.setdefault(key, []).append(value)
    return out


# The watcher is ready before udev's coldplug loads modules, takes the boot
# snapshot before it configures any, and re-reads ddctl.d on reload.
WATCH = settings(open(os.path.join(DATA, "ddctl-watch.service.in")).read())
UNITS = settings(UNIT)
check("watch-unit-notify", WATCH.get("Type") == ["notify"] and WATCH.get("NotifyAccess") == ["main"],
      WATCH.get("Type"))
check("watch-unit-before-coldplug", "systemd-udev-trigger.service" in " ".join(WATCH.get("Before", [])) and
      "ddctl.service" in " ".join(WATCH.get("Before", [])), WATCH.get("Before"))
check("watch-unit-snapshot-first", WATCH.get("ExecStartPre", [""])[0] == "-@sbindir@/ddctl save --boot",
      WATCH.get("ExecStartPre"))
check("watch-unit-reload-sighup", any("HUP" in v and ("$MAINPID" in v or "--kill-who=main" in v)
                                                    for v in WATCH.get("ExecReload", [])) and
      WATCH.get("ReloadPropagatedFrom") == ["ddctl.service"], WATCH.get("ExecReload"))
check("unit-reload-propagates", UNITS.get("PropagatesReloadTo") == ["ddctl-watch.service"] and
      "ddctl-watch.service" in " ".join(UNITS.get("After", [])), UNITS.get("PropagatesReloadTo"))
# /run/ddctl holds session records of follow/run: a stop or restart of a
# unit must not remove it; the watcher's /run/modprobe.d (its load-time
# options) must exist before udevd starts, and stay
for name, unit in (("ddctl", UNITS), ("ddctl-watch", WATCH)):
    check("%s-unit-run-dir-preserved" % name, unit.get("RuntimeDirectory") == ["ddctl"] and
          unit.get("RuntimeDirectoryPreserve") == ["yes"], unit.get("RuntimeDirectory"))
    # an early-boot unit cannot count on /tmp, where systemd before 255
    # builds PrivateDevices='s /dev: the unit would fail to start at random
    check("%s-unit-no-private-devices" % name, unit.get("DefaultDependencies") == ["no"] and
          "PrivateDevices" not in unit and unit.get("DevicePolicy") == ["closed"],
          unit.get("PrivateDevices"))
check("watch-unit-before-udevd", "systemd-udevd.service" in " ".join(WATCH.get("Before", [])),
      WATCH.get("Before"))
# /run/modprobe.d made outside the sandbox, writable in it, and not a
# RuntimeDirectory= (systemctl clean would remove other packages' files)
check("watch-unit-modprobe-dir", "+/bin/mkdir -p -m 0755 /run/modprobe.d" in WATCH.get("ExecStartPre", [])
      and "-/run/modprobe.d" in WATCH.get("ReadWritePaths", []), (WATCH.get("ExecStartPre"),
                                                                 WATCH.get("ReadWritePaths")))

shutil.rmtree(tmp)
tap.finish()
