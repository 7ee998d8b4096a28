#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Lint of the guest scripts' `check NAME REASON COMMAND...` calls (TAP).

`check` (guest/lib.sh) runs COMMAND and reports its status.  Two mistakes
make a check decide nothing, and the guest suite cannot see them:

  check x "why" [ $rc = 0 ] && cmp -s a b   # check runs only `[ ... ]`;
                                            # cmp runs after, unreported
  check x "why" true                        # always ok

So every guest script is read as the shell reads it (continued lines
joined, quotes, $(...), here-documents and comments skipped) and a check
fails the lint when its own simple command is followed by `&&`, `||` or
`|`, or when its command is missing or a constant (`true`, `:`, or `eval`
of one).  Put compound conditions inside the check (`eval '... && ...'`,
or a shell function as the command).

    test_guest_checks.py [SCRIPT...]   (default: every file of guest/)
"""
import bisect
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tap import Tap  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
GUEST = os.path.join(HERE, "..", "guest")
OPERATORS = ("&&", "||", ";;", "|", ";", "&", "(", ")", "\n")
# words after which the next word is a command
COMMAND_START = {"then", "do", "else", "elif", "if", "while", "until", "!",
                 "{", "}", "time"}
CONSTANTS = {"true", ":"}


class ShellSyntax(Exception):
    pass


def _skip_quoted(s, i):
    """s[i] opens a quote, $( ... ), ${ ... } or `...`: the index after it."""
    c = s[i]
    if c == "'":
        j = s.find("'", i + 1)
        if j < 0:
            raise ShellSyntax("unterminated '")
        return j + 1
    if c == '"':
        i += 1
        while i < len(s) and s[i] != '"':
            if s[i] == "\\":
                i += 2
            elif s[i] in "$`":
                i = _skip_dollar(s, i)
            else:
                i += 1
        if i >= len(s):
            raise ShellSyntax('unterminated "')
        return i + 1
    if c == "`":
        i += 1
        while i < len(s) and s[i] != "`":
            i += 2 if s[i] == "\\" else 1
        if i >= len(s):
            raise ShellSyntax("unterminated `")
        return i + 1
    return _skip_dollar(s, i)


def _skip_dollar(s, i):
    """s[i] is `$` or a backquote: the index after the expansion."""
    if s[i] == "`":
        return _skip_quoted(s, i)
    if i + 1 >= len(s) or s[i + 1] not in "({":
        return i + 1
    close = ")" if s[i + 1] == "(" else "}"
    opener = s[i + 1]
    depth = 1
    i += 2
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"`" and not (c == "'" and close == "}"):
            i = _skip_quoted(s, i)
            continue
        if c == "$":
            i = _skip_dollar(s, i)
            continue
        if close == ")" and c == "#" and (i == 0 or s[i - 1] in " \t\n;"):
            j = s.find("\n", i)
            i = len(s) if j < 0 else j
            continue
        if c == opener:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ShellSyntax("unterminated $" + opener)


def tokens(text):
    """(kind, value, line) for the top level of a shell script: kind is
    "word" or "op"; continued lines are joined, comments and here-document
    bodies skipped; $(...) stays inside its word."""
    s = text
    newlines = [k for k, ch in enumerate(s) if ch == "\n"]

    def lineno(i):
        return bisect.bisect_left(newlines, i) + 1

    out = []
    heredocs = []
    i = 0
    while i < len(s):
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if s.startswith("\\\n", i):  # a continued line
            i += 2
            continue
        if c == "#":
            j = s.find("\n", i)
            i = len(s) if j < 0 else j
            continue
        if s.startswith("<<", i):
            i += 2
            strip = s.startswith("-", i)
            i += 1 if strip else 0
            while i < len(s) and s[i] in " \t":
                i += 1
            j = i
            while j < len(s) and s[j] not in " \t\n;&|<>()":
                j = _skip_quoted(s, j) if s[j] in "'\"" else j + 1
            heredocs.append((s[i:j].replace("'", "").replace('"', ""), strip))
            i = j
            continue
        op = next((o for o in OPERATORS if s.startswith(o, i)), None)
        if op:
            out.append(("op", op, lineno(i)))
            i += len(op)
            if op == "\n":
                for delim, strip in heredocs:
                    while i < len(s):
                        j = s.find("\n", i)
                        j = len(s) if j < 0 else j
                        body = s[i:j].lstrip("\t") if strip else s[i:j]
                        i = j + 1
                        if body == delim:
                            break
                heredocs = []
            continue
        start = i
        while i < len(s) and s[i] not in " \t\n;&|()":
            if s[i] == "\\":
                i += 2
            elif s[i] in "'\"`$":
                i = _skip_quoted(s, i)
            elif s[i] in "<>":
                i += 1
                if s.startswith("<", i - 1) and s.startswith("<", i):
                    break
            else:
                i += 1
        if i == start:  # a redirection operator on its own
            i += 1
        out.append(("word", s[start:i], lineno(start)))
    out.append(("op", "\n", lineno(len(s))))
    return out


def unquote(word):
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def lint(text, name="script"):
    """The problems of the check calls in TEXT ('NAME:LINE: ...') and the
    number of check calls seen."""
    problems = []
    calls = 0
    toks = tokens(text)
    at_start = True
    i = 0
    while i < len(toks):
        kind, value, line = toks[i]
        if kind == "op":
            at_start = True
            i += 1
            continue
        if not at_start:
            i += 1
            continue
        if value in COMMAND_START:
            i += 1
            continue
        at_start = False
        # assignments before a command: a=b check ...
        if "=" in value.split("[")[0] and not value.startswith("="):
            at_start = True
            i += 1
            continue
        if value != "check" or (i + 1 < len(toks) and toks[i + 1][1] == "("):
            i += 1
            continue
        calls += 1
        j = i + 1
        words = []
        while j < len(toks) and toks[j][0] == "word":
            words.append(toks[j][1])
            j += 1
        after = toks[j][1] if j < len(toks) else "\n"
        label = words[0] if words else "?"
        where = f"{name}:{line}: check {label}"
        if after in ("&&", "||", "|"):
            problems.append(f"{where}: followed by '{after}': the command "
                            "after it is not part of the check (its result "
                            "is thrown away); put it inside the check "
                            "(eval '... {0} ...' or a function)".format(after))
        cmd = words[2:]
        if not cmd:
            problems.append(f"{where}: no command: the check is always ok")
        elif cmd[0] in CONSTANTS or (
                cmd[0] == "eval" and len(cmd) == 2 and
                unquote(cmd[1]).strip() in CONSTANTS):
            problems.append(f"{where}: the command is the constant "
                            f"'{' '.join(cmd)}': the check is always ok")
        i = j
    return problems, calls


def self_test(tap):
    bad = {
        "and": 'check a "r" [ 1 = 1 ] && cmp -s x y\n',
        "or": 'check a "r" [ 1 = 1 ] || true\n',
        "pipe": 'check a "r" grep -q x f | head\n',
        "continued": 'check a "rc=$rc: $(diff a b | head -c 3)" \\\n'
                     '\t[ $rc = 0 ] && grep -q x f\n',
        "and-at-eol": 'if x; then check a "r" [ 1 ] &&\n\tgrep y; fi\n',
        "true": 'check a "r" true\n',
        "colon": 'f() { check a "r" :; }\n',
        "eval-true": "check a r eval 'true'\n",
        "none": 'check a "r"\n',
    }
    good = {
        "eval": "check a \"r\" eval '[ $rc = 0 ] && cmp -s x y'\n",
        "reason-pipe": 'check a "x: $(diff a b | head -c 300) && y" [ 1 ]\n',
        "func": 'ok_() { [ $rc = 0 ] && grep -q x f; }\ncheck a "r" ok_\n',
        "before": '[ -f x ] && check a "r" [ 1 ]\n',
        "ddctl-check": 'ddctl --check set "x" | head && true\n',
        "definition": 'check() { n=$1; if "$@"; then ok; fi; }\n',
        "heredoc": "while read q; do check a b same; done <<'EOF'\n"
                   "check a b true && x\nEOF\n",
        "comment": "# check a b true && x\ncheck a b [ 1 ] # && x\n",
    }
    for k, text in bad.items():
        p, _ = lint(text, k)
        tap.check(f"lint flags a bad check: {k}", len(p) == 1,
                  f"{text!r}: {p}")
    for k, text in good.items():
        p, _ = lint(text, k)
        tap.check(f"lint passes a good check: {k}", not p, f"{text!r}: {p}")


def lib_check_test(tap):
    """guest/lib.sh's check reports the command's status and leaves the
    caller's variables alone (an eval'ed command reads them when it runs)."""
    sh = shutil.which("busybox")
    argv = [sh, "sh"] if sh else ["sh"]
    script = (". " + os.path.join(GUEST, "lib.sh") + "\n"
              "n=5000; r=7\n"
              "check a why eval '[ $n -gt 1000 -a $r = 7 ] && [ 1 = 1 ]'\n"
              "check b why eval '[ 1 = 1 ] && [ 1 = 2 ]'\n"
              "echo n=$n r=$r\n")
    p = subprocess.run(argv + ["-c", script], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, DDCTL_OUT="/nonexistent"))
    want = ("@@DDCTL@@ RESULT ok a\n@@DDCTL@@ RESULT not ok b # why\n"
            "n=5000 r=7\n")
    tap.check("guest lib: check keeps the caller's variables and reports "
              "the whole eval'ed condition", p.stdout == want,
              f"{' '.join(argv)}: got {p.stdout!r}, want {want!r}")


def main():
    tap = Tap()
    self_test(tap)
    lib_check_test(tap)
    scripts = sys.argv[1:] or sorted(
        f for f in glob.glob(os.path.join(GUEST, "*"))
        if os.path.isfile(f) and (f.endswith(".sh") or
                                  os.path.basename(f) == "init"))
    for path in scripts:
        name = os.path.relpath(path, REPO)
        with open(path) as f:
            text = f.read()
        try:
            problems, calls = lint(text, name)
        except ShellSyntax as e:
            problems, calls = [f"{name}: cannot read it as shell: {e}"], 0
        # a line that starts with `check ` is a call the lint must have seen
        at_line_start = len(re.findall(r"(?m)^[ \t]*check[ \t]", text))
        if calls < at_line_start:
            problems.append(f"{name}: {at_line_start} lines start with a "
                            f"check call, the lint read only {calls}")
        tap.check(f"every check of {name} decides its own result",
                  not problems, "\n".join(problems))
    tap.finish()


if __name__ == "__main__":
    main()
