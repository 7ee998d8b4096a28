#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl's error messages as users see them (TAP): one "ddctl: " prefix,
each error said once, saying why (the missing file, root, the backend), and
usage errors with exit status 2."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DDCTL, HAND, Ddctl, check, err_lines, tap  # noqa: E402

ddctl = Ddctl(errors="replace")

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
        rc, out, err = ddctl("-C", ctl, "--capture-writes", os.path.join(d, "writes"),
                             "set", "module", "virtio", "+p", user=65534)
        check("non-root-set-once", rc == 1 and len(err_lines(err)) == 1 and
              "root" in err, err)
        rc, out, err = ddctl("-C", ctl, "list", user=65534)
        check("non-root-list-reads", rc == 0 and len(out.splitlines()) == 11, out + err)
else:
    tap.skip("non-root-set-once", "not root")
    tap.skip("non-root-list-reads", "not root")
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
    p = ddctl.popen("-C", "/nonexistent", "watch", "-v", config_root=d, errors=None)
    try:
        out, err = p.communicate(timeout=2)
    except subprocess.TimeoutExpired:
        p.terminate()
        out, err = p.communicate()
    check("watch-verbose-says-what-it-waits-for", "waiting for modules to load" in err and
          "no dynamic debug control file" in err, out + err)
rc, out, err = ddctl("set")
check("set-without-words-usage", rc == 2 and "at least one query" in err, err)

tap.finish()
