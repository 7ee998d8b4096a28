#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl shell on a real pseudo-terminal (TAP output): completion, history,
Ctrl-C, Ctrl-D and the prompt."""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import HAND, PROMPT, Term, check, clean, tap  # noqa: E402

with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    shutil.copy(HAND, ctl)
    env = {"HOME": os.path.join(d, "home"), "XDG_STATE_HOME": os.path.join(d, "state"),
           "TERM": "xterm", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "INPUTRC": "/dev/null"}
    os.mkdir(env["HOME"])
    t = Term(ctl, env)
    check("prompt-shows-backend", t.expect(re.escape(PROMPT)), t.buf)

    # module names: Tab inserts the common prefix, Tab Tab lists them
    t.send("module vir\t")
    seen = t.expect("tio")
    check("complete-module-prefix", seen and "module virtio" in seen.replace("\x07", ""), t.buf)
    t.send("\t\t")
    seen = clean(t.expect(r"virtio_net.*\n?.*" + re.escape(PROMPT) + ".*module virtio"))
    check("complete-module-names", seen and re.search(r"\bvirtio\s+virtio_net\b", seen), seen)
    # Ctrl-C cancels the line: the query is not applied, the shell stays
    check("ctrl-c-new-prompt", t.cancel() is not None, t.buf)
    t.send("list -e\r")
    seen = clean(t.expect(re.escape(PROMPT)))
    check("ctrl-c-line-not-run", seen and "do_prints" in seen and "virtio_dev_probe" not in seen, seen)

    # functions, files a directory at a time, flags after an operator
    t.send("func virtnet_\t\t")
    seen = clean(t.expect(r"virtnet_remove"))
    check("complete-functions", seen and "virtnet_probe" in seen, seen)
    t.cancel()
    t.send("file drivers/\t\t")
    seen = clean(t.expect(r"drivers/virtio/"))
    check("complete-files-by-directory", seen and "drivers/net/" in seen and ".c" not in seen, seen)
    t.cancel()
    t.send("set module virtio +\t\t")
    seen = clean(t.expect(r"\+t"))
    check("complete-flags", seen and all("+" + c in seen for c in "pmflt"), seen)
    t.cancel()
    t.send("!mod\t")
    check("complete-negated-keyword", t.expect(r"!module "), t.buf)
    t.cancel()

    # the prompt counts pending queries; Ctrl-D asks before dropping them
    t.send("begin\r")
    check("prompt-open-set", t.expect(re.escape("ddctl[control-file] 0 pending> ")), t.buf)
    t.send("module virtio +p\r")
    t.send("module main +p\r")
    check("prompt-pending-count", t.expect(re.escape("ddctl[control-file] 2 pending> ")), t.buf)
    t.send("\x04")
    check("ctrl-d-asks", t.expect(r"2 queries pending: quit and drop them\? \[y/N\] "), t.buf)
    t.send("n\r")
    check("ctrl-d-no-stays", t.expect(re.escape("ddctl[control-file] 2 pending> ")), t.buf)
    t.send("quit\r")
    t.expect(r"\[y/N\] ")
    t.send("n\r")
    t.expect(re.escape("2 pending> "))
    t.send("abort\r")
    t.expect(re.escape(PROMPT))
    t.send("info\r")
    t.expect(re.escape(PROMPT))
    t.send("info\r")
    t.expect(re.escape(PROMPT))
    t.send("list -e\r")
    t.expect(re.escape(PROMPT))
    t.send("\x04")
    rc = t.wait()
    check("ctrl-d-leaves", rc == 0, "exit %r" % rc)

    hist = os.path.join(env["XDG_STATE_HOME"], "ddctl", "history")
    lines = open(hist).read().splitlines() if os.path.exists(hist) else []
    check("history-xdg-no-duplicates", lines and lines.count("info") == 1 and
          lines.count("list -e") == 1 and lines[-1] == "list -e" and
          len(lines) == len(set(lines)), lines)
    check("history-no-cancelled-lines", "module vir" not in lines and "module virtio" not in lines
          and not any(l.startswith("func") or l.startswith("file") for l in lines), lines)

    # the next session recalls it; without XDG_STATE_HOME: ~/.local/state
    t = Term(ctl, env)
    t.expect(re.escape(PROMPT))
    t.send("\x1b[A")
    check("history-recalled", t.expect("list -e"), t.buf)
    t.cancel()
    t.send("quit\r")
    check("quit-leaves", t.wait() == 0)

    def one_command_session(environ):
        t = Term(ctl, environ)
        t.expect(re.escape(PROMPT))
        t.send("modules\r")
        t.expect(re.escape(PROMPT))
        t.send("\x04")
        return t.wait()

    env2 = dict(env)
    del env2["XDG_STATE_HOME"]
    one_command_session(env2)
    check("history-default-state-dir",
          os.path.exists(os.path.join(env["HOME"], ".local/state/ddctl/history")))

    # a state directory that cannot be made: ~/.ddctl_history
    blocker = os.path.join(d, "file")
    open(blocker, "w").close()
    one_command_session(dict(env, XDG_STATE_HOME=blocker))
    check("history-fallback", os.path.exists(os.path.join(env["HOME"], ".ddctl_history")))

    # under sudo -E the history path is the user's; a symlink planted there
    # is never followed, for reading or writing
    state = os.path.join(d, "state-planted")
    os.makedirs(os.path.join(state, "ddctl"))
    victim = os.path.join(d, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.symlink(victim, os.path.join(state, "ddctl", "history"))
    rc = one_command_session(dict(env, XDG_STATE_HOME=state))
    check("history-symlink-not-followed", rc == 0 and open(victim).read() == "precious\n" and
          os.path.islink(os.path.join(state, "ddctl", "history")), open(victim).read())
    check("history-file-private",
          oct(os.stat(os.path.join(env["XDG_STATE_HOME"], "ddctl", "history")).st_mode & 0o777) == "0o600")

tap.finish()
