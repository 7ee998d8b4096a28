#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The files ddctl reads and writes (TAP output): a cut save script is
refused, temporary files leave nothing behind, new files follow the umask,
every input is bounded, drop-ins someone else could have written are
refused, save handles every state a kernel can show, and the small defects
of the shell's history, NUL bytes, JSON warnings, the run directory's name,
persist's JSON and class ids."""
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import (ENABLED, HAND, PROMPT, STOCK, Ddctl, Term, check, gone,  # noqa: E402
                       tap, write_control)

NOBODY = 65534
tmp = tempfile.mkdtemp(prefix="ddctl-files-")
os.chmod(tmp, 0o755)
EMPTY_ROOT = os.path.join(tmp, "no-config")
os.makedirs(EMPTY_ROOT)
RUN_DIR = os.path.join(tmp, "run")
run = Ddctl(control=ENABLED, config_root=EMPTY_ROOT, run_dir=RUN_DIR, timeout=60)
cap = os.path.join(tmp, "writes")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def table(name, lines):
    return write_control(os.path.join(tmp, name), lines)


def file_limit(size, sigxfsz=True):
    """A preexec: files written at most @size bytes (a full disk); with
    @sigxfsz the kernel's SIGXFSZ kills ddctl at the limit."""
    def limit():
        if not sigxfsz:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


# ---- a save script cut short is refused on restore ------------------------
full = os.path.join(tmp, "full.save")
rc, out, err = run("save", full)
whole = read(full)
cut = os.path.join(tmp, "cut.save")
# save > FILE on a disk that filled up in the middle of the last query
at = whole.index(b"module virtio_ring =pfl") + len(b"module virtio_ring =p")
with open(cut, "w") as f:
    rc, out, err = run("save", stdout=f, preexec=file_limit(at, sigxfsz=False))
check("save-cut-is-valid-queries", rc == 1 and read(cut) == whole[:at] and
      read(cut).endswith(b"=p"), "rc=%d %r" % (rc, read(cut)[-40:]))
rc, out, err = run("--capture-writes", gone(cap), "restore", cut, control=STOCK)
check("restore-cut-save-refused", rc != 0 and not os.path.exists(cap) and
      re.search(r"cut|truncated|incomplete|\bend\b", err),
      "rc=%d, written %r\n%s%s" % (rc, read(cap)[-40:] if os.path.exists(cap) else b"", out, err))
old_script = os.path.join(tmp, "old.save")
with open(old_script, "w") as f:  # as save wrote it before scripts had an end
    f.write("# ddctl saved state: the callsites whose flags differ from the\n"
            "# default (=_). Restoring it brings a system to exactly this\n"
            "# state: callsites not named here are switched off.\n"
            "module virtio_ring =pfl\n")
rc, out, err = run("--capture-writes", gone(cap), "restore", old_script, control=STOCK)
check("restore-old-save-still-read", rc == 0 and os.path.exists(cap) and
      b"virtio_ring" in read(cap), "rc=%d\n%s%s" % (rc, out, err))

# ---- temporary files: none left behind, stale ones of ddctl's cleaned -----
def leftovers(d, name):
    return sorted(n for n in os.listdir(d) if n.startswith(name) and n != name)


d = os.path.join(tmp, "kill-save")
os.makedirs(d)
rc, out, err = run("save", os.path.join(d, "s.conf"), preexec=file_limit(0))
check("save-killed-no-temp-left", rc == -signal.SIGXFSZ and leftovers(d, "s.conf") == [],
      "rc=%d %r" % (rc, leftovers(d, "s.conf")))
stale = leftovers(d, "s.conf")
if not stale:  # nothing left by the kill: a stale one of a dead ddctl, as older ones left
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = ["s.conf.%x4567~" % dead.pid]
    open(os.path.join(d, stale[0]), "w").close()
rc, out, err = run("save", os.path.join(d, "s.conf"))
check("save-cleans-stale-temp", rc == 0 and stale and leftovers(d, "s.conf") == [],
      "rc=%d before %r after %r" % (rc, stale, leftovers(d, "s.conf")))
