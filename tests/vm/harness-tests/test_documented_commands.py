#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Every command line README.md and tests/vm/README.md give still parses
and reaches its first real step (TAP), so that a documented command cannot
rot silently.

The commands are read from the README's ```sh blocks (comments dropped,
continued lines joined) and from its inline `code` that starts with a
command this test knows; `a|b` inside a word is a choice between
alternatives (`DDCTL_KBASE=6.12|7.2 tests/vm/kernels/build-kernel.sh stock|patched`
is four commands).  They run in a scratch copy of the tree (absolute /tmp/
paths are moved into it), each block in a fresh copy of its build
directories, `sudo` and `nohup` dropped:

  the project's scripts  with DDCTL_DRY_RUN=1: each checks its arguments,
                         says what it would do ("dry run") and stops
                         (a script without that mode is only syntax-checked)
  meson setup|configure  for real, in the scratch copy (options are checked)
  meson compile, ninja   ninja -n: every target asked for exists
  meson test             --list with the same suites and names: not empty
  meson install          the build dir installs something
  git clone, cd          for real, inside the scratch copy
  dpkg-buildpackage      its options are in its --help; debian/rules exists
  lintian, apt-get ./X_*.deb   the file names match debian/control's packages
ddctl's own commands (ddctl, systemctl, ...) are the CLI suites' business.

An inline command whose build directory no step before it set up gets one
with every suite registered.

    test_documented_commands.py [README...]
        (default: README.md and tests/vm/README.md)
"""
import glob
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "tests"))
from tap import Tap  # noqa: E402

# scripts that have a dry-run mode (DDCTL_DRY_RUN=1); others are only
# syntax-checked (running them would do the real thing)
DRY_RUN_SCRIPTS = {"tests/vm/demo.sh", "tests/run-all.sh", ".ci/run",
                   "tests/deps.sh", "tests/vm/deps.sh",
                   "tests/vm/kernels/build-kernel.sh", "tests/vm/harness/vmtest.py",
                   "tests/vm/harness/run-vm.py", "tests/vm/kernels/fetch-source.sh",
                   "tests/vm/harness/mkimage-system.sh", "tests/vm/harness/vmtest-system.py"}
# commands of the tool itself and of the system: not build or test steps
NOT_CHECKED = {"ddctl", "systemctl", "pkg-config", "dmesg", "modprobe",
               "insmod", "rmmod", "echo", "cat", "less", "man", "update-grub"}
KNOWN = {"meson", "ninja", "git", "cd", "dpkg-buildpackage", "lintian",
         "apt-get", "sudo", "nohup"}
TIMEOUT = 120
ALL_SUITES = ["-Dvm=true", "-Dvm_all=true", "-Dvm_debug=true", "-Dvm_arm64=true"]
# meson options whose value is the next word
VALUE_OPTIONS = {"--cross-file", "--native-file", "--prefix", "--libdir",
                 "--buildtype", "--backend", "--wrap-mode", "-D"}


def expand_choices(line):
    """`a|b` inside a word: one line per combination of alternatives
    (`X=a|b` and `--opt=a|b` choose the value)."""
    parts = re.split(r"(\S+)", line)
    choices = []
    for p in parts:
        if "|" not in p or p.strip() in ("|", "||"):
            choices.append([p])
            continue
        alts = p.split("|")
        m = re.match(r"^([^=]*=)", alts[0])
        if m:
            alts = [alts[0]] + [a if "=" in a else m.group(1) + a for a in alts[1:]]
        choices.append(alts)
    return ["".join(c) for c in itertools.product(*choices)]


def extract(path):
    """[(line, [command text, ...])]: one entry per sh block or inline span
    (a group shares a working directory and build directories)."""
    text = open(path).read()
    groups = []
    lines = text.splitlines()
    i = 0
    prose = []
    while i < len(lines):
        if lines[i].startswith("```"):
            lang = lines[i][3:].strip()
            start = i + 1
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append((i + 1, lines[i]))
                i += 1
            i += 1
            if lang == "sh":
                cmds = [c for c in join_continued(body)
                        if is_command(c, mention_ok=True)]
                if cmds:
                    groups.append((start + 1, cmds))
            continue
        prose.append((i + 1, lines[i]))
        i += 1
    # inline spans may wrap: read the prose as one text, keep line numbers
    flat = ""
    starts = []
    for n, ln in prose:
        starts.append((len(flat), n))
        flat += ln + "\n"
    for m in re.finditer(r"`([^`]+)`", flat):
        span = " ".join(m.group(1).split())
        if is_command(span):
            n = max(ln for off, ln in starts if off <= m.start())
            groups.append((n, [span]))
    seen = set()
    unique = []
    for n, cmds in sorted(groups):
        if len(cmds) == 1 and cmds[0] in seen:
            continue  # the same command named again further on
        seen.update(cmds)
        unique.append((n, cmds))
    return unique


def join_continued(body):
    out = []
    cur = ""
    for _, ln in body:
        if ln.rstrip().endswith("\\"):
            cur += ln.rstrip()[:-1] + " "
            continue
        cur += ln
        stripped = strip_comment(cur).strip()
        if stripped:
            out.append(stripped)
        cur = ""
    return out


def strip_comment(line):
    """LINE without a shell comment (a # that starts a word, unquoted)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def program(words):
    for w in words:
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w) or w in ("sudo", "nohup"):
            continue
        return w
    return None


