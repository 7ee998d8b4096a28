#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The tool says what it did and why (TAP): a query that selects nothing is
named with the reason, a module that exists nowhere is an error, a large
set asks first on a terminal; class'd sites a list passes over are counted;
tables cut only what does not fit; ';' arguments, list's hints; options a
command does not take; per-command help; diff's exit status, --pretty,
--version, --color; status."""
import json
import lzma
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import FIXTURES, HAND, STOCK, Ddctl, Term, check, tap  # noqa: E402

tmp = tempfile.mkdtemp()
DEBIAN = os.path.join(tmp, "debian-6.1-control.txt")
with lzma.open(os.path.join(FIXTURES, "debian-6.1-control.txt.xz"), "rb") as src, \
        open(DEBIAN, "wb") as dst:
    shutil.copyfileobj(src, dst)
CAP = os.path.join(tmp, "capture")
run = Ddctl(control=DEBIAN, capture=CAP, errors="replace")
stock = Ddctl(control=STOCK, errors="replace")


def captured():
    try:
        with open(CAP) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def fresh():
    if os.path.exists(CAP):
        os.unlink(CAP)


# ---- no silent no-op ----
fresh()
rc, out, err = run("set", "module", "xhci_hdc", "+p")
check("typo-module-warns", 'query 1 "module xhci_hdc +p"' in err and "xhci_hdc" in err and
      "did you mean 'xhci_hcd'" in err, "rc=%d %s" % (rc, err))
# without a module index (this machine) the name may be installed: a warning, 0;
# with one, a name libkmod does not know either is an error (exit 2)
check("typo-module-status", (rc == 0 and "is loaded (no module index" in err) or
      (rc == 2 and "loaded or installed" in err and captured() == ""), "rc=%d %s" % (rc, err))
rc, out, err = run("set", "class", "FOO", "+p")
check("no-such-class-warns", rc == 0 and "no loaded site has class FOO" in err, "rc=%d %s" % (rc, err))
rc, out, err = run("set", "module", "xhci_hcd", "func", "nosuch", "+p")
check("empty-by-specs-warns", rc == 0 and "selects no site" in err and "nosuch" in err, err)
rc, out, err = run("set", "module", "xhci_hcd", "line", "0", "+p")
check("line-0-said", rc == 0 and "'line 0'" in err and "185 sites" in err, err)
rc, out, err = run("set", "module", "xhci_hcd", "+p")
check("matching-query-silent", rc == 0 and err == "", err)
rc, out, err = run("list", "module", "nosuch_mod")
check("list-empty-warns", "nosuch_mod" in err and "selects no site" in err and rc in (0, 2), err)
rc, out, err = run("--json", "set", "module", "xhci_hdc", "+p")
lines = [json.loads(x) for x in err.splitlines() if x.startswith("{")]
check("warning-json", any("warning" in x and "xhci_hdc" in x["warning"] for x in lines), err)
rc, out, err = run("-f", "-", stdin="module xhci_hdc +p\n")
check("file-warns-keeps-0", rc == 0 and "xhci_hdc" in err, "rc=%d %s" % (rc, err))

# on a terminal, a set that enables thousands of sites asks first
env = {"TERM": "xterm", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
fresh()
t = Term(DEBIAN, env, ("--capture-writes", CAP, "set", "+p"))
seen = t.expect(r"Go on\? \[y/N\]")
t.send("n\n")
rc = t.wait()
check("large-set-asks", seen and "enables 30201 sites" in seen and rc == 1 and captured() == "",
      "rc=%s %r" % (rc, seen or t.buf))
fresh()
t = Term(DEBIAN, env, ("--capture-writes", CAP, "set", "+p"))
t.expect(r"Go on\? \[y/N\]")
t.send("y\n")
rc = t.wait()
check("large-set-yes-answer", rc == 0 and "+p" in captured(), "rc=%s %r" % (rc, t.buf))
fresh()
t = Term(DEBIAN, env, ("--capture-writes", CAP, "set", "--yes", "+p"))
rc = t.wait()
check("large-set-yes-option", rc == 0 and "Go on" not in t.buf and "+p" in captured(), t.buf)
fresh()
rc, out, err = run("set", "+p")
check("large-set-no-terminal-no-question", rc == 0 and "Go on" not in err and "+p" in captured(), err)

# ---- class'd sites a list passes over ----
rc, out, err = stock("list", "module", "test_dynamic_debug")
check("list-hidden-classes", rc == 0 and len(out.splitlines()) == 5 and
      "26 more sites" in err and "class NAME" in err and "D2_CORE" in err, out + err)
rc, out, err = stock("list", "module", "test_dynamic_debug", "class", "D2_CORE")
check("list-class-no-note", rc == 0 and len(out.splitlines()) == 1 and err == "", out + err)
rc, out, err = stock("-q", "list", "module", "test_dynamic_debug")
check("list-hidden-quiet", rc == 0 and err == "", err)
rc, out = stock.on_tty("modules", "test_dynamic_debug", size=(200, 24), env={"PAGER": "cat"})
check("modules-classes-column", rc == 0 and out.splitlines()[0].split()[-1] == "CLASSES" and
      "MID,HI,D2_CORE" in out, out)

# ---- tables: cut only what does not fit ----
rc, out = run.on_tty("list", "module", "xhci_hcd", size=(200, 24), env={"PAGER": "cat", "COLUMNS": None})
lines = out.splitlines()
check("wide-terminal-whole", rc == 0 and lines[0].startswith("FLAGS") and
      "\u2026" not in out and "~" not in out and "drivers/usb/host/xhci-dbg.c:31" in out, out[:600])
rc, out = run.on_tty("list", "module", "xhci_hcd", size=(80, 24), env={"PAGER": "cat", "COLUMNS": None})
check("narrow-terminal-cut", rc == 0 and max(len(x) for x in out.splitlines()) <= 80 and
      ("\u2026" in out or "~" in out), out[:600])
rc, out = run.on_tty("list", "-l", "module", "xhci_hcd", size=(80, 24), env={"PAGER": "cat", "COLUMNS": None})
check("full-never-cuts", rc == 0 and "\u2026" not in out and "drivers/usb/host/xhci-dbg.c:31" in out and
      max(len(x) for x in out.splitlines()) > 80, out[:600])
rc, out = run.on_tty("list", "--no-legend", "module", "xhci_hcd", size=(200, 24), env={"PAGER": "cat"})
check("no-legend", rc == 0 and not out.startswith("FLAGS") and "xhci_dbg_trace" in out, out[:300])
for cmd, first in ((["modules"], "MODULE"), (["sessions"], None), (["list", "-P"], "MODULE")):
    rc, out, err = stock(*cmd, run_dir=tmp)
    check("no-header-piped-" + cmd[0] + ("-P" if len(cmd) > 1 else ""),
          rc == 0 and not out.startswith(("MODULE", "PID")), out[:200] + err)
rc, out = stock.on_tty("modules", "--no-legend", size=(120, 24), env={"PAGER": "cat"})
check("modules-no-legend", rc == 0 and not out.startswith("MODULE"), out[:200])

# ---- arguments into queries, and hints ----
rc, out, err = run("--check", "-v", "set", "module", "xhci_hcd", "+p", ";", "module", "usbcore", "+p")
check("semicolon-argument-separates", rc == 0 and "query 2: module usbcore +p" in out and
      "would change 347 sites" in out, out + err)
rc, out, err = run("list", "xhci_hcd")
check("list-bare-name-hint", rc == 2 and "did you mean 'module xhci_hcd'" in err, err)
rc, out, err = run("list", "module", "xhci_hcd", "+p")
check("list-takes-no-flags", rc == 2 and "takes no flags" in err and
      "ddctl set module xhci_hcd +p" in err, err)

# ---- options: only where they apply; help per command ----
rc, out, err = stock("modules", "--sort", "module")
check("option-not-for-command", rc == 2 and "'--sort' does not apply to modules" in err and
      "list" in err, err)
rc, out, err = stock("info", "--enabled")
check("option-not-for-info", rc == 2 and "does not apply to info" in err, err)
rc, out, err = stock("--check", "list")
check("option-before-command-checked", rc == 2 and "'--check' does not apply to list" in err, err)
rc, out, err = stock("list", "--help")
check("list-help-applies-only", rc == 0 and "--check" not in out and "--expand" not in out and
      "Examples:" in out and "ddctl list module" in out, out)
rc, out, err = stock("follow", "--help")
check("follow-help-file-no-pager", rc == 0 and "--file" in out and "--no-pager" not in out and
      "Examples:" in out, out)
rc, out, err = stock("shell", stdin="list --sort module --enabled\nmodules --sort module\n")
check("shell-option-not-for-command", rc == 2 and "does not apply to modules" in err, err)

# ---- exit status and output conventions ----
saved = os.path.join(tmp, "saved.conf")
with open(saved, "w") as f:
    f.write("module virtio_net +p\n")
rc, out, err = stock("diff", saved, "-")
check("diff-differ-exit-1", rc == 1 and "differ" in out, "rc=%d %s%s" % (rc, out, err))
rc, out, err = stock("diff", "-", "-")
check("diff-same-exit-0", rc == 0, "rc=%d %s" % (rc, err))
rc, out, err = stock("--json", "--pretty", "info")
check("json-pretty", rc == 0 and out.startswith("{\n  \"control\": ") and
      json.loads(out)["backend"], out)
rc, out, err = stock("--json", "info")
check("json-compact-default", rc == 0 and out.count("\n") == 1, out)
rc, out, err = stock("--version")
check("version-features", rc == 0 and re.search(r"^ddctl \S+\n", out) and "library:" in out and
      re.search(r"[+-]netlink [+-]libkmod [+-]readline [+-]systemd", out), out)
rc, out, err = stock("--color=sometimes", "list")
check("color-bad-value", rc == 2 and "auto, always or never" in err, err)

# ---- status ----
root = os.path.join(tmp, "root")
os.makedirs(os.path.join(root, "etc", "ddctl.d"))
with open(os.path.join(root, "etc", "ddctl.d", "10-net.conf"), "w") as f:
    f.write("module virtio_net +p\n")
rc, out, err = stock("status", config_root=root, run_dir=os.path.join(tmp, "run"))
check("status-text", rc == 0 and re.search(r"^enabled: +\d+ of \d+ sites", out, re.M) and
      "configuration: not applied: 25 sites would change" in out and
      "no boot snapshot" in out and "sessions:" in out, out + err)
rc, out, err = stock("--json", "status", config_root=root, run_dir=os.path.join(tmp, "run"))
doc = json.loads(out) if rc == 0 else {}
check("status-json", doc.get("config_differ") == 25 and doc.get("boot_differ") is None and
      doc.get("sessions_running") == 0 and isinstance(doc.get("modules"), list), out + err)
with open(os.path.join(root, "etc", "ddctl.d", "20-later.conf"), "w") as f:
    f.write("module not_loaded_yet +p\n")
rc, out, err = stock("--check", "apply-config", config_root=root)
check("apply-config-empty-warns-keeps-0", rc == 0 and "not_loaded_yet" in err and
      "selects no site" in err, "rc=%d %s" % (rc, err))
rc, out, err = stock("status", "extra")
check("status-no-arguments", rc == 2, err)

shutil.rmtree(tmp)
tap.finish()
