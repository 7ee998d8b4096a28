#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl shell, scripted on stdin, against fixture copies (TAP output).

A fixture copy is a regular file, not the kernel's: ddctl never writes it.
What it would write to the kernel goes to a --capture-writes file, every
submission appended, and the shell keeps the state the library predicts.
"""
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import HAND, Ddctl, check, tap  # noqa: E402

ORIGINAL = open(HAND).read()
run = Ddctl()


def session(script, *opts, control=None):
    """Run `ddctl OPTS shell` on a fresh fixture copy; return rc, out, err and
    the bytes written (the capture file), unchanged copy asserted."""
    with tempfile.TemporaryDirectory() as d:
        ctl = control or os.path.join(d, "control")
        cap = os.path.join(d, "writes")
        if not control:
            shutil.copy(HAND, ctl)
        rc, out, err = run(*opts, "shell", control=ctl, capture=cap, stdin=script)
        data = open(cap).read() if os.path.exists(cap) else ""
        if not control and open(ctl).read() != ORIGINAL:
            data = "the control-file copy was written"
    return rc, out, err, data


MARKER = "class names and flags."


def split_session(first, then, *opts):
    """Run FIRST, empty the capture file, run THEN: it then holds exactly the
    bytes THEN submitted."""
    with tempfile.TemporaryDirectory() as d:
        ctl = os.path.join(d, "control")
        cap = os.path.join(d, "writes")
        shutil.copy(HAND, ctl)
        p = run.popen(*opts, "shell", control=ctl, capture=cap, text=False,
                      stdin=subprocess.PIPE)
        p.stdin.write((first + "help\n").encode())
        p.stdin.flush()
        out = b""
        while MARKER.encode() not in out:
            r, _, _ = select.select([p.stdout], [], [], 10)
            chunk = os.read(p.stdout.fileno(), 65536) if r else b""
            if not chunk:
                break
            out += chunk
        open(cap, "w").close()
        rest, err = p.communicate(then.encode(), timeout=30)
        data = open(cap).read()
    head = out.decode().split("Commands:\n")[0]
    return p.returncode, head, rest.decode(), err.decode(), data


def json_docs(text):
    """The JSON documents printed one after another on stdout."""
    dec, docs, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)
    return docs


def flags_of(sites):
    return {(s["file"], s["line"], s["function"], s["format"]): s["flags"] for s in sites}


# begin ... commit: one transaction, one write holding both queries
rc, head, rest, err, data = split_session("begin\nmodule virtio +p\nset module virtio_net -p\npending\n",
                                          "commit\n", "-v")
check("commit-one-write", rc == 0 and "changed 3 sites in 1 write" in rest and
      rest.count(" write") == 1, rest + err)
check("commit-bytes-one-submission", data == "module virtio +p\nmodule virtio_net -p\n", repr(data))
check("queued-until-commit", "would change 3 sites" in head and "write" not in head, head)

# queries inside begin are not written before commit
rc, out, err, data = session("begin\nmodule virtio +p\npending\n")
check("nothing-before-commit", data == "", repr(data[:80]))
check("end-of-input-open-set", rc == 2 and "line 3: end of input with a set open (1 pending)" in err, err)

# abort drops the set
rc, out, err, data = session("begin\nmodule virtio +p\nmodule main +p\nabort\nlist -e\n")
check("abort", rc == 0 and "dropped 2 queries" in out and data == "" and
      len([l for l in out.splitlines() if l.startswith("=p")]) == 3, out + err)

# pending: per-query counts and the sites that change, nothing written
rc, out, err, data = session("begin\nmodule virtio +p\nmodule virtio_net -p\npending\nabort\n")
check("pending-output", rc == 0 and
      re.search(r"query 1: module virtio \+p\s+matched 2, changed 2", out) and
      re.search(r"query 2: module virtio_net -p\s+matched 3, changed 1", out) and
      "drivers/virtio/virtio.c:300 [virtio]virtio_dev_probe =_ -> =p" in out and
      "drivers/net/virtio_net.c:10 [virtio_net]virtnet_probe =pf -> =f" in out and
      "would change 3 sites" in out and data == "", out + err)
rc, out, err, data = session("begin\nmodule virtio +p\npending -j\nabort\n")
doc = json_docs(out.split("dropped")[0])[0] if rc == 0 else {}
check("pending-json", doc.get("queries") == [{"query": "module virtio +p", "matched": 2, "changed": 2}]
      and len(doc.get("changes", [])) == 2, out + err)

# the prompt of a terminal is not printed for a script; pending count is
rc, out, err, data = session("pending\n")
check("pending-without-begin", rc == 2 and "line 1: pending: no set is open" in err, err)

# undo restores every site exactly; checked outside the shell's own model:
# the bytes undo wrote, applied to the committed state, give the original
rc, head, rest, err, data = split_session(
    "list -j\nbegin\nmodule virtio +pm\nfunc virtnet_* =_\nfile lib/* +t\ncommit\nlist -j\n",
    "undo -v\nlist -j\n")
# commit says what it did in a line of its own, between the JSON documents
docs = json_docs(re.sub(r"^committed .*\n", "", head, flags=re.M)) if rc == 0 else []
before, after = (docs + [None, None])[:2]
final = json_docs(rest[rest.find(" write\n") + 7:]) if rc == 0 else []
check("undo-model", rc == 0 and before and after and flags_of(before) != flags_of(after)
      and final and flags_of(final[0]) == flags_of(before), head + rest + err)
check("undo-one-write", rc == 0 and re.search(r"changed \d+ sites in 1 write", rest), rest)


def control_line(s):
    fmt = s["format"].replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    cls = " class:" + s["class"] if s.get("class") else ""
    return '%s:%d [%s]%s %s "%s"%s' % (s["file"], s["line"], s["module"], s["function"],
                                     s["flags"], fmt, cls)


if rc == 0 and after and data:
    with tempfile.TemporaryDirectory() as d:
        state = os.path.join(d, "after")
        open(state, "w").write(ORIGINAL.splitlines()[0] + "\n" +
                               "".join(control_line(s) + "\n" for s in after))
        prc, pout, perr = run("-C", state, "--check", "-j", "-f", "-", stdin=data)
        res = json.loads(pout) if prc == 0 else {"changes": [None]}
        got = {(s["file"], s["line"], s["function"], s["format"]): s["flags"] for s in after}
        for c in res["changes"]:
            match = [k for k in got if k[:3] == (c["file"], c["line"], c["function"])]
            for k in match:
                if got[k] == c["old"]:
                    got[k] = c["new"]
        check("undo-bytes-restore-exactly", got == flags_of(before), data + perr)
else:
    check("undo-bytes-restore-exactly", False, repr(data) + err)

rc, out, err, data = session("undo\n")
check("undo-nothing", rc == 2 and "line 1: undo: no committed set" in err, err)

# a bare query is applied at once as its own set
rc, out, err, data = session("module virtio +p\n", "-v")
check("bare-query-applied", rc == 0 and data.startswith("module virtio +p\n") and
      "changed 2 sites in 1 write" in out, out + err)
rc, out, err, data = session("check module virtio +p\n")
check("check-writes-nothing", rc == 0 and "would change 2 sites" in out and data == "", out + err)

# errors name the line and stop the script ...
script = "list -e\n\n# a comment\nmodule virtio +p\nmodul x +p\nmodule virtio_net -p\n"
rc, out, err, data = session(script)
check("error-line-number", rc == 2 and
      'ddctl: line 5: query 1 "modul x +p", column 1, word "modul"' in err, err)
check("error-stops", data == "module virtio +p\n", repr(data[:40]))
# ... unless --keep-going
rc, out, err, data = session(script + "set module foo +x\n", "--keep-going")
check("keep-going", rc == 2 and data == "module virtio +p\nmodule virtio_net -p\n" and
      "line 5:" in err and 'line 7: query 1 "module foo +x"' in err, err)

# continued lines: one logical line, errors at its first line
rc, out, err, data = session("module virtio \\\n +p\nmodule \\\n foo +x\n")
check("continuation", data.startswith("module virtio +p\n") and rc == 2 and
      re.search(r'line 3: query 1 "module\s+foo \+x"', err), err + repr(data[:40]))

# exit statuses as for the CLI
rc, out, err, data = session("info\nlist module virtio\nquit\nmodul x +p\n")
check("exit-0-and-quit-stops", rc == 0 and "virtio_dev_probe" in out, out + err)
rc, out, err, data = session("list\n", control="/nonexistent/control")
check("exit-1-refused", rc == 1 and "line 1: cannot read" in err, err)
rc, out, err, data = session("commit\n")
check("exit-2-commit-without-begin", rc == 2 and "line 1: commit: no set is open" in err, err)
rc, out, err, data = session("begin\nmodule virtio +p\nquit\n")
check("quit-with-pending-script", rc == 2 and data == "" and "1 queries pending" in err, err)
rc, out, err, data = session("module main +p\ninfo\n")
check("info-after-write", rc == 0 and re.search(r"callsites:\s+11\n", out), out + err)
rc, out, err, data = session("frobnicate now\n")
check("unknown-word-is-a-query", rc == 2 and 'line 1: query 1 "frobnicate now"' in err, err)
rc, out, err, data = session("list -h\nmodules\n")
check("help-option-does-not-leave", rc == 0 and "Usage" in out and "\nvirtio_net " in out, out + err)
rc, out, err, data = session("help\n")
check("help-lists-commands", rc == 0 and all(w in out for w in
      ("begin", "commit", "abort", "pending", "undo", "modules", "info", "quit")), out)
rc, out, err = run("-C", HAND, stdin="")
check("no-args-not-a-terminal-is-usage", rc == 2 and "Usage" in err, err)

# the shell as the command line: suggestions, options anywhere, result lines
rc, out, err, data = session("lst\n")
check("shell-command-suggestion", rc == 2 and "unknown command 'lst'" in err and
      "did you mean 'list'" in err, err)
rc, out, err, data = session("list module virtio_net --flags p\n")
check("shell-option-after-query", rc == 0 and out.splitlines() and
      all(" virtio_net " in x and "p" in x.split()[0] for x in out.splitlines()), out + err)
rc, out, err, data = session("list --sort line module virtio_net -o line\n")
check("shell-option-argument-word", rc == 0 and out.split() == sorted(out.split(), key=int), out + err)
rc, out, err, data = session("begin\nmodule virtio_net +p\ncommit\n")
check("shell-commit-result-line", rc == 0 and "committed 1 query as one set" in out, out + err)
rc, out, err, data = session("modules --sort module\n")
check("shell-option-not-for-command", rc == 2 and "does not apply to modules" in err, err)
rc, out, err, data = session("modul x +p\n")
check("shell-keyword-typo-still-query", rc == 2 and "did you mean 'module'" in err, err)

tap.finish()
