# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# One patch of a series at a time (kernel-patches/boot-series.sh): the
# kernel boots, and its control file still does what stock's does, plus
# whatever the patches applied so far add (probed, so one script serves
# every patch; what a kernel lacks is a skip with the reason).
#   s-sites      ddctl_sites_256 is loaded and its sites are listed
#   s-on, s-off  'module M +p' and '-p' reach every site of M
#   s-set        '+p ; -p' in one write: accepted, every site ends off
#   s-bad-set    a set whose second query is bad is refused, and its first
#                query applied all the same: control-file writes are
#                continue-on-error on stock and stay so with the series
#   s-negation   'module M !func nosuch +p' selects all of M (skip: the
#                kernel refuses '!' in a match-spec; not ok when
#                ddctl.negation=1 says the kernel has it)
#   s-netlink    ddctl over the dyndbg netlink family switches M on and off
#                (skip: no family; not ok when ddctl.netlink=1)
# The sites counted are M's class-less ones: a class'd site is reached only
# by a query naming its class.
SMOKE_TESTS="s-sites s-on s-off s-set s-bad-set s-negation s-netlink"
. /ddctl-tests/lib.sh
M=ddctl_sites_256
load_std
load $M || note "insmod $M failed"

# flags of M's class-less sites; how many of them have the p flag
flags_m() { control | grep -Ev "$CLASS_RE" | awk -v m="[$M]" 'index($2, m) == 1 { print $3 }'; }
count_p() { flags_m | grep -c p; }
total=$(flags_m | wc -l)
note "$M: $total sites; $(control | wc -l) in all; $(nproc) CPUs"
check s-sites "no sites of $M in $CONTROL" [ "$total" -gt 0 ]

echo "module $M +p" > $CONTROL
check s-on "+p: $(count_p) of $total sites have p" [ "$(count_p)" = "$total" ]
echo "module $M -p" > $CONTROL
check s-off "-p: $(count_p) of $total sites still have p" [ "$(count_p)" = 0 ]

if echo "module $M +p ; module $M -p" > $CONTROL; then
	check s-set "+p ; -p left $(count_p) sites with p" [ "$(count_p)" = 0 ]
else
	notok s-set "'+p ; -p' refused"
fi

if echo "module $M +p ; module $M nosuchkeyword x +p" > $CONTROL 2>/dev/null; then
	notok s-bad-set "a set with an unknown keyword was accepted"
else
	check s-bad-set "refused; the valid first query reached $(count_p) of $total sites (continue-on-error: all)" \
		[ "$(count_p)" = "$total" ]
fi
echo "module $M -p" > $CONTROL

if echo "module $M !func ddctl_no_such_function +p" > $CONTROL 2>/dev/null; then
	check s-negation "'!func' selected $(count_p) of $total sites" [ "$(count_p)" = "$total" ]
	echo "module $M -p" > $CONTROL
elif [ "$DDCTL_NEGATION" = 1 ]; then
	notok s-negation "the kernel refuses '!' in a match-spec, and should not"
else
	skip s-negation "the kernel refuses '!' in a match-spec"
fi

if has_ddctl && ddctl info -j 2>/dev/null | grep -q '"netlink":true'; then
	ddctl -q --backend netlink set "module $M +p" && on=$(count_p)
	ddctl -q --backend netlink set "module $M -p" && off=$(count_p)
	check s-netlink "over netlink: +p left ${on:-?}, -p left ${off:-?} of $total with p" \
		[ "${on:-}" = "$total" -a "${off:-}" = 0 ]
elif [ "$DDCTL_NETLINK" = 1 ]; then
	notok s-netlink "no dyndbg netlink family (or no ddctl in the initramfs), and there should be"
else
	skip s-netlink "kernel without the dyndbg netlink family"
fi
