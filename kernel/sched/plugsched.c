// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: pluggable CPU scheduler policies for normal tasks.
 *
 * The core is the only code that knows about struct sched_class. This file
 * defines plug_sched_class, which sits between the fair and the ext class
 * and, while a policy is active, owns every SCHED_NORMAL, SCHED_BATCH and
 * SCHED_IDLE task; the fair class is then empty and skipped. Each class
 * hook does the bookkeeping every policy needs (run time and slice
 * accounting, counts, SCHED_BATCH/SCHED_IDLE rules, the plug server) and
 * calls the active policy's &struct plugsched_ops for the decisions; it
 * also holds the services of <linux/plugsched.h> policies call. The rest
 * of the core: see plugsched_internal.h.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#include <linux/plugsched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>

#include "plugsched_internal.h"
#include "pelt.h"

/* The promise of plugsched_types.h: task_struct grows by 128 bytes at most. */
static_assert(sizeof(struct plugsched_task) <= 128);

const struct plugsched_ops *plugsched_cur_ops __read_mostly;
u16 plugsched_owner __read_mostly;

atomic_t plugsched_tick_dequeued;

/* /proc/sys/kernel/plugsched_relief_ms; runs it gave so far (debugfs). */
int plugsched_relief_ms;
atomic_t plugsched_nr_reliefs;

/* Core services for policies, see <linux/plugsched.h>. */

u64 plugsched_clock(struct plugsched_rq *prq)
{
	return rq_clock(prq_rq(prq));
}

struct task_struct *plugsched_curr(struct plugsched_rq *prq)
{
	return plug_rq_curr(prq_rq(prq));
}

void plugsched_resched(struct plugsched_rq *prq)
{
	resched_curr(prq_rq(prq));
}

/* The effective weight of @p: see plugsched_group.c. */
static inline unsigned long plugsched_eff_weight(const struct task_struct *p)
{
	return p->plugsched.load ?: plugsched_load_weight(p);
}

/**
 * plugsched_task_weight - @p's weight, its task groups' shares applied
 * @p:		a plugged task
 *
 * Return: the nice weight (1024 at nice 0, 1.25x per step, 3 for
 * SCHED_IDLE) in the root group; in a task group, the part of the group's
 * shares that falls to @p (see plugsched_group.c). Of a task not queued:
 * as when it was last queued.
 */
unsigned long plugsched_task_weight(const struct task_struct *p)
{
	if (plugsched_breaks(PLUGSCHED_BREAK_NICE))
		return SCHED_CAPACITY_SCALE;
	return plugsched_eff_weight(p);
}

/**
 * plugsched_scale_slice - a slice scaled by @p's task groups' shares
 * @p:		a plugged task
 * @ns:		the slice (or quota) the policy gives @p by its priority
 *
 * For policies that share the CPU by slices rather than by weight: @ns
 * times @p's effective weight over its nice weight, so that tasks taking
 * turns get CPU time by their groups' shares. The factor is bounded to
 * 1/64 .. 4: a group's shares are not worth latency without bound. (At
 * 1/32, a hog of a cpu.weight 100 group with four hogs, 1/41 of its nice
 * weight, got 1.28 times its share.)
 *
 * Return: the scaled slice in ns; @ns itself in the root group.
 */
u64 plugsched_scale_slice(const struct task_struct *p, u64 ns)
{
	unsigned long nice_w = plugsched_load_weight(p), w = p->plugsched.load;

	if (likely(w == nice_w) || !w || plugsched_breaks(PLUGSCHED_BREAK_NICE))
		return ns;
	return clamp_t(u64, div64_ul(ns * w, nice_w), ns / 64, ns * 4);
}

/**
 * plugsched_refill_slice - a new slice, less what the last one overran
 * @p:		a plugged task whose slice ran out (p->plugsched.slice <= 0)
 * @ns:		the policy's new slice for @p
 *
 * The tick ends slices, so a slice runs whole ticks: scaled slices of
 * 2.44 and 9.77 ms run 3 and 10 ticks, 1 : 3.3 instead of 1 : 4. Paying the
 * overrun from the next slice keeps the average exact. At most half of
 * @ns is taken: a slice shorter than a tick still runs at every turn.
 *
 * Return: the slice to give @p, in ns, at least @ns / 2.
 */
s64 plugsched_refill_slice(const struct task_struct *p, s64 ns)
{
	return ns + clamp_t(s64, p->plugsched.slice, -ns / 2, 0);
}

/**
 * plugsched_scale_delta - run time in nice-0 units: @delta * 1024 / weight
 * @p:		the task that ran; its weight follows nice (1.25x per step),
 *		is minimal for SCHED_IDLE, and is scaled by its task groups'
 *		shares (plugsched_task_weight())
 * @delta:	ns @p ran
 *
 * Multiplies by the precomputed inverse weight 2^32/weight instead of
 * dividing, so it is cheap enough for every accounting update.
 *
 * Return: the scaled time in ns; @delta itself at nice 0.
 */
