#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""A commit is never left half applied and never sends what the kernel
refuses (TAP output). A FIFO with a one-page buffer stands in for the
kernel (--capture-writes): ddctl blocks on its second write of a split set,
and the suite signals it there. Checked: a split set interrupted by a signal
(or SIGKILL) is restored or leaves a session record; follow and run restore
on every signal whose default is to end the process; every text ddctl
writes (queries, save scripts, session records) parses back within the
kernel's 9 words; two ddctl processes do not commit at once. The kernel's
side of these (netlink, EINTR, a real raw writer) is tested in the VM."""
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import (ENABLED, HAND, STOCK, Ddctl, check, gone, tap,  # noqa: E402
                       write_control, write_split_set)

tmp = tempfile.mkdtemp(prefix="ddctl-commit-")
RUN_DIR = os.path.join(tmp, "run")
SESSIONS = os.path.join(RUN_DIR, "sessions")
EMPTY_ROOT = os.path.join(tmp, "no-config")
os.makedirs(EMPTY_ROOT)
BIG = os.path.join(tmp, "big-control")
QUERIES = os.path.join(tmp, "big-queries")
write_split_set(BIG, QUERIES)
run = Ddctl(control=BIG, config_root=EMPTY_ROOT, run_dir=RUN_DIR, env={"NO_COLOR": "1"},
            timeout=60)
MAX_WORDS = 9  # the kernel's limit on the words of one query


def records():
    return sorted(os.listdir(SESSIONS)) if os.path.isdir(SESSIONS) else []


def clear_records():
    shutil.rmtree(SESSIONS, ignore_errors=True)


def slow_kernel(name):
    """A FIFO that takes one page: a write of a split set fills it, the next
    blocks until the suite reads. Returns its path and the suite's end
    (opened read-write, non-blocking, so ddctl's open does not wait)."""
    path = os.path.join(tmp, name)
    if os.path.exists(path):
        os.unlink(path)
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 4096)
    return path, fd


def drain(fd, wait=0.0):
    data = b""
    end = time.time() + wait
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            chunk = b""
        data += chunk
        if not chunk and time.time() >= end:
            return data
        if not chunk:
            time.sleep(0.05)


def blocked_commit(*args, name="kernel", **overrides):
    """ddctl ARGS writing a split set to a slow kernel, stopped on its
    second write: the process, the FIFO's fd and the first write's bytes
    (read once: the second write goes in, the third blocks)."""
    fifo, fd = slow_kernel(name)
    p = run.popen("--capture-writes", fifo, *args, **overrides)
    first = b""
    end = time.time() + 60
    while not first and p.poll() is None and time.time() < end:
        try:  # one read: the first write, however slow ddctl is to get there
            first = os.read(fd, 65536)
        except BlockingIOError:
            time.sleep(0.05)
    time.sleep(0.5)  # the second write fills the FIFO, the third waits
    return p, fd, first


def finish(p, fd, timeout=60):
    """Reads the slow kernel until @p ends (a ddctl that blocks the signal
    goes on writing, then restores): what it wrote and its stderr. Killed
    if it does not end in time."""
    data = b""
    end = time.time() + timeout
    while p.poll() is None and time.time() < end:
        data += drain(fd, wait=0.1)
    if p.poll() is None:
        p.kill()
    out, err = p.communicate()
    return data + drain(fd), err


def words(line):
    return len(re.findall(r'"[^"]*"|\'[^\']*\'|\S+', line))


# ---- a split set interrupted part-way ------------------------------------
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    clear_records()
    p, fd, first = blocked_commit("-f", QUERIES)
    p.send_signal(sig)
    rest, err = finish(p, fd)
    os.close(fd)
    restored = [l for l in rest.decode().splitlines() if not l.endswith("+p")]
    name = signal.Signals(sig).name
    check("split-set-%s-restored-or-recorded" % name.lower(),
          err.strip() and (records() or restored),
          "exit %d; the kernel read %d queries before the signal (the next write "
          "in its buffer); stderr %r; records %r; restoring writes %d" %
          (p.returncode, first.count(b"\n"), err[-300:], records(), len(restored)))
clear_records()
p, fd, first = blocked_commit("-f", QUERIES)
p.kill()
p.communicate(timeout=60)
os.close(fd)
left = records()
rc, out, err = run("--check", "sessions", "--restore")
check("split-set-sigkill-leaves-record", left and rc == 0 and "would be restored" in out,
      "%d queries written, records %r\n%s%s" % (first.count(b"\n"), left, out, err))
