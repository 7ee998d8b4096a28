# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""Host side of the ddctl VM tests: build kernels/modules/initramfs, boot
QEMU (TCG) with a timeout, collect the serial log and the bulk results.

Channels:
  console          -> RUN/console.log; guest results are lines starting
                      with "@@DDCTL@@ " (RESULT ok|not ok|skip NAME # why,
                      NOTE ..., BOOTED ..., END rc=N).
                      x86_64: ttyS0; arm64 (-M virt): ttyAMA0, the PL011;
                      riscv64 (-M virt): ttyS0, its ns16550a
  data (raw)       -> RUN/data.bin: gzip'ed tar of the guest's /out,
                      extracted into RUN/out/.
                      x86_64: ttyS1; arm64, riscv64: virt has one UART,
                      so a virtio-serial port named "ddctl.data"
                      (/dev/vport*p* in the guest, found by name by
                      guest/init)
"""

import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VM = os.path.dirname(HERE)              # tests/vm
KERNELS = os.path.join(VM, "kernels")   # build-kernel.sh, gen-module.py ...
REPO = os.path.dirname(os.path.dirname(VM))
CACHE = os.environ.get("DDCTL_KCACHE", "/var/cache/ddctl/kernels")
# The target (build-kernel.sh reads the same variables): kernel base
# (6.12: the LTS backport in kernel-patches/6.12/, 7.2: the mainline series
# in kernel-patches/7.2/) and architecture.
BASE = os.environ.get("DDCTL_KBASE", "6.12")
ARCH = os.environ.get("DDCTL_ARCH", "x86_64")
PATCHDIR = os.environ.get("DDCTL_KPATCH_DIR",
                          os.path.join(REPO, "kernel-patches", BASE))
MODULE_SIZES = (256, 2000, 20000)
BASES = ("6.12", "7.2")


def set_base(base):
    """Select the kernel base (as DDCTL_KBASE does) for this process and
    the build-kernel.sh it runs."""
    global BASE, PATCHDIR
    if base not in BASES:
        raise ValueError(f"kernel base {base}: one of {', '.join(BASES)}")
    BASE = base
    os.environ["DDCTL_KBASE"] = base
    PATCHDIR = os.environ.get("DDCTL_KPATCH_DIR",
                              os.path.join(REPO, "kernel-patches", BASE))


# arm64 prints "Call trace:"; an RCU stall report has no Oops/WARNING line
BAD_RE = re.compile(r"Oops|WARNING:|BUG:|Call [Tt]race|kernel BUG|"
                    r"general protection|"
                    r"rcu: INFO: rcu_\w+ (self-)?detected stall")
STALL_RE = re.compile(r"rcu: INFO: rcu_\w+ (self-)?detected stall")


def only_rcu_stalls(bad_lines):
    """True when every line the oops scan caught belongs to an RCU stall
    report (the report and its "Call trace:"), at most one trace per
    report, and there is at least one."""
    stalls = sum(1 for ln in bad_lines if STALL_RE.search(ln))
    traces = sum(1 for ln in bad_lines if re.search(r"Call [Tt]race", ln))
    return (stalls > 0 and traces <= stalls and
            stalls + traces == len(bad_lines))


MARK = "@@DDCTL@@ "


class Unavailable(Exception):
    """The VM cannot be run here (reason in str())."""


class BuildFailed(Unavailable):
    """The kernel exists but did not build (patch does not apply, compile
    error, config not applied): a skip by default, a failure when
    DDCTL_VM_STRICT=1."""


def log(msg):
    print(f"# vm: {msg}", flush=True)


def qemu_binary():
    return shutil.which({"arm64": "qemu-system-aarch64",
                         "riscv64": "qemu-system-riscv64"}.get(
        ARCH, "qemu-system-x86_64"))


def console_dev():
    """The guest's serial console device (console= on the command line)."""
    return {"arm64": "ttyAMA0"}.get(ARCH, "ttyS0")