u64 plugsched_scale_delta(const struct task_struct *p, u64 delta)
{
	unsigned long w = plugsched_eff_weight(p);
	u32 inv = p->se.load.inv_weight;

	if (likely(w == SCHED_CAPACITY_SCALE) || plugsched_breaks(PLUGSCHED_BREAK_NICE))
		return delta;
	/* inv_weight is of the nice weight: of no use in a task group. */
	if (unlikely(!inv) || w != plugsched_load_weight(p))
		return div64_ul(delta << SCHED_FIXEDPOINT_SHIFT, max(w, 1UL));
	/* inv_weight = 2^32 / weight (fair.c's WMULT_SHIFT is 32) */
	return mul_u64_u32_shr(delta << SCHED_FIXEDPOINT_SHIFT, inv, 32);
}

/**
 * plugsched_scale_wait - a wait of @p in a root group task's terms
 * @prq:	the runqueue @p is queued on
 * @p:		a task queued on it
 * @wait:	a wait of @p's, in ns (or an average of them)
 *
 * By their shares, a task among @prq->nr_running tasks of the root group
 * waits nr_running - 1 of its slices for each; with tasks of task groups,
 * whose slices are scaled by their shares, a task waits (units - its
 * units) / its units of its own (see &plugsched_rq.units). A policy that
 * judges a task by its waits (a throughput bonus) judges it by this.
 *
 * Return: @wait scaled by (nr_running - 1) over the share's count; @wait
 * itself while every task on @prq counts as one.
 */
u64 plugsched_scale_wait(struct plugsched_rq *prq, const struct task_struct *p, u64 wait)
{
	unsigned long units = plugsched_task_units(p);

	if (likely(prq->units == (unsigned long)prq->nr_running * SCHED_CAPACITY_SCALE) ||
	    prq->nr_running < 2 || prq->units <= units)
		return wait;
	return div64_u64(wait * (prq->nr_running - 1) * units, prq->units - units);
}

void plugsched_array_init(struct plugsched_prio_array *array)
{
	int i;

	array->bitmap = 0;
	array->nr_queued = 0;
	for (i = 0; i < PLUGSCHED_NR_SLOTS; i++)
		INIT_LIST_HEAD(&array->queue[i]);
}

/**
 * plugsched_array_count - count the tasks on @array, checking it
 * @array:	the priority array
 *
 * For CONFIG_PLUGSCHED_DEBUG checks: walks every queue, so O(n).
 *
 * Return: the number of tasks, or UINT_MAX if a bitmap bit disagrees with
 * its queue or the count with @array->nr_queued.
 */
unsigned int plugsched_array_count(const struct plugsched_prio_array *array)
{
	unsigned int slot, n = 0;
	struct list_head *pos;

	for (slot = 0; slot < PLUGSCHED_NR_SLOTS; slot++) {
		bool busy = !list_empty(&array->queue[slot]);

		if (busy != !!(array->bitmap & BIT_ULL(slot)))
			return UINT_MAX;
		list_for_each(pos, &array->queue[slot])
			n++;
	}
	return n == array->nr_queued ? n : UINT_MAX;
}

/* CONFIG_PLUGSCHED_DEBUG: the policy holds exactly the tasks counted here. */
static void plugsched_check_counts(struct rq *rq)
{
	unsigned int n;

	if (!plugsched_cur_ops->count)
		return;
	n = plugsched_cur_ops->count(&rq->plug);
	WARN_ONCE(n != rq->plug.nr_running,
		  "plugsched: %s holds %d tasks on CPU %d (-1: broken queues), the core counts %u\n",
		  plugsched_cur_ops->name, (int)n, cpu_of(rq), rq->plug.nr_running);
}

#ifdef CONFIG_SCHED_CORE
/* The running @p has had a base slice since it was picked. */
static inline bool plugsched_core_slice_used(const struct task_struct *p)
{
	return p->se.sum_exec_runtime - p->se.prev_sum_exec_runtime >= sysctl_sched_base_slice;
}

/*
 * A core-scheduling pick's claim: how long it has waited; a running task
 * keeps the core until it has run a base slice (then it has not waited
 * at all), or a sibling's wakeup would take the core from a task that
 * just got it.
 */
static unsigned long plugsched_core_wait(const struct task_struct *p)
{
	struct rq *rq = task_rq(p);

	if (rcu_access_pointer(rq->curr) != p)
		return plugsched_waited(&rq->plug, p);
	return plugsched_core_slice_used(p) ? 0 : ULONG_MAX;
}

/**
 * plugsched_prio_less - core scheduling's order of two plugged tasks
 * @a:		a plugged task: the pick of one SMT sibling, or a task in a
 *		runqueue's core tree
 * @b:		another: the pick of another sibling, or a task of the same
 *		cookie in the same tree (which orders them by this within a
 *		cookie; a stale order there only changes which one
 *		sched_core_find() offers, as vruntime does for fair tasks)
 *
 * A policy's priorities do not compare across CPUs (an O(1) array slot is
 * not a vruntime, and a policy may keep no global order at all), so the
 * core takes turns, as the fair class does by vruntime: the task that has
 * waited longer on its CPU has the core; a running task keeps it for a base
 * slice, then has not waited, and task_tick_plug() offers the core again.
 * Called with the core's runqueue lock held.
 *
 * Return: true if @a ranks below @b.
 */
