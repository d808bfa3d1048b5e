#!/bin/bash
# make patches: write the whole patchset as a git format-patch series in
# out/patches/ (with a series file) and as out/plugsched-6.12.patch.
# --verify: also apply both to pristine trees, with git am and patch -p1.
. "$(dirname "$0")/lib.sh"

ensure_packages
OUTD=$TOP/out
PG=$B/pristine-git
AUTHOR="plugsched developers <plugsched@localhost>"
export GIT_AUTHOR_NAME="plugsched developers" GIT_AUTHOR_EMAIL=plugsched@localhost
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

if [ ! -f "$PRISTINE/.plugsched-pristine" ]; then
	unpack_pristine "$PRISTINE" && touch "$PRISTINE/.plugsched-pristine"
fi
# A git repository of the pristine tree, made once (Debian's .gitignore
# ignores everything at the top level, hence add -f).
if [ ! -f "$PG/.git/.plugsched-ready" ]; then
	log "making a git repository of the pristine tree (once)"
	rm -rf "$PG" && cp -a "$PRISTINE" "$PG" && rm -f "$PG/.plugsched-pristine"
	git -C "$PG" init -q
	git -C "$PG" add -A -f
	git -C "$PG" commit -q -m "linux-source-6.12 (pristine)"
	git -C "$PG" tag -f pristine >/dev/null
	touch "$PG/.git/.plugsched-ready"
fi

g() { git -C "$PG" "$@"; }
g checkout -q -f -B plugsched pristine
g clean -q -f -d -x

