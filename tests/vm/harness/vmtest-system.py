#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""ddctl installed on a Debian 12 system with systemd (host side); prints TAP.

    vmtest-system.py [debian-6.12|patched-7.2] [--logdir DIR] [--smp N] [--timeout S]
                     [--rev REV]

harness/mkimage-system.sh makes (or finds in its cache) the image: Debian
12 by mmdebstrap, ddctl's .debs of REV (default HEAD) installed with apt,
the units enabled, the kernel and its modules (Debian's 6.12, or the
patched 7.2 kernel that build-kernel.sh builds). Each test run boots a
sparse copy of it under TCG, twice: guest/system-setup.sh (first boot:
nothing configured yet; it writes /etc/ddctl.d), then guest/system.sh
(the configuration at boot, the journal, reload, reset, the hardening).
The guest scripts come on a second disk (a tar), the results on the
serial console and /out on the second serial port, as the busybox suites'.
Each boot has a timeout and keeps its console log in
LOGDIR/system-KIND/system-NAME/.
Skips (1..0 # SKIP) when QEMU or mmdebstrap is missing.
"""
import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402

GUEST = os.path.join(vmlib.VM, "guest")
MKIMAGE = os.path.join(vmlib.HERE, "mkimage-system.sh")
# the guest scripts of the two boots, and what they source
SCRIPTS = ("lib.sh", "system-setup.sh", "system.sh")
# The kernels the image boots, and the modules the checks use on each
# (profile.sh in the tests' tar): the one udev loads at coldplug, the one
# loaded later (its init-time lines and how many), an alias of it (empty:
# one in modprobe.d), the one the reload check loads (again). Debian's
# kernel has e1000, bonding and dm_mod; the built 7.2 kernel (tinyconfig and
# kernels/kconfig.fragment) has virtio's drivers and test_dynamic_debug,
# the one of its modules loaded after boot that has pr_debug sites
# (virtio_balloon and the failover modules have none; virtio_blk holds the
# root file system). The broken drop-in names BROKENMOD (default: the
# reload's module), which must not be the later one: its warning is
# checked to be no error.
PROFILES = {
    "debian-6.12": {"COLDPLUG": "e1000", "LATER": "bonding", "ALIAS": "rtnl-link-bond",
                    "RELOADMOD": "dm_mod"},
    "patched-7.2": {"COLDPLUG": "virtio_net", "LATER": "test_dynamic_debug", "ALIAS": "",
                    "LATER_RE": "^test_dynamic_debug *test_dynamic_debug_init:[0-9]* "
                                "*test_dd: init \\(start\\|done\\)$",
                    "LATER_N": "2", "LATER_KMSG": "test_dd: init start",
                    "RELOADMOD": "test_dynamic_debug", "BROKENMOD": "virtio_blk"},
}


def write_profile(path, kind):
    """The kind's modules as DDCTL_* assignments for the guest scripts."""
    with open(path, "w") as f:
        for k, v in PROFILES[kind].items():
            f.write("DDCTL_%s='%s'\n" % (k, v.replace("'", "'\\''")))


def upgrade_deb(img, work):
    """The image's ddctl package again with a higher version ("+1"): what an
    upgrade installs (its files are the same, its maintainer scripts run)."""
    d = os.path.join(work, "deb")
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-R", os.path.join(img, "ddctl.deb"), d], check=True)
    control = os.path.join(d, "DEBIAN", "control")
    with open(control) as f:
        text = f.read()
    with open(control, "w") as f:
        f.write(re.sub(r"^Version: (.*)$", r"Version: \1+1", text, flags=re.M))
    out = os.path.join(work, "ddctl-upgrade.deb")
    subprocess.run(["dpkg-deb", "-Zxz", "-b", d, out], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(d)
    return out


def tests_tar(path, extra=()):
    """The second disk: the guest scripts (and @extra files) as a tar,
    padded to whole sectors."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name in SCRIPTS:
            tf.add(os.path.join(GUEST, name), arcname=name)
        for p in extra:
            tf.add(p, arcname=os.path.basename(p))
    data = buf.getvalue()
    data += b"\0" * (-len(data) % 512)
    with open(path, "wb") as f:
        f.write(data)


def qemu_cmd(img, disk, tar, rundir, smp, mem, script):
    """Debian's kernel with the image's initramfs, the root file system on
    /dev/vda (virtio), the tests on /dev/vdb, QEMU's e1000 NIC for udev's
    coldplug and a virtio NIC whose driver udev loads again during a session; ACPI on (QEMU's default for -M pc): the guest checks nproc."""
    # cryptomgr.notests: the kernel's crypto self-tests are not what this
    # tests, and under TCG on a loaded host the DRBG's jitter entropy test
    # fails with a WARNING (seen at load 33: drbg_nopr_hmac_sha512, -22)
    append = (f"console=ttyS0 root=/dev/vda rw panic=-1 loglevel=5 cryptomgr.notests "
              f"ddctl.run={script} ddctl.ncpu={smp} ddctl.data=1")
    return [vmlib.qemu_binary(), "-accel", "tcg", "-smp", str(smp), "-m", str(mem),
            "-kernel", os.path.join(img, "bzImage"),
            "-initrd", os.path.join(img, "initrd.img"),
            "-drive", f"file={disk},if=virtio,format=raw",
            "-drive", f"file={tar},if=virtio,format=raw,readonly=on",
            "-device", "e1000", "-device", "virtio-net-pci", "-nic", "none", "-display", "none",
            "-monitor", "none", "-no-reboot",
            "-serial", f"file:{os.path.join(rundir, 'console.log')}",
            "-serial", f"file:{os.path.join(rundir, 'data.bin')}",
            "-append", append]


def boot(img, disk, tar, logdir, script, smp, timeout):
    rundir = os.path.join(logdir, "system-" + script)
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    cmd = qemu_cmd(img, disk, tar, rundir, smp, 1024, script)
    with open(os.path.join(rundir, "cmd.txt"), "w") as f:
        f.write(" ".join(repr(c) if " " in c else c for c in cmd) + "\n")
    b = vmlib.Boot(rundir)
    t0 = time.time()
    try:
        subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        hung = True
    b.seconds = time.time() - t0
    try:
        with open(os.path.join(rundir, "console.log"), "rb") as f:
            b.console = f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        b.console = ""
    vmlib.parse_console(b)
    b.status = "done" if b.rc is not None else ("hang" if hung else "crash")
    data = os.path.join(rundir, "data.bin")
    if os.path.exists(data) and os.path.getsize(data) > 0:
        try:
            with tarfile.open(data, "r:gz") as tf:
                tf.extractall(b.outdir)
        except Exception as e:  # noqa: BLE001
            b.notes.append(f"could not unpack data channel: {e}")
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("kind", nargs="?", default="debian-6.12", choices=sorted(PROFILES))
    ap.add_argument("--ddctl", help="ignored: ddctl comes from its .debs")
    ap.add_argument("--logdir", default=os.path.join(vmlib.REPO, "build", "vm-logs"))
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--rev", default=os.environ.get("DDCTL_DEB_REV", "HEAD"),
                    help="the commit whose .debs are installed (DDCTL_DEB_REV)")
    ap.add_argument("--dry-run", action="store_true",
                    default=os.environ.get("DDCTL_DRY_RUN") == "1",
                    help="say what would boot and stop (DDCTL_DRY_RUN=1)")
    a = ap.parse_args()
    logdir = os.path.join(os.path.abspath(a.logdir), "system-" + a.kind)
    if a.dry_run:
        print(f"vmtest-system: dry run: the image of {a.rev}'s .debs on {a.kind}, "
              f"system-setup then system, -smp {a.smp}, logs in {logdir}")
        return 0
    n = failed = 0

    def res(st, name, why=""):
        nonlocal n, failed
        n += 1
        if st == "skip":
            print(f"ok {n} - system: {name} # SKIP {why}")
            return
        print(f"{st} {n} - system: {name}" + (f" # {why}" if why and st != "ok" else ""))
        if st != "ok":
            failed += 1

    print("TAP version 13")
    if not vmlib.qemu_binary():
        print("1..0 # SKIP qemu-system-x86_64 is missing")
        return 0
    for tool, group in (("mmdebstrap", "vm"), ("mkfs.ext4", "vm"), ("dpkg-buildpackage", "pkg")):
        if not shutil.which(tool):
            print(f"1..0 # SKIP {tool} is missing (tests/deps.sh {group})")
            return 0
    os.makedirs(logdir, exist_ok=True)
    t0 = time.time()
    env = dict(os.environ, DDCTL_DEB_REV=a.rev)
    with open(os.path.join(logdir, "mkimage-system.log"), "w") as log:
        p = subprocess.run([MKIMAGE, a.kind], env=env, stdout=subprocess.PIPE,
                           stderr=log, text=True)
    if p.returncode != 0:
        res("not ok", "image", f"mkimage-system.sh failed: {logdir}/mkimage-system.log")
        with open(os.path.join(logdir, "mkimage-system.log")) as f:
            print("# " + "\n# ".join(f.read().splitlines()[-20:]))
        print(f"1..{n}")
        return 1
    img = p.stdout.strip().splitlines()[-1]
    res("ok", f"image ({time.time() - t0:.0f}s)")
    print(f"# image {img}")
    with open(os.path.join(img, "key")) as f:
        print("# " + "\n# ".join(f.read().splitlines()))
    work = os.path.join(logdir, "system-work")
    os.makedirs(work, exist_ok=True)
    disk = os.path.join(work, "root.ext4")
    subprocess.run(["cp", "--sparse=always", os.path.join(img, "root.ext4"), disk], check=True)
    tar = os.path.join(work, "tests.tar")
    profile = os.path.join(work, "profile.sh")
    write_profile(profile, a.kind)
    tests_tar(tar, [upgrade_deb(img, work), profile])
    for script in ("system-setup", "system"):
        b = boot(img, disk, tar, logdir, script, a.smp, a.timeout)
        if vmlib.early_failure(b):
            # a TCG boot that hangs or dies before the runner starts (seen:
            # "IO-APIC + timer doesn't work" on a loaded host): once more,
            # the first attempt's logs kept in system-NAME.hang1/
            print(f"# {script}: {b.summary()}; retrying once")
            for line in b.console.splitlines():
                if "panic" in line or "Oops" in line:
                    print("# " + line)
            hang = os.path.join(logdir, "system-" + script + ".hang1")
            shutil.rmtree(hang, ignore_errors=True)
            os.rename(b.rundir, hang)
            if script == "system-setup":  # the first boot starts from the image
                subprocess.run(["cp", "--sparse=always", os.path.join(img, "root.ext4"), disk],
                               check=True)
            b = boot(img, disk, tar, logdir, script, a.smp, a.timeout)
        print(f"# {script}: {b.summary()}")
        if b.status == "done":
            res("ok", f"boot-{script} ({b.seconds:.0f}s)")
        else:
            res("not ok", f"boot-{script}", b.status)
            print("# " + "\n# ".join(b.console.splitlines()[-30:]))
        for note in b.notes:
            print(f"# {note}")
        for st, name, why in b.results:
            res(st, name, why)
        stalls = [ln for ln in b.bad_lines if vmlib.STALL_RE.search(ln)]
        if stalls and all(vmlib.STALL_RE.search(ln) or re.search(r"Call [Tt]race", ln)
                          for ln in b.bad_lines):
            # a CPU starved by the host (TCG on shared cores), nothing else
            res("skip", f"no-oops-{script}", f"{len(stalls)} RCU stall report(s) and nothing "
                "else: TCG on an overloaded host")
        elif b.bad_lines:
            res("not ok", f"no-oops-{script}", f"{len(b.bad_lines)} bad lines")
            print("# " + "\n# ".join(b.bad_lines[:20]))
        else:
            res("ok" if b.console else "not ok", f"no-oops-{script}")
        if b.status != "done":
            break
    os.unlink(disk)
    print(f"# total {time.time() - t0:.0f}s")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