bool plugsched_prio_less(const struct task_struct *a, const struct task_struct *b)
{
	return plugsched_core_wait(a) < plugsched_core_wait(b);
}
#endif

/*
 * A higher class took the CPU while the policy had a task on it. The tasks
 * queued here wait until the policy picks again; idle CPUs are kicked at
 * the next tick to pull them, and the watchdog's clock stops meanwhile.
 */
void __plugsched_release(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;

	WRITE_ONCE(prq->released_at, jiffies);
	WRITE_ONCE(prq->released, true);
	WRITE_ONCE(prq->nr_released, prq->nr_released + 1);
	/*
	 * Have an idle CPU pull what waits here, but no sooner than the kick
	 * backoff allows: a periodic RT task beside pinned plugged tasks
	 * releases the CPU at each wakeup, and resetting the kick each time
	 * woke the idle CPUs some 200 times a second for nothing (6 times
	 * under eevdf).
	 */
	if (time_before(jiffies + READ_ONCE(prq->kick_backoff), prq->next_kick))
		WRITE_ONCE(prq->next_kick, jiffies + READ_ONCE(prq->kick_backoff));
}

/* The release's time goes to the total; the watchdog's clock runs again. */
void plugsched_end_release(struct plugsched_rq *prq)
{
	WRITE_ONCE(prq->released_jiffies, prq->released_jiffies + jiffies - prq->released_at);
	WRITE_ONCE(prq->released, false);
}

/*
 * Give @p fresh state of @ops, the active policy, or (NULL) the core's
 * only, for a runqueue in bypass; @p is not queued.
 */
static void __plugsched_task_init(const struct plugsched_ops *ops, struct task_struct *p)
{
	INIT_LIST_HEAD(&p->plugsched.run_list);
	INIT_LIST_HEAD(&p->plugsched.runnable_node);
	p->plugsched.array = NULL;
	p->plugsched.slice = 0;
	p->plugsched.runnable_at = plugsched_now(&task_rq(p)->plug);
	p->plugsched.home_node = NUMA_NO_NODE;
	p->plugsched.load = 0;
	memset(p->plugsched.priv, 0, sizeof(p->plugsched.priv));
	p->plugsched.flags &= ~(PLUGSCHED_TF_OWNER | PLUGSCHED_TF_QUEUED);
	p->plugsched.flags |= plugsched_owner;
	if (!ops)
		return;
	plugsched_home_init(ops, p);
	ops->task_init(p);
}

/* @p's runqueue is locked: in bypass, @p gets the core's state only. */
void plugsched_task_init(struct task_struct *p)
{
	__plugsched_task_init(plugsched_rq_bypass(&task_rq(p)->plug) ? NULL : plugsched_cur_ops, p);
}

/*
 * Charge the running task's run time to its slice and to the policy.
 * Every caller knows the running task is a plugged one.
 */
void update_curr_plug(struct rq *rq)
{
	struct task_struct *curr = plug_rq_curr(rq);
	s64 delta;

	delta = update_curr_common(rq);
	if (unlikely(delta <= 0))
		return;

	/*
	 * As for the fair server: time plugged tasks run outside the server
	 * counts against it, so that it only steps in when they starve.
	 */
	if (dl_server_active(&rq->plug_server))
		dl_server_update(&rq->plug_server, delta);
	/* cpu.max: out of runtime, the next pick or put_prev throttles. */
	if (plugsched_bw_account(curr, delta))
		resched_curr(rq);
	/* The negative control: half the tasks pay twice for their time. */
	if (plugsched_breaks(PLUGSCHED_BREAK_SLICE) && (curr->pid & 1))
		delta *= 2;
	curr->plugsched.slice -= delta;
	if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->charge)
		plugsched_cur_ops->charge(&rq->plug, curr, delta);
}

static struct task_struct *pick_task_plug(struct rq *rq);

/*
 * The plug server: what the fair server is to fair tasks, a deadline
 * server that runs plugged tasks starved by RT or deadline tasks, 50 ms
 * every second by default (set by dl_server_start()), deferred until they
 * did starve; /sys/kernel/debug/sched/plug_server/cpuN/{runtime,period}
 * tune it.
 */
static struct task_struct *plug_server_pick_task(struct sched_dl_entity *dl_se)
{
	return pick_task_plug(dl_se->rq);
}

void plugsched_server_init(struct rq *rq)
{
	init_dl_entity(&rq->plug_server);
	dl_server_init(&rq->plug_server, rq, plug_server_pick_task);
}

/*
 * The CPU is dying: nothing is queued on it any more. Only an active
 * server is stopped: stopping one that its own empty pick stopped already
 * takes its bandwidth off the running bandwidth a second time (6.12's
 * dl_server_stop() does not check; make torture hit the underflow WARN in
 * sub_running_bw() on CPU hotplug).
 */
void plugsched_server_stop(struct rq *rq)
{
	if (dl_server_active(&rq->plug_server))
		dl_server_stop(&rq->plug_server);
}

/* A new root domain: the server's bandwidth moves with the CPU. */
void plugsched_server_attach_root(struct rq *rq)
{
	if (rq->plug_server.dl_server)
		__dl_server_attach_root(&rq->plug_server, rq);
}

