#!/bin/sh
# o1-numa.sh: o1 on 4 CPUs in 2 nodes, with knobs from the command line:
# sysctl.kernel.o1_def_timeslice_ms=50 takes, o1_starvation_limit_ms=-5 is
# refused and the default stays.
# shellcheck source=lib.sh
. /guest/lib.sh
t plugsched_test names o1
n=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
check "guest sees 2 NUMA nodes (saw $n)" [ "$n" = 2 ]
check "sysctl.kernel.o1_def_timeslice_ms=50 on the command line took" \
	knob_is o1_def_timeslice_ms 50
check "sysctl.kernel.o1_starvation_limit_ms=-5 refused, default kept" \
	knob_is o1_starvation_limit_ms 1000
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
hb_all
finish
