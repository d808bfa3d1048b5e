#!/bin/sh
# debug.sh POLICY [SECONDS WATCHDOG_MS KNOB:MIN:MAX...]: the debug kernel
# (lockdep, UBSAN, the core's invariant checks) under the common checks of
# a policy, then, with SECONDS, the torture (torture.sh: stress-ng, setattr
# churn, knob writes, CPU hotplug), which also covers fork, pipes and
# hotplug under lockdep; without, those as selftests and hackbench.
#
# The negative controls: with one guarantee broken on purpose (plug_break),
# the check guarding it, which passes in the policy's own boot, must fail:
# nice weights (cfs's nice ratio: 0.99 seen), balancing (hogs released from
# CPU 0 never spread; 6 hogs on 4 CPUs keep their fork placement, 2-2-1-1,
# for a Jain index of 16/18 = 0.89 against cfs's 0.99 and the check's
# 0.95), wakeup preemption (o1's interactive task waits for
# the running hog's slice: p95 52 ms against the hogs' 191 ms, not < 1/10),
# slice accounting (the three-job timeline), schedutil's utilisation,
# NUMA balancing's scan, cpu.max's charge and cpu.idle's requeue, relief
# kept off by a design-bound check; under eevdf, tags dropped at a
# policy's leave.
#
# Under eevdf: switches to each policy and back, each followed by CPU
# hotplug under load.
# shellcheck source=lib.sh
. /guest/lib.sh
p=$1
echo "AVAILABLE $(policies)"
shift
t plugsched_test names "$p"
# cpu.max under lockdep: parked and unparked each period on the CPUs the
# hogs run on, which the balancer moves them between. 2 hogs, not one a
# CPU: make test's host has 2 cores for these 4 vCPUs, and with 4 busy
# ones it holds a vCPU for tens of ms while the guest clock runs on; a
# hog whose runtime runs out in such a hold is charged all of it, a debt
# the next periods repay, and the debt open at either end of the 4 s
# window moved the share by up to 0.04 of a CPU (0.162 and 0.233 seen,
# cfs, o1, sd and zaphod alike). With 2 hogs no more vCPUs than host
# cores are busy, as in the 2-CPU boots, whose 4 hogs always met the
# bound.
t plugsched_test cpumax 4 20000 100000 2
# cpu.idle written in a loop beside a group that cpu.max throttles: each
# write requeues while groups are throttled and parked under lockdep.
t plugsched_test idlewrite 3
# cpu.idle written while the hogs run: requeued on the CPUs under lockdep.
# Two of them, as cpumax above: with a hog of each group on each of the 4
# vCPUs the host holds a vCPU for tens of ms while the guest clock runs,
# and an idle hog given its tick then is charged the whole hold (cfs's
# idle group once read 0.0216 of the usage against the bound's 0.02; 0.3%
# by weight, a tick a second by the core's rule).
t plugsched_test cpuidle 2 2
if [ "$p" != eevdf ]; then
	# Every kind of cgroup write at any moment, beside eevdf, under lockdep:
	# no splat, no write failed or over 5 s, every task done. The rate is
	# judged in the 2-CPU hostile boot only: here 4 vCPUs share the host's
	# 2 cores, and the policies' rates swung from 0.1 to 2.2 times eevdf's
	# (19 to 130 writes a second) with what else the host ran.
	t plugsched_test cghammer 3 0 "$p"
	# KVM's directed yield: the target runs next (plug_yield_to, a
	# debug kernel's file).
	t plugsched_test yieldto 3 "$p"
	t plugsched_test fair 4 4 0.9
	t plugsched_test batch
	t plugsched_test affinity
fi
case $p in
cfs)
	xfail nice plugsched_test nice 5 2.904 3.210
	xfail balance plugsched_test affinity
	xfail balance plugsched_test fair 6 4 0.95
	# Three jobs of 1100:1512:1520 ms on one CPU end within 5% of the
	# ideal fair timeline in the cfs boot (1.6% here); charged twice, one
	# or two of them (consecutive PIDs) get half the share they are owed
	# (+13%, -27% seen). On two CPUs the break shows less (+8.5%).
	xfail slice plugsched_test timeline 1 0.05 1100 1512 1520
	# cpu_util() without the plugged tasks' signal: a hog's CPU reads
	# idle to schedutil (0 of 1024; over 900 in the suites).
	xfail util plugsched_test util
	;;
o1)
	xfail preempt plugsched_test interactive
	# A design-bound check that relief saved fails: 8 hogs on one CPU
	# wait about 200 ms under o1 (7 turns of its 10-40 ms round-robin
	# granularity; 218 ms measured), within the suite's 1000; relief kept
	# on at 100 ms though the check turned it off runs a waiter past 100 ms
	# once a second (5 in the 4 s), and the check counts those.
	xfail relief plugsched_test starve 8 1000
	# No NUMA scan from the plug class's tick: no hinting fault, the
	# moved task's pages stay on node 0 (0% on node 1; the numa-2node
	# boot sees 99% within 500 ms under every policy).
	xfail numa_scan plugsched_test numa follow 5 90
	;;
numa)
	t plugsched_test numa exec 4
	# A cpu.idle write requeues nobody: the hogs queued while it was 1
	# stay idle tasks after it is 0 again (0.3 of the usage or more,
	# ~0.5 in the suites; they get a tick a second).
	xfail group_idle plugsched_test cpuidle 2
	;;
sd)
	# No run time charged to cpu.max: the group is never throttled and
	# its 4 hogs take the 4 CPUs (20% of one CPU in the sd boot).
	xfail bandwidth plugsched_test cpumax 3
	;;
esac
[ $# -gt 0 ] && exec sh /guest/torture.sh "$@"
[ "$p" = eevdf ] || t plugsched_test hotplug 3
# Switch, then hotplug (issue 18.3): from mainline to every policy and
# back, CPU 1 offline and online under load after each switch. A dying
# CPU stopped the fair server a second time after a switch had started it
# (sub_running_bw() underflow WARN from inactive_task_timer()).
# Meanwhile every task's /proc/PID/sched is read in a loop: the policy's
# fields are read under the task's runqueue lock, which a switch takes to
# move it (lockdep sees both).
if [ "$p" = eevdf ]; then
	touch /tmp/reading
	(while [ -e /tmp/reading ]; do cat /proc/[0-9]*/sched > /dev/null 2>&1; done) &
	for q in $(plugged); do
		[ "$q" = starve ] && continue
		switch_to "$q"
		t plugsched_test hotplug 1
		switch_to eevdf
		t plugsched_test hotplug 1
	done
	rm -f /tmp/reading
	wait
	# Activation tags are 8 bits: 300 activations wrap them. A task asleep
	# throughout wakes and runs, and after every leave no task holds a
	# tag, which a later activation could take for its own. Negative
	# control: with tags kept past the leave, the count moves.
	# shellcheck disable=SC2046 # one word per policy
	t plugsched_test tags 300 $(plugged | grep -v -x starve)
	xfail tags plugsched_test tags 2 "$(plugged | grep -v -x starve | head -n 1)"
fi
t plugsched_test fork 1000
hb_pair
finish
