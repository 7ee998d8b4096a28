# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Second boot of the Debian system image (ddctl.run=system), after
# system-setup.sh wrote /etc/ddctl.d: the configuration applied at boot by
# the installed units to a built-in module, to a module loaded before them
# (virtio_blk, from the initramfs), to one udev loads at coldplug (e1000)
# and to one loaded later by modprobe (bonding), with the lines both print
# while they load (the watcher's load-time options in /run/modprobe.d);
# modules loaded during a ddctl run session (modprobe, an alias, udev),
# on every exit path; the broken drop-in named
# with FILE:LINE and left out; the journal's priorities; the watcher ready
# before udev's coldplug; the boot snapshot equal to the first boot's
# (the kernel's defaults, nothing configured); systemctl reload; ddctl
# reset; the hardening's exposure and the units' boot cost.
. ./lib.sh
# the kernel's modules for the checks (vmtest-system.py's profile.sh):
# coldplug, later, the reload's; Debian's by default
[ -f ./profile.sh ] && . ./profile.sh
COLD=${DDCTL_COLDPLUG:-e1000} LATER=${DDCTL_LATER:-bonding} RELOADMOD=${DDCTL_RELOADMOD:-dm_mod}
# the broken drop-in's module (not the later one, whose warning is checked)
BROKENMOD=${DDCTL_BROKENMOD:-$RELOADMOD}

# the flags of module M's class-less sites ("module M +p" leaves the sites
# of a class, test_dynamic_debug's, alone)
classless_flags() { control | grep -Ev "$CLASS_RE" | awk -v m="[$1]" 'index($2, m) == 1 { print $3 }'; }
# sites of module M whose flags are not exactly F
not_all() { classless_flags "$1" | grep -cv "^=$2\$"; }
count_of() { classless_flags "$1" | grep -c .; }
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
	grep -q "/etc/ddctl.d/40-broken.conf:2: \"module $BROKENMOD +q\".*this file is skipped" "$OUT/journal-ddctl-err.txt"
# errors only at -p err: the info lines ("wrote the boot snapshot") and
# warnings (bonding, not loaded yet) are in the journal, not at -p err
# (both units load the configuration: each names the broken file once)
check sys-journal-err-only "$(grep -v 'ddctl: /etc/ddctl.d/40-broken.conf:2' "$OUT/journal-ddctl-err.txt" | head -c 300)" \
	eval '[ "$(grep -vc "ddctl: /etc/ddctl.d/40-broken.conf:2" "$OUT/journal-ddctl-err.txt")" = 0 ] && grep -q "boot snapshot" "$OUT/journal-ddctl.txt"'
check sys-journal-warning-level "journal -p warning: $(head -c 300 "$OUT/journal-ddctl-warning.txt")" \
	eval 'grep -q "$LATER" "$OUT/journal-ddctl-warning.txt" && ! grep -q "$LATER" "$OUT/journal-ddctl-err.txt"'

check sys-builtin-applied "virtio_ring: $(not_all virtio_ring p) of $(count_of virtio_ring) not =p" all_are virtio_ring p
# udev loads e1000 when it gets to the coldplug event, maybe after the boot
# is "finished"; the watcher applies it on the module's uevent
udevadm settle --timeout=120
check sys-coldplug-loaded "$COLD not loaded at boot" grep -q "^$COLD " /proc/modules
i=0
while ! all_are $COLD p && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
check sys-coldplug-applied "$COLD: $(not_all $COLD p) of $(count_of $COLD) not =p" all_are $COLD p
# The lines a module prints while it loads, before its load uevent: only
# the watcher's load-time options (/run/modprobe.d/ddctl-config.conf, written
# before udevd started, which reads it) show them. virtio_net, loaded by
# udev at coldplug: virtnet_probe's one "registered device" line
LOADOPT=/run/modprobe.d/ddctl-config.conf
check sys-load-options-file "$(tr '\n' '|' < $LOADOPT 2>&1 | head -c 300)" \
	grep -qE '^options virtio_net dyndbg="\+p(; \+p)?"$' $LOADOPT
