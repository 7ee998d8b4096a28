#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Install layout and test registration, TAP output: configures the source
tree with `meson setup` in temporary directories and checks `meson introspect
--installed` and `--tests`; checks which packages tests/deps.sh would install
(--print, installs nothing)."""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(SRC, "tests"))
from tap import Tap  # noqa: E402

tap = Tap()
check = tap.check
tmp = tempfile.TemporaryDirectory(prefix="ddctl-layout-")


def setup(*opts, tests=False):
    d = tempfile.mkdtemp(dir=tmp.name)
    p = subprocess.run(["meson", "setup", d, SRC, "-Dtests=%s" % str(tests).lower(), *opts],
                       capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("meson setup %s failed:\n%s%s" % (" ".join(opts), p.stdout, p.stderr))
    return d


def installed(*opts):
    d = setup(*opts)
    out = subprocess.run(["meson", "introspect", "--installed", d],
                         capture_output=True, text=True, check=True).stdout
    return sorted(json.loads(out).values())


def names(paths, suffix):
    return [p for p in paths if p.endswith(suffix)]


def pc_var(pkg, var):
    p = subprocess.run(["pkg-config", "--variable=" + var, pkg], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


# --prefix is honoured by every file, units and completions included.
files = installed("--prefix=/opt/ddctl", "-Dsystemd=auto")
outside = [f for f in files if not f.startswith("/opt/ddctl/")]
check("--prefix=/opt/ddctl: every file under the prefix", files and not outside, "\n".join(outside))
check("--prefix=/opt/ddctl: bash completion under the prefix",
      "/opt/ddctl/share/bash-completion/completions/ddctl" in files, "\n".join(files))
if pc_var("systemd", "systemdsystemunitdir") is not None:
    check("--prefix=/opt/ddctl: units under the prefix",
          "/opt/ddctl/lib/systemd/system/ddctl.service" in files, "\n".join(files))

# With systemd's own prefix, the units go where systemd.pc says.
unitdir = pc_var("systemd", "systemdsystemunitdir")
if unitdir is not None:
    files = installed("--prefix=" + pc_var("systemd", "prefix"), "-Dsystemd=enabled")
    check("default unit dir is systemd.pc's (%s)" % unitdir,
          unitdir + "/ddctl.service" in files and unitdir + "/ddctl-watch.service" in files,
          "\n".join(files))
    check("ddctl.service(8) installed with the units", names(files, "/man8/ddctl.service.8"),
          "\n".join(files))
bashdir = pc_var("bash-completion", "completionsdir")
if bashdir is not None:
    # the setup above serves when the prefixes agree
    if unitdir is None or pc_var("bash-completion", "prefix") != pc_var("systemd", "prefix"):
        files = installed("--prefix=" + pc_var("bash-completion", "prefix"))
    check("default bash completion dir is bash-completion.pc's (%s)" % bashdir,
          bashdir + "/ddctl" in files, "\n".join(files))

# -Dsystemd=disabled: no units and no page about them.
files = installed("-Dsystemd=disabled")
check("-Dsystemd=disabled: no unit installed", not names(files, ".service"), "\n".join(files))
check("-Dsystemd=disabled: ddctl.service(8) not installed",
      not names(files, "ddctl.service.8"), "\n".join(files))
check("-Dsystemd=disabled: ddctl(8) still installed", names(files, "/man8/ddctl.8"), "\n".join(files))

# Explicit directories win over pkg-config.
files = installed("-Dsystemd=enabled", "-Dsystemdsystemunitdir=/srv/units",
                  "-Dbashcompletiondir=/srv/bash", "-Dzshcompletiondir=/srv/zsh",
                  "-Dfishcompletiondir=/srv/fish")
check("-Dsystemdsystemunitdir honoured",
      "/srv/units/ddctl.service" in files and "/srv/units/ddctl-watch.service" in files,
      "\n".join(files))
check("-Dbashcompletiondir honoured", "/srv/bash/ddctl" in files, "\n".join(files))
for shell, path in (("zsh", "zsh-completion/_ddctl"), ("fish", "fish-completion/ddctl.fish")):
    if os.path.exists(os.path.join(SRC, "data", path)):
        check("-D%scompletiondir honoured" % shell,
              "/srv/%s/%s" % (shell, os.path.basename(path)) in files, "\n".join(files))

# The QEMU suite only when asked for (dh_auto_test runs a plain meson test).
def suites(*opts):
    d = setup(*opts, tests=True)
    out = subprocess.run(["meson", "introspect", "--tests", d],
                         capture_output=True, text=True, check=True).stdout
    return {s for t in json.loads(out) for s in t["suite"]}


plain = suites()
check("plain meson setup: no vm suite, unit/cli/shell registered",
      not any(s.endswith("vm") for s in plain) and {"ddctl:unit", "ddctl:cli", "ddctl:shell"} <= plain,
      sorted(plain))
withvm = suites("-Dvm=true")
check("-Dvm=true registers the vm suite", "ddctl:vm" in withvm, sorted(withvm))


# DDCTL_SKIP_VM=1 tests/deps.sh installs neither QEMU nor kernel sources.
def deps(**env):
    p = subprocess.run([os.path.join(SRC, "tests/deps.sh"), "--print"], capture_output=True,
                       text=True, env=dict(os.environ, **env), check=True)
    return set(p.stdout.split())


full = deps(DDCTL_SKIP_VM="0", DDCTL_SKIP_PKG="0")
check("deps.sh: QEMU, kernel source and packaging tools by default",
      {"qemu-system-x86", "linux-source-6.12", "debhelper", "lintian"} <= full, sorted(full))
skip = deps(DDCTL_SKIP_VM="1", DDCTL_SKIP_PKG="0")
check("DDCTL_SKIP_VM=1 deps.sh: neither QEMU nor kernel sources",
      not {"qemu-system-x86", "linux-source-6.12", "busybox-static"} & skip
      and {"meson", "libkmod-dev", "debhelper"} <= skip, sorted(skip))
skip = deps(DDCTL_SKIP_VM="0", DDCTL_SKIP_PKG="1")
check("DDCTL_SKIP_PKG=1 deps.sh: no packaging tools",
      not {"debhelper", "lintian"} & skip and "qemu-system-x86" in skip, sorted(skip))

tap.finish()
