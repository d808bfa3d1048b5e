#!/bin/sh
# nohz-full.sh: the generic checks with CPU 1 tickless (nohz_full=1 from
# the host), every policy, on the debug kernel: a remote tick may find the
# running task dequeued by the balancer; nohzrace holds that window open
# (plug_break "window") until remote ticks have met it.
# shellcheck source=lib.sh
. /guest/lib.sh
check "CPU 1 is nohz_full" grep -q 1 /sys/devices/system/cpu/nohz_full
for p in $(policies); do
	[ "$p" = starve ] && continue
	switch_to "$p"
	t plugsched_test names "$p"
	t plugsched_test fair 2 2 0.9
	t plugsched_test batch
	t plugsched_test fork 500
	t plugsched_test setattr
	hb -g 2 -l 20
	t plugsched_test nohzrace 8 1
done
switch_to eevdf
finish
