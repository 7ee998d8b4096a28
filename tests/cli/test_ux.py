#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl as users expect it: errors, options, help, output (TAP)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DDCTL, HAND, SRC, STOCK, Ddctl, check, tap  # noqa: E402

ddctl = Ddctl(errors="replace")


def on_tty(*args, env=None):
    """ddctl ARGS with stdin/stdout/stderr on an 80x24 pty, COLUMNS and LINES
    unset, then @env set (default PAGER=cat): status, output."""
    return ddctl.on_tty(*args, size=(80, 24),
                        env=dict({"COLUMNS": None, "LINES": None}, **(env or {"PAGER": "cat"})))


def err_lines(err):
    return [line for line in err.splitlines() if line]


# ---- one prefix, never the same error twice ----
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

# ---- list and modules output ----
rc, out = on_tty("-C", STOCK, "list", env={"PAGER": "cat", "COLUMNS": "80"})
lines = out.splitlines()
check("tty-header", rc == 0 and lines and lines[0].split()[:3] == ["FLAGS", "LOCATION", "MODULE"],
      out[:500])
check("tty-80-columns", rc == 0 and len(lines) > 1000 and max(len(x) for x in lines) <= 80 and
      any(x.endswith("\u2026") for x in lines), max(lines, key=len))
rc, out = on_tty("-C", STOCK, "list", env={"PAGER": "cat", "COLUMNS": "60"})
check("tty-COLUMNS", rc == 0 and max(len(x) for x in out.splitlines()) <= 60, out[:300])
rc, out, err = ddctl("-C", STOCK, "list")
longest = max(out.splitlines(), key=len)
check("piped-full-lines", rc == 0 and len(longest) > 150 and not longest.endswith("\u2026") and
      "FLAGS" not in out.splitlines()[0], longest)
rc, out, err = ddctl("-C", HAND, "list")
starts = {line.index(" virtio_net ") for line in out.splitlines() if "[" not in line and " virtio_net " in line}
fstarts = {line.index("virtnet_") for line in out.splitlines() if "virtnet_" in line}
check("module-column-aligned", rc == 0 and len(starts) == 1 and len(fstarts) == 1 and
      len({line.index(" main ") for line in out.splitlines() if " main " in line} | starts) == 1, out)
with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    with open(ctl, "wb") as f:
        f.write(b"# filename:lineno [module]function flags format\n"
                b'drivers/x.c:1 [x]xf =_ "\x1b[31mred\x1b[0m \x01warn caf\xe9"\n'
                b'drivers/x.c:2 [x]xg =p "plain caf\xc3\xa9\\n"\n')
    rc, out, err = ddctl("-C", ctl, "list")
    check("control-bytes-escaped", rc == 0 and "\x1b" not in out and "\x01" not in out and
          "\\x1b[31mred" in out and "\\x01warn" in out and "caf\\xe9" in out and
          "plain caf\u00e9" in out, repr(out))
    rc, out = on_tty("-C", ctl, "list", env={"PAGER": "cat", "COLUMNS": "80"})
    check("control-bytes-escaped-tty", rc == 0 and "\x1b" not in out and "\x01" not in out, repr(out))
rc, out = on_tty("-C", STOCK, "list", env={"PAGER": "sed s/^/PAGED:/", "COLUMNS": "80"})
check("pager-on-tty", rc == 0 and out.count("PAGED:") > 1000, out[:300])
rc, out = on_tty("-C", STOCK, "list", "--no-pager", env={"PAGER": "sed s/^/PAGED:/", "COLUMNS": "80"})
check("no-pager", rc == 0 and "PAGED:" not in out and len(out.splitlines()) > 1000, out[:300])
rc, out = on_tty("-C", STOCK, "modules", env={"PAGER": "sed s/^/PAGED:/", "COLUMNS": "80"})
check("pager-modules", rc == 0 and out.startswith("PAGED:MODULE"), out[:300])
rc, out, err = ddctl("-C", STOCK, "list", env={"PAGER": "sed s/^/PAGED:/"})
check("no-pager-when-piped", rc == 0 and "PAGED:" not in out, out[:300])
rc, out = on_tty("-C", STOCK, "list", env={"PAGER": "cat"})
check("tty-width-from-terminal", rc == 0 and max(len(x) for x in out.splitlines()) <= 80, out[:300])
rc, out, err = ddctl("-C", HAND, "list", "--output", "module,function")
check("output-columns", rc == 0 and out.splitlines()[0].split() == ["main", "do_one_initcall"] and
      all(len(x.split()) == 2 for x in out.splitlines()), out + err)
