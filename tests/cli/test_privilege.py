#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl run with privileges another user handed it (TAP output): under
sudo or pkexec, or with an effective uid that is not the real one, the pager
is a secure one and $PAGER/$DDCTL_PAGER are ignored; the shell keeps no
history in a directory that is not the euid's, and never writes it through
a symbolic link above the file. Needs root (the suites run as root)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DDCTL, HAND, PROMPT, SRC, Ddctl, Term, check, tap  # noqa: E402

NOBODY = 65534
tmp = tempfile.mkdtemp(prefix="ddctl-privilege-")
os.chmod(tmp, 0o755)

if os.geteuid() != 0:
    tap.skip("privilege", "needs root: sudo, pkexec and foreign homes are root's cases")
    tap.finish()

# ---- the pager ------------------------------------------------------------
# A fake $PAGER and a fake less on PATH: each records that it ran and the
# LESSSECURE it got, and shows its input.
bindir = os.path.join(tmp, "bin")
os.mkdir(bindir)
ran = os.path.join(tmp, "ran")
for name in ("fake-pager", "less"):
    path = os.path.join(bindir, name)
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho "%s LESSSECURE=${LESSSECURE-unset}" >> %s\ncat\n' % (name, ran))
    os.chmod(path, 0o755)
PATH = bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin")
run = Ddctl(control=HAND, env={"PATH": PATH, "PAGER": None, "DDCTL_PAGER": None,
                               "LESSSECURE": None, "DDCTL_PAGERSECURE": None,
                               "SUDO_UID": None, "SUDO_USER": None, "SUDO_GID": None,
                               "PKEXEC_UID": None, "NO_COLOR": "1"})
SUDO = {"SUDO_UID": str(NOBODY), "SUDO_GID": str(NOBODY), "SUDO_USER": "nobody"}


def pager_run(env, prefix=()):
    """`ddctl list` on a terminal: what the fake pagers recorded."""
    with open(ran, "w"):
        pass
    os.chmod(ran, 0o666)  # bash as sh runs the pager as the real uid
    r = run
    if prefix:
        r = Ddctl(**dict(run.settings))
        argv = r.argv
        r.argv = lambda *a, **o: list(prefix) + argv(*a, **o)
    rc, shown = r.on_tty("list", env=env)
    got = open(ran).read()
    return rc, shown, got


# the user's own pager for the user's own ddctl (unchanged behaviour)
rc, shown, got = pager_run({"PAGER": "fake-pager"})
check("pager-unprivileged-uses-pager", rc == 0 and got.startswith("fake-pager") and
      "virtio_net" in shown, "rc=%d ran=%r" % (rc, got))

# under sudo: $PAGER and $DDCTL_PAGER are the invoking user's, ignored
for var in ("PAGER", "DDCTL_PAGER"):
    rc, shown, got = pager_run(dict(SUDO, **{var: "fake-pager"}))
    check("pager-sudo-ignores-" + var.lower().replace("_", "-"),
          rc == 0 and "fake-pager" not in got and "virtio_net" in shown,
          "rc=%d ran=%r" % (rc, got))
# under sudo, less runs in its secure mode (no !sh, no editor, no log file)
rc, shown, got = pager_run(SUDO)
check("pager-sudo-lesssecure", rc == 0 and got.startswith("less LESSSECURE=1"),
      "rc=%d ran=%r" % (rc, got))
rc, shown, got = pager_run({"PKEXEC_UID": str(NOBODY), "PAGER": "fake-pager"})
check("pager-pkexec-secure", rc == 0 and got.startswith("less LESSSECURE=1"),
      "rc=%d ran=%r" % (rc, got))
