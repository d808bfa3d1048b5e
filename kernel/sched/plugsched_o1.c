// SPDX-License-Identifier: GPL-2.0
/*
 * The O(1) scheduler policy (sched=o1), after Ingo Molnar's scheduler of
 * Linux 2.6.0 .. 2.6.22, on the plugsched core.
 *
 * Per CPU an active and an expired priority array of the 40 nice levels.
 * A task's slice follows its static priority; its dynamic priority is the
 * static one moved by up to +-5 levels by sleep_avg, which grows while
 * the task sleeps and shrinks while it runs. A task whose slice runs out
 * goes to the expired array, unless it is interactive and the expired
 * array is not starving. When the active array is empty the arrays swap.
 *
 * Unlike 2.6, a wait in the active array is bounded too: interactive
 * tasks that sleep a little (a fork loop: the child starts with 95% of its
 * parent's sleep_avg, and parent and child wake in turn) would otherwise
 * run ahead of a lower priority task there, and keep expired tasks from
 * the swap, for ever. Once a task has waited past the starvation limit,
 * the active array drains: until the arrays swap, only a task that wakes
 * with a slice from before the drain joins it.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/plugsched.h>
#include <linux/seq_file.h>

#define O1_MAX_BONUS		10	/* dynamic priority range: +-5 */
#define O1_MIN_TIMESLICE_MS	5
#define O1_MAX_SLEEP_AVG	(1000 * NSEC_PER_MSEC)
#define O1_GRANULARITY_MS	10	/* round robin of interactive peers */
#define O1_CHILD_PENALTY	95	/* a child keeps 95% of its sleep_avg */

/* Knobs: the core sets them to the table's defaults at boot and activation. */
static int o1_def_timeslice_ms;
static int o1_starvation_limit_ms;

static const struct plugsched_knob o1_knobs[] = {
	{
		.name	= "o1_def_timeslice_ms",
		.unit	= "ms",
		.value	= &o1_def_timeslice_ms,
		.min	= 5,
		.max	= 1000,
		.def	= 100,
	},
	{
		.name	= "o1_starvation_limit_ms",
		.unit	= "ms",
		.value	= &o1_starvation_limit_ms,
		.min	= 0,
		.max	= 60000,
		.def	= 1000,
	},
};

struct o1_task {
	u64	sleep_avg;	/* ns, 0..O1_MAX_SLEEP_AVG */
	u64	timestamp;	/* rq clock at sleep or at last run start */
	s64	rr_mark;	/* slice left at which to round robin next */
	unsigned long refilled;	/* jiffies at the last slice refill */
	int	prio;		/* dynamic priority, MAX_RT_PRIO..MAX_PRIO-1 */
	bool	expired;	/* was on the expired array when last dequeued */
};

struct o1_rq {
	struct plugsched_prio_array	arrays[2];
	struct plugsched_prio_array	*active;
	struct plugsched_prio_array	*expired;
	unsigned long			expired_timestamp;	/* jiffies */
	int				best_expired_prio;
	bool				draining;	/* no newcomers till the swap */
	unsigned long			drain_since;		/* jiffies */
	unsigned long			nr_switches;		/* array swaps */
};

static DEFINE_PER_CPU(struct o1_rq, o1_rqs);

static inline struct o1_task *o1_task(struct task_struct *p)
{
	return plugsched_task_priv(p, struct o1_task);
}

static inline struct o1_rq *o1_rq(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&o1_rqs, prq->cpu);
}

/*
 * Slice by static priority: SCALE_PRIO(x, sp) = x * (140 - sp) / 20, with
 * x = 4 * DEF_TIMESLICE below nice 0: 800 / 100 / 5 ms at nice -20 / 0 / 19.
 */
static u64 o1_timeslice_ns(int static_prio, int def_ms)
{
	int x = static_prio < NICE_TO_PRIO(0) ? def_ms * 4 : def_ms;
	int ms = x * (MAX_PRIO - static_prio) / (NICE_WIDTH / 2);

	return (u64)max(ms, O1_MIN_TIMESLICE_MS) * NSEC_PER_MSEC;
}

static inline int o1_bonus(u64 sleep_avg)
{
	return div64_u64(sleep_avg * O1_MAX_BONUS, O1_MAX_SLEEP_AVG);
}