# (counted in the journal, which has the kernel's messages: journalctl -k)
kmsg_count() { journalctl -k -b --no-pager -o cat | grep -c "$1"; }
check sys-coldplug-probe-lines "virtio_net's probe lines in the journal: $(kmsg_count 'virtnet: registered device')" \
	[ "$(kmsg_count 'virtnet: registered device')" -ge 1 ]
# (none of its sites, if it has any now, is off its default: Debian's dm_mod
# is not loaded at boot, the built 7.2 kernel's virtio_blk has no site)
check sys-broken-file-not-applied "$BROKENMOD: $(not_all $BROKENMOD _) of $(count_of $BROKENMOD) not =_" \
	[ "$(not_all $BROKENMOD _)" = 0 ]
ready=$(mono ddctl-watch.service ActiveEnterTimestampMonotonic)
trig=$(mono systemd-udev-trigger.service InactiveExitTimestampMonotonic)
snap=$(mono ddctl.service InactiveExitTimestampMonotonic)
note "monotonic us: ddctl-watch ready $ready, udev-trigger start $trig, ddctl.service start $snap"
check sys-watch-ready-before-coldplug "watch ready $ready, trigger $trig" before "$ready" "$trig"
# before udevd itself, which reads modprobe.d (its libkmod then watches only
# the directories it found: /run/modprobe.d must be there)
udevd=$(mono systemd-udevd.service ExecMainStartTimestampMonotonic)
check sys-watch-ready-before-udevd "watch ready $ready, udevd start $udevd" before "$ready" "$udevd"
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
modprobe $LATER
i=0
while ! all_are $LATER p && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
check sys-modprobe-later "$LATER: $(not_all $LATER p) of $(count_of $LATER) not =p" all_are $LATER p
# its init's lines, printed before its uevent: bonding's init replays
# NETDEV_REGISTER for each net device (bond_netdev_event), test_dynamic_debug's
# prints "init start"
LATER_KMSG=${DDCTL_LATER_KMSG:-bond_netdev_event received NETDEV_REGISTER}
check sys-modprobe-later-init-lines "$LATER's init lines in the journal: $(kmsg_count "$LATER_KMSG")" \
	[ "$(kmsg_count "$LATER_KMSG")" -ge 1 ]

# Reload: the broken file mended, configuration edited
rm /etc/ddctl.d/40-broken.conf
systemctl restart ddctl.service
check sys-restart-clean "ddctl.service: $(mono ddctl.service ActiveState)" \
	[ "$(mono ddctl.service ActiveState)" = active ]
echo 'module virtio_ring +pf' > /etc/ddctl.d/10-builtin.conf
# (+pm: on 7.2 the reload's module is the later one too, whose +p is there)
echo "module $RELOADMOD +pm" > /etc/ddctl.d/50-new.conf
watch_pid=$(mono ddctl-watch.service MainPID)
systemctl reload ddctl.service
check sys-reload-applies "virtio_ring: $(not_all virtio_ring pf) of $(count_of virtio_ring) not =pf" all_are virtio_ring pf
i=0
while ! journalctl -b --no-pager -u ddctl-watch.service -o cat | grep -q "re-read the configuration" && [ $i -lt 50 ]; do
	sleep 0.2; i=$((i + 1))
done
check sys-reload-watcher-same-process "MainPID $watch_pid -> $(mono ddctl-watch.service MainPID)" \
	[ "$(mono ddctl-watch.service MainPID)" = "$watch_pid" ]
modprobe -r $RELOADMOD 2>/dev/null
modprobe $RELOADMOD
i=0
while ! all_are $RELOADMOD pm && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
check sys-reload-watcher-rereads "$RELOADMOD: $(not_all $RELOADMOD pm) of $(count_of $RELOADMOD) not =pm" all_are $RELOADMOD pm
# (and udevd told to read it: udevadm ran in the watcher's sandbox)
check sys-reload-load-options "$(tr '\n' '|' < $LOADOPT 2>&1 | head -c 300)" \
	eval 'grep -qE "^options $RELOADMOD dyndbg=\"(\+p; )?\+pm\"\$" $LOADOPT &&
		! journalctl -b --no-pager -u ddctl-watch.service -o cat | grep -q "udevadm control --reload failed"'

