#!/bin/bash
# make test: static checks, both kernels, boots per policy with the
# selftests and KUnit, and the patchset applied to a pristine tree.
# Last line: "N passed, N failed"; exit status non-zero on any failure.
. "$(dirname "$0")/lib.sh"
set +e

T=$TOP/tools/testing/plugsched
OUT=$B/test
mkdir -p "$OUT"
PASS=0 FAIL=0 START=$(date +%s)
FAILED=()	# repeated at the end, where CI's tail shows them
# Rough cost of each remaining step in seconds, for the "left" estimate.
declare -A COST=([check]=150 [prod]=900 [debug]=900 [patches]=180 [boot]=150 [torture]=600 [bench]=300)
remaining=$((60 + 900 + 900 + 180 + 29 * 150 + 600 + 300))

result() { # status description
	if [ "$1" = 0 ]; then
		PASS=$((PASS + 1)); echo "ok - $2"
	else
		FAIL=$((FAIL + 1)); echo "not ok - $2"; FAILED+=("not ok - $2")
	fi
}
step() { # cost-key description
	local el=$(( $(date +%s) - START ))
	printf '\n== [%02d:%02d elapsed, ~%d min left] %s\n' $((el / 60)) $((el % 60)) \
		$(( (remaining + 59) / 60 )) "$2"
	remaining=$((remaining - ${COST[$1]}))
	[ $remaining -lt 0 ] && remaining=0
}

# Count a check script's "ok"/"not ok" lines.
count_lines() {
	local line
	while IFS= read -r line; do
		echo "$line"
		case "$line" in
		"ok "*) PASS=$((PASS + 1)) ;;
		"not ok "*) FAIL=$((FAIL + 1)); FAILED+=("$line") ;;
		esac
	done
}

step prod "build the production kernel"
"$T/kernel.sh" prod; result $? "production kernel builds (build/bzImage)"
step debug "build the debug kernel (lockdep, DEBUG_ATOMIC_SLEEP, UBSAN)"
"$T/kernel.sh" debug; result $? "debug kernel builds (build/debug/bzImage)"
"$T/initramfs.sh"; result $? "initramfs builds"

step check "checkpatch and sparse"
count_lines < <("$T/check.sh" 2>&1)

# The guest command prologue: TAP wrappers around each selftest.
prologue='
t() { out=$("$@" 2>&1); rc=$?; echo "$out"; echo "# t-end"
      if [ $rc != 0 ] && ! echo "$out" | grep -q "^not ok"; then echo "not ok 1 $* exited $rc"; fi; }
tc() { d=$1; shift; if "$@" > /tmp/out 2>&1; then echo "ok 1 $d"; else echo "not ok 1 $d"; sed "s/^/# /" /tmp/out | tail -20; fi; }
hb() { tc "hackbench $*" hackbench "$@"; }
xfail() { b=$1; shift; f=/sys/kernel/debug/sched/plug_break
      if ! echo "$b" > $f; then echo "not ok 1 negative control: cannot break $b"; return; fi
      out=$("$@" 2>&1); echo none > $f; echo "$out" | sed "s/^/# | /"
      if echo "$out" | grep -q "^not ok"; then echo "ok 1 negative control: $b broken, $* fails as it must"
      else echo "not ok 1 negative control: $b broken, yet $* passes"; fi; }