def build_kernel(kind, use_kdir=True):
    """Returns the cache dir of the kernel; raises Unavailable.
    DDCTL_KDIR names a finished build-kernel.sh build to use instead (to
    test a kernel built from patches that are no longer where they were),
    unless USE_KDIR is false (the stock kernel a hang is compared with)."""
    if kind.startswith("debian-"):
        # a distribution kernel: downloaded, never built
        r = subprocess.run([os.path.join(KERNELS, "fetch-distro.sh"), kind],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode:
            err = r.stderr.strip().splitlines()
            raise Unavailable(err[-1] if err else f"fetch-distro.sh {kind} failed")
        return r.stdout.strip().splitlines()[-1]
    if use_kdir and os.environ.get("DDCTL_KDIR"):
        kdir = os.environ["DDCTL_KDIR"]
        if not os.path.exists(os.path.join(kdir, "ok")):
            raise Unavailable(f"DDCTL_KDIR={kdir} is not a finished build")
        return kdir
    r = subprocess.run([os.path.join(KERNELS, "build-kernel.sh"), kind],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode:
        err = r.stderr.strip().splitlines()
        msg = err[-1] if err else f"build-kernel.sh {kind} failed"
        if "no patch series" in msg or "not found" in msg:
            raise Unavailable(msg)
        raise BuildFailed(msg)
    return r.stdout.strip().splitlines()[-1]


def dry_run(prog, kind, what):
    """DDCTL_DRY_RUN=1 (or --dry-run): say what PROG would boot, with the
    kernel build-kernel.sh would use (its key, cached or not), and build
    nothing.  Returns the exit status for PROG."""
    print(f"{prog}: dry run: {what}")
    if os.environ.get("DDCTL_KDIR"):
        print(f"{prog}: dry run: kernel DDCTL_KDIR={os.environ['DDCTL_KDIR']}")
        return 0
    r = subprocess.run([os.path.join(KERNELS, "build-kernel.sh"), kind],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=dict(os.environ, DDCTL_DRY_RUN="1"))
    for line in r.stdout.strip().splitlines()[:-1]:
        print(f"{prog}: {line}")
    return r.returncode


def build_modules(kdir, sizes=MODULE_SIZES):
    # "formats": ddctl_formats, formats printed raw (guest/formats.sh)
    for k in list(sizes) + ["formats"]:
        r = subprocess.run([os.path.join(KERNELS, "gen-module.py"), "--build",
                            kdir, str(k)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode:
            raise Unavailable(f"building ddctl_sites_{k} failed: "
                              f"{r.stderr.strip()[-500:]}")


def build_kselftest(kdir):
    """The kernel's dynamic debug selftests (tools/testing/selftests/
    dynamic_debug/ of the series), built statically; returns their
    install dir, or None (the guest then skips them, with the reason)."""
    r = subprocess.run([os.path.join(KERNELS, "build-kselftest.sh"), kdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode:
        err = r.stderr.strip().splitlines()
        log("kernel selftests not built: " + (err[-1] if err else "?"))
        return None
    return r.stdout.strip().splitlines()[-1]


def build_initramfs(kdir, out, ddctl=None, ksdir=None):
    cmd = [os.path.join(HERE, "mkinitramfs.sh"), "-k", kdir, "-o", out]
    if ddctl:
        cmd += ["-d", ddctl]
    if ksdir:
        cmd += ["-s", ksdir]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out


def prepare(kind, workdir, ddctl=None, sizes=MODULE_SIZES, use_kdir=True):
    """kernel + modules + initramfs for KIND; returns (kdir, initrd)."""
    if not qemu_binary():
        raise Unavailable(f"QEMU for {ARCH} not installed "
                          "(run tests/vm/deps.sh)")
    kdir = build_kernel(kind, use_kdir)
    distro = is_distro(kdir)
    if not distro:  # no test modules or selftests for a kernel not built here
        build_modules(kdir, sizes)
    os.makedirs(workdir, exist_ok=True)
    arch = "" if ARCH == "x86_64" else f"-{ARCH}"
    initrd = os.path.join(workdir, f"initramfs-{kind}{arch}.cpio.gz")
    # (build-kselftest.sh cross-compiles for arm64: DDCTL_ARCH)
    ksdir = None if distro else build_kselftest(kdir)
    build_initramfs(kdir, initrd, ddctl, ksdir)
    return kdir, initrd


class Boot:
    """Outcome of one boot."""

    def __init__(self, rundir):
        self.rundir = rundir
        self.console = ""
        self.status = None      # "done", "hang", "crash"
        self.rc = None          # guest script exit status
        self.results = []       # (status, name, reason)
        self.notes = []
        self.bad_lines = []
        self.seconds = 0.0
        self.nproc = None

    @property
    def outdir(self):
        return os.path.join(self.rundir, "out")

    def summary(self):
        return (f"{self.status} rc={self.rc} in {self.seconds:.1f}s, "
                f"log {os.path.join(self.rundir, 'console.log')}")


def write_raw_header(rf, prog, kdirs, labels=None):
    """The head of a benchmark's raw file: PROG, its arguments, the base
    and architecture, each kind's kernel (KDIRS: kind -> cache dir; LABELS:
    kind -> the name in the tables) with what went into its key, the host."""
    rf.write(f"# {prog} start {time.strftime('%Y-%m-%dT%H:%M:%S')} "
             f"argv={' '.join(sys.argv[1:])}\n")
    rf.write(f"# base {BASE} arch {ARCH}\n")
    for kind, kd in kdirs.items():
        rel = open(os.path.join(kd, "kernelrelease")).read().strip()
        lb = f" ({labels[kind]})" if labels and kind in labels else ""
        rf.write(f"# {kind}{lb} kernel {kd} {rel}\n")
        for ln in open(os.path.join(kd, "info")):
            rf.write(f"#   {kind} info: {ln.strip()}\n")
    qv = os.popen(f"{qemu_binary()} --version").readline().strip()
    cpu = "?"
    for ln in open("/proc/cpuinfo"):
        if ln.startswith("model name"):
            cpu = ln.split(":", 1)[1].strip()
            break
    rf.write(f"# guest arch {ARCH}\n")
    rf.write(f"# host: nproc={os.cpu_count()} cpu={cpu!r} qemu={qv!r}\n")


def print_problems(problems):
    """The benchmarks' closing list of what went wrong (None: nothing)."""
    if problems is None:
        return
    print()
    print("problems:" if problems else "problems: none")
    for pr in problems:
        print(f"  {pr}")


def is_distro(kdir):
    """A distribution kernel (kernels/fetch-distro.sh): it names its package."""
    return os.path.exists(os.path.join(kdir, "package"))


def kernel_image(kdir):
    try:
        with open(os.path.join(kdir, "image")) as f:
            return os.path.join(kdir, f.read().strip())
    except OSError:
        return os.path.join(kdir, "bzImage")   # built before "image" existed


RISCV_MACHINE = "virt,aia=aplic-imsic"


def riscv_dtb(smp, mem, outdir):
    """QEMU's own device tree for the riscv64 guest, with each CPU's ISA
    also given as riscv,isa-base and riscv,isa-extensions.  QEMU 7.2
    (Debian 12's) writes only the deprecated riscv,isa string, which a
    kernel parses only with RISCV_ISA_FALLBACK (not in tinyconfig, and
    without it every hart is "invalid" and smpboot.c BUG()s at boot).
    Made with -machine dumpdtb and dtc (device-tree-compiler); QEMU still
    puts the command line and the initrd into /chosen."""
    os.makedirs(outdir, exist_ok=True)
    raw = os.path.join(outdir, "qemu.dtb")
    out = os.path.join(outdir, "guest.dtb")
    if not shutil.which("dtc"):
        raise Unavailable("dtc not installed (apt-get install "
                          "device-tree-compiler; tests/deps.sh riscv64)")
    subprocess.run([qemu_binary(), "-M", RISCV_MACHINE, "-smp", str(smp),
                    "-m", str(mem), "-display", "none", "-machine",
                    f"dumpdtb={raw}"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", raw],
                         check=True, stdout=subprocess.PIPE, text=True).stdout

    def ext(m):
        isa = m.group(2)
        base, _, multi = isa.partition("_")
        single = [c for c in base[4:]]        # "rv64imafdch" -> i m a ...
        names = single + [x for x in multi.split("_") if x]
        return (f'{m.group(0)}\n{m.group(1)}riscv,isa-base = "{base[:4]}i";'
                f'\n{m.group(1)}riscv,isa-extensions = '
                + ", ".join(f'"{n}"' for n in names) + ";")
    dts = re.sub(r'^(\s*)riscv,isa = "([^"]+)";', ext, dts, flags=re.M)
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", out],
                   input=dts, check=True, text=True)
    return out


def qemu_cmd(kdir, initrd, smp, mem, append, console_path, data_path,
             interactive=False):
    if ARCH not in ("x86_64", "arm64", "riscv64"):
        raise Unavailable(f"booting {ARCH} guests is not implemented")
    cmd = [qemu_binary()]
    if ARCH == "arm64":
        # virt: GICv2, PSCI for the secondary CPUs, QEMU's device tree
        cmd += ["-M", "virt", "-cpu", "cortex-a57"]
    elif ARCH == "riscv64":
        # virt with AIA (APLIC + IMSIC): S-mode IPIs that the guest counts
        # in /proc/interrupts (without it Linux sends IPIs and remote
        # fences through SBI, and OpenSBI's M-mode IPIs are not counted);
        # QEMU's OpenSBI as -bios, SBI HSM for the secondary harts
        cmd += ["-M", RISCV_MACHINE,
                "-dtb", riscv_dtb(smp, mem, os.path.dirname(console_path)
                                  if console_path else "/tmp")]
    cmd += ["-accel", "tcg", "-smp", str(smp), "-m", str(mem),
            "-kernel", kernel_image(kdir), "-initrd", initrd,
            "-no-reboot", "-nic", "none", "-display", "none",
            "-device", "virtio-balloon-pci"]
    if is_distro(kdir):
        # QEMU's e1000 NIC (no peer needed): the distro's e1000 probes it
        cmd += ["-device", "e1000"]
    if interactive:
        cmd += ["-serial", "mon:stdio"]
    else:
        cmd += ["-monitor", "none", "-serial", f"file:{console_path}"]
    if ARCH == "x86_64":
        cmd += ["-serial", f"file:{data_path}" if data_path else "null"]
    elif data_path:
        # virt's only UART is the console: the data goes over a named
        # virtio-serial port instead
        cmd += ["-device", "virtio-serial-pci",
                "-chardev", f"file,id=ddctl-data,path={data_path}",
                "-device", "virtserialport,chardev=ddctl-data,"
                           "name=ddctl.data"]
    # (the benchmarks: e.g. "-icount shift=4,sleep=off", guest time by
    # instruction count, independent of the host's load)
    cmd += os.environ.get("DDCTL_QEMU_EXTRA", "").split()
    cmd += ["-append", append]
    return cmd


def boot_once(kdir, initrd, script, rundir, smp=4, mem=512, timeout=300,
              extra_append=""):
    os.makedirs(rundir, exist_ok=True)
    con = os.path.join(rundir, "console.log")
    data = os.path.join(rundir, "data.bin")
    for p in (con, data):
        if os.path.exists(p):
            os.unlink(p)
    shutil.rmtree(os.path.join(rundir, "out"), ignore_errors=True)
    append = (f"console={console_dev()} loglevel=5 panic=-1 ddctl.run={script} "
              f"ddctl.ncpu={smp} ddctl.data=1 {extra_append}").strip()
    cmd = qemu_cmd(kdir, initrd, smp, mem, append, con, data)
    with open(os.path.join(rundir, "cmd.txt"), "w") as fp:
        fp.write(" ".join(repr(c) if " " in c else c for c in cmd) + "\n")
    b = Boot(rundir)
    t0 = time.time()
    try:
        subprocess.run(cmd, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        hung = True
    b.seconds = time.time() - t0
    try:
        with open(con, "rb") as fp:
            b.console = fp.read().decode("utf-8", "replace")
    except FileNotFoundError:
        b.console = ""
    parse_console(b)
    if b.rc is not None:
        b.status = "done"
    elif hung:
        b.status = "hang"
    else:
        b.status = "crash"
    # bulk data
    if os.path.exists(data) and os.path.getsize(data) > 0:
        try:
            raw = open(data, "rb").read()
            tgz = gzip.GzipFile(fileobj=io.BytesIO(raw))
            with tarfile.open(fileobj=io.BytesIO(tgz.read())) as tf:
                tf.extractall(b.outdir)
        except Exception as e:  # noqa: BLE001
            b.notes.append(f"could not unpack data channel: {e}")
    dm = os.path.join(b.outdir, "dmesg.txt")
    if os.path.exists(dm):
        for line in open(dm, errors="replace"):
            if BAD_RE.search(line) and line.rstrip() not in b.bad_lines:
                b.bad_lines.append("dmesg: " + line.rstrip())
    return b


def early_failure(b):
    """A hang, or a crash before the guest's init reported BOOTED: under TCG
    on a loaded host about one boot in twenty hangs or dies early (seen:
    "IO-APIC + timer doesn't work"). A crash after the tests started is a
    real failure and is not retried."""
    return b.status == "hang" or (b.status == "crash" and b.nproc is None)

# A kernel message can land on the console in the middle of a line the
# guest is writing (the tty's buffered output is overtaken by printk):
# seen as "@@DDCTL@@ RESULT ok s-set[    3.458680] dyndbg: unknown
# keyword ...". The kernel's part starts at its timestamp; looked for in
# RESULT, END and BOOTED lines before any " # " (a reason or a NOTE may
# quote dmesg on purpose).
KMSG_GLUED_RE = re.compile(r"\[\s*\d+\.\d{6}\]")


def parse_console(b):
    """Fill b.results, b.notes, b.rc, b.nproc and b.bad_lines from
    b.console."""
    lines = []
    for line in b.console.splitlines():
        line = line.rstrip("\r")
        i = line.find(MARK)
        m = None
        if i >= 0 and line.startswith(("RESULT ", "END ", "BOOTED "),
                                      i + len(MARK)):
            end = line.find(" # ", i)
            m = KMSG_GLUED_RE.search(line, i + len(MARK),
                                     end if end >= 0 else len(line))
        if m:
            lines += [line[:m.start()], line[m.start():]]
        else:
            lines.append(line)
    for line in lines:
        i = line.find(MARK)
        if i >= 0:
            rest = line[i + len(MARK):]
            if rest.startswith("END rc="):
                b.rc = int(rest[len("END rc="):].split()[0])
            elif rest.startswith("RESULT "):
                m = re.match(r"RESULT (ok|not ok|skip) (\S+)(?: # (.*))?$",
                             rest)
                if m:
                    b.results.append((m.group(1), m.group(2),
                                      m.group(3) or ""))
            elif rest.startswith("NOTE "):
                b.notes.append(rest[5:])
            elif rest.startswith("BOOTED "):
                m = re.search(r"nproc=(\d+)", rest)
                b.nproc = int(m.group(1)) if m else None
            continue
        if BAD_RE.search(line):
            b.bad_lines.append(line)


def boot(kdir, initrd, script, rundir, retry=True, **kw):
    """Boot, retrying once on a hang or an early crash. Returns the last
    Boot; .attempts lists all of them."""
    b = boot_once(kdir, initrd, script, rundir, **kw)
    attempts = [b]
    if early_failure(b) and retry:
        log(f"boot {b.status} ({b.summary()}); retrying once")
        shutil.rmtree(rundir + ".hang1", ignore_errors=True)
        os.rename(rundir, rundir + ".hang1")
        b = boot_once(kdir, initrd, script, rundir, **kw)
        b.first_hang = rundir + ".hang1"
        attempts.append(b)
    b.attempts = attempts
    return b


def boot_kind(kind, script, logdir, ddctl=None, stock_fallback=True,
              sizes=MODULE_SIZES, **kw):
    """Prepare and boot KIND (with the ddctl_sites_K modules of SIZES).
    When the patched kernel hangs twice, boot the stock kernel with the
    same script to tell a stock (TCG) hang from a patch-caused one; the
    verdict goes to b.hang_verdict."""
    workdir = os.path.join(logdir, "work")
    kdir, initrd = prepare(kind, workdir, ddctl, sizes)
    rundir = os.path.join(logdir, f"{kind}-{script}")
    b = boot(kdir, initrd, script, rundir, **kw)
    b.hang_verdict = None
    if early_failure(b):
        what = b.status
        if not kind.startswith("stock") and stock_fallback:
            # the debug kernel is compared with the same config unpatched
            skind = "stock-debug" if kind == "debug" else "stock"
            log(f"patched kernel: {what} twice; booting {skind} with the "
                "same script")
            # (never DDCTL_KDIR: that is the kernel that hung)
            skdir, sinitrd = prepare(skind, workdir, ddctl, sizes,
                                     use_kdir=False)
            s = boot(skdir, sinitrd, script, rundir + ".stock-check", **kw)
            if early_failure(s):
                b.hang_verdict = (f"stock kernel fails too ({s.status}): "
                                  "TCG/environment, not caused by the patches")
            else:
                b.hang_verdict = (f"stock kernel completes the same script: "
                                  f"{what} CAUSED BY THE PATCHES")
        else:
            b.hang_verdict = f"{kind} kernel: {what} twice"
        log(b.hang_verdict)
    return b
