# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# The ddctl VM test suite, guest side. Host side: tests/vm/vmtest.py.
#   a  kernel-sanity     vCPUs, control file, callsite count
#   d  dyndbg-*          dyndbg= boot/module parameters
#   b  ddctl-*           the ddctl CLI against the real control file
#   c  predict           data for prediction == reality (compared on host)
#   s  scale-20000*      a module with 20000 sites, all on and off
#   sh cfg-*             the shell, ddctl.d, save/restore, watch, persist
#                        (settings.sh)
#   n  nl-*              the dyndbg generic netlink family (netlink.sh)
#   k  k-*               kernel series v2: the review's defects (kernel.sh)
#   gd cmdline-*         the rate guard, --for, the command line's words
#                        (guard.sh)
#   snap snap-*          a consistent snapshot while a module unloads
#                        (snapshot.sh)
# (e, no Oops/WARNING/BUG in the log, is checked on the host.)
# Environment from the kernel command line: DDCTL_NCPU, DDCTL_KIND
# (stock|patched), DDCTL_BOOTFILE (file given to dyndbg= at boot).
. /ddctl-tests/lib.sh
# the sites as booted, before any test changes them (kernel.sh's
# k-boot-classmap reads the built-in classmap parameter's effect here)
cat $CONTROL > /tmp/boot-control.txt 2>/dev/null
# and what ddctl status says of the command line's dyndbg words (guard.sh)
has_ddctl && ddctl status > /tmp/boot-status.txt 2>&1

# ---- a: kernel sanity --------------------------------------------------
n=$(nproc)
check sanity-vcpus "nproc is $n, wanted ${DDCTL_NCPU:-?}" [ "$n" = "${DDCTL_NCPU:-0}" ]
hdr=$(head -n1 $CONTROL 2>/dev/null)
check sanity-control-readable "header: '$hdr'" \
	[ "$hdr" = "# filename:lineno [module]function flags format" ]
builtin_sites=$(control | wc -l)

# d needs the modules loaded with parameters: do it before loading the rest
# test_dynamic_debug with dyndbg=+p: every site without a class gets p.
# (the debug kernel has it built in, for k-boot-classmap: no insmod there)
if is_builtin_module test_dynamic_debug; then
	skip dyndbg-insmod-param "test_dynamic_debug is built in (the debug kernel)"
