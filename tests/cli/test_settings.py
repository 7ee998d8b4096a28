#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl save, restore, apply-config, persist and list --persistent against
fixture control files and a fixture configuration root (TAP output)."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import CONFIG_ROOT as ROOT, ENABLED, STOCK, Ddctl, check, tap  # noqa: E402

run = Ddctl(control=STOCK, config_root=ROOT)

with tempfile.TemporaryDirectory() as d:
    saved = os.path.join(d, "saved.conf")
    rc, out, err = run("save", saved, control=ENABLED)
    text = open(saved).read() if rc == 0 else ""
    queries = [l for l in text.splitlines() if l and not l.startswith("#")]
    check("save-compact", rc == 0 and queries == [
        "module main file init/main.c =p", "module test_dynamic_debug =p",
        "module virtio_ring =pfl"], text + err)
    rc, out2, err = run("save", control=ENABLED)
    check("save-stdout", rc == 0 and out2 == text, out2 + err)
    rc, out, err = run("-c", "restore", saved, control=STOCK)
    check("restore-check-net-changes", rc == 0 and "would change 15 sites" in out, out + err)
    rc, out, err = run("-c", "restore", saved, control=ENABLED)
    check("restore-nothing-to-do", rc == 0 and "nothing to change" in out, out + err)
    ctl = os.path.join(d, "control")
    shutil.copy(STOCK, ctl)
    cap = os.path.join(d, "writes")
    rc, out, err = run("-j", "--capture-writes", cap, "restore", saved, control=ctl)
    check("restore-one-write", rc == 0 and '"writes":1' in out and
          open(cap).read().startswith("module test_dynamic_debug =p\nmodule virtio_ring =pfl\n"),
          out + err)
    rc, out, err = run("restore", os.path.join(d, "missing"))
    check("restore-missing-file", rc == 1 and "cannot read" in err, err)

rc, out, err = run("-c", "apply-config")
files = [l.split()[1][len(ROOT):] for l in out.splitlines() if l.startswith("configuration:")]
check("apply-config-precedence", rc == 0 and files == [
    "/etc/ddctl.d/10-virtio.conf", "/etc/ddctl.d/20-file.conf",
    "/run/ddctl.d/50-net.conf", "/usr/lib/ddctl.d/90-test.conf"], out + err)
check("apply-config-one-set", "query 5: func do_levels -p" in out and
      "would change 39 sites" in out, out)

with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "etc/ddctl.d"))
    with open(os.path.join(d, "etc/ddctl.d/10-ok.conf"), "w") as f:
        f.write("module virtio_ring +p\n")
    with open(os.path.join(d, "etc/ddctl.d/20-bad.conf"), "w") as f:
        f.write("# a comment\nmodule virtio_net +p\nmodule virtio_blk +q\n")
    ctl = os.path.join(d, "control")
    shutil.copy(STOCK, ctl)
    # the broken file is named and left out, the other files apply (as
    # systemd-sysctl does with sysctl.d); the exit status says it (2)
    cap = os.path.join(d, "writes")
    rc, out, err = run("apply-config", control=ctl, config_root=d, capture=cap)
    written = open(cap).read() if os.path.exists(cap) else ""
    check("apply-config-bad-line", rc == 2 and
          "20-bad.conf:3: \"module virtio_blk +q\", column 19, word \"+q\"" in err and
          "this file is skipped, the other files apply" in err and
          "module virtio_ring +p" in written and "virtio_net" not in written, (err, written))
    rc, out, err = run("-c", "apply-config", control=ctl, config_root=os.path.join(d, "none"))
    check("apply-config-empty", rc == 0 and "nothing to change" in out, out + err)

with tempfile.TemporaryDirectory() as d:
    shutil.copytree(os.path.join(ROOT, "etc"), os.path.join(d, "etc"), symlinks=True)
    shutil.copytree(os.path.join(ROOT, "run"), os.path.join(d, "run"))
    os.makedirs(os.path.join(d, "etc/modprobe.d"))
    with open(os.path.join(d, "etc/modprobe.d/local.conf"), "w") as f:
        f.write("options foo bar=1\noptions failover dyndbg=+p\n")
    rc, out, err = run("persist", config_root=d)
    own = os.path.join(d, "etc/modprobe.d/ddctl.conf")
    text = open(own).read() if rc == 0 else ""
    check("persist-modprobe", rc == 0 and text.splitlines()[1:] == [
        'options virtio_ring dyndbg="+pfl"', 'options virtio_net dyndbg="+pf"'], text + err)
    rc, out, err = run("list", "--persistent", config_root=d)
    rows = [l.split() for l in out.splitlines()]  # piped: no header
    check("list-persistent", rc == 0 and sorted(map(tuple, rows)) == sorted([
        ("failover", "dyndbg=+p", "modprobe.d"), ("virtio_ring", 'dyndbg="+pfl"', own),
        ("virtio_net", 'dyndbg="+pf"', own)]), out + err)

tap.finish()
