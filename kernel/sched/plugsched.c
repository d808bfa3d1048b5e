// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the core's state and the services of <linux/plugsched.h>.
 *
 * What every other file of the core and every policy reads: the active
 * policy and its activation tag, the static keys and flags of the phases,
 * and the services a policy calls (clock, weights and slices, priority
 * arrays, utilisation). Nothing here calls another file of the core: the
 * class (plugsched_class.c), queueing (plugsched_queue.c), balancing,
 * switching and the rest are built on it.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#include <linux/plugsched.h>
#include <linux/sched/clock.h>

#include "plugsched_internal.h"
#include "pelt.h"

DEFINE_PER_CPU(unsigned long [PLUGSCHED_NR_BAL_STATS], plugsched_bal_stats);

const char * const plugsched_bal_stat_names[PLUGSCHED_NR_BAL_STATS] = {
	[PLUGSCHED_BAL_NEWIDLE]		= "newidle",
	[PLUGSCHED_BAL_TICK]		= "tick",
	[PLUGSCHED_BAL_KICK]		= "kick",
	[PLUGSCHED_BAL_NUDGED]		= "nudged",
	[PLUGSCHED_BAL_VISITED]		= "visited",
	[PLUGSCHED_BAL_LOCKED]		= "locked",
	[PLUGSCHED_BAL_PULLED]		= "pulled",
	[PLUGSCHED_BAL_FAILED]		= "failed",
	[PLUGSCHED_BAL_PINNED]		= "pinned",
	[PLUGSCHED_BAL_WAKE_SCANNED]	= "wake_scanned",
	[PLUGSCHED_BAL_FORK_SCANNED]	= "fork_scanned",
	[PLUGSCHED_BAL_GROUP_ATOMICS]	= "group_atomics",
	[PLUGSCHED_BAL_WATCH_LOCKED]	= "watch_locked",
	[PLUGSCHED_BAL_IRQOFF_MAX_NS]	= "irqoff_max_ns",
};

/* The promise of plugsched_types.h: task_struct grows by 128 bytes at most. */
static_assert(sizeof(struct plugsched_task) <= 128);

const struct plugsched_ops *plugsched_cur_ops __read_mostly;
u16 plugsched_owner __read_mostly;

/*
 * The phases' static keys (see plugsched_internal.h; plugsched_switch.c
 * sets them): while a switch runs both classes are in use
 * (__plugsched_enabled only), and plugsched_to_plug says which class new
 * tasks join. No policy decides while plugsched_bypassing is set: the
 * runqueues follow it (plugsched_bypass_rqs()).
 */
DEFINE_STATIC_KEY_FALSE(__plugsched_enabled);
DEFINE_STATIC_KEY_FALSE(__plugsched_all);
bool plugsched_to_plug __read_mostly;
bool plugsched_bypassing __read_mostly = true;

#ifdef CONFIG_PLUGSCHED_DEBUG
/* Negative controls armed through debugfs (plugsched_ui.c). */
unsigned long plugsched_broken;
#endif

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
	/* 128 bits in between: a minute's wait times 65,536 tasks' units is over 64. */
	return mul_u64_u64_div_u64(wait, (u64)(prq->nr_running - 1) * units, prq->units - units);
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
#endif
