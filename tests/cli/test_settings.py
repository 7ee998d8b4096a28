#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl save, restore, apply-config, persist and list --persistent against
fixture control files and a fixture configuration root (TAP output)."""
import json
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

# ---- persist and the initramfs: a module the running kernel's initramfs
# holds is loaded there with the initramfs's own copy of modprobe.d, so the
# new options need update-initramfs. The image is $DDCTL_INITRAMFS, else
# ROOT/boot/initrd.img-RELEASE; it is listed (lsinitramfs, here a stand-in
# on PATH that says it ran) only when it exists. ----
with tempfile.TemporaryDirectory() as d:
    shutil.copytree(os.path.join(ROOT, "etc"), os.path.join(d, "etc"), symlinks=True)
    shutil.copytree(os.path.join(ROOT, "run"), os.path.join(d, "run"))
    os.makedirs(os.path.join(d, "etc/modprobe.d"))
    rel = os.uname().release
    bin_ = os.path.join(d, "bin")
    os.makedirs(bin_)
    ran = os.path.join(d, "lsinitramfs-ran")
    listing = os.path.join(d, "listing")
    with open(os.path.join(bin_, "lsinitramfs"), "w") as f:
        f.write('#!/bin/sh\necho "$@" >> %s\ncat %s\n' % (ran, listing))
    os.chmod(os.path.join(bin_, "lsinitramfs"), 0o755)

    def lister(lines, path=None):
        with open(listing, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        if os.path.exists(ran):
            os.unlink(ran)
        return {"PATH": bin_ + ":" + os.environ["PATH"], "DDCTL_INITRAMFS": path}

    def calls():
        return open(ran).read().splitlines() if os.path.exists(ran) else []
    image = os.path.join(d, "initrd.img")
    open(image, "w").close()
    mods = "usr/lib/modules/%s/kernel/drivers" % rel
    held = [".", "usr/lib/modules/%s/modules.dep" % rel, mods + "/block/virtio_blk.ko",
            mods + "/net/virtio_net.ko.zst", mods + "/net/net_failover.ko"]
    rc, out, err = run("persist", config_root=d, env=lister(held, image))
    check("persist-initramfs-hint", rc == 0 and calls() == [image] and
          "update-initramfs -u" in err and "virtio_net" in err and "virtio_ring" not in err and
          image in err, err)
    rc, out, err = run("-j", "persist", config_root=d, env=lister(held, image))
    doc = json.loads(out) if rc == 0 else {}
    check("persist-initramfs-json", rc == 0 and doc.get("initramfs") == {
        "image": image, "modules": ["virtio_net"], "update": "update-initramfs -u -k all"},
        out + err)
    rc, out, err = run("--check", "persist", config_root=d, env=lister(held, image))
    check("persist-check-initramfs-hint", rc == 0 and "update-initramfs -u" in err and
          "virtio_net" in err, err)
    # a "-" in a file's name is a "_" in the module's
    rc, out, err = run("-j", "persist", config_root=d,
                       env=lister([mods + "/virtio/virtio-ring.ko.xz"], image))
    doc = json.loads(out) if rc == 0 else {}
    check("persist-initramfs-dash", rc == 0 and (doc.get("initramfs") or {}).get("modules") ==
          ["virtio_ring"], out + err)
    rc, out, err = run("-j", "persist", config_root=d, env=lister(held[:3], image))
    doc = json.loads(out) if rc == 0 else {}
    check("persist-initramfs-not-held", rc == 0 and calls() == [image] and
          "initramfs" in doc and doc["initramfs"] is None and "initramfs" not in err, out + err)
    # the common path: no image, nothing run, nothing said
    rc, out, err = run("persist", config_root=d, env=lister(held, os.path.join(d, "none")))
    check("persist-no-initramfs-nothing-run", rc == 0 and calls() == [] and
          "initramfs" not in err, err)
    # the default image: the running kernel's, below the root
    os.makedirs(os.path.join(d, "boot"))
    default = os.path.join(d, "boot", "initrd.img-" + rel)
    open(default, "w").close()
    rc, out, err = run("persist", config_root=d, env=lister(held))
    check("persist-initramfs-default-image", rc == 0 and calls() == [default] and
          "update-initramfs -u" in err, err)
    # a file outside modprobe.d is not what the initramfs copies
    own = os.path.join(d, "own.conf")
    rc, out, err = run("persist", own, config_root=d, env=lister(held, image))
    check("persist-other-file-no-initramfs", rc == 0 and calls() == [] and
          "initramfs" not in err, err)
    # the image exists but cannot be listed: said, and the file is written
    os.unlink(os.path.join(d, "etc/modprobe.d/ddctl.conf"))
    rc, out, err = run("persist", config_root=d,
                       env={"PATH": os.path.join(d, "empty"), "DDCTL_INITRAMFS": image})
    check("persist-initramfs-unlisted", rc == 0 and "cannot list" in err and
          "update-initramfs -u" in err and os.path.exists(os.path.join(d, "etc/modprobe.d/ddctl.conf")),
          err)

tap.finish()