# commit SUBJECT BODY FILES...: add the new files as one commit.
commit_new() {
	local subject=$1 body=$2 pair f
	shift 2
	for f in "$@"; do
		pair=$(overlay_files | grep "^$f:")
		mkdir -p "$PG/$(dirname "${pair#*:}")"
		cp "$TOP/$f" "$PG/${pair#*:}"
		g add -f "${pair#*:}"
	done
	g commit -q -s -m "$subject" -m "$body"
}

cd "$TOP"
commit_new "sched/plugsched: add the pluggable scheduler core" \
"A core that lets several CPU scheduling policies for normal tasks live in
one kernel. It defines plug_sched_class, the only place that knows about
struct sched_class, and dispatches each class hook to the active policy's
struct plugsched_ops. Shared mechanisms live here once: a 64-slot priority
array with a bitmap, nice-to-weight, slice accounting on the tick, wakeup
preemption rules for SCHED_BATCH and SCHED_IDLE, wakeup/fork/exec placement,
idle pull and periodic balancing, and migration. Each policy declares its
tunables once and the core registers the active policy's in
/proc/sys/kernel; /sys/kernel/plugsched and /proc/scheduler report it.
A policy is chosen at boot with sched=<name>; sched=eevdf keeps mainline.
Policies register with PLUGSCHED_POLICY(), which places their ops in a
linker section; the core checks each before trusting it (callbacks,
ranges, knob tables) and refuses a broken one with a message. One state
machine (mainline, enabling, enabled, disabling, fallback) flips the
static keys; switches, the watchdog and SysRq-P move tasks between the
fair and the plug class. The core is split by concern: the class hooks
and services (plugsched.c), placement and balancing (plugsched_balance.c),
registration (plugsched_register.c), the state machine and switching
(plugsched_switch.c), and the user interface (plugsched_ui.c)." \
	Kconfig include/linux/plugsched_types.h include/linux/plugsched.h \
	kernel/sched/plugsched_internal.h kernel/sched/plugsched.c \
	kernel/sched/plugsched_balance.c kernel/sched/plugsched_register.c \
	kernel/sched/plugsched_switch.c kernel/sched/plugsched_ui.c \
	kernel/sched/plugsched_kunit.c

commit_new "sched/plugsched: add the O(1) policy" \
"The O(1) scheduler of 2.6.0 .. 2.6.22 as a plugsched policy (sched=o1):
active and expired arrays of 40 nice levels, slices of 800/100/5 ms at nice
-20/0/19, a sleep_avg bonus of +-5 levels, interactive tasks reinserted
into the active array unless the expired array starves, round robin of
interactive peers every TIMESLICE_GRANULARITY, yield to the expired array,
fork splitting the parent's slice, and balancing that gives expired tasks
away first. DEF_TIMESLICE and the starvation limit are knobs. KUnit tests
cover the slice and bonus formulas and the priority array." \
	kernel/sched/plugsched_o1.c kernel/sched/plugsched_o1_kunit.c

commit_new "sched/plugsched: add the CFS-style policy" \
"The Completely Fair Scheduler of 2007 (2.6.23/2.6.24) as a plugsched
policy (sched=cfs): a per-CPU red-black tree of waiting tasks keyed by
virtual runtime, advanced by run time * NICE_0_LOAD / weight with inverse
weights, a monotonic min_vruntime that new, waking and migrating tasks are
placed against (sleepers get at most half a latency period of credit, a
child starts one share of the period late unless sched_child_runs_first),
tick preemption once the running task leads the leftmost waiter by
sched_granularity_ns, wakeup preemption beyond sched_wakeup_granularity_ns,
yield behind the rightmost waiter, and balancing by load weight. KUnit
tests cover placement, weight scaling and the tree's O(log n) height." \
	kernel/sched/plugsched_cfs.c kernel/sched/plugsched_cfs_kunit.c

commit_new "sched/plugsched: add the Staircase Deadline policy" \
"Con Kolivas' Staircase Deadline scheduler (RSDL, SD 0.46/0.48 for 2.6.21)
as a plugsched policy (sched=sd): active and expired arrays of the 40 nice
levels; a task may run rr_interval at every level from its own down to the
lowest and drops a level each time its quota there is used; each level's
budget is the quota queued on it, and when it is spent the tasks left are
pushed down together (minor rotation, O(1) with a list splice); expired
tasks wait for the arrays to swap (major rotation). A waking task joins at
the current level at best, keeping unused quota with the interactive knob.
rr_interval scales with the CPUs as SD did. KUnit tests cover quota
accounting, expiry and both rotations." \
	kernel/sched/plugsched_sd.c kernel/sched/plugsched_sd_kunit.c

commit_new "sched/plugsched: add the Zaphod policy" \
"Peter Williams' Zaphod scheduler of the SPA family (2004-2006) as a
plugsched policy (sched=zaphod): one priority array per CPU, no expired
array; a task's slot is its static level (pb mode) or its CPU use per
share against the CPU's yardstick (eb mode), minus a persistent
interactive bonus and a throughput bonus computed from decaying per-cycle
averages of CPU time, sleep and runqueue delay. Every
base_promotion_interval * (nr_running - 1) ms all waiting tasks move up a
slot (whole lists, slots caught up lazily), so nobody starves. KUnit tests
cover the bonus arithmetic, the eb level and the promotion step." \
	kernel/sched/plugsched_zaphod.c kernel/sched/plugsched_zaphod_kunit.c

commit_new "sched/plugsched: add home nodes for NUMA placement" \
"Policy code that policies may reuse, after Erich Focht's NUMA scheduler
for 2.5 (CONFIG_PLUGSCHED_HOME_NODES, selected by its users): a policy that
sets plugsched_ops.home_nodes gets a home node per task, inherited at
fork, set by a one-node affinity and chosen at exec by
plugsched_numa_select_cpu(); plugsched_numa_balance() balances within the
node and now and then across nodes by a decayed view of each node's load,
tasks going home first." \
	kernel/sched/plugsched_homenode.c

commit_new "sched/plugsched: add the NUMA-aware policy" \
"Erich Focht's NUMA scheduler for 2.5 as a plugsched policy (sched=numa),
built on the O(1) policy's queues through plugsched_ops.base and on the
core's home node mechanism: a home node per task, inherited at fork and
chosen at exec (the least loaded node unless the task's CPU holds two
tasks or fewer); wakeups take an idle CPU of the home node, then of the
waker's node; balancing stays within the node and every
node_balance_ratio-th balance pulls from a node whose decayed load per CPU
exceeds node_threshold percent of this one, tasks going home first and
tasks at home only for an imbalance of two. /proc/PID/sched shows the home
node." \
	kernel/sched/plugsched_numa.c kernel/sched/plugsched_numa_kunit.c

commit_new "sched/plugsched: add a test policy that starves a task" \
"A policy for testing the watchdog only (CONFIG_PLUGSCHED_STARVE,
sched=starve): round robin that never picks the task whose PID is written
to /proc/sys/kernel/starve_pid, so that the watchdog has something to
catch." \
	kernel/sched/plugsched_starve.c

