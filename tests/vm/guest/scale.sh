# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Scale: a module with 20000 pr_debug sites; enable and disable all of them.
. /ddctl-tests/lib.sh
t0=$(date +%s)
load ddctl_sites_20000 || notok scale-20000 "insmod ddctl_sites_20000 failed"
t1=$(date +%s)
n=$(control | awk 'index($2, "[ddctl_sites_20000]") == 1' | wc -l)
echo 'module ddctl_sites_20000 +p' > $CONTROL
t2=$(date +%s)
np=$(control | awk 'index($2, "[ddctl_sites_20000]") == 1 && $3 == "=p"' | wc -l)
echo 'module ddctl_sites_20000 -p' > $CONTROL
t3=$(date +%s)
n0=$(control | awk 'index($2, "[ddctl_sites_20000]") == 1 && $3 == "=p"' | wc -l)
note "scale: insmod $((t1 - t0)) s, +p $((t2 - t1)) s, -p $((t3 - t2)) s (TCG; not asserted)"
check scale-20000 "$n sites, $np enabled after +p, $n0 after -p" \
	[ "$n" = 20000 -a "$np" -ge 19990 -a "$n0" = 0 ]
