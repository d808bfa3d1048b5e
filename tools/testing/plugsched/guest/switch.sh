#!/bin/sh
# switch.sh: run-time switching. Under load, every policy and eevdf 100
# times over; bad names, EPERM, EBUSY; each policy switched to at run time
# behaves as when chosen at boot, with its knobs and only its knobs, and
# its knobs start from their defaults again; the plug servers hold deadline
# bandwidth only under a policy (dlbw). Two hogs in a group limited
# to 10% of a CPU (cpu.max) go through the 100 switches, parked most of
# the time: the limit holds through them (at most 0.13 of a CPU), and
# "max" afterwards finds both alive and running (none lost in a switch:
# each runs 0.3 s of 1 s or more).
# shellcheck source=lib.sh
. /guest/lib.sh
cg=/sys/fs/cgroup
mount -t cgroup2 none $cg 2>/dev/null
echo +cpu > $cg/cgroup.subtree_control
mkdir -p $cg/ps_switch
echo "10000 100000" > $cg/ps_switch/cpu.max
lim=
for i in 1 2; do
	sh -c 'while :; do :; done' &
	echo $! > $cg/ps_switch/cgroup.procs
	lim="$lim $!"
done
usage() { sed -n 's/^usage_usec //p' $cg/ps_switch/cpu.stat; }
u0=$(usage)
t0=$(uptime_s)
t plugsched_test switch 100
u1=$(usage)
t1=$(uptime_s)
echo max > $cg/ps_switch/cpu.max
sleep 0.3
ran=
for p in $lim; do ran="$ran $(cut -d' ' -f1 "/proc/$p/schedstat")"; done
sleep 1
i=0
for p in $lim; do
	i=$((i + 1))
	r0=$(echo "$ran" | cut -d' ' -f$((i + 1)))
	r1=$(cut -d' ' -f1 "/proc/$p/schedstat")
	check "limited hog $i alive after the switches, ran $(((r1 - r0) / 1000000)) ms of 1 s (>= 300)" \
		[ $((r1 - r0)) -ge 300000000 ]
done
share=$(awk -v u="$((u1 - u0))" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", u / 1e6 / (b - a) }')
check "cpu.max 10000 100000 through the switches: $share of a CPU (<= 0.13)" \
	awk -v s="$share" 'BEGIN { exit !(s <= 0.13 && s > 0) }'
# shellcheck disable=SC2086 # one word per pid
kill $lim
t plugsched_test switchbad
# The plug servers' deadline bandwidth: held under each policy, given back
# under eevdf, and a switch with none left fails and changes nothing.
# shellcheck disable=SC2046 # one word per policy
t plugsched_test dlbw $(plugged)
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