#ifdef CONFIG_SMP
/*
 * The plugged tasks' utilisation of @rq (PELT, as rq->cfs.avg for fair
 * tasks), brought up to now before what it counts changes: the queued
 * tasks' weights and number, and whether one runs. Return: true if the
 * signal moved (a PELT period passed), when schedutil should hear of it.
 */
bool plugsched_update_util(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;

	return update_plug_load_avg(rq_clock_pelt(rq), &prq->avg, prq->load,
				    prq->nr_running, prq->pelt_running);
}

/**
 * plugsched_cpu_util - the plugged tasks' utilisation of a CPU
 * @cpu:	the CPU
 * @boost:	as cpu_util()'s: the runnable average if it is higher
 *
 * For cpu_util(), so schedutil and everyone else who asks the fair class
 * for a CPU's utilisation. Without locks: a CPU with no plugged task
 * queued may not have updated the signal since it went idle (it does not
 * tick), so it is decayed to now here, as migrate_se_pelt_lag() estimates
 * an idle CPU's clock; 32-bit builds skip that.
 *
 * Return: utilisation in SCHED_CAPACITY_SCALE units.
 */
unsigned long plugsched_cpu_util(int cpu, int boost)
{
	struct rq *rq = cpu_rq(cpu);
	struct plugsched_rq *prq = &rq->plug;
	unsigned long util = READ_ONCE(prq->avg.util_avg);
	u64 now, lut;

	if (plugsched_breaks(PLUGSCHED_BREAK_UTIL))
		return 0;
	if (boost)
		util = max(util, READ_ONCE(prq->avg.runnable_avg));
	if (!IS_ENABLED(CONFIG_64BIT) || READ_ONCE(prq->nr_running) || !util)
		return util;
	now = u64_u32_load(rq->clock_pelt_idle);
	/* Paired with _update_idle_rq_clock_pelt(): an underestimate at worst. */
	smp_rmb();
	lut = READ_ONCE(prq->avg.last_update_time);
	if (now < lut)
		return util;
	now += sched_clock_cpu(cpu) - u64_u32_load(rq->clock_idle);
	return plugsched_util_decay(util, (now - lut) >> 20);
}

static inline void plugsched_set_running(struct plugsched_rq *prq, bool running)
{
	prq->pelt_running = running;
}

/* schedutil hears of a moved signal, and of a task woken from I/O wait. */
static void plugsched_util_changed(struct rq *rq, bool moved, unsigned int flags)
{
	if (moved || flags)
		cpufreq_update_util(rq, flags);
}
#else
static inline bool plugsched_update_util(struct rq *rq) { return false; }
static inline void plugsched_util_changed(struct rq *rq, bool moved, unsigned int flags) { }
static inline void plugsched_set_running(struct plugsched_rq *prq, bool running) { }
#endif

/* @p's weight and units join (@sign 1) or leave (-1) @prq's sums. */
static inline void plugsched_rq_add_load(struct plugsched_rq *prq, struct task_struct *p,
					 long sign)
{
	prq->load += sign * (long)p->plugsched.load;
	prq->units += sign * (long)plugsched_task_units(p);
}

/*
 * @p joins the policy on @rq (enqueue, or back from a cpu.max throttle):
 * the core's counts and sums, then the policy. @cpufreq_flags for
 * schedutil.
 */
void plugsched_queue(struct rq *rq, struct task_struct *p, unsigned int pflags,
		     unsigned int cpufreq_flags)
{
	struct plugsched_rq *prq = &rq->plug;
	bool moved;

	plugsched_set_group_idle(p);
	if (!plugsched_rq_bypass(prq))
		plugsched_home_enqueue(plugsched_cur_ops, p, cpu_of(rq));

	moved = plugsched_update_util(rq);
	if (!prq->nr_running++) {
		/* As fair does: idle time counts as time the server had. */
		if (!rq->nr_running)
			dl_server_update_idle_time(rq, plug_rq_curr(rq));
		dl_server_start(&rq->plug_server);
	}
	prq->nr_idle += plugsched_task_is_idle(p);
	plugsched_group_enqueue(p);
	p->plugsched.load = plugsched_group_weight(p);
	plugsched_rq_add_load(prq, p, 1);
	p->plugsched.flags |= PLUGSCHED_TF_QUEUED;
	list_add_tail(&p->plugsched.runnable_node, plugsched_runnable(prq, p));
	if (!plugsched_rq_bypass(prq))
		plugsched_cur_ops->enqueue(prq, p, pflags);
	add_nr_running(rq, 1);
	plugsched_util_changed(rq, moved, cpufreq_flags);
	/* Queued behind a task of a higher class: the CPU is not ours. */
	plugsched_release(rq, plug_rq_curr(rq));
}

/* @p leaves the policy on @rq (dequeue, or a cpu.max throttle). */
void plugsched_unqueue(struct rq *rq, struct task_struct *p, unsigned int pflags)
{
	struct plugsched_rq *prq = &rq->plug;
	bool moved;

	/* A bypassed policy's queues are dropped whole at its next start. */
	if (!plugsched_rq_bypass(prq))
		plugsched_cur_ops->dequeue(prq, p, pflags);
	list_del_init(&p->plugsched.runnable_node);
	p->plugsched.flags &= ~PLUGSCHED_TF_QUEUED;
	moved = plugsched_update_util(rq);
	prq->nr_running--;
	prq->nr_idle -= plugsched_task_is_idle(p);
	plugsched_rq_add_load(prq, p, -1);
	plugsched_group_dequeue(p);
	sub_nr_running(rq, 1);
	plugsched_util_changed(rq, moved, 0);
}

