#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Every ddctl example of the README (its ```sh blocks) and of the man
pages (their EXAMPLES, ddctl(8)'s OPTIONS and COMMANDS .nf blocks) runs on
the 6.12 fixture with --capture-writes, in a scratch root, and is accepted:
no usage error (exit 2), no unknown command or option, within a timeout,
so that an example cannot rot (TAP). The README's --check --json output is
compared byte for byte with the fixture's. tests/vm/harness-tests'
documented-commands checks the build and test commands of the same README."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ddctltest import DDCTL, SRC, STOCK, check, tap  # noqa: E402

DDCTL = os.path.abspath(DDCTL)


def readme_examples(path):
    """The lines of ```sh blocks that start with "ddctl ", comments dropped."""
    out, block = [], False
    for line in open(path):
        if line.startswith("```"):
            block = line.strip() == "```sh" and not block
            continue
        if block and line.startswith("ddctl "):
            out.append(line.split("  #")[0].split(" # ")[0].strip())
    return out


def man_examples(path):
    """The "ddctl ..." lines of the .nf blocks of a man page, unescaped."""
    out, block = [], False
    for line in open(path):
        if line.startswith(".nf"):
            block = True
        elif line.startswith(".fi"):
            block = False
        elif block and line.startswith("ddctl "):
            text = line.split(" #")[0].rstrip()
            text = text.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\")
            out.append(text)
    return out


root = tempfile.mkdtemp()
run_dir = os.path.join(root, "run", "ddctl")
os.makedirs(run_dir)
for d in ("etc/ddctl.d", "etc/modprobe.d"):
    os.makedirs(os.path.join(root, d))
control = os.path.join(root, "control")
shutil.copy(STOCK, control)
kmsg = os.path.join(root, "kmsg")
open(kmsg, "w").close()
cwd = os.path.join(root, "cwd")
os.mkdir(cwd)
for name in ("my-debug.conf", "saved.conf"):
    with open(os.path.join(cwd, name), "w") as f:
        f.write("module virtio_net +p\n")
env = dict(os.environ, DDCTL_CONFIG_ROOT=root, DDCTL_RUN_DIR=run_dir, PAGER="cat")
capture = os.path.join(root, "capture")


def ddctl(words, timeout=20):
    argv = [DDCTL, "--control", control, "--capture-writes", capture]
    if words and words[0] in ("follow", "run") or "follow" in words[:3] or "run" in words[:3]:
        argv += ["--kmsg", kmsg]
    p = subprocess.run(argv + words, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, errors="replace", timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# the state the examples start from: a boot snapshot for reset and diff
ddctl(["save", "--boot"])

examples = [("README", e) for e in readme_examples(os.path.join(SRC, "README.md"))]
for page in ("ddctl.8", "ddctl.d.5", "ddctl.service.8"):
    examples += [(page, e) for e in man_examples(os.path.join(SRC, "man", page))]
check("examples-found", len(examples) >= 30, "%d examples" % len(examples))
for where, text in examples:
    # absolute configuration and run paths go into the scratch root
    words = [re.sub(r"^/(etc|run)/", root + r"/\1/", w) for w in shlex.split(text)[1:]]
    if "run" in words and "--" in words:  # the example's COMMAND (modprobe) is not run here
        words = words[:words.index("--") + 1] + ["true"]
    try:
        rc, out, err = ddctl(words)
    except subprocess.TimeoutExpired:
        rc, out, err = -1, "", "timed out"
    bad = rc == 2 or rc < 0 or "unknown command" in err or "unknown option" in err or \
        "does not apply" in err
    check("example %s: %s" % (where, text), not bad, "rc=%d\n%s%s" % (rc, out[-500:], err[-500:]))

# the README's JSON is what the fixture gives
readme = open(os.path.join(SRC, "README.md")).read()
shown = readme.split("`--check --json` prints one line")[1].split("```json\n")[1].split("\n```")[0]
p = subprocess.run([DDCTL, "-C", STOCK, "--check", "--json", "set", "module virtio_console +p"],
                   capture_output=True, text=True)
check("readme-json-exact", p.returncode == 0 and p.stdout.rstrip("\n") == shown, p.stdout + p.stderr)

shutil.rmtree(root)
tap.finish()