# setuid-like: real uid nobody, effective uid root (a secure exec: the
# loader ignores the build's $ORIGIN run path, so it is told the library)
LIBDIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(DDCTL))), "libddctl")
# (without the variables a secure exec drops: ld.so run by hand asserts on
# their removal, "_dl_start_args_adjust: Assertion `auxv == sp + 1'", and
# meson sets LD_LIBRARY_PATH and MALLOC_PERTURB_)
rc, shown, got = pager_run({"PAGER": "fake-pager", "LD_LIBRARY_PATH": None,
                            "MALLOC_PERTURB_": None},
                           prefix=("setpriv", "--ruid", str(NOBODY), "--euid", "0", "--",
                                   "/lib64/ld-linux-x86-64.so.2", "--library-path", LIBDIR))
check("pager-euid-not-uid-secure", rc == 0 and got.startswith("less LESSSECURE=1"),
      "rc=%d ran=%r" % (rc, got))
# an explicit DDCTL_PAGERSECURE=0 gives the user's pager back
rc, shown, got = pager_run(dict(SUDO, PAGER="fake-pager", DDCTL_PAGERSECURE="0"))
check("pager-sudo-pagersecure-0", rc == 0 and got.startswith("fake-pager"),
      "rc=%d ran=%r" % (rc, got))
man = open(os.path.join(SRC, "man", "ddctl.8")).read()
check("pager-secure-documented", "LESSSECURE" in man and "DDCTL_PAGERSECURE" in man,
      "ddctl(8) names neither")

# ---- the shell's history under another user's HOME --------------------------
ctl = os.path.join(tmp, "control")
shutil.copy(HAND, ctl)
BASE = {"TERM": "xterm", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "INPUTRC": "/dev/null"}


def one_command_session(environ):
    t = Term(ctl, {k: v for k, v in dict(BASE, **environ).items() if v is not None})
    t.expect(re.escape(PROMPT))
    t.send("modules\r")
    t.expect(re.escape(PROMPT))
    t.send("\x04")
    return t.wait()


def user_home(name):
    home = os.path.join(tmp, name)
    os.makedirs(home)
    os.chown(home, NOBODY, NOBODY)
    return home


def files_under(d):
    return sorted(os.path.join(r, n) for r, ds, fs in os.walk(d) for n in ds + fs)


# the owner of $HOME plants a symlink for a directory above the history
# file, to a directory they choose (/etc/cron.d, say): ~/.local/state, or
# $XDG_STATE_HOME/ddctl
for name, link, environ, why in [
        ("dir", ".local/state", lambda home: {"HOME": home, "XDG_STATE_HOME": None},
         "mkdir_p and the write follow ~/.local/state -> elsewhere"),
        ("state-dir", "ddctl", lambda state: {"HOME": user_home("home-of-" + name),
                                               "XDG_STATE_HOME": state},
         "the history is written through $XDG_STATE_HOME/ddctl -> elsewhere")]:
    victim = os.path.join(tmp, "etc-cron.d-" + name)
    os.makedirs(victim)
    home = user_home("home-link-" + name)
    os.makedirs(os.path.dirname(os.path.join(home, link)), exist_ok=True)
    os.symlink(victim, os.path.join(home, link))
    subprocess.run(["chown", "-h", "-R", "%d:%d" % (NOBODY, NOBODY), home], check=True)
    rc = one_command_session(environ(home))
    check("history-symlinked-%s-not-followed" % name, rc == 0 and files_under(victim) == [],
          "rc=%r %r" % (rc, files_under(victim)))
rc = one_command_session({"HOME": home, "XDG_STATE_HOME": None})
check("history-foreign-home-none-kept", rc == 0 and
      not [f for f in files_under(home) if f.endswith("history")],
      "rc=%r %r" % (rc, files_under(home)))
# root's own HOME still keeps history (unchanged behaviour)
home = os.path.join(tmp, "home-root")
os.makedirs(home)
rc = one_command_session({"HOME": home, "XDG_STATE_HOME": None})
check("history-own-home-kept", rc == 0 and
      os.path.isfile(os.path.join(home, ".local", "state", "ddctl", "history")),
      "rc=%r %r" % (rc, files_under(home)))

shutil.rmtree(tmp)
tap.finish()