commit_new "sched/plugsched: add a round-robin example policy" \
"The smallest policy the core takes (CONFIG_PLUGSCHED_RR, sched=rr, test
builds only): one FIFO per CPU on the core's priority array, a slice of
rr_slice_ms each, nice ignored. It is one file and its Kconfig entry, the
model of the documentation's walk-through for adding a policy." \
	kernel/sched/plugsched_rr.c

while read -r p; do
	[ -n "$p" ] && [ "${p#\#}" = "$p" ] || continue
	g am -q --whitespace=nowarn "$TOP/patches/$p" || { g am --abort; die "git am patches/$p failed"; }
done < patches/series

[ -f Documentation/scheduler/plugsched.rst ] && commit_new "Documentation/scheduler: document plugsched" \
"How plugsched is built, its ops, how to add a policy, the sched= boot
parameter and every policy's knobs with units, ranges and defaults." \
	Documentation/scheduler/plugsched.rst

commit_new "selftests/plugsched: add behaviour tests of the active policy" \
"TAP tests run in a booted kernel: reported names, knob bounds and
malformed writes, fairness (Jain index), nice ratios, starvation bounds,
interactivity, SCHED_FIFO preemption, affinity and spreading, CPU hotplug
under load, fork storms, SCHED_BATCH and SCHED_IDLE." \
	$(ls tools/testing/selftests/plugsched/*)

rm -rf "$OUTD/patches" && mkdir -p "$OUTD/patches"
g format-patch -q -o "$OUTD/patches" pristine..plugsched
(cd "$OUTD/patches" && ls 0*.patch > series)
g diff pristine plugsched > "$OUTD/plugsched-6.12.patch"
log "wrote $(wc -l < "$OUTD/patches/series") patches to out/patches and out/plugsched-6.12.patch"

[ "${1:-}" = --verify ] || exit 0

# git am of the series onto pristine.
g checkout -q -f -B verify pristine
g am -q "$OUTD"/patches/0*.patch || { g am --abort; die "git am of out/patches failed"; }
[ -z "$(g diff plugsched verify)" ] || die "git am result differs from the patchset"
echo "ok: git am of out/patches onto pristine"

# patch -p1 of the series, then of the combined patch, onto pristine copies.
for mode in series combined; do
	rm -rf "$B/verify" && cp -a "$PRISTINE" "$B/verify"
	if [ $mode = series ]; then
		for p in $(cat "$OUTD/patches/series"); do
			patch -s -p1 -d "$B/verify" < "$OUTD/patches/$p" || die "patch -p1 $p failed"
		done
	else
		patch -s -p1 -d "$B/verify" < "$OUTD/plugsched-6.12.patch" || die "patch -p1 combined failed"
	fi
	diff -r -q "$B/verify/kernel" "$PG/kernel" >/dev/null || die "$mode: kernel/ differs from the patchset"
	echo "ok: patch -p1 of the $mode patch onto pristine"
done
# make apply: applies once; a second time it fails and changes nothing.
rm -rf "$B/verify" && cp -a "$PRISTINE" "$B/verify"
"$(dirname "$0")/apply.sh" "$B/verify" >/dev/null 2>&1 || die "make apply to a pristine tree failed"
diff -r -q "$B/verify/kernel" "$PG/kernel" >/dev/null || die "make apply: kernel/ differs from the patchset"
before=$(find "$B/verify" -printf '%p %s %T@\n' | sort | sha1sum)
if "$(dirname "$0")/apply.sh" "$B/verify" > "$B/apply-again.log" 2>&1; then
	die "make apply onto an already patched tree did not fail"
fi
grep -q "FAILED\|Reversed" "$B/apply-again.log" || die "make apply did not name the failing hunks"
[ "$before" = "$(find "$B/verify" -printf '%p %s %T@\n' | sort | sha1sum)" ] ||
	die "a failed make apply changed the tree"
echo "ok: make apply applies, and a failing one names the hunks and changes nothing"
rm -rf "$B/verify"
g checkout -q -f plugsched