# no module loads with the configuration's options while the watcher is
# stopped; /run/ddctl survives a restart of either unit (session records
# live there)
systemctl stop ddctl-watch.service
check sys-stop-removes-load-options "after stop: $(ls /run/modprobe.d 2>&1 | tr '\n' ' '), $(mono ddctl-watch.service Result)" \
	eval '[ -d /run/modprobe.d ] && [ ! -e $LOADOPT ] && [ "$(mono ddctl-watch.service Result)" = success ]'
systemctl start ddctl-watch.service
check sys-run-dir-preserved "boot.conf gone after a restart" [ -s /run/ddctl/boot.conf ]

# ddctl reset: the built-in sites back to the snapshot
ddctl reset > "$OUT/reset.txt" 2>&1
check sys-reset-to-snapshot "virtio_ring after reset: $(flags_of_module virtio_ring | sort | uniq -c | tr '\n' ' ')" \
	all_are virtio_ring _

# ---- Modules loaded during a run session on the installed system (kmod's
# modprobe and udev's libkmod read the session's /run/modprobe.d file):
# the module's init and probe print before any uevent, so only load-time
# options show those lines; afterwards the module is at its defaults and
# no session file or record is left, on every exit path. The watcher's
# configuration for the modules is taken away first (it would set them
# on their load uevent).
MPD=/run/modprobe.d
ml_files() { ls $MPD 2>/dev/null | grep -c '^ddctl-session-'; }
ml_records() { ls /run/ddctl/sessions 2>/dev/null | grep -c '\.session$'; }
# M loaded, all its sites at the default =_, no session left behind
ml_clean() { grep -q "^$1 " /proc/modules && all_are "$1" _ && [ "$(ml_files)" = 0 ] && [ "$(ml_records)" = 0 ]; }
ml_state() { echo "loaded=$(grep -c "^$1 " /proc/modules) not =_: $(not_all "$1" _) of $(count_of "$1"), files=$(ml_files) records=$(ml_records)"; }
ml_unload() { modprobe -r "$1" 2>/dev/null; ! grep -q "^$1 " /proc/modules; }
rereads() { journalctl -b --no-pager -u ddctl-watch.service -o cat | grep -c "re-read the configuration"; }
r0=$(rereads)
rm -f /etc/ddctl.d/20-coldplug.conf /etc/ddctl.d/30-later.conf
systemctl reload ddctl.service
wait_until eval '[ "$(rereads)" -gt "$r0" ]'
UDEVMOD=${DDCTL_UDEVMOD:-virtio_net}
# the later module's init-time lines: bonding's init replays NETDEV_REGISTER
# for each net device and NETDEV_UP for each one up (bond_netdev_event,
# undecorated where the device has no parent: attributed by the format);
# test_dynamic_debug's init prints two
LATER_RE=${DDCTL_LATER_RE:-'^bonding .*bond_netdev_event:[0-9]* .*bond_netdev_event received NETDEV_\(REGISTER\|UP\)$'}
later_n() { [ -n "$DDCTL_LATER_N" ] && echo "$DDCTL_LATER_N" || echo $(( $(ls /sys/class/net | wc -l) + $(ip -o link show up | wc -l) )); }
ml_run() { # NAME QUERY-MODULE COMMAND...: a run session of +p, its output in $OUT/NAME.*
	_n=$1 _m=$2
	shift 2
	ddctl run "module $_m +p" -- "$@" > "$OUT/$_n.txt" 2> "$OUT/$_n.err"
	echo $?
}
if ! ml_unload "$LATER"; then
	for t in sys-ml-run-modprobe sys-ml-run-alias; do skip $t "cannot unload $LATER"; done