'
# ok COMMAND DESCRIPTION: a guest line printing a TAP result of COMMAND.
ok() { echo "$1 && echo 'ok 1 $2' || echo 'not ok 1 $2'"; }
HB='hb -g 4 -l 50
hb -g 4 -l 50 -p
hb -g 4 -l 50 -T
hb -g 4 -l 50 -p -T'
O1_KNOBS="o1_def_timeslice_ms:100:5:1000 o1_starvation_limit_ms:1000:0:60000"
CFS_KNOBS="sched_granularity_ns:6000000:100000:1000000000 sched_wakeup_granularity_ns:1000000:0:1000000000
sched_latency_ns:20000000:100000:1000000000 sched_child_runs_first:0:0:1"
CFS_KNOBS=$(echo $CFS_KNOBS)
NO_O1_KNOBS="-o1_def_timeslice_ms -o1_starvation_limit_ms"
NO_CFS_KNOBS="-sched_granularity_ns -sched_wakeup_granularity_ns -sched_latency_ns -sched_child_runs_first"
# rr_interval scales with the CPUs: 8 ms x (1 + log2(2)) in the 2-CPU boots.
SD_KNOBS="rr_interval:16:1:5000 interactive:1:0:1"
NO_SD_KNOBS="-rr_interval -interactive"
ZAPHOD_KNOBS="time_slice:100:1:1000 base_promotion_interval:255:1:60000 max_ia_bonus:9:0:10
initial_ia_bonus:1:0:10 ia_threshold:800:1:1000 cpu_hog_threshold:900:1:1000 max_tpt_bonus:4:0:9"
ZAPHOD_KNOBS=$(echo $ZAPHOD_KNOBS)
NO_ZAPHOD_KNOBS="-time_slice -base_promotion_interval -max_ia_bonus -initial_ia_bonus -ia_threshold
-cpu_hog_threshold -max_tpt_bonus -zaphod_mode"
NO_ZAPHOD_KNOBS=$(echo $NO_ZAPHOD_KNOBS)
NUMA_KNOBS="node_balance_ratio:10:1:1000 node_threshold:125:100:1000"
NO_NUMA_KNOBS="-node_balance_ratio -node_threshold"
PS=/sys/kernel/plugsched

# BAD_PATTERNS: see lib.sh

# kunit_passed SUITE BOOT: the KUnit suite ran in that boot, all cases passed.
kunit_passed() {
	local sum
	sum=$(grep -a -E "# $1: pass:[0-9]+ fail:[0-9]+" "$OUT/$2.log" | tail -1)
	echo "# KUnit: ${sum:-no $1 summary}"
	result $(echo "$sum" | grep -q 'pass:[1-9][0-9]* fail:0' && echo 0 || echo 1) "KUnit $1 suite passes"
}

