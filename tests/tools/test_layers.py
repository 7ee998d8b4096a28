#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""The layering rules of HACKING.md, checked on the source tree (TAP).

usage: test_layers.py SRCDIR

Fails when
  - a file includes a header of a layer it may not use (a layer above it,
    or a sibling it is not allowed to see);
  - a file calls a function defined in a layer it may not use (also through
    a prototype declared somewhere else);
  - a model file opens files or sockets or reads the environment;
  - a command file calls a function of another command file;
  - files of libddctl/ or cli/ use each other's functions in a circle;
  - a C source or header under libddctl/, cli/ or include/ is not named in
    HACKING.md's code map, or the map names a file that does not exist.

Each check first runs on a small synthetic tree that breaks its rule, so a
check that can no longer fail fails too.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tap import Tap  # noqa: E402

# Layers, bottom first. A file belongs to the longest prefix that matches
# its path; it may use its own layer and those listed.
LAYERS = [
    ("include/ddctl/", []),
    ("libddctl/util/", []),
    ("libddctl/core/", ["libddctl/util/", "include/ddctl/"]),
    ("libddctl/model/", ["libddctl/core/", "libddctl/util/", "include/ddctl/"]),
    ("libddctl/uapi/", []),
    ("libddctl/kernel/", ["libddctl/uapi/", "libddctl/model/", "libddctl/core/", "libddctl/util/",
                          "include/ddctl/"]),
    ("libddctl/store/", ["libddctl/model/", "libddctl/core/", "libddctl/util/",
                         "include/ddctl/"]),
    ("libddctl/", ["libddctl/kernel/", "libddctl/store/", "libddctl/model/",
                   "libddctl/core/", "libddctl/util/", "include/ddctl/"]),
    ("cli/cli.h", []),
    ("cli/output/", ["cli/cli.h", "include/ddctl/", "libddctl/util/"]),
    ("cli/ops/", ["cli/output/", "cli/cli.h", "include/ddctl/", "libddctl/util/"]),
    ("cli/shell/", ["cli/ops/", "cli/output/", "cli/cli.h", "include/ddctl/",
                    "libddctl/util/"]),
    ("cli/commands/", ["cli/shell/", "cli/ops/", "cli/output/", "cli/cli.h",
                       "include/ddctl/", "libddctl/util/"]),
    ("cli/", ["cli/commands/", "cli/shell/", "cli/ops/", "cli/output/", "cli/cli.h",
              "include/ddctl/", "libddctl/util/"]),
]
# The cli/ root holds main.c and the dispatcher: the dispatcher may not use
# main.c (main is the top).
CLI_TOP = ["cli/main.c"]
MODEL = "libddctl/model/"
COMMANDS = "cli/commands/"
CODE_DIRS = ("libddctl/", "cli/", "include/")
CODE_EXT = (".c", ".h")
IMPURE = re.compile(r"\b(open|openat|fopen|fdopen|freopen|opendir|socket|"
                    r"getenv|secure_getenv|mnl_socket_open|kmod_new|popen|"
                    r"system)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition: at the start of a line, not static, a name and a
# parameter list, the body's brace on this line or the next.
DEFINITION = re.compile(r"^(?!static\b)(?:[A-Za-z_][\w \t\*]*?[\s\*])?"
                        r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{", re.M)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
WORD = re.compile(r"\b([A-Za-z_]\w*)\b")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def strip_strings(text):
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def layer_of(path):
    best = None
    for prefix, _ in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


def allowed(src, dst):
    ls, ld = layer_of(src), layer_of(dst)
    if ls is None or ld is None:
        return True
    if src != dst and dst in CLI_TOP:
        return False
    if ls == ld:
        return True
    return ld in dict(LAYERS)[ls]


def code_files(root):
    out = []
    for d in CODE_DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, d)):
            dirnames[:] = sorted(x for x in dirnames if not x.startswith("."))
            for f in sorted(files):
                if f.endswith(CODE_EXT):
                    out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return out


def resolve(root, src, inc, files):
    """The tree file an #include "inc" of src names, or None (a system or
    generated header)."""
    cand = os.path.normpath(os.path.join(os.path.dirname(src), inc))
    if cand in files:
        return cand
    hits = [f for f in files if f == inc or f.endswith("/" + inc)]
    return hits[0] if len(hits) == 1 else None


def check_tree(root, hacking=None):
    """Returns a dict: check name -> list of problems."""
    files = code_files(root)
    fset = set(files)
    raw = {f: strip_comments(open(os.path.join(root, f), encoding="utf-8",
                                  errors="replace").read()) for f in files}
    text = {f: strip_strings(t) for f, t in raw.items()}
    public = set()
    for f in files:
        if f.startswith("include/ddctl/"):
            public.update(CALL.findall(text[f]))
    problems = {"includes": [], "calls": [], "model-pure": [], "commands": [],
                "circles": [], "code-map": []}
    uses = {}
    for f in files:
        for inc in INCLUDE.findall(raw[f]):
            dst = resolve(root, f, inc, fset)
            if dst and not allowed(f, dst):
                problems["includes"].append("%s includes %s (%s may not use %s)" %
                                            (f, dst, layer_of(f), layer_of(dst)))
    defined = {}
    for f in files:
        if f.endswith(".c"):
            for name in DEFINITION.findall(text[f]):
                if name not in ("if", "for", "while", "switch", "return", "sizeof"):
                    defined.setdefault(name, f)
    for f in files:
        if not f.endswith(".c"):
            continue
        # calls and function pointers (command tables, ops tables) alike
        for name in set(WORD.findall(text[f])):
            owner = defined.get(name)
            if not owner or owner == f:
                continue
            uses.setdefault(f, set()).add(owner)
            if name in public and not f.startswith("libddctl/"):
                owner = "include/ddctl/ddctl.h"  # the public API
            if not allowed(f, owner):
                problems["calls"].append("%s uses %s() of %s" % (f, name, owner))
            elif (f.startswith(COMMANDS) and owner.startswith(COMMANDS)):
                problems["commands"].append("%s uses %s() of the command file %s" %
                                            (f, name, owner))
        if f.startswith(MODEL):
            for m in IMPURE.finditer(text[f]):
                line = text[f].count("\n", 0, m.start()) + 1
                problems["model-pure"].append("%s:%d calls %s()" % (f, line, m.group(1)))
    for scc in circles(uses):
        problems["circles"].append("these files use each other's functions: " +
                                   ", ".join(sorted(scc)))
    if hacking is not None:
        body = open(hacking, encoding="utf-8").read()
        for f in files:
            if f not in body:
                problems["code-map"].append("%s is not in %s's code map" %
                                            (f, os.path.basename(hacking)))
        for p in sorted(set(re.findall(r"`((?:libddctl|cli|include)/[\w./-]+\.[ch])`", body))):
            if p not in fset:
                problems["code-map"].append("%s names %s, which does not exist" %
                                            (os.path.basename(hacking), p))
    return problems


def circles(graph):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(scc)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


BROKEN = {
    # each check's synthetic violation
    "includes": {"libddctl/model/a.c": '#include "../kernel/k.h"\nint a(void) { return 0; }\n',
                 "libddctl/kernel/k.h": "int k(void);\n"},
    "calls": {"libddctl/core/c.c": "int c(void)\n{\n\treturn k2();\n}\n",
              "libddctl/kernel/k2.c": "int k2(void)\n{\n\treturn 0;\n}\n"},
    "model-pure": {"libddctl/model/p.c": 'int p(void)\n{\n\treturn getenv("X") != 0;\n}\n'},
    "commands": {"cli/commands/cmd-a.c": "int cmd_a(void)\n{\n\treturn cmd_b();\n}\n",
                 "cli/commands/cmd-b.c": "int cmd_b(void)\n{\n\treturn 0;\n}\n"},
    "circles": {"libddctl/model/x.c": "int x(void)\n{\n\treturn y();\n}\n",
                "libddctl/model/y.c": "int y(void)\n{\n\treturn x();\n}\n"},
    "code-map": {"cli/output/new.c": "int fresh(void)\n{\n\treturn 0;\n}\n"},
}


def selftest(tap):
    for check, tree in BROKEN.items():
        with tempfile.TemporaryDirectory(prefix="ddctl-layers-") as d:
            for p, body in tree.items():
                os.makedirs(os.path.join(d, os.path.dirname(p)), exist_ok=True)
                with open(os.path.join(d, p), "w") as f:
                    f.write(body)
            hacking = os.path.join(d, "HACKING.md")
            with open(hacking, "w") as f:
                f.write("".join("`%s`\n" % p for p in tree if "new.c" not in p))
            found = check_tree(d, hacking)[check]
            tap.check("the %s check fails on a tree that breaks it" % check, found,
                      "no problem found in %s" % sorted(tree))


def main():
    src = os.path.abspath(sys.argv[1])
    tap = Tap()
    selftest(tap)
    hacking = os.path.join(src, "HACKING.md")
    tap.check("HACKING.md exists", os.path.exists(hacking))
    problems = check_tree(src, hacking if os.path.exists(hacking) else None)
    what = {"includes": "no file includes a header of a layer it may not use",
            "calls": "no file calls a function of a layer it may not use",
            "model-pure": "model files open no file or socket and read no environment",
            "commands": "no command file calls another command's function",
            "circles": "no two files of libddctl/ or cli/ depend on each other, directly or in a circle",
            "code-map": "HACKING.md's code map names every file under libddctl/, cli/, include/, and only those"}
    for check, name in what.items():
        tap.check(name, not problems[check], "\n".join(problems[check]))
    tap.finish()


if __name__ == "__main__":
    main()
