#!/bin/sh
# switch.sh: run-time switching. Under load, every policy and eevdf 100
# times over; bad names, EPERM, EBUSY; each policy switched to at run time
# behaves as when chosen at boot, with its knobs and only its knobs, and
# its knobs start from their defaults again.
# shellcheck source=lib.sh
. /guest/lib.sh
t plugsched_test switch 100
t plugsched_test switchbad
switch_to o1
t plugsched_test -t names
t plugsched_test -t knobs
t plugsched_test nice 10 1.7 2.3 5000
t plugsched_test starve 8 1000
echo 50 > /proc/sys/kernel/o1_def_timeslice_ms
switch_to cfs
t plugsched_test -t names
t plugsched_test -t knobs
t plugsched_test nice 5 2.904 3.210
t plugsched_test fair 2 2 0.99
t plugsched_test granularity sched_granularity_ns 1000000 100000000 5
switch_to sd
t plugsched_test -t names
t plugsched_test -t knobs
t plugsched_test nice 19 16 24
t plugsched_test sdbound 0 0 5 10
switch_to o1
check "o1_def_timeslice_ms written 50, switched away and back: default 100 again" \
	knob_is o1_def_timeslice_ms 100
switch_to eevdf
t plugsched_test -t names
t plugsched_test -t knobs
check "the log records each switch, its time and the tasks moved" \
	logged 'plugsched: switched from o1 to eevdf in [0-9]* us ([0-9]* tasks moved)'
check "switches counts every switch" [ "$(cat "$PS/switches")" -ge 400 ]
t plugsched_test setattr
hb_pair
finish
