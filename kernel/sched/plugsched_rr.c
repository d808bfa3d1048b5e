// SPDX-License-Identifier: GPL-2.0
/*
 * The round-robin example policy (sched=rr): the smallest policy the core
 * takes, as a model for new ones (Documentation/scheduler/plugsched.rst,
 * "Adding a policy"). Each CPU keeps one FIFO of its tasks; the task at
 * its head runs for rr_slice_ms, then goes to the tail. Nice does not
 * matter; SCHED_IDLE tasks queue behind everybody else. Accounting,
 * placement, balancing, the SCHED_BATCH and SCHED_IDLE rules and the
 * watchdog are the core's.
 */
#include <linux/percpu.h>
#include <linux/plugsched.h>

/* Knobs: the core sets them to the table's defaults at boot and activation. */
static int rr_slice_ms;

static const struct plugsched_knob rr_knobs[] = {
	{
		.name	= "rr_slice_ms",
		.unit	= "ms",
		.value	= &rr_slice_ms,
		.min	= 1,
		.max	= 1000,
		.def	= 10,
	},
};

/* Slot 0 for every task but SCHED_IDLE ones, which take the last slot. */
static DEFINE_PER_CPU(struct plugsched_prio_array, rr_queue);

static struct plugsched_prio_array *rr_array(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&rr_queue, prq->cpu);
}

/* Tasks take turns: the slice carries the task groups' shares. */
static s64 rr_slice(struct task_struct *p)
{
	return plugsched_scale_slice(p, (u64)READ_ONCE(rr_slice_ms) * NSEC_PER_MSEC);
}

static void rr_refill(struct task_struct *p)
{
	p->plugsched.slice = rr_slice(p);
}

static void rr_init_rq(struct plugsched_rq *prq)
{
	plugsched_array_init(rr_array(prq));
}

static void rr_task_init(struct task_struct *p)
{
	rr_refill(p);
}

/* A task that becomes runnable joins the tail with a full slice. */
static void rr_enqueue(struct plugsched_rq *prq, struct task_struct *p, unsigned int flags)
{
	if (flags & PLUGSCHED_ENQ_WAKEUP)
		rr_refill(p);
	plugsched_array_add(rr_array(prq), p,
			    plugsched_task_is_idle(p) ? PLUGSCHED_IDLE_SLOT : 0, false);
}

static void rr_dequeue(struct plugsched_rq *prq, struct task_struct *p, unsigned int flags)
{
	plugsched_array_del(p);
}

/* The running task stays at the head until its slice is used. */
static struct task_struct *rr_pick(struct plugsched_rq *prq)
{
	return plugsched_array_first(rr_array(prq));
}

/* An overrun (the tick's granularity) is paid from the next slice. */
static bool rr_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	p->plugsched.slice += rr_slice(p);
	if (p->plugsched.slice <= 0)
		rr_refill(p);
	plugsched_array_requeue(p);
	return true;
}

/* Wakeups wait for their turn. */
static bool rr_preempt(struct plugsched_rq *prq, struct task_struct *curr,
		       struct task_struct *p)
{
	return false;
}

static void rr_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	plugsched_array_requeue(p);
}

static struct task_struct *rr_migration_candidate(struct plugsched_rq *src, int dst_cpu,
						  bool idle)
{
	return plugsched_array_migratable(src, rr_array(src), dst_cpu, idle);
}

static unsigned int rr_count(struct plugsched_rq *prq)
{
	return plugsched_array_count(rr_array(prq));
}

static struct plugsched_ops plugsched_rr_ops __ro_after_init = {
	.name			= "rr",
	.knobs			= rr_knobs,
	.nr_knobs		= ARRAY_SIZE(rr_knobs),
	.balance_ms		= 100,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.init_rq		= rr_init_rq,
	.task_init		= rr_task_init,
	.enqueue		= rr_enqueue,
	.dequeue		= rr_dequeue,
	.pick			= rr_pick,
	.slice_expired		= rr_slice_expired,
	.preempt		= rr_preempt,
	.yield			= rr_yield,
	.migration_candidate	= rr_migration_candidate,
	.count			= rr_count,
};

PLUGSCHED_POLICY(plugsched_rr_ops);
