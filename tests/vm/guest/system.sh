# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Second boot of the Debian system image (ddctl.run=system), after
# system-setup.sh wrote /etc/ddctl.d: the configuration applied at boot by
# the installed units to a built-in module, to a module loaded before them
# (virtio_blk, from the initramfs), to one udev loads at coldplug (e1000)
# and to one loaded later by modprobe (bonding); the broken drop-in named
# with FILE:LINE and left out; the journal's priorities; the watcher ready
# before udev's coldplug; the boot snapshot equal to the first boot's
# (the kernel's defaults, nothing configured); systemctl reload; ddctl
# reset; the hardening's exposure and the units' boot cost.
. ./lib.sh

# sites of module M whose flags are not exactly F
not_all() { flags_of_module "$1" | grep -cv "^=$2\$"; }
count_of() { flags_of_module "$1" | grep -c .; }
# all of M's sites (at least one) are =F
all_are() { [ "$(count_of "$1")" -gt 0 ] && [ "$(not_all "$1" "$2")" = 0 ]; }
# monotonic microseconds of a unit's property
mono() { systemctl show -P "$2" "$1"; }
before() { [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$1" -le "$2" ]; }
journal_has() { journalctl -b --no-pager "$@" > "$OUT/j.tmp" 2>&1; }

check sys-vcpus "nproc $(nproc)" [ "$(nproc)" = "${DDCTL_NCPU:-4}" ]
st=$(systemctl is-system-running --wait 2>&1)
failed=$(systemctl --failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')
# the broken drop-in makes ddctl.service fail (exit 2) after applying the rest
check sys-boots-with-broken-dropin "state $st, failed: $failed" \
	[ "$st" = degraded -a "$failed" = "ddctl.service " ]
check sys-watch-running "ddctl-watch: $(mono ddctl-watch.service SubState)" \
	[ "$(mono ddctl-watch.service SubState)" = running ]
journalctl -b --no-pager -u ddctl.service -u ddctl-watch.service -o short-monotonic > "$OUT/journal-ddctl.txt"
# ddctl's own lines (systemd's "Failed to start" about the unit is an error too)
journalctl -b --no-pager -u ddctl.service -u ddctl-watch.service -p err -o cat SYSLOG_IDENTIFIER=ddctl \
	> "$OUT/journal-ddctl-err.txt"
journalctl -b --no-pager -u ddctl.service -u ddctl-watch.service -p warning -o cat SYSLOG_IDENTIFIER=ddctl \
	> "$OUT/journal-ddctl-warning.txt"
check sys-broken-dropin-named "journal -p err: $(head -c 300 "$OUT/journal-ddctl-err.txt")" \
	grep -q '/etc/ddctl.d/40-broken.conf:2: "module dm_mod +q".*this file is skipped' "$OUT/journal-ddctl-err.txt"
# errors only at -p err: the info lines ("wrote the boot snapshot") and
# warnings (bonding, not loaded yet) are in the journal, not at -p err
# (both units load the configuration: each names the broken file once)
check sys-journal-err-only "$(grep -v 'ddctl: /etc/ddctl.d/40-broken.conf:2' "$OUT/journal-ddctl-err.txt" | head -c 300)" \
	eval '[ "$(grep -vc "ddctl: /etc/ddctl.d/40-broken.conf:2" "$OUT/journal-ddctl-err.txt")" = 0 ] && grep -q "boot snapshot" "$OUT/journal-ddctl.txt"'
check sys-journal-warning-level "journal -p warning: $(head -c 300 "$OUT/journal-ddctl-warning.txt")" \
	eval 'grep -q "bonding" "$OUT/journal-ddctl-warning.txt" && ! grep -q "bonding" "$OUT/journal-ddctl-err.txt"'

check sys-builtin-applied "virtio_ring: $(not_all virtio_ring p) of $(count_of virtio_ring) not =p" all_are virtio_ring p
# udev loads e1000 when it gets to the coldplug event, maybe after the boot
# is "finished"; the watcher applies it on the module's uevent
udevadm settle --timeout=120
check sys-coldplug-loaded "e1000 not loaded at boot" grep -q '^e1000 ' /proc/modules
i=0
while ! all_are e1000 p && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
check sys-coldplug-applied "e1000: $(not_all e1000 p) of $(count_of e1000) not =p" all_are e1000 p
check sys-broken-file-not-applied "dm_mod loaded at boot?" eval '! grep -q "^dm_mod " /proc/modules || all_are dm_mod _'
ready=$(mono ddctl-watch.service ActiveEnterTimestampMonotonic)
trig=$(mono systemd-udev-trigger.service InactiveExitTimestampMonotonic)
snap=$(mono ddctl.service InactiveExitTimestampMonotonic)
note "monotonic us: ddctl-watch ready $ready, udev-trigger start $trig, ddctl.service start $snap"
check sys-watch-ready-before-coldplug "watch ready $ready, trigger $trig" before "$ready" "$trig"
check sys-watch-before-apply "watch ready $ready, ddctl.service $snap" before "$ready" "$snap"

# The boot snapshot: the kernel's defaults, as on the first boot with no
# configuration, though this boot applied some
cp /run/ddctl/boot.conf "$OUT/boot1.conf"
cp /var/lib/ddctl-test/boot0.conf "$OUT/boot0.conf"
# (the sites' state; the "# modules:" lines list what had loaded by then,
# which depends on the boot's timing, not on the configuration)
grep -v '^# modules:' /run/ddctl/boot.conf > "$OUT/boot1.sites"
grep -v '^# modules:' /var/lib/ddctl-test/boot0.conf > "$OUT/boot0.sites"
check sys-snapshot-defaults "boot.conf's sites differ from the unconfigured boot's" cmp -s "$OUT/boot1.sites" "$OUT/boot0.sites"
check sys-snapshot-no-config "boot.conf sets virtio_ring's sites" eval '! grep -q "virtio_ring" "$OUT/boot1.sites"'

# a module loaded later: the watcher applies its queries
modprobe bonding
i=0
while ! all_are bonding p && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
check sys-modprobe-later "bonding: $(not_all bonding p) of $(count_of bonding) not =p" all_are bonding p

# Reload: the broken file mended, configuration edited
rm /etc/ddctl.d/40-broken.conf
systemctl restart ddctl.service
check sys-restart-clean "ddctl.service: $(mono ddctl.service ActiveState)" \
	[ "$(mono ddctl.service ActiveState)" = active ]
echo 'module virtio_ring +pf' > /etc/ddctl.d/10-builtin.conf
echo 'module dm_mod +p' > /etc/ddctl.d/50-new.conf
watch_pid=$(mono ddctl-watch.service MainPID)
systemctl reload ddctl.service
check sys-reload-applies "virtio_ring: $(not_all virtio_ring pf) of $(count_of virtio_ring) not =pf" all_are virtio_ring pf
i=0
while ! journalctl -b --no-pager -u ddctl-watch.service -o cat | grep -q "re-read the configuration" && [ $i -lt 50 ]; do
	sleep 0.2; i=$((i + 1))
done
check sys-reload-watcher-same-process "MainPID $watch_pid -> $(mono ddctl-watch.service MainPID)" \
	[ "$(mono ddctl-watch.service MainPID)" = "$watch_pid" ]
modprobe dm_mod
i=0
while ! all_are dm_mod p && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
check sys-reload-watcher-rereads "dm_mod: $(not_all dm_mod p) of $(count_of dm_mod) not =p" all_are dm_mod p

# /run/ddctl survives a restart of either unit (session records live there)
systemctl restart ddctl-watch.service
check sys-run-dir-preserved "boot.conf gone after a restart" [ -s /run/ddctl/boot.conf ]

# ddctl reset: the built-in sites back to the snapshot
ddctl reset > "$OUT/reset.txt" 2>&1
check sys-reset-to-snapshot "virtio_ring after reset: $(flags_of_module virtio_ring | sort | uniq -c | tr '\n' ' ')" \
	all_are virtio_ring _

# no unit killed by its seccomp filter or failing for its sandbox
journalctl -b --no-pager -o cat > "$OUT/journal-all.txt"
check sys-sandbox-no-kill "$(grep -E 'status=31/SYS|ddctl.*(Permission denied|Read-only file system)' "$OUT/journal-all.txt" | head -3)" \
	eval '! grep -qE "status=31/SYS|ddctl.*(Permission denied|Read-only file system)" "$OUT/journal-all.txt"'

systemd-analyze security ddctl.service > "$OUT/security-ddctl.txt" 2>&1
systemd-analyze security ddctl-watch.service > "$OUT/security-ddctl-watch.txt" 2>&1
for u in ddctl ddctl-watch; do
	note "exposure: $u.service $(tail -n 1 "$OUT/security-$u.txt" | sed 's/.*exposure level for [^:]*: *//')"
done
# what each of the units' commands costs here (TCG: for the report, not a check)
for c in "--version" "sessions --restore" "save --boot" "--check apply-config"; do
	t0=$(date +%s%N)
	ddctl $c > /dev/null 2>&1
	note "time: ddctl $c: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
done
systemd-analyze blame --no-pager > "$OUT/blame.txt" 2>&1
systemd-analyze --no-pager > "$OUT/analyze.txt" 2>&1
note "boot: $(head -n 1 "$OUT/analyze.txt")"
grep -E 'ddctl' "$OUT/blame.txt" | while read -r line; do note "blame: $line"; done
# the hardened units: exposure at most 5.0 ("MEDIUM"; the units without
# hardening score 9.5, "UNSAFE")
exposure() { tail -n 1 "$OUT/security-$1.txt" | sed -n 's/.*: *\([0-9.]*\) .*/\1/p'; }
for u in ddctl ddctl-watch; do
	check "sys-exposure-$u" "$u.service: $(exposure "$u")" \
		eval '[ -n "$(exposure '"$u"')" ] && awk -v e="$(exposure '"$u"')" "BEGIN { exit !(e <= 5.0) }"'
done

# The package as a distribution ships it (last: the purge removes ddctl).
# An upgrade keeps the units as the administrator left them (enabled here)
dpkg-query -W -f '${Conffiles}' ddctl > "$OUT/conffiles.txt"
check sys-pkg-no-conffiles "conffiles: $(head -c 200 "$OUT/conffiles.txt")" [ ! -s "$OUT/conffiles.txt" ]
enabled() { systemctl is-enabled ddctl.service ddctl-watch.service 2>&1 | tr '\n' ' '; }
was=$(enabled)
DEBIAN_FRONTEND=noninteractive apt-get install -y /ddctl-tests/ddctl-upgrade.deb > "$OUT/apt-upgrade.txt" 2>&1
check sys-pkg-upgraded "$(tail -n 3 "$OUT/apt-upgrade.txt" | tr '\n' ' ')" \
	eval 'dpkg-query -W -f "\${Version}" ddctl | grep -q "+1\$"'
check sys-pkg-upgrade-keeps-enabled "before: $was, after: $(enabled)" [ "$(enabled)" = "enabled enabled " ]
# what ddctl writes at the administrator's request: persist's modprobe options
ddctl persist > "$OUT/persist.txt" 2>&1
check sys-persist-writes "$(head -c 300 "$OUT/persist.txt")" [ -s /etc/modprobe.d/ddctl.conf ]
DEBIAN_FRONTEND=noninteractive apt-get purge -y ddctl > "$OUT/apt-purge.txt" 2>&1
# ddctl-vmtest is this test's runner, /run/systemd systemd's own records
find /etc /run -name '*ddctl*' 2>/dev/null | grep -v -e ddctl-vmtest -e '^/run/systemd/' > "$OUT/after-purge.txt"
check sys-pkg-purge-leaves-nothing "left: $(head -c 300 "$OUT/after-purge.txt" | tr '\n' ' ')" \
	eval '! dpkg-query -W -f "\${Status}" ddctl 2>/dev/null | grep -q installed && [ ! -s "$OUT/after-purge.txt" ]'