def is_command(span, mention_ok=False):
    """Whether SPAN is a command line to check: it starts with a command
    this test knows or one of the project's executables.  A bare mention
    in prose (`meson setup`, `apt-get`) is not, unless MENTION_OK."""
    try:
        words = shlex.split(expand_choices(span)[0])
    except ValueError:
        return False
    prog = program(words)
    if not prog or prog in NOT_CHECKED:
        return False
    if prog in KNOWN:
        args = [w for w in words[words.index(prog) + 1:] if not w.startswith("-")]
        return mention_ok or prog == "cd" or len(args) >= 2 or (
            prog == "ninja" and len(args) >= 1)
    if prog.startswith(("tests/vm/guest/", "/")):
        return False  # guest scripts run inside the VM
    # a project script, or what looks like one (a renamed script's old name
    # must fail, not drop out of the check)
    return bool(re.match(r"^(\./)?(tests|\.ci|kernel-patches)/\S*"
                         r"(\.sh|\.py|/run)$", prog)) or (
        "/" in prog and os.path.isfile(os.path.join(REPO, prog)) and
        os.access(os.path.join(REPO, prog), os.X_OK))


def simple_commands(line):
    """The simple commands of LINE, split at &&, ||, ;, | and &
    (redirections dropped)."""
    line = re.sub(r"(^|\s)\d*[<>]&\d+", " ", line)
    line = re.sub(r"(^|\s)\d*(>>|>|<)\s*[^\s;&|]+", " ", line)
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    cmds, cur = [], []
    for tok in lex:
        if tok and set(tok) <= set(";&|"):
            if cur:
                cmds.append(cur)
            cur = []
        else:
            cur.append(tok)
    if cur:
        cmds.append(cur)
    return cmds


def deb_packages(cwd):
    control = os.path.join(cwd, "debian", "control")
    if not os.path.exists(control):
        return None, set()
    text = open(control).read()
    src = re.search(r"(?m)^Source:\s*(\S+)", text)
    return (src.group(1) if src else None,
            set(re.findall(r"(?m)^Package:\s*(\S+)", text)))


