# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# First boot of the Debian system image (ddctl.run=system-setup): ddctl
# installed from its .debs, the units enabled, no configuration yet. Keeps
# this boot's snapshot (the kernel's defaults, nothing configured) for the
# next boot to compare with, and writes the configuration that boot
# applies: a built-in module, a module udev loads at coldplug (QEMU's e1000
# NIC, or virtio's on the built kernel), a module loaded later with modprobe, and a broken drop-in.
. ./lib.sh
# the kernel's modules for the checks (vmtest-system.py's profile.sh):
# coldplug, later, the reload's; Debian's by default
[ -f ./profile.sh ] && . ./profile.sh
COLD=${DDCTL_COLDPLUG:-e1000} LATER=${DDCTL_LATER:-bonding} RELOADMOD=${DDCTL_RELOADMOD:-dm_mod}
# the broken drop-in's module (not the later one, whose warning is checked)
BROKENMOD=${DDCTL_BROKENMOD:-$RELOADMOD}

check sys0-vcpus "nproc $(nproc), want ${DDCTL_NCPU:-4}" [ "$(nproc)" = "${DDCTL_NCPU:-4}" ]
st=$(systemctl is-system-running --wait 2>&1)
check sys0-booted "is-system-running: $st ($(systemctl --failed --no-legend --plain | tr '\n' ' '))" \
	[ "$st" = running ]
check sys0-package "ddctl not installed" dpkg-query -W ddctl
check sys0-etc-ddctl-d "no /etc/ddctl.d on a fresh install" [ -d /etc/ddctl.d ]
check sys0-snapshot "no /run/ddctl/boot.conf" [ -s /run/ddctl/boot.conf ]
mkdir -p /var/lib/ddctl-test /etc/ddctl.d
cp /run/ddctl/boot.conf /var/lib/ddctl-test/boot0.conf
systemctl show -p ActiveState,SubState ddctl.service ddctl-watch.service > "$OUT/units0.txt"
systemd-analyze security ddctl.service > "$OUT/security-ddctl.txt" 2>&1
systemd-analyze security ddctl-watch.service > "$OUT/security-ddctl-watch.txt" 2>&1
note "exposure: ddctl.service $(tail -n 1 "$OUT/security-ddctl.txt" | sed 's/.*exposure level for [^:]*: *//')"
note "exposure: ddctl-watch.service $(tail -n 1 "$OUT/security-ddctl-watch.txt" | sed 's/.*exposure level for [^:]*: *//')"
echo 'module virtio_ring +p' > /etc/ddctl.d/10-builtin.conf
# (and the virtio NIC's driver, whose probe prints a pr_debug line: only
# the watcher's load-time options, there before udevd started, show it)
printf 'module %s +p\nmodule virtio_net +p\n' "$COLD" > /etc/ddctl.d/20-coldplug.conf
echo "module $LATER +p" > /etc/ddctl.d/30-later.conf
printf '# a typo\nmodule %s +q\n' "$BROKENMOD" > /etc/ddctl.d/40-broken.conf
sync