/* static_prio - (bonus - 5), clamped to the normal range. */
static int o1_effective_prio(int static_prio, u64 sleep_avg)
{
	int prio = static_prio - (o1_bonus(sleep_avg) - O1_MAX_BONUS / 2);

	return clamp(prio, MAX_RT_PRIO, MAX_PRIO - 1);
}

/* DELTA: nice / 4 + 2, how far above its static priority a task must be. */
static inline int o1_delta(int static_prio)
{
	return (PRIO_TO_NICE(static_prio) + 20) * O1_MAX_BONUS / NICE_WIDTH -
	       O1_MAX_BONUS / 2 + 2;
}

/* TASK_INTERACTIVE: prio <= static_prio - DELTA. */
static bool o1_interactive(int prio, int static_prio)
{
	return prio <= static_prio - o1_delta(static_prio);
}

/* Each task runs its slice once per array swap: the slice carries group shares. */
static inline u64 o1_task_slice(struct task_struct *p)
{
	return plugsched_scale_slice(p, o1_timeslice_ns(p->static_prio,
						       READ_ONCE(o1_def_timeslice_ms)));
}

/* TIMESLICE_GRANULARITY: 10 ms, doubled for each bonus level below max. */
static s64 o1_granularity(struct task_struct *p)
{
	int shift = (O1_MAX_BONUS - o1_bonus(o1_task(p)->sleep_avg)) ? : 1;

	return (s64)O1_GRANULARITY_MS * NSEC_PER_MSEC << (shift - 1);
}

/* A new slice, less the tick's overrun of the last one (0 for a new task). */
static void o1_refill(struct task_struct *p)
{
	p->plugsched.slice = plugsched_refill_slice(p, o1_task_slice(p));
	o1_task(p)->rr_mark = p->plugsched.slice - o1_granularity(p);
	o1_task(p)->refilled = jiffies;
}

static void o1_recalc_prio(struct task_struct *p)
{
	struct o1_task *ot = o1_task(p);

	/* SCHED_BATCH earns no sleep_avg (2.6): a CPU hog's priority. */
	if (plugsched_task_is_idle(p))
		ot->prio = p->static_prio;
	else if (p->policy == SCHED_BATCH)
		ot->prio = o1_effective_prio(p->static_prio, 0);
	else
		ot->prio = o1_effective_prio(p->static_prio, ot->sleep_avg);
}

/*
 * INTERACTIVE_SLEEP: the sleep_avg that just makes @p interactive, where
 * 2.6 put a user task back from a long sleep (800 ms at nice 0).
 */
static u64 o1_interactive_sleep(struct task_struct *p)
{
	int bonus = O1_MAX_BONUS / 2 + o1_delta(p->static_prio) + 1;

	return div_u64(O1_MAX_SLEEP_AVG * bonus, O1_MAX_BONUS) - 1;
}

/*
 * The sleep that ends now: since the stamp of its dequeue, or, with no
 * stamp, since before the policy came (a task asleep then is given its
 * state at this wakeup), for as long as nobody knows: a long sleep, which
 * 2.6 credited in full to a kernel thread and up to just interactive to a
 * user task. A kworker asleep across a switch must not wake as a CPU hog.
 */
static void o1_credit_sleep(struct task_struct *p, u64 now)
{
	struct o1_task *ot = o1_task(p);
	u64 avg = ot->sleep_avg;

	if (p->policy == SCHED_BATCH)
		return;
	/* (a stamp of another CPU's clock may be a little ahead of @now) */
	if (ot->timestamp && now > ot->timestamp)
		avg += now - ot->timestamp;
	else if (!ot->timestamp && (p->flags & PF_KTHREAD))
		avg = O1_MAX_SLEEP_AVG;
	else if (!ot->timestamp)
		avg = max(avg, o1_interactive_sleep(p));
	ot->sleep_avg = min_t(u64, avg, O1_MAX_SLEEP_AVG);
}

static inline unsigned int o1_slot(struct task_struct *p)
{
	if (plugsched_task_is_idle(p))
		return PLUGSCHED_IDLE_SLOT;
	return o1_task(p)->prio - MAX_RT_PRIO;
}

static inline bool o1_task_interactive(struct task_struct *p)
{
	if (p->policy == SCHED_BATCH || plugsched_task_is_idle(p))
		return false;
	return o1_interactive(o1_task(p)->prio, p->static_prio);
}

