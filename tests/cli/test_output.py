#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""How list and modules print (TAP): on a terminal a header, lines cut to
its width (or COLUMNS) and a pager; piped full lines and no pager; control
bytes escaped; --output, --sort, --flags and the modules filters; the status
line while a split set is written, on a terminal only."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import HAND, STOCK, Ddctl, check, tap, write_split_set  # noqa: E402

ddctl = Ddctl(errors="replace")


def on_tty(*args, env=None):
    """ddctl ARGS with stdin/stdout/stderr on an 80x24 pty, COLUMNS and LINES
    unset, then @env set (default PAGER=cat): status, output."""
    return ddctl.on_tty(*args, size=(80, 24),
                        env=dict({"COLUMNS": None, "LINES": None}, **(env or {"PAGER": "cat"})))


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
check("modules-filter", rc == 0 and [x.split()[0] for x in out.splitlines()] ==
      ["virtio", "virtio_net"], out + err)
rc, out, err = ddctl("-C", HAND, "modules", "--enabled", "virtio-net", "main")
check("modules-enabled", rc == 0 and [x.split()[0] for x in out.splitlines()] ==
      ["virtio_net"], out + err)

# ---- a status line while a split set is written ----
with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    qf = os.path.join(d, "queries")
    write_split_set(ctl, qf)

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
