# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""What the Python suites of ddctl's command line share.

A suite is started as `SUITE.py DDCTL FIXTURE_DIR` (tests/meson.build) and
reports TAP through `tap`/`check` (tests/tap.py). It runs ddctl through one
`Ddctl` runner: the options and environment every call of the suite shares
are given once, and each call may override any of them:

    run = Ddctl(control=HAND, config_root=CONFIG_ROOT)
    rc, out, err = run("list", "--enabled")
    rc, out, err = run("set", "+p", control=copy, stdin="...")

`Term` runs ddctl as a person would, on a pty of its own (the shell's
prompt, history, Ctrl-C); `write_control` writes a fixture control file.
"""
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

TESTS = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(TESTS)
DATA = os.path.join(SRC, "data")
from tap import Tap  # noqa: E402

if len(sys.argv) < 3:
    raise SystemExit("usage: %s DDCTL FIXTURE_DIR" % sys.argv[0])
DDCTL, FIXTURES = sys.argv[1], sys.argv[2]
HAND = os.path.join(FIXTURES, "hand-escapes.txt")
STOCK = os.path.join(FIXTURES, "control-6.12-stock.txt")
ENABLED = os.path.join(FIXTURES, "control-6.12-stock-enabled.txt")
CONFIG_ROOT = os.path.join(FIXTURES, "config-root")
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"

tap = Tap()
check = tap.check


def read_until(stream, want, timeout=10):
    """What a running process writes on @stream (a pipe), decoded, until
    @want(text so far) holds, the stream ends or @timeout seconds pass
    (liveness only: the caller checks what came)."""
    data, end = b"", time.monotonic() + timeout
    while not want(data.decode(errors="replace")) and time.monotonic() < end:
        r, _, _ = select.select([stream], [], [], 0.2)
        if r:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                break
            data += chunk
    return data.decode(errors="replace")


class Ddctl:
    """Runs ddctl. Each setting is a default for every call and a keyword a
    call may override (None: not given):

    control      --control FILE
    capture      --capture-writes FILE
    kmsg         --kmsg FILE (given to follow, run and shell only)
    config_root  DDCTL_CONFIG_ROOT (the root of ddctl.d, modprobe.d)
    run_dir      DDCTL_RUN_DIR (session records, the boot snapshot)
    env          variables to set over os.environ (a value None unsets one;
                 a call's env is merged over the runner's)
    timeout      seconds before the call fails (subprocess.TimeoutExpired)
    text         str in and out (False: bytes)
    errors       how undecodable output is decoded in text mode
    """

    KMSG_COMMANDS = {"follow", "run", "shell"}
    SETTINGS = ("control", "capture", "kmsg", "config_root", "run_dir", "env",
                "timeout", "text", "errors")

    def __init__(self, **settings):
        self.settings = dict.fromkeys(self.SETTINGS)
        self.settings["text"] = True
        self.settings.update(self._known(settings))

    def _known(self, settings):
        unknown = set(settings) - set(self.SETTINGS)
        if unknown:
            raise TypeError("unknown ddctl runner settings: %s" % sorted(unknown))
        return settings

    def _merged(self, overrides):
        s = dict(self.settings)
        s.update(self._known(overrides))
        s["env"] = dict(self.settings["env"] or {}, **(overrides.get("env") or {}))
        return s

    def argv(self, *args, user=None, **overrides):
        """The command line of a call; as user @user (an id) via setpriv."""
        s = self._merged(overrides)
        cmd = [DDCTL]
        for option, key in (("--control", "control"), ("--capture-writes", "capture"),
                            ("--kmsg", "kmsg")):
            # ddctl refuses an option its command does not take: --kmsg
            # goes only to the commands that read the kernel log
            if key == "kmsg" and not self.KMSG_COMMANDS & set(args):
                continue
            if s[key] is not None:
                cmd += [option, s[key]]
        cmd += args
        if user is not None:
            cmd = ["setpriv", "--reuid", str(user), "--regid", str(user),
                   "--clear-groups", *cmd]
        return cmd

    def environ(self, **overrides):
        """The environment of a call."""
        s = self._merged(overrides)
        env = dict(os.environ)
        for var, key in (("DDCTL_CONFIG_ROOT", "config_root"), ("DDCTL_RUN_DIR", "run_dir")):
            if s[key] is not None:
                env[var] = s[key]
        for var, value in s["env"].items():
            if value is None:
                env.pop(var, None)
            else:
                env[var] = value
        return env

    def _io(self, overrides):
        s = self._merged(overrides)
        return dict(text=s["text"], errors=s["errors"] if s["text"] else None)

    def __call__(self, *args, stdin=None, stdout=None, preexec=None, user=None, **overrides):
        """Runs ddctl ARGS to the end: (exit status, stdout, stderr). @stdout
        redirects the output (then returned empty), @preexec runs in the child
        before ddctl (limits, signals)."""
        s = self._merged(overrides)
        p = subprocess.run(self.argv(*args, user=user, **overrides), input=stdin,
                           env=self.environ(**overrides),
                           stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                           preexec_fn=preexec, timeout=s["timeout"], **self._io(overrides))
        empty = "" if s["text"] else b""
        return p.returncode, p.stdout or empty, p.stderr

    def popen(self, *args, stdin=None, **overrides):
        """Starts ddctl ARGS with stdout and stderr on pipes."""
        return subprocess.Popen(self.argv(*args, **overrides), env=self.environ(**overrides),
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                **self._io(overrides))

    def on_tty(self, *args, size=None, stdin_tty=True, stderr_tty=True, **overrides):
        """Runs ddctl ARGS with stdout on a new pseudo-terminal (stdin and
        stderr too unless told otherwise; else /dev/null); @size (COLS, ROWS)
        sets the terminal's size. Returns the exit status and what the
        terminal showed, decoded, CRLF as LF."""
        s = self._merged(overrides)
        master, slave = os.openpty()
        if size is not None:
            cols, rows = size
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        p = subprocess.Popen(self.argv(*args, **overrides), env=self.environ(**overrides),
                             stdin=slave if stdin_tty else subprocess.DEVNULL, stdout=slave,
                             stderr=slave if stderr_tty else subprocess.DEVNULL,
                             start_new_session=True)
        os.close(slave)
        data = b""
        while True:
            r, _, _ = select.select([master], [], [], 10)
            try:
                chunk = os.read(master, 65536) if r else b""
            except OSError:
                chunk = b""
            if not chunk:
                break
            data += chunk
        os.close(master)
        return p.wait(timeout=s["timeout"] or 60), \
            data.decode("utf-8", "replace").replace("\r\n", "\n")


# the shell's prompt on a control file given with --control
PROMPT = "ddctl[control-file]> "


class Term:
    """ddctl with no arguments on a pty, as a person would start it: its
    controlling terminal, in the environment @env alone."""

    def __init__(self, control, env, args=()):
        argv = Ddctl(control=control).argv(*args)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        self.buf = ""

    def send(self, text):
        os.write(self.fd, text.encode())

    def expect(self, pattern, timeout=5):
        """Wait for @pattern (a regex) in the output since the last expect."""
        end = time.time() + timeout
        while True:
            m = re.search(pattern, self.buf)
            if m:
                seen, self.buf = self.buf[:m.end()], self.buf[m.end():]
                return seen
            left = end - time.time()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    m = re.search(pattern, self.buf)
                    return self.buf if m else None
                self.buf += data.decode(errors="replace")

    def cancel(self):
        """Ctrl-C, then wait for the fresh prompt."""
        self.send("\x03")
        return self.expect(re.escape(PROMPT) + "$")

    def wait(self, timeout=5):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            self.expect("$^", 0.1)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return None


def clean(text):
    """Drop terminal escape sequences and bells."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r|\x07", "", text or "")