/* EXPIRED_STARVING: the expired array waited too long, or holds better. */
static bool o1_expired_starving(struct o1_rq *orq, struct plugsched_rq *prq,
				struct task_struct *curr)
{
	unsigned long limit = msecs_to_jiffies(READ_ONCE(o1_starvation_limit_ms));

	if (limit && orq->expired_timestamp &&
	    time_after_eq(jiffies, orq->expired_timestamp + limit * prq->nr_running + 1))
		return true;
	return curr->static_prio > orq->best_expired_prio;
}

static void o1_enqueue_expired(struct o1_rq *orq, struct task_struct *p)
{
	if (!orq->expired_timestamp)
		orq->expired_timestamp = jiffies;
	if (!plugsched_task_is_idle(p))
		orq->best_expired_prio = min(orq->best_expired_prio, p->static_prio);
	plugsched_array_add(orq->expired, p, o1_slot(p), false);
}

static void o1_init_rq(struct plugsched_rq *prq)
{
	struct o1_rq *orq = o1_rq(prq);

	plugsched_array_init(&orq->arrays[0]);
	plugsched_array_init(&orq->arrays[1]);
	orq->active = &orq->arrays[0];
	orq->expired = &orq->arrays[1];
	orq->expired_timestamp = 0;
	orq->best_expired_prio = MAX_PRIO;
	orq->draining = false;
	orq->nr_switches = 0;
}

/*
 * A task the policy has not seen (here before it came, or moved in by a
 * switch while runnable): a kernel thread as one back from a long sleep,
 * as 2.6 credited it, a user task at its static priority. With none, a
 * kworker runnable at the switch would queue behind every hog forked by
 * an interactive parent until those drain their sleep_avg.
 */
static u64 o1_initial_sleep_avg(struct task_struct *p)
{
	return p->flags & PF_KTHREAD ? O1_MAX_SLEEP_AVG : O1_MAX_SLEEP_AVG / 2;
}

static void o1_task_init(struct task_struct *p)
{
	o1_task(p)->sleep_avg = o1_initial_sleep_avg(p);
	o1_recalc_prio(p);
	o1_refill(p);
	/* A task here before the policy wakes as one with an old slice. */
	o1_task(p)->refilled = jiffies - MAX_JIFFY_OFFSET;
}

/* The child takes half the parent's slice and 95% of its sleep_avg. */
static void o1_fork(struct plugsched_rq *parent_prq, struct task_struct *parent,
		    struct task_struct *p)
{
	struct o1_task *ot = o1_task(p);

	if (parent_prq) {
		s64 left = max_t(s64, parent->plugsched.slice, 0);

		p->plugsched.slice = (left + 1) >> 1;
		parent->plugsched.slice = left >> 1;
		ot->sleep_avg = div_u64(o1_task(parent)->sleep_avg * O1_CHILD_PENALTY, 100);
		if (!p->plugsched.slice)
			p->plugsched.slice = 1;
	}
	/* Half of the parent's slice: as old as the parent's. */
	ot->refilled = parent_prq ? o1_task(parent)->refilled : jiffies;
	ot->timestamp = 0;
	o1_recalc_prio(p);
	ot->rr_mark = p->plugsched.slice - o1_granularity(p);
}

static void o1_enqueue(struct plugsched_rq *prq, struct task_struct *p,
		       unsigned int flags)
{
	struct o1_rq *orq = o1_rq(prq);
	struct o1_task *ot = o1_task(p);

	if (flags & PLUGSCHED_ENQ_WAKEUP) {
		u64 now = plugsched_clock(prq);

		o1_credit_sleep(p, now);
		ot->timestamp = now;
	}
	o1_recalc_prio(p);
	/*
	 * Back after a nice, policy or affinity change, or moved here while
	 * runnable: an expired task stays expired (2.6's pull_task() kept the
	 * array too), or toggling SCHED_BATCH would be a way out of it.
	 * While the active array drains, a task that wakes still joins it
	 * (a kworker must not wait out the drain) with the slice it had when
	 * the drain began; one whose slice ran out since then waits for the
	 * swap. Each task runs there at most one slice: the drain ends.
	 */
	if ((ot->expired && !(flags & (PLUGSCHED_ENQ_WAKEUP | PLUGSCHED_ENQ_NEW))) ||
	    (orq->draining && (!(flags & PLUGSCHED_ENQ_WAKEUP) ||
			       !time_before(ot->refilled, orq->drain_since))))
		o1_enqueue_expired(orq, p);
	else
		plugsched_array_add(orq->active, p, o1_slot(p), false);
	ot->expired = false;
}