static void enqueue_task_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned int pflags = 0;
	bool fresh = false;

	if (unlikely(plugsched_task_owner(p) != plugsched_owner)) {
		plugsched_task_init(p);
		fresh = true;
	}

	if (flags & ENQUEUE_WAKEUP)
		pflags |= PLUGSCHED_ENQ_WAKEUP;
	if (flags & ENQUEUE_INITIAL)
		pflags |= PLUGSCHED_ENQ_NEW;
	if (flags & ENQUEUE_RESTORE)
		pflags |= PLUGSCHED_ENQ_RESTORE;
	if (task_on_rq_migrating(p))
		pflags |= PLUGSCHED_ENQ_MIGRATED;
	if (p->plugsched.flags & PLUGSCHED_TF_PULLED)
		pflags |= PLUGSCHED_ENQ_PULLED;
	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL))
		p->plugsched.runnable_at = plugsched_now(prq);
	else if ((pflags & PLUGSCHED_ENQ_MIGRATED) && !fresh)
		/* From the wait the source CPU's clock measured (dequeue). */
		p->plugsched.runnable_at = plugsched_now(prq) - p->plugsched.runnable_at;
	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		WARN_ONCE(p->plugsched.flags & PLUGSCHED_TF_QUEUED,
			  "plugsched: %s/%d queued twice\n", p->comm, p->pid);

	if (!plugsched_bw_enqueue(rq, p))
		plugsched_queue(rq, p, pflags, (flags & ENQUEUE_WAKEUP) && p->in_iowait ?
					       SCHED_CPUFREQ_IOWAIT : 0);
	plugsched_bw_kick(rq, p);
}

static bool dequeue_task_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned int pflags = 0;

	if (task_current(rq, p))
		update_curr_plug(rq);
	if (plugsched_bw_dequeue_parked(rq, p, flags))
		return true;

	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		WARN_ONCE(!(p->plugsched.flags & PLUGSCHED_TF_QUEUED),
			  "plugsched: %s/%d dequeued while not queued\n", p->comm, p->pid);
	if (flags & DEQUEUE_SLEEP)
		pflags |= PLUGSCHED_DEQ_SLEEP;
	if (flags & DEQUEUE_SAVE)
		pflags |= PLUGSCHED_DEQ_SAVE;
	if (task_on_rq_migrating(p))
		pflags |= PLUGSCHED_DEQ_MIGRATE;

	plugsched_unqueue(rq, p, pflags);
	plugsched_bw_unlink(p);
	/* Clocks differ between CPUs: carry the wait, not the stamp. */
	if (pflags & PLUGSCHED_DEQ_MIGRATE)
		p->plugsched.runnable_at = plugsched_now(prq) - p->plugsched.runnable_at;
	return true;
}

static void yield_task_plug(struct rq *rq)
{
	/* do_sched_yield() does not update the clock; the switch that follows will. */
	update_rq_clock(rq);
	update_curr_plug(rq);
	rq_clock_skip_update(rq);
	/* In bypass the yielder is last already (set_next_task_plug()); parked, it goes. */
	if (!plugsched_rq_bypass(&rq->plug) &&
	    (plug_rq_curr(rq)->plugsched.flags & PLUGSCHED_TF_QUEUED))
		plugsched_cur_ops->yield(&rq->plug, plug_rq_curr(rq));
}

static void wakeup_preempt_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = plug_rq_curr(rq);

	if (curr == p || curr->sched_class != &plug_sched_class ||
	    plugsched_breaks(PLUGSCHED_BREAK_PREEMPT))
		return;
	/* Parked by cpu.max (curr: rescheduled already): not the policy's. */
	if (unlikely(!(p->plugsched.flags & curr->plugsched.flags & PLUGSCHED_TF_QUEUED)))
		return;

	/* SCHED_IDLE runs only while nothing else wants the CPU. */
	if (plugsched_task_is_idle(curr) && !plugsched_task_is_idle(p)) {
		resched_curr(rq);
		return;
	}
	/* A relief lasts PLUGSCHED_RELIEF_NS (task_tick_plug() ends it). */
	if (curr->plugsched.flags & PLUGSCHED_TF_RELIEVED)
		return;
	/* SCHED_BATCH and SCHED_IDLE never preempt on wakeup; in bypass nobody does. */
	if (plugsched_task_is_idle(p) || p->policy == SCHED_BATCH ||
	    plugsched_rq_bypass(&rq->plug))
		return;
	/* A synchronous waker on this CPU is about to sleep: let it. */
	if ((flags & WF_SYNC) && cpu_of(rq) == smp_processor_id())
		return;

	update_curr_plug(rq);
	if (plugsched_cur_ops->preempt(&rq->plug, curr, p))
		resched_curr(rq);
}