def write_control(path, lines):
    """Writes a control file of @lines ("filename:lineno [module]function
    flags format", the kernel's header first); returns @path."""
    with open(path, "w") as f:
        f.write("# filename:lineno [module]function flags format\n")
        f.writelines(line + "\n" for line in lines)
    return path


def write_followed_control(path):
    """Writes HAND to @path with virtio_net's three sites printing and
    decorated (=pmfsl), as a follow session leaves them; returns @path."""
    with open(HAND) as f, open(path, "w") as o:
        o.write(re.sub(r"(\[virtio_net\]\S+) =\S+", r"\1 =pmfsl", f.read()))
    return path


def gone(path):
    """Removes @path if it exists (a capture file before a call); returns it."""
    if os.path.exists(path):
        os.unlink(path)
    return path


def write_split_set(control, queries, sites=2000):
    """Writes a control file of @sites callsites (big.c:1.. of module big,
    all off) and a query file of one query per site (`file big.c line N
    +p`): a set too long for one write to the kernel."""
    with open(control, "w") as f, open(queries, "w") as g:
        f.write("# filename:lineno [module]function flags format\n")
        for i in range(1, sites + 1):
            f.write('big.c:%d [big]f%d =_ "m%d\\n"\n' % (i, i, i))
            g.write("file big.c line %d +p\n" % i)


def err_lines(err):
    """The non-empty lines of @err: how many messages ddctl printed."""
    return [line for line in err.splitlines() if line]


def bash_complete(words, env=None, cwd=None):
    """What data/bash-completion/ddctl offers for @words, the last of which
    is being completed: bash's stdout (one word a line) and stderr."""
    script = """
source %s
source %s
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
_ddctl
printf '%%s\\n' "${COMPREPLY[@]}"
""" % (BASH_COMPLETION, os.path.join(DATA, "bash-completion", "ddctl"))
    p = subprocess.run(["bash", "-c", script, "bash", *words], capture_output=True, text=True,
                       env=env, cwd=cwd)
    return p.stdout, p.stderr