static void o1_dequeue(struct plugsched_rq *prq, struct task_struct *p,
		       unsigned int flags)
{
	struct o1_rq *orq = o1_rq(prq);

	o1_task(p)->expired = p->plugsched.array == orq->expired;
	if (o1_task(p)->expired && orq->expired->nr_queued == 1)
		orq->expired_timestamp = 0;
	plugsched_array_del(p);
	if (flags & PLUGSCHED_DEQ_SLEEP)
		o1_task(p)->timestamp = plugsched_clock(prq);
}

static inline void o1_swap_arrays(struct o1_rq *orq)
{
	swap(orq->active, orq->expired);
	orq->expired_timestamp = 0;
	orq->best_expired_prio = MAX_PRIO;
	orq->draining = false;
	orq->nr_switches++;
}

static struct task_struct *o1_pick(struct plugsched_rq *prq)
{
	struct o1_rq *orq = o1_rq(prq);

	/* Swap when only SCHED_IDLE tasks (or none) are left active. */
	if (!(orq->active->bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT)) &&
	    orq->expired->nr_queued)
		o1_swap_arrays(orq);
	return plugsched_array_first(orq->active);
}

/* Sleep_avg shrinks by run time, more slowly the more interactive the task. */
static void o1_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta)
{
	struct o1_task *ot = o1_task(p);

	delta = div_u64(delta, max(o1_bonus(ot->sleep_avg), 1));
	ot->sleep_avg = ot->sleep_avg > delta ? ot->sleep_avg - delta : 0;
}

static bool o1_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	struct o1_rq *orq = o1_rq(prq);

	plugsched_array_del(p);
	o1_recalc_prio(p);
	o1_refill(p);
	if (!o1_task_interactive(p) || orq->draining || o1_expired_starving(orq, prq, p))
		o1_enqueue_expired(orq, p);
	else
		plugsched_array_add(orq->active, p, o1_slot(p), false);
	return true;
}

/*
 * Drain the active array once a task has waited past the starvation
 * limit, or past twice a default slice for each other task queued (a
 * round robin of CPU hogs, each running its slice once per swap, must not
 * set it off): the one waiting longest at the active array's lowest
 * priority, or the expired array, which woken tasks would otherwise keep
 * from its swap for ever (2.6's EXPIRED_STARVING stops only interactive
 * tasks whose slice ran out from rejoining the active array).
 */
static void o1_check_drain(struct o1_rq *orq, struct plugsched_rq *prq,
			   struct task_struct *curr)
{
	unsigned long limit = msecs_to_jiffies(READ_ONCE(o1_starvation_limit_ms));
	struct task_struct *p;

	if (!limit || orq->draining)
		return;
	/* @curr is queued: nr_running >= 1 */
	limit = max(limit, msecs_to_jiffies(2 * (prq->nr_running - 1) *
					    READ_ONCE(o1_def_timeslice_ms)));
	p = plugsched_array_last(orq->active, curr);
	if ((p && plugsched_waited(prq, p) > limit) ||
	    (orq->expired_timestamp && time_after(jiffies, orq->expired_timestamp + limit))) {
		orq->draining = true;
		orq->drain_since = jiffies;
	}
}

/* Interactive tasks round robin with same-priority peers every granule. */
static bool o1_tick(struct plugsched_rq *prq, struct task_struct *p)
{
	struct o1_rq *orq = o1_rq(prq);
	struct o1_task *ot = o1_task(p);
	s64 gran;

	o1_check_drain(orq, prq, p);
	if (p->plugsched.slice > ot->rr_mark)
		return false;
	gran = o1_granularity(p);
	ot->rr_mark = p->plugsched.slice - gran;
	if (!o1_task_interactive(p) || p->plugsched.slice < gran ||
	    p->plugsched.array != orq->active || plugsched_array_slot_singular(p))
		return false;
	plugsched_array_requeue(p);
	return true;
}

static bool o1_preempt(struct plugsched_rq *prq, struct task_struct *curr,
		       struct task_struct *p)
{
	/* Sent to the expired array while the active one drains: it waits. */
	if (p->plugsched.array == o1_rq(prq)->expired)
		return false;
	return o1_task(p)->prio < o1_task(curr)->prio;
}

