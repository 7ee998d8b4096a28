#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# mkimage-system.sh [debian-6.12|patched-7.2]: a Debian 12 system image for
# the VM suite's systemd tests (vm-debian-system), with Debian's 6.12 kernel
# (kernels/fetch-distro.sh) or the patched 7.2 kernel this project builds
# (DDCTL_KBASE=7.2 kernels/build-kernel.sh patched: tinyconfig and
# kernels/kconfig.fragment, which has what systemd needs). Last stdout line:
# the image's directory, holding
#   root.ext4   the root file system (ext4, made by `mkfs.ext4 -d`: no loop
#               mount), booted read-write through a qcow2 overlay
#   initrd.img  a busybox initramfs that loads virtio_blk and ext4 (modules
#               in Debian's kernel) and switches to /dev/vda
#   bzImage     the kernel
#   packages    what is installed (dpkg-query), key  what the key was made of
#   ddctl.deb   the ddctl package installed in it
#
# Three layers, each cached under ${DDCTL_SYSCACHE:-/var/cache/ddctl/system}:
#  1. base-KEY/: mmdebstrap (bookworm, packages from the machine's Debian
#     registry only) of $PACKAGES, keyed by that list and this script's base
#     recipe;
#  2. debs/TREE/: ddctl's .debs built with dpkg-buildpackage from a clean
#     export of $DDCTL_DEB_REV (default HEAD), keyed by the commit's tree;
#  3. img-KEY/: the base unpacked, the .debs installed with apt, the units
#     enabled as an administrator would, the kernel's modules, then the ext4
#     image: keyed by the base key, the .debs' contents, the kernel package,
#     this script and the guest's test runner.
# DDCTL_DRY_RUN=1 says what it would do.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
KIND=${1:-debian-6.12}
CACHE=${DDCTL_SYSCACHE:-/var/cache/ddctl/system}
REV=${DDCTL_DEB_REV:-HEAD}
# systemd as init, udev, kmod, journald (in systemd); what ddctl's .debs
# depend on, so that installing them needs no download; the tools the guest
# checks use (iproute2 for a bond, procps for pgrep).
PACKAGES="systemd systemd-sysv udev kmod libkmod2 libmnl0 libreadline8 iproute2 procps"
log() { echo "mkimage-system.sh: $*" >&2; }

