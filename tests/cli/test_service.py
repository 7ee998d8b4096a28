#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl under a service manager, without one (TAP output): ddctl watch
says READY=1 on $NOTIFY_SOCKET (a path, or an abstract "@name") once it
listens, re-reads the configuration on SIGHUP (RELOADING=1, then READY=1;
a file with a broken line is left out, a configuration that cannot load
keeps the old one), and messages on a
stderr that is the journal ($JOURNAL_STREAM) carry their syslog priority
("<3>" for errors), so that journalctl -p err shows errors only."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import CONFIG_ROOT, STOCK, Ddctl, read_until, tap  # noqa: E402

NETLINK_KOBJECT_UEVENT = 15
tmp = tempfile.mkdtemp(prefix="ddctl-service-")
ctl = os.path.join(tmp, "control")
shutil.copy(STOCK, ctl)
root = os.path.join(tmp, "root")
shutil.copytree(CONFIG_ROOT, root, symlinks=True)
run_dir = os.path.join(tmp, "run")
run = Ddctl(control=ctl, config_root=root, run_dir=run_dir, timeout=30)
load_options = os.path.join(root, "run/modprobe.d/ddctl-config.conf")
LOAD_HEADER = ("# written by ddctl watch (ddctl-watch.service) from ddctl.d for the modules loaded\n"
               "# while it runs: removed when it stops; edit ddctl.d, not this file\n")
# the fixture's configuration: its queries that name one module, in order
# ("file ..." and "func do_levels -p" name none)
LOAD_OPTIONS = ('options virtio_ring dyndbg="+pfl"\noptions virtio_net dyndbg="+pf"\n'
                'options test_dynamic_debug dyndbg="+p"\n')


