#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The bash, zsh and fish completions of ddctl, run by each shell: commands,
options, and query words from the table in use (-C) (TAP)."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import (BASH_COMPLETION, DATA, DDCTL, HAND, bash_complete,  # noqa: E402
                       check, tap)

bindir = tempfile.mkdtemp()
os.symlink(os.path.abspath(DDCTL), os.path.join(bindir, "ddctl"))
ENV = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin"))

# (name, words of the command line; the last is the word being completed, expected)
CASES = [
    ("commands", ["ddctl", "mon"], {"monitor"}),
    ("module-of-control-file", ["ddctl", "-C", HAND, "set", "module", "virt"], {"virtio", "virtio_net"}),
    ("control-after-command", ["ddctl", "list", "-C", HAND, "module", "test_"], {"test_dynamic_debug"}),
    ("func", ["ddctl", "-C", HAND, "set", "func", "virtnet_"], {"virtnet_probe", "virtnet_remove"}),
    ("file", ["ddctl", "-C", HAND, "set", "file", "drivers/"], {"drivers/net/", "drivers/virtio/"}),
    ("keyword", ["ddctl", "-C", HAND, "list", "mod"], {"module"}),
    ("second-query-word", ["ddctl", "-C", HAND, "set", "module", "foo", "fu"], {"func"}),
    ("modules-pattern", ["ddctl", "-C", HAND, "modules", "virtio"], {"virtio", "virtio_net"}),
    ("option", ["ddctl", "--no-p"], {"--no-pager"}),
    ("output-columns", ["ddctl", "list", "--output", "module,fu"], {"module,function"}),
]


def bash(words):
    return bash_complete(words, env=ENV)


def zsh(words):
    # compadd and friends are zle builtins that need a completion widget:
    # stand-ins print what the function offers (filtered by PREFIX as zsh does)
    script = """
compadd() {
  while (( $# )) && [[ $1 != -- ]]; do
    case $1 in -S|-P|-J|-X|-t) shift ;; esac
    shift
  done
  shift
  local a
  for a in "$@"; do [[ $a == ${PREFIX}* ]] && print -r -- "$IPREFIX$a"; done
}
_describe() { local n=$4; compadd -- ${${(P)n}%%%%:*} }
_files() { print -r -- FILES }
compset() { if [[ $PREFIX == *,* ]]; then IPREFIX=${PREFIX%%,*},; PREFIX=${PREFIX##*,}; fi }
words=("$@")
CURRENT=$#words
PREFIX=$words[CURRENT]
IPREFIX=
source %s
""" % os.path.join(DATA, "zsh-completion", "_ddctl")
    p = subprocess.run(["zsh", "-f", "-c", script, "zsh", *words], capture_output=True, text=True, env=ENV)
    return p.stdout, p.stderr


def fish(words):
    line = " ".join(words)
    script = "source %s; complete -C '%s'" % (os.path.join(DATA, "fish-completion", "ddctl.fish"), line)
    p = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True, env=ENV)
    return "\n".join(x.split("\t")[0] for x in p.stdout.splitlines()), p.stderr


for shell, fn in [("bash", bash), ("zsh", zsh), ("fish", fish)]:
    if not shutil.which(shell) or (shell == "bash" and not os.path.exists(BASH_COMPLETION)):
        tap.skip(shell, "%s or its completion support not installed" % shell)
        continue
    for name, words, want in CASES:
        out, err = fn(words)
        got = set(out.split())
        check("%s-%s" % (shell, name), want <= got and all(
            any(g.startswith(w[:3]) for w in want) for g in got),
            "words %r: got %r, want %r\n%s" % (words, sorted(got)[:20], sorted(want), err[-400:]))

shutil.rmtree(bindir)
tap.finish()