/* sched_yield() moves the task to the expired array. */
static void o1_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	struct o1_rq *orq = o1_rq(prq);

	if (p->plugsched.array == orq->expired) {
		plugsched_array_requeue(p);
		return;
	}
	plugsched_array_del(p);
	o1_enqueue_expired(orq, p);
}

/* A nice change grants no new slice: what is left, at most the new size. */
static void o1_prio_changed(struct plugsched_rq *prq, struct task_struct *p)
{
	struct o1_task *ot = o1_task(p);
	s64 slice = o1_task_slice(p);

	if (p->plugsched.slice > slice) {
		p->plugsched.slice = slice;
		ot->rr_mark = min(ot->rr_mark, slice - o1_granularity(p));
	}
}

/* Give away expired tasks first: they would not run soon anyway. */
static struct task_struct *o1_migration_candidate(struct plugsched_rq *src,
						  int dst_cpu, bool idle)
{
	struct o1_rq *orq = o1_rq(src);
	struct task_struct *p;

	p = plugsched_array_migratable(src, orq->expired, dst_cpu, idle);
	if (!p)
		p = plugsched_array_migratable(src, orq->active, dst_cpu, idle);
	return p;
}

static unsigned int o1_count(struct plugsched_rq *prq)
{
	struct o1_rq *orq = o1_rq(prq);
	unsigned int a = plugsched_array_count(orq->active);
	unsigned int e = plugsched_array_count(orq->expired);

	return a == UINT_MAX || e == UINT_MAX ? UINT_MAX : a + e;
}

static u64 o1_rr_interval(struct task_struct *p)
{
	return o1_task_slice(p);
}

static void o1_dump(struct plugsched_rq *prq, struct task_struct *p)
{
	struct o1_rq *orq = o1_rq(prq);

	pr_err("o1: active %u%s, expired %u queued, expired since %ld ms, %lu swaps; %s/%d in the %s array, prio %d, sleep_avg %llu ns\n",
	       orq->active->nr_queued, orq->draining ? " (draining)" : "",
	       orq->expired->nr_queued,
	       orq->expired_timestamp ?
	       (long)jiffies_to_msecs(jiffies - orq->expired_timestamp) : -1L,
	       orq->nr_switches, p->comm, task_pid_nr(p),
	       p->plugsched.array == orq->active ? "active" :
	       p->plugsched.array == orq->expired ? "expired" : "unknown",
	       o1_task(p)->prio, o1_task(p)->sleep_avg);
}

static void o1_show_task(struct seq_file *m, struct task_struct *p)
{
	struct o1_task *ot = o1_task(p);

	seq_printf(m, "%-45s:%21d\n", "o1.prio", ot->prio);
	seq_printf(m, "%-45s:%21llu\n", "o1.sleep_avg_ns", ot->sleep_avg);
	seq_printf(m, "%-45s:%21d\n", "o1.bonus", o1_bonus(ot->sleep_avg) - O1_MAX_BONUS / 2);
	seq_printf(m, "%-45s:%21d\n", "o1.interactive", o1_task_interactive(p));
	seq_printf(m, "%-45s:%21llu\n", "o1.timeslice_ns", o1_task_slice(p));
}

static struct plugsched_ops plugsched_o1_ops __ro_after_init = {
	.name			= "o1",
	.knobs			= o1_knobs,
	.nr_knobs		= ARRAY_SIZE(o1_knobs),
	.balance_ms		= 200,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.init_rq		= o1_init_rq,
	.task_init		= o1_task_init,
	.fork			= o1_fork,
	.enqueue		= o1_enqueue,
	.dequeue		= o1_dequeue,
	.pick			= o1_pick,
	.charge			= o1_charge,
	.slice_expired		= o1_slice_expired,
	.tick			= o1_tick,
	.preempt		= o1_preempt,
	.yield			= o1_yield,
	.prio_changed		= o1_prio_changed,
	.migration_candidate	= o1_migration_candidate,
	.rr_interval		= o1_rr_interval,
	.show_task		= o1_show_task,
	.count			= o1_count,
	.dump			= o1_dump,
};

PLUGSCHED_POLICY(plugsched_o1_ops);

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_o1_kunit.c"
#endif