else
	LATER_N=$(later_n)
	rc=$(ml_run ml-modprobe "$LATER" modprobe "$LATER")
	n=$(grep -c "$LATER_RE" "$OUT/ml-modprobe.txt")
	check sys-ml-run-modprobe "rc=$rc, $n of $LATER_N init lines, $(ml_state "$LATER"): $(tr '\n' '|' < "$OUT/ml-modprobe.err" | head -c 300)" \
		eval '[ "$rc" = 0 -a "$n" = "$LATER_N" ] && ml_clean "$LATER"'
	# an alias: the module's own (DDCTL_ALIAS), else one of modprobe.d
	alias=${DDCTL_ALIAS-rtnl-link-bond}
	if [ -z "$alias" ]; then
		alias=ddctl_ml_alias
		echo "alias $alias $LATER" > /etc/modprobe.d/ddctl-ml-alias.conf
	fi
	ml_unload "$LATER"
	rc=$(ml_run ml-alias "$alias" modprobe "$alias")
	n=$(grep -c "$LATER_RE" "$OUT/ml-alias.txt")
	check sys-ml-run-alias "rc=$rc, $n of $LATER_N init lines, $(ml_state "$LATER"): $(tr '\n' '|' < "$OUT/ml-alias.err" | head -c 300)" \
		eval '[ "$rc" = 0 -a "$n" = "$LATER_N" ] && grep -q "is \"module $LATER +p\"" "$OUT/ml-alias.err" && ml_clean "$LATER"'
	rm -f /etc/modprobe.d/ddctl-ml-alias.conf
	# every exit path leaves nothing: the command fails; SIGINT, SIGTERM,
	# SIGHUP while it runs; SIGKILL, undone by sessions --restore (the
	# next boot's ExecStartPre= would do the same)
	bad=
	ml_unload "$LATER"
	rc=$(ml_run ml-fail "$LATER" sh -c "modprobe $LATER; exit 3")
	[ "$rc" = 3 ] && ml_clean "$LATER" || bad="$bad exit($rc: $(ml_state "$LATER"))"
	for sig in INT TERM HUP KILL; do
		ml_unload "$LATER"
		ddctl run "module $LATER +p" -- sh -c "modprobe $LATER; exec sleep 600" > "$OUT/ml-$sig.txt" 2>&1 &
		pid=$!
		wait_until grep -q "module $LATER loaded" "$OUT/ml-$sig.txt"
		child=$(pgrep -P $pid)
		kill -$sig $pid
		wait $pid
		[ -z "$child" ] || kill $child 2>/dev/null
		if [ $sig = KILL ]; then
			left=$(ml_files)
			ddctl sessions --restore >> "$OUT/ml-$sig.txt" 2>&1
			[ "$left" = 1 ] || bad="$bad KILL(left $left file(s))"
		fi
		ml_clean "$LATER" || bad="$bad $sig($(ml_state "$LATER"))"
	done
	check sys-ml-exit-paths "left after:$bad" [ -z "$bad" ]
fi
# a module udev loads: the second NIC's driver (virtio_net) unloaded, then
# an "add" uevent for the virtio devices (virtio_pci made them) makes udev
# load it (udev's libkmod,
# not a child of ddctl) and probe it during the session: virtnet_probe's
# one "registered device" line
UDEV_RE='^virtio_net .*virtnet_probe:[0-9]* .*virtnet: registered device'
if ! ml_unload "$UDEVMOD"; then
	skip sys-ml-udev-probe "cannot unload $UDEVMOD"
else
	rc=$(ml_run ml-udev "$UDEVMOD" sh -c "udevadm trigger --action=add --subsystem-match=virtio && udevadm settle --timeout=120 && grep -q '^$UDEVMOD ' /proc/modules")
	n=$(grep -c "$UDEV_RE" "$OUT/ml-udev.txt")
	check sys-ml-udev-probe "rc=$rc, $n of 1 probe lines, $(ml_state "$UDEVMOD"): $(tr '\n' '|' < "$OUT/ml-udev.err" | head -c 300)" \
		eval '[ "$rc" = 0 -a "$n" = 1 ] && ml_clean "$UDEVMOD"'
fi

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