def read_text(path):
    """@path's text, or None when it does not exist."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def received(sock, timeout=10):
    """The next datagram on @sock, decoded ("" after @timeout)."""
    sock.settimeout(timeout)
    try:
        return sock.recv(4096).decode()
    except socket.timeout:
        return ""


def lines_until(stream, text, timeout=10):
    """stderr of a running watcher until it contains @text."""
    return read_until(stream, lambda got: text in got, timeout)


try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_KOBJECT_UEVENT).close()
    have_uevents = True
except OSError:
    have_uevents = False

if not have_uevents:
    tap.skip("watch-notify-ready", "no NETLINK_KOBJECT_UEVENT")
else:
    for kind, addr in (("path", os.path.join(tmp, "notify")), ("abstract", "@ddctl-test-%d" % os.getpid())):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(addr if kind == "path" else "\0" + addr[1:])
        p = run.popen("-v", "watch", env={"NOTIFY_SOCKET": addr}, text=False)
        msg = received(sock)
        first = lines_until(p.stderr, "configured quer")
        tap.check("watch-notify-ready-" + kind, msg == "READY=1", repr(msg))
        if kind == "path":
            # the configuration's queries that name one module, as load-time
            # options (modprobe and udev's libkmod hand them to the module
            # before its init runs); the file query has no module
            tap.check("watch-load-options-written",
                      read_text(load_options) == LOAD_HEADER + LOAD_OPTIONS, read_text(load_options))
            # SIGHUP: the configuration again, announced as a reload
            with open(os.path.join(root, "etc/ddctl.d/60-more.conf"), "w") as f:
                f.write("module main +p\nmodule virtio_net +p\n")
            p.send_signal(signal.SIGHUP)
            msgs = [received(sock), received(sock)]
            tap.check("watch-sighup-reloading-then-ready", msgs == ["RELOADING=1", "READY=1"], msgs)
            err = lines_until(p.stderr, "re-read the configuration")
            m = re.search(r"(\d+) configured quer", first)
            want = "re-read the configuration: %d queries" % (int(m.group(1)) + 2) if m else "?"
            tap.check("watch-sighup-rereads", want in err and p.poll() is None, (first, err))
            tap.check("watch-sighup-rewrites-load-options",
                      read_text(load_options) == LOAD_HEADER + LOAD_OPTIONS.replace(
                          '"+pf"\n', '"+pf; +p"\noptions main dyndbg="+p"\n'),
                      read_text(load_options))
            # a broken file: said with FILE:LINE and left out, the others apply
            with open(os.path.join(root, "etc/ddctl.d/60-more.conf"), "w") as f:
                f.write("modul main +p\n")
            p.send_signal(signal.SIGHUP)
            msgs = [received(sock), received(sock)]
            err = lines_until(p.stderr, "re-read the configuration")
            want = "re-read the configuration: %d queries" % int(m.group(1)) if m else "?"
            tap.check("watch-sighup-broken-file-left-out", msgs == ["RELOADING=1", "READY=1"] and
                      "60-more.conf:1" in err and "this file is skipped" in err and want in err
                      and p.poll() is None, (msgs, err))
            # a configuration that cannot load (a file others could write): the old one stays
            os.chmod(os.path.join(root, "etc/ddctl.d/60-more.conf"), 0o666)
            p.send_signal(signal.SIGHUP)
            msgs = [received(sock), received(sock)]
            err = lines_until(p.stderr, "previous one stays")
            tap.check("watch-sighup-untrusted-keeps-old", msgs == ["RELOADING=1", "READY=1"] and
                      "previous one stays" in err and p.poll() is None, (msgs, err))
            os.unlink(os.path.join(root, "etc/ddctl.d/60-more.conf"))
        p.terminate()
        p.communicate()
        if kind == "path":
            # no module loads with the configuration once the watcher stops
            tap.check("watch-stop-removes-load-options",
                      p.returncode == 0 and received(sock, 2) == "STOPPING=1" and
                      not os.path.exists(load_options),
                      (p.returncode, read_text(load_options)))
        sock.close()
    # no query names one module: no load-time file (and an old one goes)
    os.makedirs(os.path.dirname(load_options), exist_ok=True)
    with open(load_options, "w") as f:
        f.write("stale\n")
    bare = os.path.join(tmp, "bare")
    os.makedirs(os.path.join(bare, "etc/ddctl.d"))
    with open(os.path.join(bare, "etc/ddctl.d/10-file.conf"), "w") as f:
        f.write("file drivers/virtio/virtio.c +p\n")
    os.makedirs(os.path.join(bare, "run/modprobe.d"))
    shutil.copy(load_options, os.path.join(bare, "run/modprobe.d/ddctl-config.conf"))
    bare_run = Ddctl(control=ctl, config_root=bare, run_dir=run_dir, timeout=30)
    p = bare_run.popen("-v", "watch", text=False)
    lines_until(p.stderr, "configured quer")
    tap.check("watch-no-named-module-no-load-options",
              p.poll() is None and not os.path.exists(os.path.join(bare, "run/modprobe.d/ddctl-config.conf")),
              read_text(os.path.join(bare, "run/modprobe.d/ddctl-config.conf")))
    p.terminate()
    p.communicate()
    # --check writes nothing, not even the load-time options, and removes nothing
    with open(load_options, "w") as f:
        f.write("stale\n")
    p = run.popen("--check", "-v", "watch", text=False)
    lines_until(p.stderr, "configured quer")
    alive = p.poll() is None
    p.terminate()
    p.communicate()
    tap.check("watch-check-writes-no-load-options", alive and read_text(load_options) == "stale\n",
              read_text(load_options))
    # next to the options ddctl persist wrote (/etc/modprobe.d/ddctl.conf):
    # kmod reads one file of a name, so the watcher's must have another;
    # list --persistent reads modprobe.d through libkmod
    persisted = os.path.join(root, "etc/modprobe.d/ddctl.conf")
    os.makedirs(os.path.dirname(persisted))
    with open(persisted, "w") as f:
        f.write('# written by ddctl persist from ddctl.d: do not edit\noptions main dyndbg="+p"\n')
    p = run.popen("-v", "watch", text=False)
    lines_until(p.stderr, "configured quer")
    _, listed, lerr = run("list", "--persistent")
    listed += lerr
    p.terminate()
    p.communicate()
    os.unlink(persisted)
    tap.check("watch-load-options-beside-persist", "main" in listed and "virtio_ring" in listed and
              "test_dynamic_debug" in listed, listed)
    # a second watcher (by hand) that replaced the file keeps it when the first stops
    first = run.popen("-v", "watch", text=False)
    lines_until(first.stderr, "configured quer")
    second = run.popen("-v", "watch", text=False)
    lines_until(second.stderr, "configured quer")
    first.terminate()
    first.communicate()
    kept = read_text(load_options)
    second.terminate()
    second.communicate()
    tap.check("watch-stop-keeps-another-watchers-file", kept == LOAD_HEADER + LOAD_OPTIONS and
              read_text(load_options) is None, (kept, read_text(load_options)))
    with open(load_options, "w") as f:
        f.write("stale\n")
    # a /run/modprobe.d others may write is not used: said, the watcher runs
    os.chmod(os.path.dirname(load_options), 0o777)
    p = run.popen("-v", "watch", text=False)
    err = lines_until(p.stderr, "configured quer")
    tap.check("watch-untrusted-modprobe-dir-said",
              "cannot write the load-time options" in err and p.poll() is None and
              read_text(load_options) == "stale\n", err)
    p.terminate()
    p.communicate()
    os.chmod(os.path.dirname(load_options), 0o755)
    # an address that is not a local socket's: said, and the watcher still runs
    p = run.popen("watch", env={"NOTIFY_SOCKET": "vsock:2:1"}, text=False)
    err = lines_until(p.stderr, "NOTIFY_SOCKET")
    tap.check("watch-notify-other-address-said", "cannot notify" in err and p.poll() is None, err)
    p.terminate()
    p.communicate()

# stderr as the journal: each message starts with its priority
err_path = os.path.join(tmp, "stderr")
for name, args, want, unwanted in (
        ("journal-error-priority", ("set", "modul main +p"), "<3>ddctl: ", None),
        ("journal-warning-priority", ("set", "module no_such_module +p"), "<4>ddctl: warning", "<3>")):
    with open(err_path, "w+") as f:
        st = os.fstat(f.fileno())
        env = dict(run.environ(), JOURNAL_STREAM="%d:%d" % (st.st_dev, st.st_ino))
        subprocess.run(run.argv(*args), env=env, stdout=subprocess.DEVNULL, stderr=f, timeout=30)
        f.seek(0)
        text = f.read()
    lines = [l for l in text.splitlines() if l]
    tap.check(name, lines and all(l.startswith("<") for l in lines) and want in text and
              not (unwanted and unwanted in text), text)
# the variable inherited, stderr elsewhere: no prefix
rc, out, err = run("set", "modul main +p", env={"JOURNAL_STREAM": "1:1"})
tap.check("journal-prefix-only-on-the-journal", err.startswith("ddctl: "), err)

shutil.rmtree(tmp)
tap.finish()