clear_records()

# ---- follow and run: every signal that ends the process restores ----------
ctl = os.path.join(tmp, "control")
shutil.copy(HAND, ctl)
kmsg = os.path.join(tmp, "kmsg-fifo")
os.mkfifo(kmsg)
kw = os.open(kmsg, os.O_RDWR)
cap = os.path.join(tmp, "follow-writes")
OTHER_SIGNALS = (signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM)


def ended(p, timeout=10):
    """@p's exit status and stderr; killed (-9) if it did not end in time."""
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return p.returncode, err


# run's command ends by itself: ddctl waits for it on SIGINT and SIGHUP
for command in (["follow", "module virtio +p"],
                ["run", "module virtio +p", "--", "sleep", "2"]):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE) + OTHER_SIGNALS:
        clear_records()
        p = run.popen("--capture-writes", gone(cap), *command, control=ctl, kmsg=kmsg)
        started = p.stderr.readline()  # "following N callsites ..."
        p.send_signal(sig)
        if sig == signal.SIGPIPE and p.poll() is None:
            time.sleep(0.5)  # ignored is fine: then SIGTERM ends it
            p.send_signal(signal.SIGTERM)
        rc, err = ended(p)
        name = signal.Signals(sig).name
        check("%s-%s-restores" % (command[0], name.lower()),
              "following" in started and records() == [] and re.search("stopping|restor", err),
              "exit %d, records left %r\n%s%s" % (rc, records(), started, err))
# SIGPIPE as it comes: stdout is a pipe whose reader went away (| head -1)
clear_records()
p = run.popen("--since-boot", "--capture-writes", gone(cap), "--all", "follow", "module virtio +p",
              control=ctl, kmsg=kmsg)
started = p.stderr.readline()
os.write(kw, b"6,1,1,-;a line\n")
first = p.stdout.readline()
p.stdout.close()
for i in range(50):
    os.write(kw, b"6,%d,%d,-;another line\n" % (i + 2, i + 2))
rc, err = ended(p)
check("follow-stdout-closed-restores", first and records() == [] and re.search("restor", err),
      "exit %d, records left %r\n%s%s" % (rc, records(), started, err))
os.close(kw)
clear_records()
# run's command inherits no descriptor of ddctl's (kmsg, control, capture)
rc, out, err = run("--capture-writes", cap, "run", "module virtio +p", "--", "sh", "-c",
                   "ls /proc/$$/fd", control=ctl, kmsg=os.path.join(tmp, "kmsg-fifo"),
                   timeout=30)
check("run-child-inherits-no-descriptor", sorted(out.split()) == ["0", "1", "2"],
      "rc=%d fds %r\n%s" % (rc, out.split(), err))
clear_records()

# ---- what ddctl writes parses back and fits the kernel's 9 words ---------
# file F:LINE is split into file F ... line LINE: 11 words here
long_q = "module test_dynamic_debug file lib/test_dynamic_debug.c:105 format LOW class MID +p"
capq = os.path.join(tmp, "query-writes")
rc, out, err = run("--capture-writes", capq, "set", long_q, control=STOCK)
sent = open(capq).read().splitlines() if os.path.exists(capq) else []
check("sent-query-fits-9-words", rc == 2 or (sent and all(words(l) <= MAX_WORDS for l in sent)),
      "rc=%d sent %r" % (rc, sent))


def table(name, lines):
    return write_control(os.path.join(tmp, name), lines)


# save, then restore on the same state: nothing to change (the round trip)
hostile = table("control-hostile", [
    'a.c:10 [m]f =p "x\\n" class:MID',      # two class'd sites on one line
    'a.c:10 [m]f =_ "y\\n" class:MID',
    'b.c:10 [m]f =_ "x\\n" class:MID',
    'dir/with:colon.c:7 [m]g =p "c\\n"',   # ':' in a file name
    'dir/with:colon.c:8 [m]g =_ "c\\n"',
    '!bang.c:3 [m]h =p "b\\n"',             # a name starting with '!'
    '!bang.c:4 [m]h =_ "b\\n"'])