rc, out, err = ddctl("-C", HAND, "list", "-o", "flags,file,line,class")
check("output-class", rc == 0 and ["=_", "lib/test_dynamic_debug.c", "50", "LOW"] in
      [x.split() for x in out.splitlines()] and ["=_", "init/main.c", "1234", "-"] in
      [x.split() for x in out.splitlines()], out + err)
rc, out, err = ddctl("-C", HAND, "list", "--output", "module,fnuction")
check("output-unknown-column", rc == 2 and "did you mean 'function'" in err, err)
rc, out, err = ddctl("-C", HAND, "list", "--sort", "function", "-o", "function")
check("sort", rc == 0 and out.split() == sorted(out.split()) and len(out.split()) == 11, out + err)
rc, out, err = ddctl("-C", HAND, "list", "--sort", "module,line", "-o", "module,line")
rows = [x.split() for x in out.splitlines()]
check("sort-two-keys", rc == 0 and rows == sorted(rows, key=lambda r: (r[0], int(r[1]))), out + err)
rc, out, err = ddctl("-C", HAND, "list", "--flags", "pf", "-o", "function")
check("flags-filter", rc == 0 and out.split() == ["virtnet_probe", "do_prints"], out + err)
rc, out, err = ddctl("-C", HAND, "list", "--flags", "_", "module", "virtio_net", "-o", "flags")
check("flags-filter-none", rc == 0 and out.split() == ["=_", "=_"], out + err)
rc, out, err = ddctl("-C", HAND, "list", "--flags", "px")
check("flags-filter-bad", rc == 2 and "flag" in err, err)
rc, out, err = ddctl("-C", HAND, "modules", "virtio*")
check("modules-filter", rc == 0 and [x.split()[0] for x in out.splitlines()[1:]] ==
      ["virtio", "virtio_net"], out + err)
rc, out, err = ddctl("-C", HAND, "modules", "--enabled", "virtio-net", "main")
check("modules-enabled", rc == 0 and [x.split()[0] for x in out.splitlines()[1:]] ==
      ["virtio_net"], out + err)

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

# ---- a status line while a split set is written ----
with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    qf = os.path.join(d, "queries")
    with open(ctl, "w") as f, open(qf, "w") as g:
        f.write("# filename:lineno [module]function flags format\n")
        for i in range(1, 2001):
            f.write('big.c:%d [big]f%d =_ "m%d\\n"\n' % (i, i, i))
            g.write("file big.c line %d +p\n" % i)

    cap = os.path.join(d, "writes")

    def fresh():
        with open(cap, "w"):
            pass
    fresh()
    rc, out = on_tty("-C", ctl, "--capture-writes", cap, "-f", qf)
    check("status-line-on-tty", rc == 0 and re.search(r"ddctl: write 2 of \d+", out) and
          "\r\x1b[K" in out, repr(out[-300:]))
    fresh()
    rc, out = on_tty("-C", ctl, "--capture-writes", cap, "-q", "-f", qf)
    check("status-line-quiet", rc == 0 and " of " not in out, repr(out[-300:]))
    fresh()
    rc, out = on_tty("-C", ctl, "--capture-writes", cap, "--json", "-f", qf)
    check("status-line-not-with-json", rc == 0 and "\x1b[K" not in out and " of " not in out,
          repr(out[-300:]))
    fresh()
    rc, out, err = ddctl("-C", ctl, "--capture-writes", cap, "-f", qf)
    check("status-line-not-piped", rc == 0 and "\x1b" not in out + err and " of " not in out + err,
          out + err)

tap.finish()
