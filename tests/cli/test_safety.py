#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Data safety: ddctl never takes an unreadable file for an empty one, never
writes a file that is not the kernel's control file, writes nothing with
--check, replaces the files it writes all or nothing, rejects NUL bytes,
refuses symlinks, and names FILE:LINE for a bad line of a query file.
TAP output."""
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
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import ENABLED, STOCK, Ddctl, check, tap, write_split_set  # noqa: E402

tmp = tempfile.mkdtemp()
EMPTY_ROOT = os.path.join(tmp, "no-config")
os.makedirs(EMPTY_ROOT)
run = Ddctl(control=ENABLED, config_root=EMPTY_ROOT)


def fresh(name="control", src=ENABLED):
    path = os.path.join(tmp, name)
    shutil.copy(src, path)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- a file that cannot be read is an error, not "everything off" ----
adir = os.path.join(tmp, "a-directory")
os.makedirs(adir)
cap = os.path.join(tmp, "writes")
for name, args in [("restore-dir", ["restore", adir]), ("check-restore-dir", ["--check", "restore", adir]),
                   ("file-dir", ["-f", adir]), ("check-file-dir", ["--check", "-f", adir])]:
    rc, out, err = run("--capture-writes", cap, *args)
    check("read-error-" + name, rc == 1 and "cannot read" in err and "Is a directory" in err and
          "would change" not in out and not os.path.exists(cap), "rc=%d\n%s%s" % (rc, out, err))
rc, out, err = run("--capture-writes", cap, "shell", stdin="restore %s\n" % adir)
check("read-error-shell-restore", rc == 1 and "cannot read" in err and not os.path.exists(cap),
      "rc=%d\n%s%s" % (rc, out, err))
root = os.path.join(tmp, "root-dir-dropin")
os.makedirs(os.path.join(root, "etc/ddctl.d/20-odd.conf"))
with open(os.path.join(root, "etc/ddctl.d/10-ok.conf"), "w") as f:
    f.write("module virtio_ring -p\n")
rc, out, err = run("--capture-writes", cap, "apply-config", config_root=root)
check("read-error-dropin", rc == 1 and "20-odd.conf" in err and not os.path.exists(cap),
      "rc=%d\n%s%s" % (rc, out, err))

# ---- only the kernel's control file is written ----
for name, args in [("set", ["set", "module virtio_ring -p"]),
                   ("restore", ["restore", "-"]),
                   ("shell-commit", ["shell"])]:
    ctl = fresh()
    stdin = {"restore": "module main =p\n",
             "shell-commit": "begin\nmodule virtio_ring -p\ncommit\n"}.get(name)
    rc, out, err = run(*args, control=ctl, stdin=stdin)
    check("regular-file-not-written-" + name, rc == 1 and read(ctl) == read(ENABLED) and
          "not the kernel's control file" in err, "rc=%d\n%s%s" % (rc, out, err))
ctl = fresh()
root = os.path.join(tmp, "root-apply")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
with open(os.path.join(root, "etc/ddctl.d/10-x.conf"), "w") as f:
    f.write("module virtio_ring -p\n")
rc, out, err = run("apply-config", control=ctl, config_root=root)
check("regular-file-not-written-apply-config", rc == 1 and read(ctl) == read(ENABLED) and
      "not the kernel's control file" in err, "rc=%d\n%s%s" % (rc, out, err))
# the documented way to see the bytes: --capture-writes
if os.path.exists(cap):
    os.unlink(cap)
rc, out, err = run("--capture-writes", cap, "set", "module virtio_ring -p", control=ctl)
check("capture-writes", rc == 0 and read(cap) == b"module virtio_ring -p\n" and
      read(ctl) == read(ENABLED), "rc=%d\n%s%s" % (rc, out, err))

# ---- --check writes nothing, anywhere ----
saved = os.path.join(tmp, "check-saved.conf")
rc, out, err = run("--check", "save", saved)
check("check-save-writes-nothing", rc == 0 and not os.path.exists(saved) and
      ("would write " + saved) in out and "module virtio_ring =pfl" in out,
      "rc=%d\n%s%s" % (rc, out, err))
root = os.path.join(tmp, "root-persist")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
with open(os.path.join(root, "etc/ddctl.d/10-x.conf"), "w") as f:
    f.write("module virtio_ring +p\n")
rc, out, err = run("--check", "persist", config_root=root)
check("check-persist-writes-nothing", rc == 0 and not os.path.exists(os.path.join(root, "etc/modprobe.d")) and
      'options virtio_ring dyndbg="+p"' in out and "would write" in out,
      "rc=%d\n%s%s" % (rc, out, err))
own = os.path.join(tmp, "check-persist.conf")
rc, out, err = run("--check", "persist", own, config_root=root)
check("check-persist-file-writes-nothing", rc == 0 and not os.path.exists(own), out + err)

# ---- files replaced all or nothing; stdout checked ----
for name, args in [("save", ["save"]), ("list", ["list", "--no-pager"])]:
    with open("/dev/full", "w") as full:
        rc, out, err = run(*args, stdout=full)
    check("stdout-full-" + name, rc == 1 and "No space left" in err, "rc=%d %s" % (rc, err))
saved = os.path.join(tmp, "saved.conf")
with open(saved, "w") as f:
    f.write("# an older save\nmodule main =p\n")
os.chmod(saved, 0o600)
old = read(saved)


def small_files():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))


rc, out, err = run("save", saved, preexec=small_files)  # a "full disk" at 100 bytes
leftovers = [n for n in os.listdir(tmp) if n.startswith("saved.conf") and n != "saved.conf"]
check("save-full-disk-keeps-old", rc == 1 and read(saved) == old and not leftovers,
      "rc=%d %s %r %r" % (rc, err, read(saved)[:60], leftovers))
rc, out, err = run("save", saved)
check("save-replaces-keeps-mode", rc == 0 and b"module virtio_ring =pfl" in read(saved) and
      stat.S_IMODE(os.stat(saved).st_mode) == 0o600, "rc=%d %s" % (rc, err))

# ---- a NUL byte is an error with FILE:LINE ----
nul = os.path.join(tmp, "nul.conf")
with open(nul, "wb") as f:
    f.write(b"module virtio_ring -p\nmodule main -p\x00module x +p\nmodule virtio_ring +p\n")
if os.path.exists(cap):
    os.unlink(cap)
rc, out, err = run("--capture-writes", cap, "-f", nul)
check("nul-file", rc == 2 and (nul + ":2:") in err and "NUL" in err and not os.path.exists(cap),
      "rc=%d\n%s%s" % (rc, out, err))
root = os.path.join(tmp, "root-nul")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
shutil.copy(nul, os.path.join(root, "etc/ddctl.d/10-nul.conf"))
rc, out, err = run("--capture-writes", cap, "apply-config", config_root=root)
check("nul-dropin", rc == 2 and "10-nul.conf:2:" in err and "NUL" in err and
      not os.path.exists(cap), "rc=%d\n%s%s" % (rc, out, err))

# ---- symlinks are refused, never followed ----
target = os.path.join(tmp, "victim")
with open(target, "w") as f:
    f.write("precious\n")
link = os.path.join(tmp, "planted")
os.symlink(target, link)
rc, out, err = run("save", link)
check("save-symlink-refused", rc == 1 and read(target) == b"precious\n" and os.path.islink(link) and
      "symbolic link" in err, "rc=%d %s" % (rc, err))
link_conf = os.path.join(tmp, "planted.conf")  # persist takes only *.conf
os.symlink(target, link_conf)
rc, out, err = run("persist", link_conf, config_root=os.path.join(tmp, "root-persist"))
check("persist-symlink-refused", rc == 1 and read(target) == b"precious\n" and "symbolic link" in err,
      "rc=%d %s" % (rc, err))

# ---- a bad line is named FILE:LINE; a file of comments is an empty set ----
bad = os.path.join(tmp, "bad.conf")
with open(bad, "w") as f:
    f.write("# first\n\nmodule virtio_ring -p\nmodule foo +x\n")
for name, args in [("file", ["-f", bad]), ("restore", ["restore", bad])]:
    rc, out, err = run("--check", *args)
    check("file-line-" + name, rc == 2 and (bad + ":4:") in err and "query 1" not in err,
          "rc=%d\n%s" % (rc, err))
rc, out, err = run("--check", "-f", "-", stdin="module virtio_ring -p\nmodul x\n")
check("file-line-stdin", rc == 2 and "stdin:2:" in err, err)
comments = os.path.join(tmp, "comments.conf")
with open(comments, "w") as f:
    f.write("# nothing here\n\n   \n# at all\n")
for name, args in [("file", ["-f", comments]), ("restore", ["restore", comments])]:
    rc, out, err = run("--capture-writes", cap, *args)
    check("comments-only-" + name, rc == 0 and "nothing to change" in out and err == "",
          "rc=%d\n%s%s" % (rc, out, err))
rc, out, err = run("set")
check("set-without-words-usage", rc == 2, err)
# a save of the default state (header only) still means "everything off"
zero = os.path.join(tmp, "zero.conf")
rc, out, err = run("save", zero, control=STOCK)
rc2, out, err = run("--check", "restore", zero)
check("restore-default-save", rc == 0 and rc2 == 0 and "would change" in out and
      "nothing to change" not in out, out + err)

# ---- a dangling symlink skips one drop-in; world-writable is refused ----
root = os.path.join(tmp, "root-dangling")
os.makedirs(os.path.join(root, "etc/ddctl.d"))
os.symlink("/nonexistent/x.conf", os.path.join(root, "etc/ddctl.d/05-gone.conf"))
ww = os.path.join(root, "etc/ddctl.d/10-ok.conf")
with open(ww, "w") as f:
    f.write("module virtio_ring -p\n")
rc, out, err = run("--check", "apply-config", config_root=root)
check("dangling-dropin-skipped", rc == 0 and "05-gone.conf" in err and "would change" in out,
      "rc=%d\n%s%s" % (rc, out, err))
rc, out, err = run("--check", "--json", "apply-config", config_root=root)
warnings = [json.loads(l) for l in err.splitlines()] if rc == 0 else []
check("dropin-warnings-json", rc == 0 and len(warnings) == 1 and
      all(list(w) == ["warning"] for w in warnings), "rc=%d\n%s" % (rc, err))
# a drop-in every user may write was applied with a warning; now it is
# refused, and with it the whole configuration
os.chmod(ww, 0o666)
rc, out, err = run("--check", "apply-config", config_root=root)
check("world-writable-dropin-refused", rc == 1 and
      err.count("10-ok.conf could be changed by a user other than root") == 1 and
      "writable by every user" in err and "would change" not in out, "rc=%d\n%s%s" % (rc, out, err))
rc, out, err = run("--check", "--json", "apply-config", config_root=root)
docs = [json.loads(l) for l in err.splitlines()] if rc == 1 else []
check("dropin-refused-json", rc == 1 and len(docs) == 2 and list(docs[0]) == ["warning"] and
      list(docs[1]) == ["error"] and
      any("10-ok.conf" in m for m in docs[1]["error"]["messages"]), "rc=%d\n%s" % (rc, err))

# a query the kernel cannot take in one write is a query error (exit 2)
long_query = 'format "%s" +p' % ("a" * 4100)
rc, out, err = run("--check", "set", long_query)
check("long-query-exit-2", rc == 2 and "the kernel reads at most 4095" in err, "rc=%d %s" % (rc, err[-200:]))

# a control-file line that is not a callsite is shown as read, not cut up
badctl = os.path.join(tmp, "bad-control")
with open(badctl, "w") as f:
    f.write('# filename:lineno [module]function flags format\nfoo.c:1 [m]f =z "x"\n')
rc, out, err = run("list", control=badctl)
check("control-error-shows-line", rc == 1 and 'line 2 is not a callsite: foo.c:1 [m]f =z "x"' in err, err)
rc, out, err = run("info", control=badctl)
check("info-unparsable-table-exit-1", rc == 1 and "callsites:     0" not in out, out + err)

# a refused write of a split set names the write, its first query, and
# whether the writes before it were undone ("full disk" on the 2nd write)
big = os.path.join(tmp, "big-control")
queries = os.path.join(tmp, "big-queries")
write_split_set(big, queries)
if os.path.exists(cap):
    os.unlink(cap)


def one_write_fits():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (5000, 5000))


rc, out, err = run("--capture-writes", cap, "-f", queries, control=big, preexec=one_write_fits)
check("split-refused-names-write", rc == 1 and
      re.search(r'write 2 of \d+, from query "file big.c line \d+ \+p", was refused', err) and
      "1 earlier writes not restored" in err, "rc=%d\n%s" % (rc, err))

# ---- a consistent snapshot: modules loaded or unloaded during the read ----
# The kernel hands the control file out a page per read() and finds its
# place again each time: a module unloaded meanwhile shifts the rest. ddctl
# compares the module list (DDCTL_PROC_MODULES stands in for /proc/modules)
# before and after the read and reads again until they agree, a few times.
MODULES_A = ("virtio_net 69632 0 - Live 0xffffffffc0000000\n"
             "bonding 200704 0 - Live 0xffffffffc0100000\n")
MODULES_B = "virtio_net 69632 1 - Live 0xffffffffc0000000\n"


def holds(pid, path):
    """Does process @pid have @path open?"""
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == path:
                return True
        except OSError:
            pass
    return False


def serve_control(fifo, modules, changes, served, proc):
    """Serves ENABLED through @fifo, once per entry of @changes: True means a
    module is unloaded (or loaded again) in the middle of that read. The
    next open waits until ddctl has closed the FIFO (else it would join the
    read that is ending)."""
    data = read(ENABLED)
    state = [MODULES_A]
    for change in changes:
        with open(fifo, "wb") as f:
            f.write(data[:len(data) // 2])
            f.flush()
            if change:
                state[0] = MODULES_B if state[0] == MODULES_A else MODULES_A
                with open(modules + ".new", "w") as m:
                    m.write(state[0])
                os.rename(modules + ".new", modules)
            f.write(data[len(data) // 2:])
        served.append(change)
        while holds(proc.pid, fifo) and proc.poll() is None:
            time.sleep(0.01)


def snapshot_run(changes, *args, **kw):
    fifo, modules = os.path.join(tmp, "control-fifo"), os.path.join(tmp, "modules")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    with open(modules, "w") as m:
        m.write(MODULES_A)
    served = []
    p = run.popen(*args, control=fifo, env={"DDCTL_PROC_MODULES": modules}, **kw)
    t = threading.Thread(target=serve_control, args=(fifo, modules, changes, served, p),
                         daemon=True)
    t.start()
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        err += "timed out"
    t.join(5)
    return p.returncode, out, err, served


rc0, want, _ = run("list", "--enabled")
rc, out, err, served = snapshot_run([True, False], "list", "--enabled")
check("snapshot-reread-after-module-change", rc0 == 0 and rc == 0 and out == want and
      served == [True, False], "rc=%d served=%s\n%s" % (rc, served, err))
rc, out, err, served = snapshot_run([False], "list", "--enabled")
check("snapshot-stable-read-once", rc == 0 and out == want and served == [False],
      "rc=%d served=%s\n%s" % (rc, served, err))
# modules loading for a while (udev's coldplug at boot): ddctl waits longer
# before each new read and gets a consistent one once they stop
rc, out, err, served = snapshot_run([True] * 6 + [False], "list", "--enabled")
check("snapshot-waits-out-module-loads", rc == 0 and out == want and
      served == [True] * 6 + [False], "rc=%d served=%s\n%s" % (rc, served, err))
cap = os.path.join(tmp, "snapshot-capture")
rc, out, err, served = snapshot_run([True] * 8, "set", "module virtio_net +p", capture=cap)
check("snapshot-never-stable-refused",
      rc == 1 and len(served) == 8 and not os.path.exists(cap) and
      re.search(r"modules were loaded or unloaded during each of 8 reads of \S+control-fifo: "
                r"no consistent snapshot", err),
      "rc=%d served=%s\n%s" % (rc, served, err))

shutil.rmtree(tmp)
tap.finish()
