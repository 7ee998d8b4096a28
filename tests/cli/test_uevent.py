#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl watch against forged uevents: a running watcher gets messages from
another process on its NETLINK_KOBJECT_UEVENT port (a module-load event for
"*", one for a real-looking module and a 9,000-byte one) and must apply none
of them, warn about each and keep running. TAP output; skips where uevent
sockets are not available."""
import os
import shutil
import socket
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import CONFIG_ROOT, STOCK, Ddctl, read_until, tap  # noqa: E402

NETLINK_KOBJECT_UEVENT = 15


def uevent_port(pid):
    """The port of @pid's NETLINK_KOBJECT_UEVENT socket, from its inode."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    with open("/proc/net/netlink") as f:
        for line in f.readlines()[1:]:
            w = line.split()
            if int(w[1]) == NETLINK_KOBJECT_UEVENT and w[-1] in inodes:
                return int(w[2])
    return None


def read_lines(stream, want, timeout=10):
    """Lines from @stream until @want(lines) or the timeout (liveness only)."""
    return read_until(stream, lambda text: want(text.splitlines(True)), timeout).splitlines(True)


def forged(name):
    return ("add@/module/%s\0ACTION=add\0DEVPATH=/module/%s\0SUBSYSTEM=module\0SEQNUM=1\0"
            % (name, name)).encode()


try:
    probe = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_KOBJECT_UEVENT)
    probe.close()
    have_uevents = True
except OSError:
    have_uevents = False

if not have_uevents:
    tap.skip("watch-forged-uevents", "no NETLINK_KOBJECT_UEVENT")
    tap.finish()

with tempfile.TemporaryDirectory() as d:
    ctl = os.path.join(d, "control")
    shutil.copy(STOCK, ctl)
    before = open(ctl).read()
    # a copy: the watcher writes its load-time options below the config root
    root = os.path.join(d, "root")
    shutil.copytree(CONFIG_ROOT, root, symlinks=True)
    p = Ddctl(control=ctl, config_root=root, text=False).popen("-v", "watch")
    started = read_lines(p.stderr, lambda ls: any("waiting for modules" in l for l in ls))
    port = uevent_port(p.pid) if p.poll() is None else None
    check_detail = "".join(started)
    if port is None:
        p.kill()
        p.communicate()
        tap.check("watch-listens", False, check_detail)
        tap.finish()
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_KOBJECT_UEVENT)
    s.bind((0, 0))
    for msg in (forged("*"), forged("virtio_net"), forged("ab") + b"X=" + b"y" * 9000):
        s.sendto(msg, (port, 0))
    s.close()
    err = read_lines(p.stderr, lambda ls: len([l for l in ls if "uevent" in l]) >= 3 or
                     p.poll() is not None)
    alive = p.poll() is None
    p.terminate()
    out, rest = p.communicate()
    out, err = out.decode(), "".join(err) + rest.decode()
    tap.check("watch-drops-forged-uevents", "loaded" not in out and
              err.count("not sent by the kernel") == 2, out + err)
    tap.check("watch-skips-oversized-uevent", alive and "longer than" in err, out + err)
    tap.check("watch-forged-changes-nothing", open(ctl).read() == before, out + err)

tap.finish()