d2 = os.path.join(tmp, "kill-save-2")
os.makedirs(d2)
run("save", os.path.join(d2, "s.conf"), preexec=file_limit(0))
names = [re.sub(r"^s\.conf\.[0-9a-f]*?([0-9a-f]{4})~$", r"\1", n)
         for n in stale + leftovers(d2, "s.conf")]
check("temp-names-not-predictable", len(set(names)) == len(names),
      "the random part of two runs' names: %r" % names)
root = os.path.join(tmp, "root-persist")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
with open(os.path.join(root, "etc/ddctl.d/10-x.conf"), "w") as f:
    f.write("module virtio_ring +p\n")
mdir = os.path.join(root, "etc/modprobe.d")
os.makedirs(mdir)
rc, out, err = run("persist", config_root=root, preexec=file_limit(0))
left = [n for n in os.listdir(mdir) if n.endswith("~")]
check("persist-killed-no-temp-left", rc == -signal.SIGXFSZ and left == [],
      "rc=%d %r" % (rc, left))

# a FILE that is not a modprobe.d file (modprobe reads only *.conf) is
# refused before anything is written: `ddctl persist 'module x +p'` (the
# queries meant for --cmdline) wrote a file named after them in the
# working directory
for name in ("module virtio_ring +p", "!module kobject +p", "ddctl.txt"):
    cwd = tempfile.mkdtemp(dir=tmp)
    before = sorted(os.listdir(cwd))
    rc, out, err = run("persist", name, config_root=root, preexec=lambda d=cwd: os.chdir(d))
    check("persist-refuses-non-conf %r" % name,
          rc == 2 and sorted(os.listdir(cwd)) == before and repr(name)[1:-1] in err
          and ".conf" in err,
          "rc=%d err=%r files=%r" % (rc, err, os.listdir(cwd)))

# ---- new files follow the umask; existing files keep their mode -----------
def umask(mask):
    def preexec():
        os.umask(mask)
    return preexec


new = gone(os.path.join(tmp, "umask-077.save"))
rc, out, err = run("save", new, preexec=umask(0o077))
check("save-new-file-umask-077", rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o600,
      "rc=%d mode %o" % (rc, stat.S_IMODE(os.stat(new).st_mode) if rc == 0 else 0))
new = gone(os.path.join(tmp, "umask-022.save"))
rc, out, err = run("save", new, preexec=umask(0o022))
check("save-new-file-umask-022", rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o644,
      "rc=%d" % rc)
own = gone(os.path.join(tmp, "persist-077.conf"))
rc, out, err = run("persist", own, config_root=root, preexec=umask(0o077))
check("persist-new-file-umask-077", rc == 0 and stat.S_IMODE(os.stat(own).st_mode) == 0o600,
      "rc=%d mode %o %s" % (rc, stat.S_IMODE(os.stat(own).st_mode) if rc == 0 else 0, err))

# ---- every input is bounded, with a clear error ----------------------------
# 100 MiB of comment lines: above any limit a fix would choose, valid text
# (so no NUL or parse check can refuse it first), and small enough for
# today's code to read whole (not /dev/zero: that grows until the machine
# runs out, and no RLIMIT_AS fits the ASan build).
big_input = os.path.join(tmp, "comments-100M")
with open(big_input, "wb") as f:
    line = b"#" + b" " * 1022 + b"\n"
    f.write(line * (100 << 10))
LIMIT = re.compile(r"too (large|big|long)|larger than|exceeds|at most \d+ ?[KMG]i?B")
root = os.path.join(tmp, "root-big")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
os.symlink(big_input, os.path.join(root, "etc/ddctl.d/10-big.conf"))
for name, args, extra in [
        ("query-file", ["-f", big_input], {}),
        ("stdin", ["-f", "-"], {}),
        ("restore", ["restore", big_input], {}),
        ("dropin", ["apply-config"], {"config_root": root}),
        ("control", ["list"], {"control": big_input})]:
    if name == "stdin":  # a file as stdin, not a string fed through a pipe
        with open(big_input) as big:
            p = subprocess.run(run.argv("--capture-writes", gone(cap), *args), stdin=big,
                               env=run.environ(), capture_output=True, text=True, timeout=60)
        rc, err = p.returncode, p.stderr
    else:
        rc, out, err = run("--capture-writes", gone(cap), *args, **extra)
    check("input-bounded-" + name, rc in (1, 2) and LIMIT.search(err) and
          "Cannot allocate memory" not in err and not os.path.exists(cap),
          "rc=%d\n%s" % (rc, err[-300:]))

