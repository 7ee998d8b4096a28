#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The kernel command line (TAP output): persist --cmdline writes the
configuration or the queries given as dyndbg words (checked for the
kernel's parser and length, how to add them to GRUB and systemd-boot),
refuses with exit 2 what cannot go there, and status counts the sites the
running kernel's words set ($DDCTL_PROC_CMDLINE stands in for
/proc/cmdline). The boot with the words is tested in the VM
(tests/vm/guest/guard.sh, cmdline-round-trip)."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import STOCK, Ddctl, check, tap  # noqa: E402

tmp = tempfile.mkdtemp(prefix="ddctl-cmdline-")
ROOT = os.path.join(tmp, "root")
os.makedirs(os.path.join(ROOT, "etc", "ddctl.d"))
PROC = os.path.join(tmp, "cmdline")
with open(PROC, "w") as f:
    f.write("BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet\n")
run = Ddctl(control=STOCK, config_root=ROOT, run_dir=os.path.join(tmp, "run"),
            env={"DDCTL_PROC_CMDLINE": PROC}, timeout=60)
Q = ["module smpboot func wakeup_secondary_cpu_via_init =pl", ";",
     "file kernel/irq/irqdomain.c format 'virq allocation failed' +pf"]
WORDS = ('smpboot.dyndbg="func wakeup_secondary_cpu_via_init =pl" '
         'dyndbg="file kernel/irq/irqdomain.c format virq\\040allocation\\040failed +pf"')

rc, out, err = run("persist", "--cmdline", *Q)
check("cmdline-words", rc == 0 and out == WORDS + "\n", out + err)
check("cmdline-grub-refused-for-escapes", "GRUB adds a backslash before each" in err and
      "GRUB_CMDLINE_LINUX" not in err and "/boot/loader/entries/*.conf" in err, err)
rc, out, err = run("persist", "--cmdline", "module usbcore +p", ";", "module xhci-hcd func xhci_* +pf")
check("cmdline-grub-howto", rc == 0 and out == 'usbcore.dyndbg="+p" xhci_hcd.dyndbg="func xhci_* +pf"\n' and
      'GRUB_CMDLINE_LINUX="... usbcore.dyndbg=\\"+p\\" xhci_hcd.dyndbg=\\"func xhci_* +pf\\""' in err and
      "update-grub" in err and "of the kernel command line's 2047 bytes (the running one uses 43)" in err, err)
rc, out, err = run("-j", "persist", "--cmdline", *Q)
doc = json.loads(out) if rc == 0 else {}
check("cmdline-json", doc.get("words") == WORDS and doc.get("bytes") == len(WORDS) and
      doc.get("limit") == 2047 and doc.get("grub") is False, out + err)

# the configuration when no query is given
with open(os.path.join(ROOT, "etc", "ddctl.d", "usb.conf"), "w") as f:
    f.write("module usbcore +p\nfunc *probe* +f\n")
rc, out, err = run("persist", "--cmdline")
check("cmdline-configuration", rc == 0 and out == 'usbcore.dyndbg="+p" dyndbg="func *probe* +f"\n', out + err)

# what cannot go on a command line: exit 2, named, nothing printed on stdout
for name, query, why in [
        ("quote", 'func a"b +p', "holds a '\"'"),
        ("blank-and-quote", "func \"a' b\" +p", "both a blank and a '"),
        ("negation", "!module smpboot +p", "negation"),
        ("bad-query", "module smpboot +x", "unknown flag"),
        ("no-flags", "module smpboot", "expected flags")]:
    rc, out, err = run("persist", "--cmdline", "module pci +p", ";", query)
    check("cmdline-refused-" + name, rc == 2 and out == "" and why in err and
          (name.startswith(("bad", "no-")) or 'query 2 "' in err), err)
# checked for the kernel that boots with the words (--kernel)
rc, out, err = run("--kernel", "6.1", "persist", "--cmdline", "module smpboot +s")
check("cmdline-refused-kernel-flag", rc == 2 and out == "" and "(6.1) has no flag 's'" in err, err)
rc, out, err = run("persist", "--cmdline", ";".join(["module m%04d func f%04d +p" % (i, i) for i in range(80)]))
check("cmdline-too-long", rc == 2 and out == "" and "more than the kernel command line's 2047" in err, err)
with open(PROC, "w") as f:
    f.write("x" * 2040 + "\n")
rc, out, err = run("persist", "--cmdline", "module usbcore +p")
check("cmdline-running-too-long-warns", rc == 0 and "they exceed the 2047 bytes it holds" in err, err)

# ---- status: the sites the running kernel's words set ------------------------
ctl = os.path.join(tmp, "control")
with open(STOCK) as f, open(ctl, "w") as o:
    o.write(re.sub(r"(\[smpboot\]wakeup_secondary_cpu_via_init) =_", r"\1 =pl", f.read()))
with open(PROC, "w") as f:
    f.write('BOOT_IMAGE=/vmlinuz "smpboot.dyndbg=func wakeup_secondary_cpu_via_init =pl" '
            'dyndbg="file kernel/irq/irqdomain.c +p" smpboot.dyndbg="bogus" -- dyndbg=+p\n')
rc, out, err = run("status", control=ctl)
check("status-cmdline", rc == 0 and re.search(
    r"command line: +2 dyndbg words \(/proc/cmdline\) select 17 sites: 6 as the words set them, 11 not "
    r".*\n +smpboot +6 as set\n", out), out + err)
rc, out, err = run("-j", "status", control=ctl)
doc = json.loads(out) if rc == 0 else {}
check("status-cmdline-json", doc.get("cmdline_words") == 2 and doc.get("cmdline_sites") == 6 and
      doc.get("cmdline_changed") == 11 and doc.get("cmdline_modules") == [{"module": "smpboot", "sites": 6}],
      out + err)
with open(PROC, "w") as f:
    f.write("quiet\n")
rc, out, err = run("status", control=ctl)
check("status-no-cmdline-words", rc == 0 and "command line:  no dyndbg words" in out, out + err)

subprocess.run(["rm", "-rf", tmp])
tap.finish()
