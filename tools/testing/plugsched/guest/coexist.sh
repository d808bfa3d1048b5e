#!/bin/sh
# coexist.sh: plugged tasks keep mainline's guarantees beside higher
# classes, every policy switched to at run time. A SCHED_FIFO hog on CPU 1
# for 10 s beside 3 normal hogs, relief off, waits freeze-corrected: none
# waits longer than 2x its worst under eevdf in the same boot, or than the
# policy's own round robin of 3 hogs on one CPU (o1 and numa: 2 x 100 ms
# slices) plus one slice, no allowance (before the plug server and
# RT-aware balancing hogs waited 3.5 s or got nothing; before cfs ran a
# third of sched_latency_ns, 2 x 12 ms); a task back from SCHED_FIFO, on
# another CPU than it left, has not waited for the watchdog while it was
# RT (before the stamp was refreshed, it had "waited" 2^32 jiffies less
# the clocks' skew, and the watchdog ejected o1, sd and zaphod). The host makes the two CPUs SMT
# siblings, for core scheduling: plugged hogs with different cookies take
# turns on the core as fair ones do under eevdf (before
# plugsched_prio_less(), sd and zaphod gave one of them 7-9% of the time),
# and SCHED_FIFO keeps the core from them.
# shellcheck source=lib.sh
. /guest/lib.sh
for p in $(plugged); do
	t plugsched_test rtpressure 3 10 0 "$p"
	t plugsched_test rtreturn 500
	[ "$p" = starve ] || t plugsched_test rtwatch 3
	t plugsched_test coresched 2000
done
switch_to eevdf
t plugsched_test names eevdf
finish