# ---- drop-ins someone other than root could have written are refused ------
def dropin_root(name, dir_mode=0o755, etc_mode=0o755, owner=0):
    r = os.path.join(tmp, name)
    os.makedirs(os.path.join(r, "etc/ddctl.d"))
    path = os.path.join(r, "etc/ddctl.d/10-x.conf")
    with open(path, "w") as f:
        f.write("module virtio_ring -p\n")
    os.chown(path, owner, owner)
    os.chmod(os.path.join(r, "etc/ddctl.d"), dir_mode)
    os.chmod(os.path.join(r, "etc"), etc_mode)
    return r


for name, kw, why in [
        ("user-owned-file", {"owner": NOBODY}, "a file owned by another user"),
        ("world-writable-dir", {"dir_mode": 0o777}, "root's file in a 0777 ddctl.d"),
        ("world-writable-parent", {"etc_mode": 0o777}, "a 0777 directory above ddctl.d")]:
    r = dropin_root("root-" + name, **kw)
    rc, out, err = run("--capture-writes", gone(cap), "apply-config", config_root=r)
    check("dropin-refused-" + name, rc != 0 and "10-x.conf" in err and not os.path.exists(cap),
          "rc=%d cap=%r\n%s%s" % (rc, read(cap) if os.path.exists(cap) else b"", out, err))
r = dropin_root("root-trusted")
rc, out, err = run("--capture-writes", gone(cap), "apply-config", config_root=r)
check("dropin-trusted-applied", rc == 0 and read(cap) == b"module virtio_ring -p\n", err)

# ---- save: every state a kernel can show ------------------------------------
# every site of the stock 6.12 table on ("class unknown, _id:N" sites too)
everything = table("control-all-on", [l.replace(" =_ ", " =p ", 1)
                                      for l in open(STOCK).read().splitlines()[1:]])
rc, out, err = run("save", control=everything)
check("save-fully-enabled-stock", rc == 0 and "module virtio_ring =p" in out and
      re.search(r"warning|cannot be named", err), "rc=%d\n%s" % (rc, err))
dflag = table("control-d-flag", ['a.c:10 [m]f =pd "x\\n"', 'a.c:11 [m]g =_ "y\\n"'])
rc, out, err = run("save", control=dflag)
check("save-d-flag", rc == 0 and "\nmodule m file a.c func f =pd\n" in out and
      "saved without" not in out + err, "rc=%d\n%s%s" % (rc, out, err))
dup = table("control-duplicate", ['a.c:10 [m]f =p "x\\n"', 'a.c:10 [m]f =_ "x\\n"',
                                  'b.c:1 [m]g =p "y\\n"'])
rc, out, err = run("save", control=dup)
check("save-duplicate-identity-warns", rc == 0 and "b.c" in out and "a.c:10" in err,
      "rc=%d\n%s%s" % (rc, out, err))

# ---- the shell's history: concurrent shells keep each other's lines ------
ctl = os.path.join(tmp, "control")
shutil.copy(HAND, ctl)
env = {"HOME": os.path.join(tmp, "home"), "XDG_STATE_HOME": os.path.join(tmp, "state"),
       "TERM": "xterm", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "INPUTRC": "/dev/null"}
os.mkdir(env["HOME"])
a, b = Term(ctl, env), Term(ctl, env)
a.expect(re.escape(PROMPT))
b.expect(re.escape(PROMPT))
for t, line in ((a, "info"), (b, "modules")):
    t.send(line + "\r")
    t.expect(re.escape(PROMPT))