# boot NAME IMAGE SCHED CPUS NODES "EXTRA CMDLINE" COMMANDS
boot() {
	local name=$1 img=$2 sched=$3 cpus=$4 nodes=$5 extra=$6 cmds=$7 t0=$(date +%s)
	local log=$OUT/$name.log rc tmo=300
	# A hung guest must not eat the CI budget: debug boots get more time.
	[ "${img#*debug}" != "$img" ] && tmo=600
	# Every policy in turn, with 10 s RT-pressure runs: some 4 minutes.
	[ "$name" = coexist ] && tmo=600
	step boot "boot $name: sched=$sched, $cpus CPUs, $nodes node(s)"
	# The watchdog must never fire, except where a test makes it.
	[ "$name" = watchdog ] || cmds="$cmds
s=\$(cat /sys/kernel/plugsched/state)
case \"\$s\" in fallback*) echo \"not ok 1 the watchdog never fired: \$s\" ;; *) echo \"ok 1 the watchdog never fired (state: \$s)\" ;; esac"
	# The last line: a guest script that dies half way never prints it.
	PLUGSCHED_QUIET=1 "$T/run.sh" -k "$img" -s "$sched" -c "$cpus" -n "$nodes" \
		-a "$extra" -l "$log" -t "$tmo" "$prologue$cmds
echo PLUGSCHED-END"
	rc=$?
	count_lines < <(sed -n '/PLUGSCHED-BEGIN/,$p' "$log" | tr -d '\r' |
		grep -E '^(ok|not ok) [0-9]|^# ' | grep -v '^# Totals\|^# Planned\|^# SKIP\|^# t-end')
	ntap=$(sed -n '/PLUGSCHED-BEGIN/,$p' "$log" | grep -a -c -E '^(ok|not ok) [0-9]')
	result $([ $rc != 124 ] && [ $rc != 125 ] && [ "$ntap" -gt 0 ] &&
		 grep -a -q 'PLUGSCHED-END' "$log" && echo 0 || echo 1) \
		"$name: guest ran the commands to the end: $ntap results ($(( $(date +%s) - t0 ))s)"
	short=$(short_plans "$log")
	[ -z "$short" ] || echo "$short" | sed 's/^/# short: test, planned, got: /'
	result $([ -z "$short" ] && echo 0 || echo 1) "$name: every selftest printed all the results it planned"
	bad=$(grep -a -E "$BAD_PATTERNS" "$log" | head -5)
	[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'
	result $([ -z "$bad" ] && echo 0 || echo 1) "$name: no WARN, BUG, lockdep, UBSAN or hung task in the log"
}

boot eevdf "$B/bzImage" eevdf 2 1 "" "
t plugsched_test names eevdf
t plugsched_test knobs $NO_O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
t plugsched_test fair 4 2 0.95
t plugsched_test nice 10 7 12
t plugsched_test batch
t plugsched_test rt
t plugsched_test fork 2000
t plugsched_test setattr
$HB"

# Malformed sched= values: each boots the default (eevdf) with a warning
# that lists the choices.
bad_sched() { # NAME SCHED EXTRA WARNING
	boot "$1" "$B/bzImage" "$2" 2 1 "$3" "
t plugsched_test names eevdf
t plugsched_test knobs -o1_def_timeslice_ms -sched_granularity_ns -rr_interval -time_slice -node_balance_ratio
dmesg | grep -q '$4' && echo 'ok 1 warned: $4' || echo 'not ok 1 warned: $4'
dmesg | grep -q 'choices: eevdf o1 cfs sd zaphod numa' && echo 'ok 1 warning lists the choices' || echo 'not ok 1 warning lists the choices'"
}
bad_sched unknown no-such-policy "" 'unknown scheduler "no-such-policy"'
bad_sched empty "" "" 'unknown scheduler "" in sched='
bad_sched long "$(printf 'o1%.0s' $(seq 60))" "" 'unknown scheduler "o1o1o1o1'
bad_sched mixed-case CFS "" 'unknown scheduler "CFS"'
bad_sched repeated o1 "sched=cfs" 'sched= given 2 times'

# The O(1) discipline's checks and bounds, for o1 and for numa on one node.
O1_CHECKS="t plugsched_test fair 6 2 0.95
t plugsched_test nice 5 1.15 1.55 5000
t plugsched_test nice 10 1.7 2.3 5000
t plugsched_test starve 8 1000
t plugsched_test interactive
t plugsched_test rt
t plugsched_test batch
t plugsched_test fork 10000
t plugsched_test setattr
$HB"

# Timing checks run on 2 vCPUs (as many as the build machine's cores), so
# that the host never deschedules a vCPU for long, and before anything else
# runs in the background.
boot o1 "$B/bzImage" o1 2 1 "" "
t plugsched_test names o1
t plugsched_test knobs $O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
dmesg | grep -q 'plugsched: CPU scheduler: o1' && echo 'ok 1 boot log names o1' || echo 'not ok 1 boot log names o1'
grep -q 'o1.sleep_avg_ns' /proc/self/sched && echo 'ok 1 /proc/PID/sched shows o1 fields' || echo 'not ok 1 /proc/PID/sched shows o1 fields'
$O1_CHECKS"
# KUnit ran during that boot.
kunit_passed plugsched_o1 o1

# CFS-style: nice ratios within 5% of the weight ratios (1024/820,
# 1024/335, 1024/110), Jain >= 0.99, the three-job timeline of seed 002,
# granularity changed at run time, sleeper latency below sched_latency_ns.
boot cfs "$B/bzImage" cfs 2 1 "" "
t plugsched_test names cfs
t plugsched_test knobs $CFS_KNOBS $NO_O1_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
dmesg | grep -q 'plugsched: CPU scheduler: cfs' && echo 'ok 1 boot log names cfs' || echo 'not ok 1 boot log names cfs'
grep -q 'cfs.vruntime' /proc/self/sched && echo 'ok 1 /proc/PID/sched shows cfs fields' || echo 'not ok 1 /proc/PID/sched shows cfs fields'
t plugsched_test nice 1 1.186 1.311
t plugsched_test nice 5 2.904 3.210
t plugsched_test nice 10 8.844 9.774
t plugsched_test fair 2 2 0.99
t plugsched_test fair 4 2 0.99
t plugsched_test granularity sched_granularity_ns 1000000 100000000 5
t plugsched_test timeline 2 0.05 5500 7560 7600
t plugsched_test sleeper 4 20
t plugsched_test interactive
t plugsched_test starve 8 200
t plugsched_test childfirst 1
t plugsched_test childfirst 0
t plugsched_test rt
t plugsched_test batch
t plugsched_test fork 10000
t plugsched_test setattr
$HB"
kunit_passed plugsched_cfs cfs
grep -a 'tree height' "$OUT/cfs.log" | sed 's/^.*# /# /' | tr -d '\r'

# Staircase Deadline: nice 19 gets 1/20 of nice 0, equal hogs share a CPU
# evenly (across 2 CPUs Jain has been 0.96..1.000: count-based balancing
# moves hogs on transient imbalances), nobody waits longer than
# the design's bound for its level, rr_interval changed at run time, an
# interbench-like X task meets its deadlines, the three-job timeline: on
# one CPU within 3% (the staircase's own fairness), on two within 15%
# (across CPUs it rests on count-based balancing: -9.9..+6.3% in ten runs
# on 2026-11-30, the kernel of the commit before included; it was 0.5%
# in the runs of the weeks before).
boot sd "$B/bzImage" sd 2 1 "" "
t plugsched_test names sd
t plugsched_test knobs $SD_KNOBS $NO_O1_KNOBS $NO_CFS_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
dmesg | grep -q 'plugsched: CPU scheduler: sd' && echo 'ok 1 boot log names sd' || echo 'not ok 1 boot log names sd'
grep -q 'sd.level' /proc/self/sched && echo 'ok 1 /proc/PID/sched shows the level and quota' || echo 'not ok 1 /proc/PID/sched shows the level and quota'
t plugsched_test nice 19 16 24
t plugsched_test nice 10 1.8 2.2
t plugsched_test fair 3 1 0.99
t plugsched_test fair 2 2 0.99
t plugsched_test fair 4 2 0.95
t plugsched_test sdbound 0 0 5 10
t plugsched_test sdbound 0 -5 19 5
t plugsched_test granularity rr_interval 1 100 5
t plugsched_test deadline 4 10 100 8 95
t plugsched_test timeline 1 0.03 1100 1512 1520
t plugsched_test timeline 2 0.15 5500 7560 7600
t plugsched_test starve 8 400
t plugsched_test rt
t plugsched_test batch
t plugsched_test fork 10000
t plugsched_test setattr
$HB"
kunit_passed plugsched_sd sd

# Zaphod: the interactive bonus of a 90% sleeper and its latency (worse
# without the bonus), hogs lose theirs, promotion bounds a nice 19 hog's
# wait, nice orders CPU in pb mode and entitlement shares it in eb mode
# (nice 0 / nice 5 weights 1024 / 335 = 3.06, +-10%), an interbench-like
# X task meets its deadlines, zaphod_mode takes only pb and eb.
ZM=/proc/sys/kernel/zaphod_mode
boot zaphod "$B/bzImage" zaphod 2 1 "" "
t plugsched_test names zaphod
t plugsched_test knobs $ZAPHOD_KNOBS $NO_O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_NUMA_KNOBS
$(ok "dmesg | grep -q 'plugsched: CPU scheduler: zaphod'" 'boot log names zaphod')
$(ok "grep -q 'zaphod.ia_bonus' /proc/self/sched && grep -q 'zaphod.avg_delay_ns' /proc/self/sched" '/proc/PID/sched shows the bonuses and averages')
$(ok "[ \$(cat $ZM) = pb ]" 'zaphod_mode is pb by default')
bad=0; for v in bogus PB 'pb eb' '' 0 1 pbx e; do echo \"\$v\" > $ZM 2>/dev/null && bad=\$((bad + 1)); [ \$(cat $ZM) = pb ] || bad=\$((bad + 1)); done
$(ok "[ \$bad = 0 ]" 'malformed zaphod_mode values are rejected and change nothing')
$(ok "echo eb > $ZM && [ \$(cat $ZM) = eb ] && echo ' pb ' > $ZM && [ \$(cat $ZM) = pb ]" 'zaphod_mode takes eb and pb')
t plugsched_test zaphod bonus
t plugsched_test zaphod promote 20
t plugsched_test nice 10 2 1000 2000
echo eb > $ZM
t plugsched_test nice 5 2.75 3.37 3000
echo pb > $ZM
t plugsched_test deadline 4 10 100 8 95
t plugsched_test fair 4 2 0.95
t plugsched_test rt
t plugsched_test batch
t plugsched_test fork 10000
t plugsched_test setattr
$HB"
kunit_passed plugsched_zaphod zaphod

# NUMA-aware (issue 6). With one node it is the O(1) policy: the O(1)
# boot's checks and bounds, plus its own knobs and fields.
boot numa "$B/bzImage" numa 2 1 "" "
t plugsched_test names numa
t plugsched_test knobs $NUMA_KNOBS $O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS
$(ok "dmesg | grep -q 'plugsched: CPU scheduler: numa'" 'boot log names numa')
$(ok "grep -q 'numa.home_node' /proc/self/sched && grep -q 'o1.sleep_avg_ns' /proc/self/sched" '/proc/PID/sched shows the home node and the O(1) fields')
$O1_CHECKS"
kunit_passed plugsched_numa numa

# Two nodes: exec placement, an imbalance across nodes corrected, and
# locality of memory-intensive tasks, compared in the same boot with o1
# and eevdf: runs alternate between the three, switched to at run time,
# so that the host's load weighs on all alike (CI once saw numa's runs
# alone at 1.5x). Last, as hotplug after a switch can WARN (README).
# Locality is judged while all 6 tasks run, 3 per node: equal node loads,
# which numa never balances across (node_threshold 125%), so 100% by
# design, 95% for the samples around exec. After the first task ends an
# idle CPU rightly pulls across nodes; when that starts is the host's doing
# (5-15% of all samples away, CI saw 85.9%), so that phase is not judged.
# Before the background step below: timings.
boot numa-2node "$B/bzImage" numa 4 2 "" "
t plugsched_test names numa
t plugsched_test knobs $NUMA_KNOBS $O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS
t plugsched_test numa exec 4
t plugsched_test numa imbalance 6 2000
t plugsched_test numa locality 6 8 2500 5 95
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3
t plugsched_test rt
t plugsched_test fork 2000
$HB
t plugsched_test numa homes
t plugsched_test numa compare 6 8 2500 5 numa o1 eevdf
echo eevdf > $PS/active
echo numa > $PS/active
t plugsched_test numa homes"
# Cross-node migrations at least 3x fewer than o1's, elapsed within 10%:
# from the comparison, whose runs alternate between the policies. Elapsed
# is judged by the median of the per-round ratios (numa and o1 back to
# back): single runs spread by +-25% (5.3..9.1 s seen) as the other
# guest's load comes and goes, and medians of whole blocks of runs moved
# 11% apart with numa at 98% home locality (TCG has no NUMA latency to
# reward it).
loc() { grep -a -o "numa-locality policy=$1 .*" "$OUT/numa-2node.log" | tr -d '\r' | tail -1; }
nl=$(loc numa) ol=$(loc o1) el=$(loc eevdf)
echo "# $nl"; echo "# $ol"; echo "# $el"
field() { echo "$1" | sed -n "s/.* $2=\([0-9.-]*\).*/\1/p"; }
nm=$(field "$nl" migrations_all_runs) om=$(field "$ol" migrations_all_runs)
ne=$(field "$nl" elapsed_ms) oe=$(field "$ol" elapsed_ms)
ratio=$(grep -a -o 'numa-ratio policy=numa vs=o1 .*' "$OUT/numa-2node.log" | tr -d '\r' | tail -1)
echo "# $ratio"
nr_=$(field "$ratio" median_ratio)
result $([ -n "$nm" ] && [ -n "$om" ] && [ "$om" -gt 0 ] && [ $((nm * 3)) -le "$om" ] &&
	 echo 0 || echo 1) "numa: $nm cross-node migrations in 5 runs, at least 3x fewer than o1's $om"
# The locality check can fail: o1, blind to nodes, measured the same way
# in the same boot keeps tasks home about half the time (48-55% seen).
oh=$(field "$ol" loaded_home_pct)
result $([ -n "$oh" ] && awk -v h="$oh" 'BEGIN { exit !(h < 95) }' && echo 0 || echo 1) \
	"numa locality check fails a node-blind policy: o1 home ${oh:-?}% of the time all ran (< 95%)"
result $([ -n "$nr_" ] && awk -v r="$nr_" 'BEGIN { exit !(r <= 1.10) }' && echo 0 || echo 1) \
	"numa: elapsed per round ${nr_:-?}x o1's (median; medians $ne / $oe ms), no worse than 1.10x"

# Run-time switching (issue 9): under load, every policy and eevdf 100
# times over; bad names, EPERM, EBUSY; each policy switched to at run time
# behaves as when chosen at boot, with its knobs and only its knobs.
boot switch "$B/bzImage" eevdf 2 1 "" "
t plugsched_test switch 100
t plugsched_test switchbad
echo o1 > $PS/active
t plugsched_test names o1
t plugsched_test knobs $O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
t plugsched_test nice 10 1.7 2.3 5000
t plugsched_test starve 8 1000
echo 50 > /proc/sys/kernel/o1_def_timeslice_ms
echo cfs > $PS/active
t plugsched_test names cfs
t plugsched_test knobs $CFS_KNOBS $NO_O1_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
t plugsched_test nice 5 2.904 3.210
t plugsched_test fair 2 2 0.99
t plugsched_test granularity sched_granularity_ns 1000000 100000000 5
echo sd > $PS/active
t plugsched_test names sd
t plugsched_test knobs $SD_KNOBS $NO_O1_KNOBS $NO_CFS_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
t plugsched_test nice 19 16 24
t plugsched_test sdbound 0 0 5 10
echo o1 > $PS/active
$(ok '[ $(cat /proc/sys/kernel/o1_def_timeslice_ms) = 100 ]' 'o1_def_timeslice_ms written 50, switched away and back: default 100 again')
echo eevdf > $PS/active
t plugsched_test names eevdf
t plugsched_test knobs $NO_O1_KNOBS $NO_CFS_KNOBS $NO_SD_KNOBS $NO_ZAPHOD_KNOBS $NO_NUMA_KNOBS
$(ok "dmesg | grep -q 'plugsched: switched from o1 to eevdf in [0-9]* us ([0-9]* tasks moved)'" 'the log records each switch, its time and the tasks moved')
$(ok "[ \$(cat $PS/switches) -ge 400 ]" 'switches counts every switch')
t plugsched_test setattr
$HB"

# The watchdog (issue 8): the test-only policy starves a task; the watchdog
# hands every task back to mainline and the task finishes. SysRq-P does the
# same on demand. Debug kernel: the fall back path runs under lockdep.
boot watchdog "$B/debug/bzImage" starve 2 1 "" "
t plugsched_test names starve
t plugsched_test knobs starve_pid:0:0:4194304 plugsched_watchdog_ms:30000:0:600000
t plugsched_test stall 2000
$(ok "dmesg | grep -q 'plugsched: watchdog: plugsched_test/[0-9]* runnable on CPU [0-9]* for [0-9]* ms under starve'" 'the log names the stalled task')
$(ok "[ \"\$(cat /proc/scheduler)\" = eevdf ]" '/proc/scheduler says eevdf after the fall back')
t plugsched_test switch 10
echo o1 > $PS/active
t plugsched_test sysrq
$(ok "dmesg | grep -q 'plugsched: SysRq: o1 ejected'" 'the log records the SysRq fall back')
t plugsched_test fork 1000
$HB"

# Issue 15: plugged tasks keep mainline's guarantees. For every policy,
# switched to at run time (the list is the running kernel's): a SCHED_FIFO
# hog on CPU 1 for 10 s beside 3 normal hogs, judged against eevdf in the
# same boot and against the policy's own round robin of 3 hogs on one CPU
# (o1 and numa: 2 x 100 ms slices), plus one slice (a hog pulled off the
# RT hog's CPU joins a rotation under way), plus 150 ms for the pull and
# the host (the RT-busy CPU has the others balance at their next tick;
# before the plug server and RT-aware balancing hogs waited 3.5 s or got
# nothing); a task back from SCHED_FIFO has not waited for the watchdog
# while it was RT. The two CPUs are SMT siblings, for core scheduling:
# plugged hogs with different cookies take turns on the core as fair ones
# do under eevdf (before plugsched_prio_less(), sd and zaphod gave one of
# them 7-9% of the time), and SCHED_FIFO keeps the core from them.
boot coexist "$B/bzImage" eevdf "2,sockets=1,cores=1,threads=2" 1 "" "
for p in \$(cat $PS/available); do
	[ \$p = eevdf ] && continue
	t plugsched_test rtpressure 3 10 150 \$p
	t plugsched_test rtreturn 500
	[ \$p = starve ] || t plugsched_test rtwatch 3
	t plugsched_test coresched 2000
done
echo eevdf > $PS/active
t plugsched_test names eevdf"

# A hostile unprivileged hog toggling its policy or affinity, itself or
# from a sibling, leaves a plain hog 40% of one CPU under every policy and
# eevdf. One CPU online of two possible, so that an affinity mask with
# CPU 1 differs from one without while the task stays where it is.
boot hostile "$B/bzImage" eevdf "1,maxcpus=2" 1 "" "
for p in \$(cat $PS/available); do
	echo \$p > $PS/active
	t plugsched_test names \$p
	t plugsched_test hostile 3 40
done
echo eevdf > $PS/active"

# nohz_full: the generic checks with CPU 1 running tickless, every policy,
# on the debug kernel (a remote tick may find the running task dequeued).
boot nohz-full "$B/debug/bzImage" eevdf 2 1 "nohz_full=1" "
$(ok "grep -q 1 /sys/devices/system/cpu/nohz_full" 'CPU 1 is nohz_full')
for p in \$(cat $PS/available); do
	[ \$p = starve ] && continue
	echo \$p > $PS/active
	t plugsched_test names \$p
	t plugsched_test fair 2 2 0.9
	t plugsched_test batch
	t plugsched_test fork 500
	t plugsched_test setattr
	hb -g 2 -l 20
done
echo eevdf > $PS/active"

# isolcpus=1: no task free to run elsewhere ever runs on CPU 1, under any
# policy (balancing, kicks and idle selection honour the housekeeping
# mask), nor under eevdf.
boot isolcpus "$B/bzImage" eevdf 2 1 "isolcpus=1" "
for p in \$(cat $PS/available); do
	echo \$p > $PS/active
	t plugsched_test isolated 1 3
done
echo eevdf > $PS/active"

step patches "make patches; apply to a pristine tree with git am and patch -p1 (background)"
("$T/patches.sh" --verify > "$OUT/patches.log" 2>&1; echo $? > "$OUT/patches.rc") &
patches_pid=$!

boot zaphod-smp4 "$B/bzImage" zaphod 4 1 "" "
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3"

boot o1-smp4 "$B/bzImage" o1 4 1 "" "
t plugsched_test fair 4 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3"

# Knobs from the command line: a valid value takes, an invalid one is
# refused and the default stays.
boot o1-numa "$B/bzImage" o1 4 2 "sysctl.kernel.o1_def_timeslice_ms=50 sysctl.kernel.o1_starvation_limit_ms=-5" "
t plugsched_test names o1
n=\$(ls -d /sys/devices/system/node/node* | wc -l); [ \$n = 2 ] && echo 'ok 1 guest sees 2 NUMA nodes' || echo \"not ok 1 guest sees \$n NUMA nodes\"
[ \$(cat /proc/sys/kernel/o1_def_timeslice_ms) = 50 ] && echo 'ok 1 sysctl.kernel.o1_def_timeslice_ms=50 on the command line took' || echo 'not ok 1 sysctl.kernel.o1_def_timeslice_ms=50 on the command line took'
[ \$(cat /proc/sys/kernel/o1_starvation_limit_ms) = 1000 ] && echo 'ok 1 sysctl.kernel.o1_starvation_limit_ms=-5 refused, default kept' || echo 'not ok 1 sysctl.kernel.o1_starvation_limit_ms=-5 refused, default kept'
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
$HB"

boot cfs-smp4 "$B/bzImage" cfs 4 1 "" "
t plugsched_test fair 8 4 0.99
t plugsched_test fair 6 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3"

boot sd-smp4 "$B/bzImage" sd 4 1 "" "
t plugsched_test knobs rr_interval:24:1:5000
t plugsched_test fair 8 4 0.95
t plugsched_test affinity
t plugsched_test hotplug 3"

# The debug kernel (lockdep, UBSAN, the core's invariant checks) under the
# common tests of a policy, on 4 CPUs.
debug_boot() { # POLICY [MORE COMMANDS] [NODES]
	boot "$1-debug" "$B/debug/bzImage" "$1" 4 "${3:-1}" "" "
t plugsched_test names $1
t plugsched_test fair 4 4 0.9
t plugsched_test batch
t plugsched_test affinity
t plugsched_test hotplug 3
t plugsched_test fork 2000${2:+
$2}
$HB"
}
debug_boot sd
debug_boot zaphod
# Negative controls (issue 16): the debug kernel breaks one guarantee on
# purpose (plug_break) and the check guarding it, which passes in the
# policy's own boot (and affinity here), must fail: nice weights (cfs's
# nice ratio: 0.99 seen), balancing (hogs released from CPU 0 never
# spread), wakeup preemption (o1's interactive task waits for the running
# hog's slice: p95 52 ms against the hogs' 191 ms, not < 1/10).
debug_boot cfs "t plugsched_test childfirst 1
xfail nice plugsched_test nice 5 2.904 3.210
xfail balance plugsched_test affinity"
debug_boot o1 "xfail preempt plugsched_test interactive"
debug_boot numa "t plugsched_test numa exec 4" 2

boot eevdf-debug "$B/debug/bzImage" eevdf 2 1 "" "
t plugsched_test names eevdf
t plugsched_test fork 1000
$HB"

# Issue 8: a one-minute torture per policy (debug kernel, 4 CPUs in 2
# nodes): stress-ng, sched_setattr churn, knob writes and CPU hotplug at
# once; no splat, every stressor done, every process reaped, no fall back.
step torture "one-minute torture per policy: $PLUGSCHED_POLICIES"
POLICIES="$PLUGSCHED_POLICIES" MINUTES=1 "$T/torture.sh" > "$OUT/torture.log" 2>&1
grep -a -E '^\[[a-z0-9]+\] (not ok|# )' "$OUT/torture.log" | head -40
count_lines < <(grep -a -E '^(ok|not ok) - ' "$OUT/torture.log")
grep -q -E '^(ok|not ok) - ' "$OUT/torture.log" || result 1 "torture ran (see $OUT/torture.log)"

# Issue 7: make bench's quick suite once, so that the bench never rots:
# every policy boots and reports every benchmark, the report is written.
step bench "make bench QUICK=1: every policy, the reduced suite"
rm -rf "$OUT/bench-quick"
RESULTS=$OUT/bench-quick QUICK=1 "$T/bench.sh" > "$OUT/bench-quick.log" 2>&1
result $? "make bench QUICK=1 runs every policy and writes its report (see $OUT/bench-quick)"
sed 's/^/# rejected: /' "$OUT/bench-quick/rejected.txt" 2>/dev/null
sed -n '/^make bench:/,$p' "$OUT/bench-quick/tables.txt" 2>/dev/null | head -12 | sed 's/^/# /'
for key in pingpong_1cpu_us pick_10_ns hb_sock_proc_g1 hb_pipe_thread_g4 ib_audio_burn_lat_ms \
	   ib_gaming_compile_met_pct fair_job3_s contest_process_time_s; do
	n=$(grep -c ",$key," "$OUT/bench-quick/raw.csv" 2>/dev/null)
	result $([ "${n:-0}" -ge "$(echo $PLUGSCHED_POLICIES eevdf | wc -w)" ] && echo 0 || echo 1) \
		"make bench QUICK=1: $key reported by every policy ($n)"
done
result $(grep -q '^Wakeup latency' "$OUT/bench-quick/tables.txt" 2>/dev/null &&
	 [ -s "$OUT/bench-quick/hackbench.svg" ] && [ -s "$OUT/bench-quick/latency.svg" ] &&
	 [ -s "$OUT/bench-quick/kernel.config" ] && grep -q qemu-system "$OUT/bench-quick/cmdlines.txt" &&
	 echo 0 || echo 1) "make bench QUICK=1: cyclictest table, plots, kernel config and QEMU command lines written"

wait $patches_pid
sed 's/^/# /' "$OUT/patches.log" | tail -15
result "$(cat "$OUT/patches.rc")" "make patches output applies to pristine 6.12 with git am and with patch -p1; make apply is all or nothing"

el=$(( $(date +%s) - START ))
printf '\n== done in %d min %d s\n' $((el / 60)) $((el % 60))
[ ${#FAILED[@]} = 0 ] || printf 'failed: %s\n' "${FAILED[@]}"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
