#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl's command line against fixture control files (TAP output)."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DATA, HAND, Ddctl, check, tap  # noqa: E402

run = Ddctl(control=HAND)

rc, out, err = run("--check", "--json", "set", "module virtio_net -p")
doc = json.loads(out) if rc == 0 else {}
check("check-json-shape", rc == 0 and list(doc) == ["queries", "changes", "writes", "split",
                                                    "expanded", "verified", "keys_patched"] and
      doc["writes"] == 0 and doc["keys_patched"] is None and
      doc["queries"] == [{"query": "module virtio_net -p", "matched": 3, "changed": 1}] and
      doc["changes"] == [{"file": "drivers/net/virtio_net.c", "line": 10, "module": "virtio_net",
                          "function": "virtnet_probe", "old": "=pf", "new": "=f"}], out + err)

with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    shutil.copy(HAND, ctl)
    before = open(ctl).read()
    rc, out, err = run("-c", "set", "+p", control=ctl)
    check("check-writes-nothing", rc == 0 and open(ctl).read() == before and
          "would change 6 sites" in out, out + err)

rc, out, err = run("set", "module foo +x")
check("query-error-exit-2", rc == 2 and 'query 1 "module foo +x", column 12, word "+x"' in err, err)
rc, out, err = run("set", "+p", "modul x +p")
check("second-query-named", rc == 2 and 'query 2 "modul x +p", column 1, word "modul"' in err, err)
rc, out, err = run("frobnicate")
check("unknown-command-exit-2", rc == 2 and "unknown command" in err, err)
rc, out, err = run("list", control="/nonexistent/control")
check("missing-control-exit-1", rc == 1 and "cannot read" in err, err)

rc, out, err = run("list")
check("list-all", rc == 0 and len(out.splitlines()) == 11 and '"probe %s\\t"x"\\n"' in out, out)
rc, out, err = run("list", "--enabled")
check("list-enabled", rc == 0 and len(out.splitlines()) == 3, out)
rc, out, err = run("list", "module", "virtio*")
check("list-filter-words", rc == 0 and len(out.splitlines()) == 5, out)
rc, out, err = run("-j", "list", "!module virtio*")
check("list-json-negated", rc == 0 and len(json.loads(out)) == 4, out)
rc, out, err = run("list", "-j", "class LOW")
doc = json.loads(out) if rc == 0 else []
check("list-json-class", rc == 0 and len(doc) == 1 and doc[0]["class"] == "LOW", out)

rc, out, err = run("modules", "-j")
mods = {m["module"]: m for m in json.loads(out)} if rc == 0 else {}
check("modules-json", rc == 0 and mods.get("virtio_net") == {"module": "virtio_net", "sites": 3, "enabled": 1,
                                                              "classes": []} and
      mods.get("test_dynamic_debug", {}).get("classes") == ["LOW"], out)
rc, out = run.on_tty("modules", env={"PAGER": "cat"})
check("modules-table", rc == 0 and out.splitlines()[0].split() == ["MODULE", "SITES", "ENABLED", "CLASSES"], out)

rc, out, err = run("-c", "-v", "-f", "-", stdin="# comment\nmodule virtio +p\nmodule virtio -p\n")
check("file-stdin-verbose", rc == 0 and "query 1: module virtio +p" in out and
      "matched 2, changed 2" in out and "would change 0 sites" in out, out + err)
rc, out, err = run("-c", "set", "module", "virtio_net", "-p")
check("flags-word-not-an-option", rc == 0 and "would change 1 site" in out, out + err)

with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    open(ctl, "w").close()
    # a regular file is not a kernel: the table comes from the hand fixture
    # via a copy, and what ddctl writes goes to the --capture-writes file.
    shutil.copy(HAND, ctl)
    cap = os.path.join(d, "writes")
    rc, out, err = run("-j", "--capture-writes", cap, "set", "module main +p", control=ctl)
    doc = json.loads(out) if rc == 0 else {}
    check("set-json-writes", rc == 0 and doc.get("writes") == 1 and
          open(cap).read() == "module main +p\n", out + err)

rc, out, err = run("info", "-j")
doc = json.loads(out) if rc == 0 else {}
check("info-json", rc == 0 and doc.get("backend") == "control-file" and doc.get("sites") == 11, out + err)
rc, out, err = run("-B", "control", "info", "-j")
check("backend-control", rc == 0 and json.loads(out).get("backend") == "control-file", out + err)
rc, out, err = run("--backend", "carrier-pigeon", "info")
check("backend-unknown-exit-2", rc == 2 and "unknown backend" in err, err)
rc, out, err = run("--help")
check("help", rc == 0 and "Exit status" in out, out)
# every command and long option of --help is known to the bash completion
comp = open(os.path.join(DATA, "bash-completion", "ddctl")).read()
cmds = re.findall(r"^  ([a-z-]+) ", out.split("Options:")[0], re.M)
longs = re.findall(r"--([a-z-]+)", out.split("Options:")[1].split("A query")[0])
missing = [w for w in cmds if w not in comp.split('local commands="')[1].split('"')[0].split()]
missing += ["--" + o for o in longs if "--" + o not in comp]
check("bash-completion-complete", cmds and not missing, "missing: %s" % missing)

tap.finish()
