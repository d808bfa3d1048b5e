#!/bin/sh
# hostile.sh: an unprivileged hog toggling its policy or affinity, itself
# or from a sibling, leaves a plain hog 40% of one CPU under every policy
# and eevdf. The test takes CPU 1 of the two offline, so that a mask
# with CPU 1 differs from one without while the task stays where it is
# (with QEMU -smp 1,maxcpus=2 CPU 1 was not possible and both masks were
# {0}: nothing was re-enqueued). Each of the four ways runs 2 s: a share
# is counted in whole slices, up to 100 ms (o1's), 5% of the window, so a
# fair 50% reads 45% at worst (47.4..69.0% seen at 3 s), still above the
# 40% bound. Two more runs have a pair of hogs flip each other's policy,
# then affinity, beside a plain hog, whose fair third is judged at 2/3 of
# the bound: 26.7%, 5.3 of the 20 slices of 100 ms in 2 s (33..35% seen
# under o1 and numa; 0% in both with o1's expired-array fix reverted).
# A hog moving itself between two CPUs leaves the hogs there their share
# (flipper), a yield storm or fork loops (lever) and a flood of SCHED_IDLE
# (idleflood), SCHED_BATCH or nice 19 tasks (flood) a normal task its
# share, and a group of many a group of one hog its half (grouplone).
# And a shell writing cpu.idle 1 and 0 in a loop on a group that cpu.max
# throttles: every write returns (the requeue walk once never ended when
# a requeue throttled the group and parked the task it was to visit next);
# then every kind of cgroup write at once (cghammer).
# Relief is off throughout: every share judged here is the policy's and
# the core's own, not the safety net's (a check that passes only because
# relief ran the victim after a second is a failing check).
# shellcheck source=lib.sh
. /guest/lib.sh
echo 0 > /proc/sys/kernel/plugsched_relief_ms
check "relief off: plugsched_relief_ms reads 0" knob_is plugsched_relief_ms 0
reliefs0=$(cat /sys/kernel/debug/sched/plug_reliefs)
for p in $(policies); do
	switch_to "$p"
	t plugsched_test names "$p"
	t plugsched_test hostile 2 40
	t plugsched_test idlewrite 3
done
switch_to eevdf
# A hog pinned to each CPU and an unprivileged one moving itself between
# them every 0.1, 1 and 10 ms: moving is no lever, the pinned hogs keep
# 0.9 of what eevdf (measured first) or a fair two thirds give them, the
# smaller. cfs put a moved task at the front, sd gave it a fresh quota
# at the head of its level: the flipper took 0.94 of a CPU, the pinned
# hogs 0.50.
# shellcheck disable=SC2046 # one word per policy
t plugsched_test flipper 2 $(plugged)
# A sched_yield() storm of 16 unprivileged tasks, then 4 fork loops,
# beside a nice 0 hog on one CPU: the hog keeps 0.9 of eevdf's share
# (eevdf measured first) and a work item on CPU 0 runs within twice
# eevdf's longest delay plus 100 ms. o1 and numa favour the loops by
# design (children and woken parents join the active array with the
# parents' bonus) and bound the hog's wait with the active array's drain:
# the hog, expired, waits o1_starvation_limit_ms (1 s) and the drain,
# then runs its 100 ms slice: 0.1 / 1.15 = 0.087 of the CPU in steady
# state (measured 0.087 over 8 s; eevdf 0.19-0.20), 0.43 of eevdf's.
# Over 2 s the cycles are lumpy (0.079-0.080 measured, 0.40), over 6 s
# at most one slice in 6 s (0.017) off: 0.35 of eevdf's. A work item
# that wakes while the array drains joins it (its slice is from before
# the drain): within eevdf's bound, 0.7-0.8 ms measured (25-96 ms when it
# waited for the drain). The loops start interactive: their parent,
# asleep across the switch, wakes just interactive, as 2.6 woke a user
# task from a long sleep (from nothing, they took a second or two to get
# there, which the hog's 0.23 over 2 s measured before).
# shellcheck disable=SC2046 # one word per policy
t plugsched_test lever yield 2 16 $(plugged)
# shellcheck disable=SC2046 # one word per policy
t plugsched_test lever fork 2 4 $(plugged | grep -v -x -e o1 -e numa)
o1s=$(plugged | grep -x -e o1 -e numa)
# shellcheck disable=SC2086 # one word per policy
[ -z "$o1s" ] || t plugsched_test lever fork 6 4 0.35 $o1s
# 10 SCHED_BATCH and 50 nice 19 spinners of an unprivileged user beside a
# nice 0 hog on one CPU: the hog keeps half of one equal share (each
# policy weighs nice its own way) and a work item on CPU 0 runs within
# twice eevdf's delay plus 100 ms. 3 s for batch: o1 runs 11 slices of
# 100 ms between two of the hog's, so the window holds two of them.
# sd's work item waited 94-272 ms beside 10-20 batch spinners and 1.6 s
# beside 50 nice 19 ones, at the tail of the level the rotation had
# reached; a woken task now goes first on its level (15-31 ms measured).
# o1's and numa's waited about 1 s (a round of the 10 batch slices) in 3
# runs of 8, and 300-440 ms under numa after a switch from o1: a kworker
# asleep across a switch, or moved by it, began with no sleep_avg, below
# the batch tasks and the hog; now it begins as a kernel thread back from
# a long sleep (0.8-1.3 ms measured).
# shellcheck disable=SC2046 # one word per policy
t plugsched_test flood batch 3 10 $(plugged)
# shellcheck disable=SC2046 # one word per policy
t plugsched_test flood nice19 2 50 $(plugged)
# A group of one hog beside a group of 10, 100 and 300 at the same
# cpu.weight, all on one CPU: the lone group keeps 0.9 of eevdf's share
# (half) under every policy: the pools (plugsched_queue.c) hold groups
# to their weights whatever the policy does between their tasks.
for n in 10 100 300; do
	# shellcheck disable=SC2046 # one word per policy
	t plugsched_test grouplone 2 "$n" $(plugged)
done
# 300 unprivileged SCHED_IDLE spinners beside a nice 0 hog on one CPU:
# the hog keeps 0.9 of what eevdf, measured first, gives it (about half).
# 4 s: the core's idle ticks, one in 4, go round 300 spinners in 1.2 s at
# 1000 ticks a second, and TCG delivers fewer ticks while the host is busy
# (a 3-s window once left 2 spinners without a run under numa, 1 under
# eevdf).
# shellcheck disable=SC2046 # one word per policy
t plugsched_test idleflood 4 300 $(plugged)
# cgroup writes of every kind (weights, nice, idle, nested cpu.max, task
# moves) at any moment beside idle, throttled and nested groups while CPU
# 1 comes and goes: each returns, the writer keeps half eevdf's rate
# (the mean of eevdf's runs just before and after the policy's: the host
# runs the pair's other boot meanwhile, and zaphod's, judged against the
# runs at the two ends only, read 0.41-0.44 in 2 make tests of 5, 0.67-0.74
# in a quiet boot; see test_cghammer()).
# shellcheck disable=SC2046 # one word per policy
t plugsched_test cghammer 3 0.5 $(plugged)
reliefs=$(cat /sys/kernel/debug/sched/plug_reliefs)
check "no relief ran in this boot's tests ($reliefs0 before, $reliefs after)" [ "$reliefs" = "$reliefs0" ]
finish
