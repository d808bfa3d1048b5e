#!/bin/sh
# numa-2node.sh: numa on 4 CPUs in 2 nodes. Exec placement, an imbalance
# across nodes corrected, locality of memory-intensive tasks (while all 6
# run, 3 per node: equal node loads, which numa never balances across at
# node_threshold 125%, so 100% by design, 95% for the samples around
# exec) and its negative control (the tasks kept on node 1, their memory
# bound to node 0: the same check must fail), then the comparison with o1
# and eevdf, whose runs alternate between the three, switched to at run
# time, so that the host's load weighs on all alike; the host judges numa
# against o1 (eevdf's runs only space them as in the runs that set the
# bound: without them the median ratio once read 1.101). Hotplug runs
# before any switch (hotplug after a switch can WARN: README). Then NUMA
# balancing moves a task's pages after it under every policy.
# shellcheck source=lib.sh
. /guest/lib.sh
t plugsched_test -t names
t plugsched_test -t knobs
t plugsched_test numa exec 4
t plugsched_test numa imbalance 6 2000
t plugsched_test numa locality 6 8 2500 5 95
t plugsched_test numa locality 6 8 1000 1 95 remote
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3
t plugsched_test rt
t plugsched_test fork 2000
hb_all
t plugsched_test numa homes
t plugsched_test numa compare 6 8 2500 7 numa o1 eevdf
# Automatic NUMA balancing: pages follow a task moved to the other node
# under every policy, eevdf the reference (each switched to at run time).
for p in $(policies); do
	switch_to "$p"
	t plugsched_test numa follow 30 90
done
switch_to eevdf
switch_to numa
t plugsched_test numa homes
finish