for t in (a, b):
    t.send("\x04")
    t.wait()
hist = os.path.join(env["XDG_STATE_HOME"], "ddctl", "history")
lines = open(hist).read().splitlines() if os.path.exists(hist) else []
check("history-concurrent-shells", "info" in lines and "modules" in lines, lines)

# ---- NUL bytes and directories where a file is expected -------------------
adir = os.path.join(tmp, "a-directory")
os.makedirs(adir)
fd = os.open(adir, os.O_RDONLY)
p = subprocess.run(run.argv("--capture-writes", gone(cap), "shell"), stdin=fd,
                   env=run.environ(), capture_output=True, text=True, timeout=60)
os.close(fd)
check("shell-stdin-directory", p.returncode != 0 and "Is a directory" in p.stderr,
      "rc=%d\n%s" % (p.returncode, p.stderr))
nul = os.path.join(tmp, "nul.conf")
with open(nul, "wb") as f:
    f.write(b"module virtio_ring +p\x00\n")
kmsg = os.path.join(tmp, "kmsg")
open(kmsg, "w").close()
rc, out, err = run("--capture-writes", gone(cap), "follow", "-f", nul, kmsg=kmsg)
check("follow-file-nul", rc == 2 and "NUL" in err and not os.path.exists(cap),
      "rc=%d\n%s" % (rc, err))
nulsave = os.path.join(tmp, "nul.save")
with open(nulsave, "wb") as f:
    f.write(b"module main =p\x00\n")
for name, args in (("first", [nulsave, "-"]), ("second", ["-", nulsave])):
    rc, out, err = run("diff", *args, stdin="")
    check("diff-nul-" + name, rc != 0 and "NUL" in err, "rc=%d\n%s%s" % (rc, out[-200:], err))

# ---- an ended session's warning in --json is JSON ---------------------------
sdir = os.path.join(RUN_DIR, "sessions")
os.makedirs(sdir, exist_ok=True)
dead = subprocess.Popen(["true"])
dead.wait()
with open(os.path.join(sdir, "%d-1.session" % dead.pid), "w") as f:
    f.write("pid=%d\nstarttime=1\nstart=1700000000\ncommand=ddctl follow module main +p\n"
            "[during]\nmodule main =pmfsl\n[restore]\nmodule main =p\n" % dead.pid)
rc, out, err = run("--json", "list", "module", "main")
try:
    docs = [json.loads(line) for line in err.splitlines()]
except ValueError:
    docs = None
check("ended-session-warning-json", rc == 0 and docs and all("warning" in d for d in docs),
      "rc=%d\n%s" % (rc, err))
shutil.rmtree(sdir)

# ---- messages name the run directory in use ---------------------------------
rc, out, err = run("reset", control=STOCK)
check("run-dir-named", rc == 1 and os.path.join(RUN_DIR, "boot.conf") in err and
      "/run/ddctl" not in err, err)

# ---- persist --json: the module's own line, not a word inside "options" ----
ti = table("control-ti", ['a.c:10 [ti]f =_ "x\\n"'])
root = os.path.join(tmp, "root-ti")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
with open(os.path.join(root, "etc/ddctl.d/10-ti.conf"), "w") as f:
    f.write("module ti +p\n")
rc, out, err = run("--json", "persist", gone(os.path.join(tmp, "ti.conf")), control=ti,
                   config_root=root)
doc = json.loads(out) if rc == 0 else {}
check("persist-json-module-options", rc == 0 and doc.get("modules") and
      doc["modules"][0]["options"] == 'dyndbg="+p"', out + err)

# ---- class ids beyond 32 bits do not wrap -----------------------------------
big = table("control-class-id", ['a.c:11 [m]g =p "y\\n" class unknown, _id:99999999999'])
rc, out, err = run("--json", "list", control=big)
check("class-id-no-wrap", "1215752191" not in out and
      (rc != 0 or json.loads(out)[0]["class_id"] == 99999999999), "rc=%d\n%s%s" % (rc, out, err))

shutil.rmtree(tmp)
tap.finish()
