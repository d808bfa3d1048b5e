// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: a task joins and leaves the core.
 *
 * Its state for the active policy, the charge of its run time, and the
 * counts and sums every runqueue keeps of its plugged tasks (number,
 * SCHED_IDLE ones, load, group sums, the utilisation signal), kept the
 * same way whether the class queues a task (plugsched_class.c) or cpu.max
 * parks and unparks it (plugsched_bandwidth.c).
 */
#include <linux/plugsched.h>

#include "plugsched_internal.h"

/*
 * Give @p fresh state of @ops, the active policy, or (NULL) the core's
 * only, for a runqueue in bypass; @p is not queued.
 */
void __plugsched_task_init(const struct plugsched_ops *ops, struct task_struct *p)
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

/* The running @p's groups' loads changed since it was queued: follow them. */
void plugsched_reweight(struct plugsched_rq *prq, struct task_struct *p)
{
	unsigned long w = plugsched_group_weight(p);

	if (w == p->plugsched.load)
		return;
	plugsched_rq_add_load(prq, p, -1);
	p->plugsched.load = w;
	plugsched_rq_add_load(prq, p, 1);
}
