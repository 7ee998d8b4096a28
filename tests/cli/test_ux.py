#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ddctl as users expect it (issue 13): errors, options, help, output (TAP)."""
import os
import shutil
import subprocess
import sys
import tempfile

DDCTL, FIXTURES = sys.argv[1], sys.argv[2]
HAND = os.path.join(FIXTURES, "hand-escapes.txt")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tap import Tap  # noqa: E402

tap = Tap()
check = tap.check


def ddctl(*args, stdin=None, env=None, user=None):
    cmd = [DDCTL, *args]
    if user is not None:
        cmd = ["setpriv", "--reuid", str(user), "--regid", str(user),
               "--clear-groups", *cmd]
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


def err_lines(err):
    return [line for line in err.splitlines() if line]


# ---- item 2: one prefix, never the same error twice ----
rc, out, err = ddctl("list", "--frobnicate", "-C", HAND)
check("prefix-unknown-option", rc == 2 and err.startswith("ddctl: ") and
      "list:" not in err and "frobnicate" in err, err)
rc, out, err = ddctl("--frobnicate")
check("prefix-unknown-global-option", rc == 2 and err.startswith("ddctl: ") and
      DDCTL + ":" not in err, err)
rc, out, err = ddctl("-C", "/nonexistent", "list")
check("missing-control-once", rc == 1 and len(err_lines(err)) == 1 and
      err.startswith("ddctl: "), err)
rc, out, err = ddctl("-C", "/nonexistent", "set", "module", "x", "+p")
check("missing-control-set-once", rc == 1 and len(err_lines(err)) == 1, err)
if os.geteuid() == 0 and shutil.which("setpriv"):
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        ctl = os.path.join(d, "control")
        shutil.copy(HAND, ctl)
        os.chmod(ctl, 0o644)
        rc, out, err = ddctl("-C", ctl, "set", "module", "virtio", "+p", user=65534)
        check("non-root-set-once", rc == 1 and len(err_lines(err)) == 1 and
              "root" in err, err)
        rc, out, err = ddctl("-C", ctl, "list", user=65534)
        check("non-root-list-reads", rc == 0 and len(out.splitlines()) == 11, out + err)
else:
    check("non-root-set-once # SKIP not root", True)
rc, out, err = ddctl("-B", "netlink", "-C", HAND, "list")
check("netlink-forced-no-missing-file", rc == 1 and "No such file" not in err and
      "no dynamic debug control file" not in err and "netlink" in err and
      len(err_lines(err)) == 1, err)
rc, out, err = ddctl("-B", "netlink", "-C", HAND, "set", "module", "x", "+p")
check("netlink-forced-set-no-missing-file", rc == 1 and "No such file" not in err and
      "no dynamic debug control file" not in err and len(err_lines(err)) == 1, err)
rc, out, err = ddctl("-C", "/nonexistent", "info")
check("info-no-control-says-why", rc == 1 and err.startswith("ddctl: ") and
      "/nonexistent" in err, out + err)
with tempfile.TemporaryDirectory() as d:
    p = subprocess.Popen([DDCTL, "-C", "/nonexistent", "watch", "-v"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, DDCTL_CONFIG_ROOT=d))
    try:
        out, err = p.communicate(timeout=2)
    except subprocess.TimeoutExpired:
        p.terminate()
        out, err = p.communicate()
    check("watch-verbose-says-what-it-waits-for", "waiting for modules to load" in err and
          "no dynamic debug control file" in err, out + err)
rc, out, err = ddctl("set")
check("set-without-words-usage", rc == 2 and "at least one query" in err, err)

# ---- item 3: options after the command, --, help, did-you-mean ----
rc, out, err = ddctl("list", "-C", HAND)
check("option-after-command", rc == 0 and len(out.splitlines()) == 11, out + err)
rc, out, err = ddctl("list", "--control=" + HAND, "module", "virtio")
check("long-option-after-command", rc == 0 and len(out.splitlines()) == 2, out + err)
rc, out, err = ddctl("-C", HAND, "set", "module", "virtio_net", "-p", "--check")
check("check-after-query", rc == 0 and "would change 1 site" in out, out + err)
rc, out, err = ddctl("-C", HAND, "set", "--check", "--", "-p")
check("double-dash-query", rc == 0 and "would change 3 sites" in out, out + err)
rc, out, err = ddctl("-C", HAND, "set", "-c", "module", "virtio_net", "-pf")
check("flags-stay-query-words", rc == 0 and "would change 1 site" in out, out + err)
rc, out, err = ddctl("--help")
check("help-documents-version", rc == 0 and "-V, --version" in out, out)
rc, out, err = ddctl("-V")
check("version", rc == 0 and out.startswith("ddctl "), out + err)
rc, out, err = ddctl("set", "--help")
check("command-help", rc == 0 and out.startswith("Usage: ddctl [OPTIONS] set QUERY") and
      "list" not in out.split("Options:")[0], out)
rc2, out2, err2 = ddctl("help", "set")
check("help-command", rc2 == 0 and out2 == out, out2 + err2)
rc, out, err = ddctl("help")
check("help-alone", rc == 0 and "Commands:" in out, out + err)
rc, out, err = ddctl("-C", HAND, "lsit")
check("did-you-mean-command", rc == 2 and "did you mean 'list'" in err, err)
rc, out, err = ddctl("-C", HAND, "set", "modul", "x", "+p")
check("did-you-mean-keyword", rc == 2 and "did you mean 'module'" in err, err)
rc, out, err = ddctl("-C", HAND, "shell", stdin="help\n")
check("shell-help-no-argv-only", rc == 0 and "-f FILE" not in out and "\n  shell " not in out and
      "--json" in out and "Usage: ddctl" not in out, out + err)
rc, out, err = ddctl("-C", HAND, "shell", stdin="list --frobnicate\n")
check("shell-option-error-short", rc == 2 and "Usage: ddctl" not in err and
      len(err_lines(err)) == 1 and "line 1" in err, err)

# ---- item 4: an argument with spaces is one word ----
rc, out, err = ddctl("-C", HAND, "--check", "set", "format", "probe %s", "+p")
check("spaced-argument-one-word", rc == 0 and "would change 1 site" in out, out + err)
rc, out, err = ddctl("-C", HAND, "list", "format", "probe %s")
check("spaced-argument-list", rc == 0 and len(out.splitlines()) == 1, out + err)
rc, out, err = ddctl("-C", HAND, "--check", "set", "module virtio +p", "module virtio_net +p")
check("whole-queries-still-queries", rc == 0 and "would change 4 sites" in out, out + err)
rc, out, err = ddctl("-C", HAND, "set", "module", "x")
check("missing-flags-explained", rc == 2 and "flags" in err and "e.g." in err, err)

tap.finish()
