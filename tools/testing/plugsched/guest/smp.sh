#!/bin/sh
# smp.sh POLICY: a policy chosen at boot on 4 CPUs: equal hogs share them
# (Jain index), a task keeps to its affinity mask and released hogs spread,
# an idle CPU finds a free task behind a CPU of pinned ones, the balancing
# counters count, CPU hotplug under load.
# shellcheck source=lib.sh
. /guest/lib.sh
case $1 in
cfs)
	t plugsched_test fair 8 4 0.99
	t plugsched_test fair 6 4 0.95
	;;
o1) t plugsched_test fair 4 4 0.95 ;;
sd)
	# rr_interval scales with the CPUs: 8 ms x (1 + log2(4)).
	t plugsched_test knobs rr_interval:24:1:5000
	t plugsched_test fair 8 4 0.95
	;;
*) t plugsched_test fair 8 4 0.95 ;;
esac
t plugsched_test affinity
t plugsched_test pinnedbusy
t plugsched_test balcounters
t plugsched_test hotplug 3
finish