/*
 * A SCHED_IDLE task runs when nothing else of the policy wants the CPU,
 * and for a tick after waiting PLUGSCHED_IDLE_WAIT: one preempted in an
 * RCU read-side section, or holding a lock, must not stall everybody (the
 * fair class gives such tasks a small weight, not nothing).
 */
#define PLUGSCHED_IDLE_WAIT	HZ

/* Bypass: the task that waited longest, SCHED_IDLE ones after the rest. */
static struct task_struct *plugsched_bypass_pick(struct plugsched_rq *prq)
{
	struct list_head *queued = list_empty(&prq->runnable) ? &prq->runnable_idle :
				   &prq->runnable;

	return list_first_entry_or_null(queued, struct task_struct, plugsched.runnable_node);
}

/*
 * Relief: a task that waited over plugsched_relief_ms runs 10 ms next,
 * whatever the policy says, the longest waiting first. Mainline never
 * gives a runnable task nothing: a nice 19 task beside a nice 0 one runs a
 * base slice every ~200 ms. (A base slice, 0.75..3 ms, can go by in
 * interrupts alone under emulation or a debug kernel; 10 ms a second is 1%
 * of a CPU.) A policy may leave a task waiting for
 * minutes by design (Zaphod: base_promotion_interval x (runnable - 1) per
 * slot; o1's active array), and a starved task that holds a lock stalls
 * every task that waits for it, each handoff of the lock as long again.
 * @runnable is in order of waits: O(1), its first entry or, behind the
 * running task, its second.
 */
static unsigned long plugsched_relief_jiffies(void)
{
	unsigned int ms = READ_ONCE(plugsched_relief_ms);

	return ms ? msecs_to_jiffies(ms) : 0;
}

static struct task_struct *plugsched_relief_pick(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned long relief = plugsched_relief_jiffies();
	struct task_struct *p;

	if (!relief || list_empty(&prq->runnable))
		return NULL;
	p = list_first_entry(&prq->runnable, struct task_struct, plugsched.runnable_node);
	if (task_current(rq, p)) {
		if (list_is_last(&p->plugsched.runnable_node, &prq->runnable))
			return NULL;
		p = list_next_entry(p, plugsched.runnable_node);
	}
	return plugsched_waited(prq, p) > relief ? p : NULL;
}

static struct task_struct *pick_task_plug(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	struct task_struct *p;

	if (unlikely(prq->released))
		plugsched_end_release(&rq->plug);
	plugsched_bw_check(rq, plug_rq_curr(rq));
	if (!prq->nr_running)
		return NULL;
	if (unlikely(prq->nr_idle) && prq->nr_idle < prq->nr_running) {
		p = list_first_entry(&prq->runnable_idle, struct task_struct,
				     plugsched.runnable_node);
		if (!task_current(rq, p) && plugsched_waited(prq, p) > PLUGSCHED_IDLE_WAIT)
			return p;
	}
	if (plugsched_rq_bypass(prq))
		return plugsched_bypass_pick(prq);
	p = plugsched_relief_pick(rq);
	if (unlikely(p))
		return p;
	return plugsched_cur_ops->pick(prq);
}

static void put_prev_task_plug(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	update_curr_plug(rq);
	/* Preempted by RT or deadline, where our pick did not run. */
	plugsched_bw_check(rq, p);
	plugsched_update_util(rq);
	plugsched_set_running(&rq->plug, false);
	p->plugsched.flags &= ~PLUGSCHED_TF_RELIEVED;
	/* Not after a dequeue for a nice or policy change: on_rq is still set. */
	if (p->plugsched.flags & PLUGSCHED_TF_QUEUED) {
		p->plugsched.runnable_at = plugsched_now(&rq->plug);
		list_move_tail(&p->plugsched.runnable_node, plugsched_runnable(&rq->plug, p));
		if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->put_prev)
			plugsched_cur_ops->put_prev(&rq->plug, p);
	}
	/* As sched_ext: the policy hears of @p first, then of the CPU. */
	if (next)
		plugsched_release(rq, next);
}

