#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The options and arguments ddctl takes and where they are documented
(TAP): options after the command and after queries, --, flags that stay query
words, an argument with spaces as one word, --help and `help` per command with
only its options, did-you-mean, the shell's help, and ddctl(8) naming every
command and option of --help."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import HAND, SRC, Ddctl, check, err_lines, tap  # noqa: E402

ddctl = Ddctl(errors="replace")

# ---- options after the command, --, help, did-you-mean ----
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
check("command-help-only-its-options", "--check" in out and "--flags" not in out and
      "--raw" not in out and "--keep-going" not in out, out)
rc3, out3, err3 = ddctl("list", "--help")
check("list-help-its-options", "--flags" in out3 and "--sort" in out3 and "--raw" not in out3, out3)
rc2, out2, err2 = ddctl("help", "set")
check("help-command", rc2 == 0 and out2 == out, out2 + err2)
rc, out, err = ddctl("help")
check("help-alone", rc == 0 and "Commands:" in out, out + err)
rc, out, err = ddctl("-C", HAND, "lsit")
check("did-you-mean-command", rc == 2 and "did you mean 'list'" in err, err)
rc, out, err = ddctl("-C", HAND, "list", "--enabeld")
check("did-you-mean-option", rc == 2 and "did you mean 'enabled'" in err, err)
rc, out, err = ddctl("-C", HAND, "set", "modul", "x", "+p")
check("did-you-mean-keyword", rc == 2 and "did you mean 'module'" in err, err)
rc, out, err = ddctl("-C", HAND, "shell", stdin="help\n")
check("shell-help-no-argv-only", rc == 0 and "-f FILE" not in out and "\n  shell " not in out and
      "--json" in out and "Usage: ddctl" not in out, out + err)
rc, out, err = ddctl("-C", HAND, "shell", stdin="list --frobnicate\n")
check("shell-option-error-short", rc == 2 and "Usage: ddctl" not in err and
      len(err_lines(err)) == 1 and "line 1" in err, err)

# ---- an argument with spaces is one word ----
rc, out, err = ddctl("-C", HAND, "--check", "set", "format", "probe %s", "+p")
check("spaced-argument-one-word", rc == 0 and "would change 1 site" in out, out + err)
rc, out, err = ddctl("-C", HAND, "list", "format", "probe %s")
check("spaced-argument-list", rc == 0 and len(out.splitlines()) == 1, out + err)
rc, out, err = ddctl("-C", HAND, "--check", "set", "module virtio +p", "module virtio_net +p")
check("whole-queries-still-queries", rc == 0 and "would change 4 sites" in out, out + err)
rc, out, err = ddctl("-C", HAND, "set", "module", "x")
check("missing-flags-explained", rc == 2 and "flags" in err and "e.g." in err, err)

# ---- ddctl(8) has every command in SYNOPSIS and every option ----
MAN = os.path.join(SRC, "man", "ddctl.8")
man = open(MAN).read()
synopsis = man.split(".SH SYNOPSIS")[1].split(".SH")[0]
options = man.split(".SH OPTIONS")[1].split("\n.SH")[0]
rc, out, err = ddctl("--help")
cmds = re.findall(r"^  ([a-z-]+) ", out.split("Options:")[0], re.M)
longs = re.findall(r"--([a-z-]+)", out.split("Options:")[1].split("A query")[0])
shorts = re.findall(r"^  -(\w),", out.split("Options:")[1], re.M)
missing = [c for c in cmds if c.replace("-", "\\-") not in synopsis]
check("man-synopsis-every-command", cmds and not missing, "missing: %s" % missing)
missing = ["--" + o for o in longs if "\\-\\-" + o.replace("-", "\\-") not in options]
missing += ["-" + o for o in shorts if ".BR \\-%s " % o not in options]
check("man-every-option", longs and not missing, "missing: %s" % missing)

tap.finish()