# The base recipe (what goes into the key with the package list)
SOURCES=${DDCTL_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
uri=
[ -r "$SOURCES" ] && uri=$(awk '/^URIs:/{print $2; exit}' "$SOURCES")
[ -n "$uri" ] || uri=http://deb.debian.org/debian
MIRRORS=("deb $uri bookworm main" "deb $uri bookworm-updates main"
	 "deb ${uri%/debian}/debian-security bookworm-security main")
base_key=$(printf '%s\n' "v1" "$PACKAGES" "${MIRRORS[@]}" | sha256sum | cut -c1-16)
base=$CACHE/base-$base_key

if [ "${DDCTL_DRY_RUN:-0}" = 1 ]; then
	log "dry run: base $base ($PACKAGES), .debs from $REV, kernel $KIND, image under $CACHE"
	exit 0
fi
command -v mmdebstrap >/dev/null || { log "mmdebstrap is missing (apt-get install mmdebstrap)"; exit 1; }
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9

# 1. the base system
if [ ! -e "$base.ok" ]; then
	log "mmdebstrap bookworm: $PACKAGES (once per package list)"
	t0=$(date +%s)
	# a root without password on the serial console (a test machine), the
	# root file system on /dev/vda
	nice -n 10 mmdebstrap --variant=apt --include="${PACKAGES// /,}" \
		--customize-hook='chroot "$1" passwd -d root' \
		--customize-hook='echo ddctl-system > "$1/etc/hostname"' \
		--customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
		--format=directory bookworm "$base.tmp" "${MIRRORS[@]}" >&2
	rm -rf "$base"
	mv "$base.tmp" "$base"
	touch "$base.ok"
	log "base built in $(( $(date +%s) - t0 )) s: $base"
fi

# 2. ddctl's packages from $REV
tree=$(git -C "$REPO" rev-parse "$REV^{tree}")
debs=$CACHE/debs/$tree
if [ ! -e "$debs/ok" ]; then
	log "dpkg-buildpackage of $REV (tree $tree)"
	t0=$(date +%s)
	w=$(mktemp -d /tmp/ddctl-sysdeb.XXXXXX)
	mkdir -p "$w/ddctl"
	git -C "$REPO" archive "$REV" | tar -x -C "$w/ddctl"
	# the package check (tests/pkg/check-deb.sh) runs the suites; here only
	# the packages are wanted
	if ! (cd "$w/ddctl" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	      nice -n 10 dpkg-buildpackage -us -uc -b) > "$w/build.log" 2>&1; then
		tail -n 30 "$w/build.log" >&2
		rm -rf "$w"
		exit 1
	fi
	rm -rf "$debs.tmp"
	mkdir -p "$debs.tmp"
	cp "$w"/*.deb "$debs.tmp/"
	touch "$debs.tmp/ok"
	rm -rf "$debs" "$w"
	mv "$debs.tmp" "$debs"
	log ".debs built in $(( $(date +%s) - t0 )) s"
fi

# 3. the image
case "$KIND" in
debian-*)
	kdir=$("$HERE/../kernels/fetch-distro.sh" "$KIND" | tail -n 1)
	kpkg=$(cat "$kdir/package") ;;
patched-7.2)
	# (cached after the first build: the vm-patched suites build it too)
	kdir=$(DDCTL_KBASE=7.2 "$HERE/../kernels/build-kernel.sh" patched | tail -n 1)
	kpkg="built $KIND $(basename "$kdir")" ;;
*) log "kernel $KIND: debian-6.12 or patched-7.2"; exit 2 ;;
esac
rel=$(cat "$kdir/kernelrelease")
key=$( { echo "$base_key"; (cd "$debs" && sha256sum ./*.deb); echo "$kpkg"
	sha256sum < "$0"; sha256sum < "$REPO/tests/vm/guest/system-run"; } |
	sha256sum | cut -c1-16)
img=$CACHE/img-$key
if [ -e "$img/ok" ]; then
	log "cached: $img"
	echo "$img"
	exit 0
fi
log "image $key: base + $(cd "$debs" && echo *.deb) + $rel"
t0=$(date +%s)
rm -rf "$img.tmp"
mkdir -p "$img.tmp"
R=$img.tmp/root
cp -a "$base/." "$R/"
mounted=()
cleanup() {
	local m
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
	mount --bind "/$m" "$R/$m"
	mounted+=("$R/$m")
done
mkdir -p "$R/tmp/ddctl-debs"
# the tool and its library (libddctl-dev would pull the -dev packages)
cp "$debs"/ddctl_*.deb "$debs"/libddctl0_*.deb "$R/tmp/ddctl-debs/"
# apt, offline: every dependency is in the base
chroot "$R" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y \
	/tmp/ddctl-debs/*.deb' > "$img.tmp/apt.log" 2>&1 ||
	{ tail -n 30 "$img.tmp/apt.log" >&2; exit 1; }
rm -rf "$R/tmp/ddctl-debs"
cleanup
mounted=()
trap - EXIT
# The administrator's step (the package installs the units disabled)
chroot "$R" systemctl enable ddctl.service ddctl-watch.service >&2
# The kernel's modules: Debian's package as fetch-distro.sh unpacked it, or
# the few a built kernel has (build-kernel.sh's modules/) with its
# modules.builtin (libkmod's list of the built-in ones)
mkdir -p "$R/usr/lib/modules"
if [ -d "$kdir/root/lib/modules/$rel" ]; then
	cp -a "$kdir/root/lib/modules/$rel" "$R/usr/lib/modules/"
else
	mkdir -p "$R/usr/lib/modules/$rel/kernel/ddctl"
	cp "$kdir"/modules/*.ko "$R/usr/lib/modules/$rel/kernel/ddctl/"
	cp "$kdir"/build/modules.builtin* "$R/usr/lib/modules/$rel/"
fi
depmod -b "$R" "$rel"
# The test runner: ddctl.run=NAME on the kernel command line runs
# /ddctl-tests/NAME.sh from the tar on the second disk (/dev/vdb) once the
# system is up, sends /out on ttyS1 and powers off (tests/vm/guest/system-run)
cp "$REPO/tests/vm/guest/system-run" "$R/usr/local/sbin/ddctl-vmtest"
chmod 755 "$R/usr/local/sbin/ddctl-vmtest"
cat > "$R/etc/systemd/system/ddctl-vmtest.service" <<'EOF'
[Unit]
Description=ddctl VM test runner (ddctl.run= on the kernel command line)
ConditionKernelCommandLine=|ddctl.run
After=multi-user.target
[Service]
# simple, not oneshot: the boot is finished when it starts (the checks ask
# systemd whether it is running and how long the boot took)
Type=simple
ExecStart=/usr/local/sbin/ddctl-vmtest
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TTYReset=no
TTYVHangup=no
[Install]
WantedBy=multi-user.target
EOF
chroot "$R" systemctl enable ddctl-vmtest.service >&2
# the runner's console is ttyS0: no getty on it while a test runs
mkdir -p "$R/etc/systemd/system/serial-getty@ttyS0.service.d"
printf '[Unit]\nConditionKernelCommandLine=!ddctl.run\n' \
	> "$R/etc/systemd/system/serial-getty@ttyS0.service.d/ddctl-vmtest.conf"
# The initramfs (below) loads these and what modules.dep says they need:
# Debian builds the virtio disk, ext4 and its checksum (crc32c) as modules;
# the built kernels have ext4 built in (one that modules.dep lacks is skipped)
INITRD_MODULES="virtio_blk crc32c_generic ext4"
chroot "$R" dpkg-query -W -f '${Package} ${Version}\n' > "$img.tmp/packages"
# The initramfs: busybox and $INITRD_MODULES, decompressed
I=$img.tmp/initrd
mkdir -p "$I"/{bin,dev,proc,sys,root,lib/modules}
cp /bin/busybox "$I/bin/busybox"
ldd "$I/bin/busybox" >/dev/null 2>&1 && { log "/bin/busybox is not static (busybox-static)"; exit 1; }
mdir=$R/usr/lib/modules/$rel
order=
for m in $INITRD_MODULES; do
	line=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$mdir/modules.dep") || continue
	# the dependencies first (modules.dep lists them deepest last)
	order="$order $(echo "${line#*:}" | tr ' ' '\n' | tac | tr '\n' ' ') ${line%%:*}"
done
for f in $order; do
	b=$(basename "$f"); b=${b%.xz}; b=${b%.zst}; b=${b%.gz}
	case " $(cat "$I/lib/modules/order" 2>/dev/null | tr '\n' ' ') " in *" $b "*) continue ;; esac
	case "$f" in
	*.xz) xz -dc "$mdir/$f" > "$I/lib/modules/$b" ;;
	*.zst) zstd -qdc "$mdir/$f" > "$I/lib/modules/$b" ;;
	*) cp "$mdir/$f" "$I/lib/modules/$b" ;;
	esac
	echo "$b" >> "$I/lib/modules/order"
done
cat > "$I/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs devtmpfs /dev
for m in $(/bin/busybox cat /lib/modules/order); do
	/bin/busybox insmod /lib/modules/$m || echo "initrd: insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do /bin/busybox sleep 0.1; i=$((i + 1)); done
/bin/busybox mount -t ext4 -o rw /dev/vda /root || { echo "initrd: cannot mount /dev/vda"; /bin/busybox poweroff -f; }
/bin/busybox umount /proc
/bin/busybox umount /dev
exec /bin/busybox switch_root /root /sbin/init
EOF
chmod 755 "$I/init"
(cd "$I" && find . | cpio -o -H newc --quiet | gzip -1) > "$img.tmp/initrd.img"
rm -rf "$I"
cp "$kdir/bzImage" "$img.tmp/bzImage"
# the installed package, for the upgrade check (vmtest-system.py repacks it
# with a higher version)
cp "$debs"/ddctl_*.deb "$img.tmp/ddctl.deb"
echo "$kpkg" > "$img.tmp/kernel-package"
# The ext4 image from the directory (mkfs.ext4 -d: no loop mount), with
# room for the tests' files and the journal
size=$(( $(du -sm "$R" | cut -f1) + 512 ))
mkfs.ext4 -q -F -L debian-system -d "$R" "$img.tmp/root.ext4" "${size}M"
rm -rf "$R"
{ echo "base $base_key ($PACKAGES)"; (cd "$debs" && sha256sum ./*.deb); echo "$kpkg"; } > "$img.tmp/key"
touch "$img.tmp/ok"
rm -rf "$img"
mv "$img.tmp" "$img"
log "image built in $(( $(date +%s) - t0 )) s: $img ($(du -sh "$img" | cut -f1))"
# each commit makes an image (~400 MB) and .debs: the three newest of each stay
ls -1dt "$CACHE"/img-*/ 2>/dev/null | grep -v '\.tmp/$' | tail -n +4 | xargs -r rm -rf
ls -1dt "$CACHE"/debs/*/ 2>/dev/null | grep -v '\.tmp/$' | tail -n +4 | xargs -r rm -rf
echo "$img"
