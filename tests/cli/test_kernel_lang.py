#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The query language of each kernel (TAP): on a real Debian 6.1 control
file with --kernel or DDCTL_KERNEL, 's' and 'd' are refused with the
kernel and the flag named and nothing written; 'd' is taken on 7.2; without
a kernel a named control file gets the newest rules; completion offers only
the kernel's flags; `help flags` explains them; follow on 6.1 adds and
attributes the decoration 6.1 prints (module:function:line:, no file)."""
import json
import lzma
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import FIXTURES, Ddctl, check, tap  # noqa: E402

tmp = tempfile.mkdtemp(prefix="ddctl-kernel-")
CTL = os.path.join(tmp, "control")
with lzma.open(os.path.join(FIXTURES, "debian-6.1-control.txt.xz"), "rt") as f, \
        open(CTL, "w") as o:
    o.write(f.read())
BEFORE = open(CTL).read()
CAP = os.path.join(tmp, "writes")
run = Ddctl(control=CTL, capture=CAP, run_dir=os.path.join(tmp, "run"),
            env={"NO_COLOR": "1", "DDCTL_KERNEL": None}, timeout=60)
K61 = "6.1.0-57-amd64"


def written():
    return open(CAP).read() if os.path.exists(CAP) else ""


# ---- flags per kernel ---------------------------------------------------
rc, out, err = run("--kernel", K61, "--check", "set", "module", "bonding", "+s")
check("k61-check-refuses-s", rc == 2 and err ==
      'ddctl: query 1 "module bonding +s", column 16, word "+s": this kernel '
      "(6.1.0-57-amd64) has no flag 's' (Linux 6.6 and later)\n" and out == "", out + err)
rc, out, err = run("set", "module bonding +p; module e1000 +ps", env={"DDCTL_KERNEL": K61})
check("k61-env-set-refuses-s-writes-nothing", rc == 2 and "query 2 " in err and
      "this kernel (6.1.0-57-amd64) has no flag 's'" in err and written() == "" and
      open(CTL).read() == BEFORE, out + err)
rc, out, err = run("--kernel", K61, "set", "module", "bonding", "-d")
check("k61-refuses-d", rc == 2 and "has no flag 'd' (Linux 7.2 and later)" in err and
      written() == "", out + err)
rc, out, err = run("--kernel", K61, "--check", "set", "module", "bonding", "=pmflt")
check("k61-takes-its-flags", rc == 0 and "matched 131, changed 131" in out, out + err)
rc, out, err = run("--kernel", "6.12.57+deb12-amd64", "--check", "set", "module bonding +s")
check("k612-takes-s", rc == 0 and "changed 131" in out, out + err)
rc, out, err = run("--kernel", "6.12.57+deb12-amd64", "--check", "set", "module bonding +d")
check("k612-refuses-d", rc == 2 and "(6.12.57+deb12-amd64) has no flag 'd'" in err, out + err)
rc, out, err = run("--kernel", "7.2.13+deb14-amd64", "--check", "--json", "set", "module bonding +d")
doc = json.loads(out) if rc == 0 else {}
check("k72-takes-d", rc == 0 and doc["queries"][0]["changed"] == 131 and
      doc["changes"][0]["new"] == "=d", out + err)
rc, out, err = run("--check", "set", "module bonding +sd")
check("unknown-kernel-newest-rules", rc == 0 and "changed 131" in out, out + err)
rc, out, err = run("--kernel", K61, "--check", "set", "module bonding +x")
check("unknown-flag-lists-kernel-flags", rc == 2 and
      "unknown flag 'x' (flags are p m f l t _: `ddctl help flags`)" in err, err)
rc, out, err = run("--kernel", "", "list")
check("kernel-empty-usage", rc == 2 and "--kernel" in err, err)
rc, out, err = run("--kernel", K61, "--json", "--check", "set", "module bonding +s")
check("k61-json-error", rc == 2 and "has no flag 's'" in err, out + err)

# ---- completion, help ----------------------------------------------------
rc, out, err = run("--kernel", K61, "__complete", "set", "module", "bonding", "+")
check("k61-complete-no-s-d", rc == 0 and sorted(out.split()) ==
      ["+f", "+l", "+m", "+p", "+t"], out + err)
rc, out, err = run("--kernel", "7.2", "__complete", "set", "module", "bonding", "=p")
check("k72-complete-d", rc == 0 and "=pd" in out.split() and "=ps" in out.split(), out + err)
rc, out, err = run("--kernel", K61, "help", "flags")
check("help-flags", rc == 0 and re.search(r"^  s  prefix the source file name +Linux 6\.6 and "
                                          r"later \(not this kernel\)$", out, re.M) and
      re.search(r"^  d  dump the stack", out, re.M) and "This kernel: 6.1.0-57-amd64" in out,
      out + err)
rc, out, err = run("help", "flags")
check("help-flags-unknown-kernel", rc == 0 and "not known" in out and "(not this kernel)" not in out,
      out + err)

# ---- follow on 6.1: decoration without a file name ------------------------
with open(CTL, "w") as o:
    o.write(re.sub(r"(\[e1000\]\S+) =_", r"\1 =pmfl", BEFORE))
BEFORE61 = open(CTL).read()
KMSG = os.path.join(tmp, "kmsg")
with open(KMSG, "w") as f:
    f.write("7,1,100,-;e1000:e1000_reset_hw:390: Masking off all interrupts\n"
            "7,2,101,-;e1000:e1000_reset_hw:423: Issuing a global reset to MAC\n"
            "7,3,102,-;e1000:e1000_reset_hw:drivers/net/ethernet/intel/e1000/e1000_hw.c:390: x\n")
rc, out, err = run("--kernel", K61, "--since-boot", "follow", "module e1000 +p", kmsg=KMSG)
check("k61-follow-attributes-without-file", rc == 0 and
      [" ".join(l.split()) for l in out.splitlines()] == [
    "e1000 e1000_reset_hw:390 Masking off all interrupts",
    "e1000 e1000_reset_hw:423 Issuing a global reset to MAC"] and
    "2 lines from 2 of" in err and "(0 changed)" in err and
    open(CTL).read() == BEFORE61, out + err)

# netdev_dbg() of a bond (no parent device) prints no decoration at all;
# 6.1 cuts a decoration longer than 63 bytes, the message right after it
with open(CTL, "w") as o:
    o.write(re.sub(r"(\[(bonding|target_core_mod)\]\S+) =_", r"\1 =pmfl", BEFORE))
BEFORE61 = open(CTL).read()
with open(KMSG, "w") as f:
    f.write("7,1,100,-;b0 (uninitialized): Begin bond_init\n"
            "7,2,101,-;target_core_mod:target_fabric_setup_tpg_mappedlun_stat_cit:253:Setup generic lun_0\n"
            "7,3,102,-;b0: some line no bonding format prints\n")
rc, out, err = run("--kernel", K61, "--since-boot", "follow", "module bonding +p; module target_core_mod +p",
                   kmsg=KMSG)
check("k61-follow-undecorated-and-cut", rc == 0 and
      [" ".join(l.split()) for l in out.splitlines()] == [
    "bonding bond_init:6481 b0 (uninitialized): Begin bond_init",
    "target_core_mod target_fabric_setup_tpg_mappedlun_stat_cit:253 Setup generic lun_0"] and
    "2 lines from 2 of" in err and open(CTL).read() == BEFORE61, out + err)
with open(CTL, "w") as o:
    o.write(BEFORE)
os.unlink(CAP) if os.path.exists(CAP) else None
rc, out, err = run("--kernel", K61, "--check", "follow", "module bonding +p", kmsg=KMSG)
check("k61-follow-decoration-no-s", rc == 0 and "=_ -> =pmfl" in out and "s" not in
      re.findall(r"-> (=\S+)", out)[0], out + err)
rc, out, err = run("--check", "follow", "module bonding +p", kmsg=KMSG)
check("follow-decoration-newest", rc == 0 and "=_ -> =pmfsl" in out, out + err)
tap.finish()