else
	load test_dynamic_debug dyndbg=+p || notok dyndbg-insmod-param "insmod failed"
	t=$(control | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/' | wc -l)
	tp=$(control | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/ && $3 ~ /p/' | wc -l)
	check dyndbg-insmod-param "$tp of $t unclassed test_dynamic_debug sites have p" \
		[ "$t" -gt 0 -a "$t" = "$tp" ]
fi
# ddctl_sites_256.dyndbg=+p on the kernel command line, module loaded later
# (modprobe, like kmod's, passes MOD.dyndbg=... from /proc/cmdline; insmod
# would not)
modprobe ddctl_sites_256 || notok dyndbg-cmdline-module "modprobe ddctl_sites_256 failed"
t=$(control | awk 'index($2, "[ddctl_sites_256]") == 1 && !/ class(:| unknown)/' | wc -l)
tp=$(control | awk 'index($2, "[ddctl_sites_256]") == 1 && !/ class(:| unknown)/ && $3 ~ /p/' | wc -l)
cp=$(control | awk 'index($2, "[ddctl_sites_256]") == 1 && / class(:| unknown)/ && $3 ~ /p/' | wc -l)
if grep -q 'ddctl_sites_256.dyndbg=' /proc/cmdline; then
	check dyndbg-cmdline-module "$tp of $t unclassed sites have p, $cp class sites have p" \
		[ "$t" -gt 0 -a "$t" = "$tp" -a "$cp" = 0 ]
else
	skip dyndbg-cmdline-module "no ddctl_sites_256.dyndbg= on the command line"
fi
# dyndbg="file F +p" at boot: built-in sites of F enabled
if [ -n "$DDCTL_BOOTFILE" ]; then
	t=$(control | awk -v f="$DDCTL_BOOTFILE" 'index($1, f ":") == 1' | wc -l)
	tp=$(control | awk -v f="$DDCTL_BOOTFILE" 'index($1, f ":") == 1 && $3 ~ /p/' | wc -l)
	# (other built-in sites may be =p by default: files that #define DEBUG)
	check dyndbg-boot-param "$tp of $t sites in $DDCTL_BOOTFILE have p" \
		[ "$t" -gt 0 -a "$t" = "$tp" ]
else
	skip dyndbg-boot-param "no ddctl.bootfile given"
fi

load_std
load ddctl_sites_2000 || note "insmod ddctl_sites_2000 failed"
load ddctl_formats || note "insmod ddctl_formats failed"
total=$(control | wc -l)
note "callsites: $builtin_sites built in, $total with modules"
check sanity-callsites "only $total callsites" [ "$total" -gt 1000 ]
cat /proc/modules > $OUT/modules.txt
reset_all

# ---- b: ddctl against the real control file ---------------------------
if ! has_ddctl; then
	for t in list list-module check-writes-nothing set-module modules; do
		skip ddctl-$t "ddctl binary not in the initramfs (not built yet)"
	done
else
	ddctl --version > $OUT/ddctl-version.txt 2>&1
	ddctl list > $OUT/ddctl-list.txt 2> $OUT/ddctl-list.err
	rc=$?
	nl=$(grep -c . $OUT/ddctl-list.txt)
	check ddctl-list "rc=$rc, $nl lines for $total sites: $(head -c 200 $OUT/ddctl-list.err)" \
		[ $rc = 0 -a "$nl" -ge "$total" ]

	ddctl list module test_dynamic_debug > $OUT/ddctl-list-module.txt 2>&1
	rc=$?
	mine=$(grep -c 'test_dynamic_debug' $OUT/ddctl-list-module.txt)
	others=$(grep -c 'virtio\|ddctl_sites' $OUT/ddctl-list-module.txt)
	check ddctl-list-module "rc=$rc, $mine test_dynamic_debug lines, $others foreign lines" \
		[ $rc = 0 -a "$mine" -gt 0 -a "$others" = 0 ]

	cat $CONTROL > /tmp/b-before
	ddctl --check set "module test_dynamic_debug +p" > $OUT/ddctl-check.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/b-after
	if cmp -s /tmp/b-before /tmp/b-after; then same=1; else same=0; fi
	check ddctl-check-writes-nothing "rc=$rc, control unchanged=$same" [ $rc = 0 -a $same = 1 ]

	ddctl set "module test_dynamic_debug +p" > $OUT/ddctl-set.txt 2>&1
	rc=$?
	cat $CONTROL > /tmp/b-after
	# changed lines must all be unclassed test_dynamic_debug sites, and all
	# of those must now have p
	chg_foreign=$(diff /tmp/b-before /tmp/b-after | grep '^+[^+]' | grep -vc '\[test_dynamic_debug\]')
	t=$(tail -n +2 /tmp/b-after | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/' | wc -l)
	tp=$(tail -n +2 /tmp/b-after | awk 'index($2, "[test_dynamic_debug]") == 1 && !/ class(:| unknown)/ && $3 == "=p"' | wc -l)
	cls=$(tail -n +2 /tmp/b-after | awk 'index($2, "[test_dynamic_debug]") == 1 && / class(:| unknown)/ && $3 != "=_"' | wc -l)
	check ddctl-set-module "rc=$rc, $tp/$t sites =p, $chg_foreign foreign changes, $cls class sites changed" \
		[ $rc = 0 -a "$t" -gt 0 -a "$t" = "$tp" -a "$chg_foreign" = 0 -a "$cls" = 0 ]

	ddctl modules > $OUT/ddctl-modules.txt 2>&1
	rc=$?
	modules_ok() {
		[ $rc = 0 ] && grep -q test_dynamic_debug $OUT/ddctl-modules.txt &&
			grep -q ddctl_sites_256 $OUT/ddctl-modules.txt
	}
	check ddctl-modules "rc=$rc; output lacks test_dynamic_debug or ddctl_sites_256" modules_ok
fi

# ---- c: prediction == reality (data only; compared on the host) ---------
reset_all
mkdir -p $OUT/c
cat $CONTROL > $OUT/c/baseline.txt
for q in /ddctl-tests/qsets/*.q; do
	[ -e "$q" ] || break
	b=$(basename "$q" .q)
	d=$OUT/c/$b
	mkdir -p $d
	cp "$q" $d/query
	reset_all
	cat $CONTROL > /tmp/c-before
	cmp -s /tmp/c-before $OUT/c/baseline.txt || cp /tmp/c-before $d/before.txt
	neg=0
	grep -q '!' "$q" && neg=1
	if has_ddctl; then
		ddctl --check --json set "$(cat "$q")" > $d/predict.json 2> $d/predict.err
		echo $? > $d/predict.rc
	fi
	if [ "$DDCTL_KIND" = patched ] || ! has_ddctl; then
		if [ "$DDCTL_KIND" != patched ] && [ $neg = 1 ]; then
			echo "stock kernel has no negation and ddctl is missing" > $d/skipped
			continue
		fi
		# the raw query set, one write, straight to the kernel
		echo raw > $d/applied-by
		cat "$q" > $CONTROL 2> $d/apply.err
		echo $? > $d/apply.rc
	else
		echo ddctl > $d/applied-by
		ddctl set "$(cat "$q")" > $d/apply.out 2> $d/apply.err
		echo $? > $d/apply.rc
	fi
	cat $CONTROL > /tmp/c-after
	diff -U0 /tmp/c-before /tmp/c-after > $d/diff
done
reset_all
ok predict-collected

# ---- scale: 20000 sites in one module (after c, to keep c fast) --------
if [ -f $MODDIR/ddctl_sites_20000.ko ]; then
	sh /ddctl-tests/scale.sh
	if has_ddctl; then
		ddctl set 'module ddctl_sites_20000 +p' > $OUT/scale-set.txt 2>&1
		rc=$?
		ne=$(ddctl list --enabled module ddctl_sites_20000 2>/dev/null | grep -c 'ddctl_sites_20000')
		ddctl set 'module ddctl_sites_20000 -p' >> $OUT/scale-set.txt 2>&1
		rc2=$?
		n0=$(control | awk 'index($2, "[ddctl_sites_20000]") == 1 && $3 != "=_"' | wc -l)
		check scale-20000-ddctl "set rc=$rc/$rc2, $ne listed enabled, $n0 left enabled" \
			[ $rc = 0 -a $rc2 = 0 -a "$ne" -ge 19990 -a "$n0" = 0 ]
	else
		skip scale-20000-ddctl "ddctl binary not in the initramfs"
	fi
else
	skip scale-20000 "ddctl_sites_20000.ko not built"
fi

# ---- sh, cfg: the shell and persistent settings (settings.sh) ---------
. /ddctl-tests/settings.sh

# ---- ux: nothing in the kernel log the user did not cause (ux.sh) ------
. /ddctl-tests/ux.sh

# ---- fl: scoped debugging, follow/run/sessions/reset (follow.sh) -------
. /ddctl-tests/follow.sh

# ---- gd, cmdline: the rate guard, time boxes, the command line (guard.sh)
. /ddctl-tests/guard.sh
# ---- ml: modules loaded during a session, reset's later modules (modload.sh)
. /ddctl-tests/modload.sh

# ---- n: the dyndbg netlink family (kernel series part 2) ---------------
. /ddctl-tests/netlink.sh

# ---- k: kernel series v2, the review's defects (kernel.sh) -------------
. /ddctl-tests/kernel.sh

# ---- ks: the kernel's own selftests of the series (kselftest.sh) -------
. /ddctl-tests/kselftest.sh

# ---- snap: a consistent snapshot while a module unloads (snapshot.sh) --
. /ddctl-tests/snapshot.sh