for name, control in [("stock", STOCK), ("enabled", ENABLED), ("hand", HAND),
                      ("hostile", hostile)]:
    saved = os.path.join(tmp, "round-%s.save" % name)
    rc, out, err = run("save", saved, control=control)
    rc2, out2, err2 = run("--check", "restore", saved, control=control) if rc == 0 else (-1, "", "")
    lines = [l for l in open(saved).read().splitlines() if l and not l.startswith("#")] \
        if rc == 0 else []
    check("save-round-trip-" + name, rc == 0 and rc2 == 0 and "nothing to change" in out2 and
          all(words(l) <= MAX_WORDS for l in lines), "save rc=%d %s\nrestore rc=%d %s%s" %
          (rc, err, rc2, out2[-300:], err2[-300:]))
# each case of the hostile table alone, to say which one fails
for name, rows in [("class-same-line", [0, 1, 2]), ("colon-file", [3, 4]), ("bang-name", [5, 6])]:
    lines = open(hostile).read().splitlines()[1:]
    one = table("control-" + name, [lines[i] for i in rows])
    saved = os.path.join(tmp, "round-%s.save" % name)
    rc, out, err = run("save", saved, control=one)
    rc2, out2, err2 = run("--check", "restore", saved, control=one) if rc == 0 else (-1, "", "")
    check("save-round-trip-" + name, rc == 0 and rc2 == 0 and "nothing to change" in out2,
          "save rc=%d %s\nrestore rc=%d %s%s" % (rc, err, rc2, out2[-300:], err2[-300:]))

# follow's decoration query and its session record on a class'd site
kw = os.open(kmsg, os.O_RDWR)
p = run.popen("--capture-writes", cap, "follow", long_q, control=STOCK, kmsg=kmsg)
started = p.stderr.readline()
if "following" in started:
    p.kill()
p.communicate(timeout=30)
os.close(kw)
left = records()
rc, out, err = run("--check", "sessions", "--restore", control=STOCK)
check("follow-class-site-record-restorable", "following" in started and left and rc == 0 and
      "would be restored" in out, "start %r records %r\n%s%s" % (started, left, out, err))
clear_records()

# ---- two ddctl processes do not commit at once ---------------------------
p, fd, first = blocked_commit("-f", QUERIES, name="kernel-a")
capb = os.path.join(tmp, "writes-b")
bsave = os.path.join(tmp, "b.save")
with open(bsave, "w") as f:
    f.write("file big.c line 1 =p\n")
q = run.popen("--capture-writes", capb, "restore", bsave)
try:
    b_done = q.wait(timeout=10)  # today: at once; with a lock: still waiting
except subprocess.TimeoutExpired:
    b_done = None
b_wrote = os.path.exists(capb) and os.path.getsize(capb) > 0
finish(p, fd)
os.close(fd)
out, err = q.communicate(timeout=60)
check("second-ddctl-waits-for-first", not b_wrote and (b_done is None or b_done != 0),
      "the second ddctl %s while the first was committing; its write %s" %
      ("exited %s" % b_done if b_done is not None else "waited",
       "went out" if b_wrote else "waited"))


# two concurrent restores, each a split set: the second waits (saying so)
# until the first has ended; a raw writer is never held up by the lock
def script(name, lines):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.writelines("file big.c line %d =p\n" % i for i in lines)
    return path


odd, even = script("odd.save", range(1, 2001, 2)), script("even.save", range(2, 2001, 2))
p, fd, first = blocked_commit("restore", odd, name="kernel-odd")
fifo_b, fd_b = slow_kernel("kernel-even")
q = run.popen("--capture-writes", fifo_b, "restore", even)
raw = os.path.join(tmp, "raw-control")
shutil.copy(BIG, raw)
t0 = time.time()
rc_raw = subprocess.run(["sh", "-c", "echo 'file big.c line 7 +p' >> %s" % raw], timeout=10).returncode
raw_wait = time.time() - t0
early = drain(fd_b, wait=2.0)  # the first is stuck on its second write
b_waiting = q.poll() is None
finish(p, fd)
os.close(fd)
later, err_b = finish(q, fd_b)
os.close(fd_b)
check("concurrent-restores-one-after-the-other",
      b_waiting and not early and p.returncode == 0 and q.returncode == 0 and
      later.count(b"\n") > 0 and "waiting for another ddctl" in err_b,
      "second waited %s, wrote %d bytes while the first was stuck, then %d queries; "
      "rc %s/%s; stderr %r" % (b_waiting, len(early), later.count(b"\n"),
                               p.returncode, q.returncode, err_b[-300:]))
check("raw-writer-not-held-by-lock", rc_raw == 0 and raw_wait < 5,
      "the raw write took %.1f s, rc %d" % (raw_wait, rc_raw))

shutil.rmtree(tmp)
tap.finish()