void set_next_task_plug(struct rq *rq, struct task_struct *p, bool first)
{
	unsigned long relief = plugsched_relief_jiffies();

	p->se.exec_start = rq_clock_task(rq);
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	plugsched_update_util(rq);
	plugsched_set_running(&rq->plug, true);
	if (unlikely(rq->plug.released))
		plugsched_end_release(&rq->plug);
	/* Whoever picked it: a run after such a wait is a relief (above). */
	p->plugsched.flags &= ~PLUGSCHED_TF_RELIEVED;
	if ((p->plugsched.flags & PLUGSCHED_TF_QUEUED) && !task_current(rq, p) &&
	    !plugsched_task_is_idle(p) &&
	    !plugsched_rq_bypass(&rq->plug) && relief &&
	    plugsched_waited(&rq->plug, p) > relief) {
		p->plugsched.flags |= PLUGSCHED_TF_RELIEVED;
		atomic_inc(&plugsched_nr_reliefs);
	}
	p->plugsched.runnable_at = plugsched_now(&rq->plug);
	if (plugsched_rq_bypass(&rq->plug))
		p->plugsched.slice = PLUGSCHED_BYPASS_SLICE;
	/* As sched_fair_update_stop_tick(): a lone limited task keeps the tick. */
	if (IS_ENABLED(CONFIG_NO_HZ_FULL) && tick_nohz_full_cpu(cpu_of(rq)) &&
	    rq->nr_running == 1 && plugsched_bw_limited(p))
		tick_nohz_dep_set_cpu(cpu_of(rq), TICK_DEP_BIT_SCHED);
	if (!(p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		return;
	list_move_tail(&p->plugsched.runnable_node, plugsched_runnable(&rq->plug, p));
	if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->set_next)
		plugsched_cur_ops->set_next(&rq->plug, p);
}

/* The running @p's groups' loads changed since it was queued: follow them. */
static void plugsched_reweight(struct plugsched_rq *prq, struct task_struct *p)
{
	unsigned long w = plugsched_group_weight(p);

	if (w == p->plugsched.load)
		return;
	plugsched_rq_add_load(prq, p, -1);
	p->plugsched.load = w;
	plugsched_rq_add_load(prq, p, 1);
}

static void task_tick_plug(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_plug(rq);

	/*
	 * The remote tick of a nohz_full CPU can find @p still current but
	 * dequeued already, while __schedule() balances with the lock dropped:
	 * the policy no longer holds @p.
	 */
	if (unlikely(!(p->plugsched.flags & PLUGSCHED_TF_QUEUED))) {
		if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
			atomic_inc(&plugsched_tick_dequeued);
		return;
	}
	/* Keep this CPU's RT/deadline load fresh for the balancers' view. */
	update_other_load_avgs(rq);
	plugsched_util_changed(rq, plugsched_update_util(rq), 0);
	if (plugsched_task_grouped(p))
		plugsched_reweight(&rq->plug, p);
	/* Automatic NUMA balancing scans from the running task's tick. */
	if (!plugsched_breaks(PLUGSCHED_BREAK_NUMA_SCAN))
		plugsched_task_tick_numa(rq, p);
	if (!plugsched_rq_bypass(&rq->plug))
		plugsched_home_follow_numa(plugsched_cur_ops, p);

	if (plugsched_rq_bypass(&rq->plug)) {
		if (p->plugsched.slice <= 0 && rq->plug.nr_running > 1)
			resched_curr(rq);
		return;
	}
	/*
	 * A relief runs PLUGSCHED_RELIEF_NS whatever the policy's slice says,
	 * then the policy picks again; a wait over the relief limit ends at
	 * this tick, not at the slice's end.
	 */
	if (p->plugsched.flags & PLUGSCHED_TF_RELIEVED) {
		if (p->se.sum_exec_runtime - p->se.prev_sum_exec_runtime >= PLUGSCHED_RELIEF_NS) {
			if (p->plugsched.slice <= 0)
				plugsched_cur_ops->slice_expired(&rq->plug, p);
			resched_curr(rq);
		}
	} else {
		if (p->plugsched.slice <= 0) {
			if (plugsched_cur_ops->slice_expired(&rq->plug, p))
				resched_curr(rq);
		} else if (plugsched_cur_ops->tick && plugsched_cur_ops->tick(&rq->plug, p)) {
			resched_curr(rq);
		}
		if (plugsched_relief_pick(rq))
			resched_curr(rq);
	}
	/* A SCHED_IDLE task picked after its wait gets one tick. */
	if (plugsched_task_is_idle(p) && rq->plug.nr_idle < rq->plug.nr_running)
		resched_curr(rq);
#ifdef CONFIG_SCHED_CORE
	/*
	 * As the fair class does: a sibling this task's cookie forces idle
	 * gets its turn (plugsched_prio_less()) once this one ran a base
	 * slice; the policy's own slice may be 100 ms or more.
	 */
	if (sched_core_enabled(rq) && rq->core->core_forceidle_count &&
	    plugsched_core_slice_used(p))
		resched_curr(rq);
#endif
	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		plugsched_check_counts(rq);
}

static void task_fork_plug(struct task_struct *p)
{
	const struct plugsched_ops *ops;
	struct rq *rq = this_rq();
	bool parent_plugged;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	/*
	 * copy_process() may sleep between sched_fork() choosing this class
	 * and this call, and a switch back to mainline may have finished
	 * meanwhile: then plugsched_post_fork() moves @p to the fair class.
	 * One snapshot: interrupts are off, and a leaving policy is retired
	 * only after every CPU took an IPI once plugsched_cur_ops is NULL.
	 */
	ops = READ_ONCE(plugsched_cur_ops);
	if (unlikely(!ops)) {
		rq_unlock(rq, &rf);
		return;
	}
	update_rq_clock(rq);
	/* Being ejected: the core's state only, the policy hears nothing. */
	if (unlikely(READ_ONCE(plugsched_bypassing))) {
		__plugsched_task_init(NULL, p);
		rq_unlock(rq, &rf);
		return;
	}
	__plugsched_task_init(ops, p);
	plugsched_home_fork(ops, p);
	/* A plugged parent keeps the plug class, and plugsched_cur_ops, alive. */
	parent_plugged = current->sched_class == &plug_sched_class;
	if (parent_plugged)
		update_curr_plug(rq);
	if (ops->fork)
		ops->fork(parent_plugged ? &rq->plug : NULL, current, p);
	rq_unlock(rq, &rf);
}

static void switched_to_plug(struct rq *rq, struct task_struct *p)
{
	/*
	 * Time in another class (RT, a PI boost) was no wait of the policy's,
	 * and the stamp may be of another CPU's clock: RT tasks migrate.
	 */
	p->plugsched.runnable_at = plugsched_now(&rq->plug);
	/* Its affinity may have changed there, unseen by set_cpus_allowed_plug(). */
	if (!plugsched_rq_bypass(&rq->plug))
		plugsched_home_from_mask(plugsched_cur_ops, p);
	if (task_on_rq_queued(p) && !task_current(rq, p))
		wakeup_preempt(rq, p, 0);
}

/* The running task became RT or deadline (sched_setscheduler, PI boost). */
static void switched_from_plug(struct rq *rq, struct task_struct *p)
{
	if (task_current(rq, p))
		plugsched_release(rq, p);
}

static void prio_changed_plug(struct rq *rq, struct task_struct *p, int oldprio)
{
	/* Not queued, or parked by cpu.max: the policy hears at its enqueue. */
	if (!(p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		return;

	if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->prio_changed)
		plugsched_cur_ops->prio_changed(&rq->plug, p);

	if (task_current(rq, p)) {
		if (p->prio > oldprio)
			resched_curr(rq);
	} else {
		wakeup_preempt(rq, p, 0);
	}
}

static unsigned int get_rr_interval_plug(struct rq *rq, struct task_struct *p)
{
	u64 ns;

	if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->rr_interval)
		ns = plugsched_cur_ops->rr_interval(p);
	else
		ns = max_t(s64, p->plugsched.slice, 0);
	return NS_TO_JIFFIES(ns);
}

/* The tick must keep running while tasks of the policy share the CPU. */
bool plugsched_can_stop_tick(struct rq *rq)
{
	struct task_struct *curr = plug_rq_curr(rq);

	if (rq->plug.nr_running > 1)
		return false;
	/* As for a fair task: the tick charges a cpu.max limit. */
	return !(rq->nr_running == 1 && curr->sched_class == &plug_sched_class &&
		 plugsched_bw_limited(curr));
}

#if defined(CONFIG_SCHED_CORE) && defined(CONFIG_CFS_BANDWIDTH)
/* Core scheduling must not hand a sibling a task parked by cpu.max. */
static int task_is_throttled_plug(struct task_struct *p, int cpu)
{
	return !!(p->plugsched.flags & PLUGSCHED_TF_PARKED);
}
#endif

DEFINE_SCHED_CLASS(plug) = {
	.enqueue_task		= enqueue_task_plug,
	.dequeue_task		= dequeue_task_plug,
	.yield_task		= yield_task_plug,
	.wakeup_preempt		= wakeup_preempt_plug,
	.pick_task		= pick_task_plug,
	.put_prev_task		= put_prev_task_plug,
	.set_next_task		= set_next_task_plug,
#ifdef CONFIG_SMP
	.balance		= balance_plug,
	.select_task_rq		= select_task_rq_plug,
	.migrate_task_rq	= migrate_task_rq_plug,
	.set_cpus_allowed	= set_cpus_allowed_plug,
#endif
	.task_tick		= task_tick_plug,
	.task_fork		= task_fork_plug,
	.switched_from		= switched_from_plug,
	.switched_to		= switched_to_plug,
	.prio_changed		= prio_changed_plug,
	.get_rr_interval	= get_rr_interval_plug,
	.update_curr		= update_curr_plug,
#ifdef CONFIG_UCLAMP_TASK
	/* The core keeps the clamps of queued tasks; schedutil applies them. */
	.uclamp_enabled		= 1,
#endif
#if defined(CONFIG_SCHED_CORE) && defined(CONFIG_CFS_BANDWIDTH)
	.task_is_throttled	= task_is_throttled_plug,
#endif
};

/* /proc/PID/sched */
void plugsched_show_task(struct task_struct *p, struct seq_file *m)
{
	const struct plugsched_ops *ops = READ_ONCE(plugsched_cur_ops);

	if (!ops || p->sched_class != &plug_sched_class)
		return;
	seq_printf(m, "%-45s:%21s\n", "plugsched.policy", ops->name);
	seq_printf(m, "%-45s:%21d\n", "plugsched.bypass", READ_ONCE(plugsched_bypassing));
	seq_printf(m, "%-45s:%21lld\n", "plugsched.slice_ns", p->plugsched.slice);
	seq_printf(m, "%-45s:%21u\n", "plugsched.nr_node_migrations",
		   p->plugsched.nr_node_migrations);
	/* What the watchdog sees: how long a queued task has waited. */
	seq_printf(m, "%-45s:%21u\n", "plugsched.waiting_ms",
		   (p->plugsched.flags & PLUGSCHED_TF_QUEUED) && !task_on_cpu(task_rq(p), p) ?
		   jiffies_to_msecs(plugsched_waited(&task_rq(p)->plug, p)) : 0);
	if (ops->show_task && !READ_ONCE(plugsched_bypassing))
		ops->show_task(m, p);
}
