#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""--json on every command that prints: valid UTF-8, valid
JSON (python3 -m json.tool accepts it), fixed keys, errors as {"error":...}
on stderr with the exit status (TAP)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import CONFIG_ROOT as ROOT, HAND, Ddctl, check, tap  # noqa: E402

tmp = tempfile.mkdtemp()
# a site with 0xE9 (Latin-1, not UTF-8), ESC and 0x01 in its format and file
CONTROL = os.path.join(tmp, "control")
with open(CONTROL, "wb") as f:
    f.write(open(HAND, "rb").read())
    f.write(b'drivers/caf\xe9.c:3 [cafe]caf\xe9_init =p "\x1b[31mcaf\xe9\x1b[0m \x01x\\n"\n')
ORIGINAL = open(CONTROL, "rb").read()
# writes go to a capture file: a fixture copy is never written
run = Ddctl(control=CONTROL, capture=os.path.join(tmp, "writes"), config_root=ROOT, text=False)


def ddctl(*args, stdin=None):
    """ddctl ARGS on a fresh copy of CONTROL: (status, stdout, stderr) as bytes."""
    with open(CONTROL, "wb") as f:
        f.write(ORIGINAL)
    return run(*args, stdin=stdin)


def docs(data):
    """Every JSON document in @data (one, or one per line); None if invalid."""
    try:
        text = data.decode("utf-8")  # strict: invalid UTF-8 fails
    except UnicodeDecodeError:
        return None
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError:
        return None


def json_tool(data):
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=data, capture_output=True)
    return p.returncode == 0


def valid(name, args, keys=None, each=None, stdin=None, rc_ok=(0,)):
    rc, out, err = ddctl(*args, stdin=stdin)
    d = docs(out)
    ok = rc in rc_ok and d is not None and len(d) >= 1 and (len(d) > 1 or json_tool(out))
    if ok and keys is not None:
        ok = list(d[0]) == keys
    if ok and each is not None:
        items = d[0] if isinstance(d[0], list) else d
        ok = len(items) > 0 and all(list(x) == each for x in items)
    check(name, ok, "rc=%d\n%r\n%r" % (rc, out[:600], err[:300]))
    return d


SITE = ["file", "line", "module", "function", "flags", "format", "class", "class_id"]
SET = ["queries", "changes", "writes", "split", "expanded", "verified", "keys_patched"]

d = valid("list", ["-j", "list"], each=SITE)
cafe = [x for x in (d or [[]])[0] if x["module"] == "cafe"]
check("list-escapes-latin1-and-control", cafe and cafe[0]["format"] == "\x1b[31mcaf\u00e9\x1b[0m \x01x\n"
      and cafe[0]["file"] == "drivers/caf\u00e9.c" and cafe[0]["class"] is None
      and cafe[0]["class_id"] is None, repr(cafe))
valid("modules", ["modules", "--json"], each=["module", "sites", "enabled", "classes"])
d = valid("info", ["info", "-j"], keys=["control", "kernel_control", "negation", "transactions",
                                         "netlink", "backend", "sites"])
d = docs(Ddctl(text=False)("-C", "/nonexistent", "info", "-j")[1])
check("info-unknown-is-null", d and d[0]["sites"] is None, repr(d))
valid("set-check", ["--check", "-j", "set", "module cafe -p"], keys=SET)
valid("set", ["-j", "set", "module cafe -p"], keys=SET)
valid("set-nothing", ["-j", "set", "module nosuch +p"], keys=SET)
valid("set-file", ["-j", "-f", "-"], stdin=b"module cafe -p\n", keys=SET)
valid("save", ["save", "-j"], keys=["file", "queries"])
valid("restore", ["restore", "-j", "-"], stdin=b"module cafe =_\n", keys=SET)
valid("apply-config", ["apply-config", "--check", "-j"], keys=["files"] + SET)
valid("list-persistent", ["list", "-P", "-j"])
with tempfile.TemporaryDirectory() as d2:
    shutil.copytree(ROOT, os.path.join(d2, "root"), symlinks=True)  # the /dev/null mask stays one
    rc, out, err = run("persist", "-j", os.path.join(d2, "modprobe.conf"), capture=None,
                       config_root=os.path.join(d2, "root"))
    d = docs(out)
    check("persist", rc == 0 and d and list(d[0]) == ["file", "modules", "initramfs"] and
          all(list(m) == ["module", "options"] for m in d[0]["modules"]), repr(out) + repr(err))

# errors: one {"error":{...}} document on stderr, with the exit status
ERR = ["status", "message", "messages", "query", "column", "word"]
for name, args, status in [("error-query", ["-j", "set", "modul x +p"], 2),
                           ("error-usage", ["-j", "set"], 2),
                           ("error-no-control", ["-j", "-C", "/nonexistent", "list"], 1),
                           ("error-monitor", ["-j", "-C", "/nonexistent", "-B", "netlink", "monitor"], 1)]:
    rc, out, err = ddctl(*args)
    d = docs(err)
    check(name, rc == status and d and len(d) == 1 and list(d[0]) == ["error"] and
          list(d[0]["error"]) == ERR and d[0]["error"]["status"] == status and
          out == b"", "rc=%d %r %r" % (rc, out, err))
rc, out, err = ddctl("-j", "set", "modul x +p")
e = (docs(err) or [{}])[0].get("error", {})
check("error-query-fields", e.get("query") == 1 and e.get("column") == 1 and e.get("word") == "modul", repr(err))

shutil.rmtree(tmp)
tap.finish()
