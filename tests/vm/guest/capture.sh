# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# Fixture capture: the control file of a booted kernel with the virtio
# modules, test_dynamic_debug and ddctl_sites_256 loaded, before and after
#   module test_dynamic_debug +p; file drivers/virtio/* +pfl
. /ddctl-tests/lib.sh
load_std
load ddctl_sites_256 || notok capture-load "insmod ddctl_sites_256 failed"
cat $CONTROL > $OUT/control.txt
check capture-plain "control not readable" test -s $OUT/control.txt
echo 'module test_dynamic_debug +p; file drivers/virtio/* +pfl' > $CONTROL
cat $CONTROL > $OUT/control-enabled.txt
check capture-enabled "no enabled site" grep -q ' =pfl ' $OUT/control-enabled.txt
uname -a > $OUT/uname.txt
cat /proc/modules > $OUT/modules.txt