class Runner:
    def __init__(self, scratch):
        self.scratch = scratch
        self.repo = os.path.join(scratch, "repo")
        self.cwd = self.repo

    def path(self, p):
        if p.startswith("/tmp/"):
            return os.path.join(self.scratch, p[1:])
        return os.path.normpath(os.path.join(self.cwd, p))

    def run(self, argv, env=None, cwd=None):
        # its own process group: a script that ignores the dry run (and
        # really builds or boots) is stopped whole at the timeout
        p = subprocess.Popen(argv, cwd=cwd or self.cwd, env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        try:
            out, _ = p.communicate(timeout=TIMEOUT)
            return p.returncode, out
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            return 124, out + f"\n(timed out after {TIMEOUT} s)"

    def check(self, words):
        """(ok, what happened) for one simple command."""
        env = dict(os.environ)
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            k, v = words.pop(0).split("=", 1)
            env[k] = self.path(v) if v.startswith("/tmp/") else v
        while words and words[0] in ("sudo", "nohup"):
            words.pop(0)
        if not words:
            return True, "only assignments"
        prog, args = words[0], words[1:]
        handler = getattr(self, "do_" + prog.replace("-", "_"), None)
        if handler:
            return handler(args, env)
        script = os.path.relpath(self.path(prog), self.repo)
        if "/" in prog and os.path.isfile(self.path(prog)):
            return self.script(script, args, env)
        return False, f"no check for the command '{prog}': add one to {os.path.basename(__file__)}"

    def script(self, script, args, env):
        path = os.path.join(self.repo, script)
        if not os.access(path, os.X_OK):
            return False, f"{script} is not executable"
        if script not in DRY_RUN_SCRIPTS:
            first = open(path, errors="replace").readline()
            argv = ([sys.executable, "-m", "py_compile", path] if "python" in first
                    else ["bash", "-n", path])
            rc, out = self.run(argv)
            return rc == 0, f"{script}: no dry-run mode, syntax checked: {out.strip() or 'ok'}"
        env = dict(env, DDCTL_DRY_RUN="1", DDCTL_KCACHE=env.get(
            "DDCTL_KCACHE", "/var/cache/ddctl/kernels"))
        rc, out = self.run([path] + args, env=env)
        ok = rc == 0 and "dry run" in out
        tail = "\n".join(out.strip().splitlines()[-12:])
        return ok, f"DDCTL_DRY_RUN=1 {script} {' '.join(args)}: status {rc}, output ends:\n{tail}"

    def do_cd(self, args, env):
        d = self.path(args[0]) if args else self.repo
        if not os.path.isdir(d):
            return False, f"cd {args[0]}: no such directory"
        self.cwd = d
        return True, f"cd {d}"

    def do_git(self, args, env):
        if args[:1] != ["clone"] or len(args) != 3:
            return False, f"git {' '.join(args)}: only 'git clone SRC DST' is checked"
        src, dst = self.path(args[1]), self.path(args[2])
        rc, out = self.run(["git", "clone", "-q", src, dst])
        return rc == 0, f"git clone {src} {dst}: status {rc} {out.strip()}"

    def builddir(self, args, opt_c=True):
        if opt_c:
            for i, a in enumerate(args):
                if a == "-C" and i + 1 < len(args):
                    return self.path(args[i + 1]), args[:i] + args[i + 2:]
                if a.startswith("-C") and len(a) > 2:
                    return self.path(a[2:]), args[:i] + args[i + 1:]
            return self.cwd, args
        pos, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a in VALUE_OPTIONS:
                skip = True
            elif not a.startswith("-"):
                pos.append(a)
        return (self.path(pos[0]) if pos else None), args

    def configured(self, d):
        """An inline command's build dir that no earlier step set up: set it
        up with every suite registered (the README's steps each turn one on)."""
        if os.path.exists(os.path.join(d, "build.ninja")):
            return ""
        rc, out = self.run(["meson", "setup", d] + ALL_SUITES)
        return "" if rc == 0 else f"meson setup {d} failed:\n{out[-800:]}"

    def do_meson(self, args, env):
        sub, rest = (args[0], args[1:]) if args else ("", [])
        if sub in ("setup", "configure"):
            d, _ = self.builddir(rest, opt_c=False)
            if d is None:
                return False, f"meson {sub}: no build directory"
            if sub == "setup" and os.path.exists(d):
                shutil.rmtree(d)  # as on a fresh clone
            argv = ["meson", sub] + [self.path(a) if a.startswith("/tmp/") else a
                                     for a in rest]
            rc, out = self.run(argv)
            if rc == 0 and sub == "configure":
                rc, out2 = self.run(["ninja", "-C", d, "build.ninja"])
                out += out2
            return rc == 0, f"meson {sub} {' '.join(rest)}: status {rc}\n{out.strip()[-1500:]}"
        if sub == "compile":
            d, rest = self.builddir(rest)
            err = self.configured(d)
            if err:
                return False, err
            targets = [a for a in rest if not a.startswith("-")]
            rc, out = self.run(["ninja", "-n", "-C", d] + targets)
            return rc == 0, f"ninja -n -C {d} {' '.join(targets)}: status {rc}\n{out.strip()[-800:]}"
        if sub == "test":
            d, rest = self.builddir(rest)
            err = self.configured(d)
            if err:
                return False, err
            rest = [a for a in rest if a not in ("-v", "--verbose", "--print-errorlogs")]
            rc, out = self.run(["meson", "test", "-C", d, "--no-rebuild", "--list"] + rest)
            ok = rc == 0 and out.strip() != ""
            return ok, f"meson test -C {d} --list {' '.join(rest)}: status {rc}\n{out.strip()[-800:] or '(no tests)'}"
        if sub == "install":
            d, rest = self.builddir(rest)
            err = self.configured(d)
            if err:
                return False, err
            rc, out = self.run(["meson", "introspect", d, "--installed"])
            return rc == 0 and out.strip() not in ("", "{}"), f"meson introspect {d} --installed: status {rc}"
        return False, f"meson {sub}: no check for it"

    def do_ninja(self, args, env):
        d, rest = self.builddir(args)
        err = self.configured(d)
        if err:
            return False, err
        rc, out = self.run(["ninja", "-n", "-C", d] + rest)
        return rc == 0, f"ninja -n -C {d} {' '.join(rest)}: status {rc}\n{out.strip()[-800:]}"

    def do_dpkg_buildpackage(self, args, env):
        if not shutil.which("dpkg-buildpackage"):
            return False, "dpkg-buildpackage not installed (tests/deps.sh pkg)"
        rc, helptext = self.run(["dpkg-buildpackage", "--help"])
        bad = [a for a in args if a.startswith("-") and
               not re.search(r"(^|[\s,])" + re.escape(a.split("=")[0]) + r"([\s,=[]|$)", helptext, re.M)]
        rules = os.path.join(self.cwd, "debian", "rules")
        ok = not bad and os.access(rules, os.X_OK)
        return ok, (f"dpkg-buildpackage {' '.join(args)} in {self.cwd}: "
                    f"unknown options {bad}, debian/rules "
                    f"{'ok' if os.access(rules, os.X_OK) else 'missing'}")

    def debs(self, args, suffix):
        src, pkgs = deb_packages(self.cwd)
        if src is None:
            src, pkgs = deb_packages(os.path.join(self.cwd, os.pardir, "repo"))
        names = [os.path.basename(a).split("_")[0] for a in args
                 if a.endswith(suffix)]
        return src, pkgs, names

    def do_lintian(self, args, env):
        src, pkgs, names = self.debs(args, ".changes")
        ok = names and all(n == src for n in names)
        return ok, f"lintian {' '.join(args)}: the source package is {src}"

    def do_apt_get(self, args, env):
        if args[:1] != ["install"]:
            return False, f"apt-get {' '.join(args)}: only install is checked"
        debs = [a for a in args[1:] if a.endswith(".deb")]
        src, pkgs, names = self.debs(debs, ".deb")
        bad = [n for n in names if n not in pkgs]
        others = [a for a in args[1:] if not a.startswith("-") and not a.endswith(".deb")]
        for name in others:
            rc, _ = self.run(["apt-cache", "show", name])
            if rc:
                bad.append(name)
        return not bad, f"apt-get install: packages {sorted(pkgs)}; unknown: {bad}"


def scratch_copy(dest):
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=REPO, check=True,
                           stdout=subprocess.PIPE).stdout.split(b"\0")
    for f in files:
        f = f.decode()
        if not f or not os.path.lexists(os.path.join(REPO, f)):
            continue
        os.makedirs(os.path.join(dest, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(os.path.join(REPO, f), os.path.join(dest, f),
                     follow_symlinks=False)
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"],
                 ["git", "commit", "-q", "-m", "scratch copy"]):
        subprocess.run(argv, cwd=dest, check=True, env=env,
                       stdout=subprocess.DEVNULL)


def check_readme(tap, r, readme, name, expect_ok=True):
    for line, cmds in extract(readme):
        # each block (or inline command) as on a fresh clone
        r.cwd = r.repo
        for d in glob.glob(os.path.join(r.repo, "build*")) + \
                [os.path.join(r.scratch, "tmp")]:
            shutil.rmtree(d, ignore_errors=True)
        for text in cmds:
            for variant in expand_choices(text):
                results = []
                for words in simple_commands(variant):
                    ok, why = r.check(list(words))
                    results.append((ok, " ".join(words), why))
                    if not ok:
                        break
                ok = all(res[0] for res in results)
                detail = "\n".join(f"{'ok' if o else 'FAILED'}: {c}\n  {w}"
                                   for o, c, w in results)
                if expect_ok:
                    tap.check(f"{name}:{line}: {variant}", ok, detail)
                else:
                    tap.check(f"a rotten command fails: {variant}", not ok,
                              detail)


# commands that must fail: the checker sees each kind of rot
ROTTEN = """\
```sh
meson setup build && ninja -C build cli/ddctl tests/vm/nlexec
```

```sh
meson setup build -Dno_such_option=true
```

```sh
meson setup build && meson test -C build --suite no-such-suite
```

Inline: `tests/vm/kernels/build-kernel.sh bogus`, `DDCTL_KBASE=9.9 tests/vm/kernels/build-kernel.sh stock`,
`tests/vm/harness/vmtest.py patched --base 9.9`, `DDCTL_ARCH=sparc tests/vm/demo.sh`,
`tests/deps.sh nosuchgroup`, `sudo apt-get install ./ddctl_*.deb ./libnothing0_*.deb`,
`git clone . /tmp/x && cd /tmp/y`, `tests/vm/no-such-script.sh now`.

```sh
dpkg-buildpackage --no-such-option
```
"""


def main():
    readmes = sys.argv[1:] or [os.path.join(REPO, "README.md"),
                               os.path.join(REPO, "tests", "vm", "README.md")]
    tap = Tap()
    scratch = tempfile.mkdtemp(prefix="ddctl-doc-commands-")
    try:
        r = Runner(scratch)
        scratch_copy(r.repo)
        rotten = os.path.join(scratch, "rotten.md")
        with open(rotten, "w") as f:
            f.write(ROTTEN)
        check_readme(tap, r, rotten, "rotten", expect_ok=False)
        for readme in readmes:
            check_readme(tap, r, readme, os.path.relpath(readme, REPO))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    tap.finish()


if __name__ == "__main__":
    main()
