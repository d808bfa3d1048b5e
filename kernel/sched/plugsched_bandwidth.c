// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: cgroup cpu.max for every policy.
 *
 * A plugged task charges its run time to its group's runqueue on its
 * CPU, p->se.cfs_rq, and to the ancestors' (fair.c's plugsched_bw_charge()),
 * and a level out of runtime is throttled by the fair class's own code at
 * the points where fair throttles: pick, put_prev, enqueue
 * (plugsched_bw_throttle()). Throttling parks the plugged
 * tasks of every runqueue below it on this CPU: the policy dequeues them
 * (PLUGSCHED_DEQ_THROTTLE), they leave the CPU's counts and wait on
 * prq->parked; the refill unparks them (PLUGSCHED_ENQ_UNTHROTTLE). Each
 * cfs_rq lists the group's plugged tasks on its CPU, queued or parked,
 * linked by p->se.group_node: the fair class uses that link only for
 * its own queued tasks (rq->cfs_tasks).
 */
#include "plugsched_internal.h"

#ifdef CONFIG_CFS_BANDWIDTH

/* Link @p to its group's runqueue here, counted up the levels that had none. */
static void plugsched_bw_link(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = p->se.cfs_rq;

	list_add_tail(&p->se.group_node, &cfs_rq->plug_tasks);
	while (cfs_rq && !cfs_rq->plug_nr++)
		cfs_rq = plugsched_parent_cfs_rq(cfs_rq);
}

/* And back: a level left without plugged tasks returns its slack. */
void __plugsched_bw_unlink(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = p->se.cfs_rq;

	list_del_init(&p->se.group_node);
	for (; cfs_rq && !--cfs_rq->plug_nr; cfs_rq = plugsched_parent_cfs_rq(cfs_rq))
		plugsched_bw_return(cfs_rq);
}

static void plugsched_park_one(struct plugsched_rq *prq, struct task_struct *p)
{
	p->plugsched.flags |= PLUGSCHED_TF_PARKED;
	list_add_tail(&p->plugsched.runnable_node, &prq->parked);
	prq->nr_parked++;
}

static void plugsched_unpark_one(struct plugsched_rq *prq, struct task_struct *p)
{
	p->plugsched.flags &= ~PLUGSCHED_TF_PARKED;
	list_del_init(&p->plugsched.runnable_node);
	prq->nr_parked--;
}

/*
 * Before @p joins the policy: a grouped task is linked to its group here,
 * its levels throttled if out of runtime (as check_enqueue_throttle()),
 * and parked if one is. Return: true if parked.
 */
bool __plugsched_bw_enqueue(struct rq *rq, struct task_struct *p)
{
	if (plugsched_bw_limited(p))
		plugsched_bw_throttle(p->se.cfs_rq);
	plugsched_bw_link(p);
	if (likely(!p->se.cfs_rq->throttle_count))
		return false;
	plugsched_park_one(&rq->plug, p);
	/* Back in the class while running (a class change): it must stop. */
	if (task_current(rq, p))
		resched_curr(rq);
	return true;
}

/* A parked task leaves: it is in no count but the list. */
void __plugsched_bw_dequeue_parked(struct rq *rq, struct task_struct *p, int flags)
{
	plugsched_unpark_one(&rq->plug, p);
	if (flags & DEQUEUE_SAVE)
		p->plugsched.flags |= PLUGSCHED_TF_UNPARKED;
	__plugsched_bw_unlink(p);
	/* No wait to carry: it was not runnable for the policy. */
	if (task_on_rq_migrating(p))
		p->plugsched.runnable_at = 0;
}

/**
 * plugsched_bw_park - a group's runqueue on this CPU is throttled
 * @rq:		the CPU's runqueue, locked
 * @cfs_rq:	the group's runqueue there, throttled now by its own level or
 *		one above
 *
 * Called by tg_throttle_down(), for each runqueue below the throttled
 * one, with plugged tasks linked. Each queued task leaves the policy; a
 * running one is charged first and rescheduled.
 */
void plugsched_bw_park(struct rq *rq, struct cfs_rq *cfs_rq)
{
	struct task_struct *p;

	list_for_each_entry(p, &cfs_rq->plug_tasks, se.group_node) {
		if (WARN_ON_ONCE(!(p->plugsched.flags & PLUGSCHED_TF_QUEUED)))
			continue;
		if (task_current(rq, p)) {
			update_curr_plug(rq);
			resched_curr(rq);
		}
		plugsched_unqueue(rq, p, PLUGSCHED_DEQ_THROTTLE);
		plugsched_park_one(&rq->plug, p);
	}
}

/**
 * plugsched_bw_unpark - a group's runqueue on this CPU runs again
 * @rq:		the CPU's runqueue, locked (from the period or slack timer,
 *		an IPI, a cpu.max write or CPU hotplug)
 * @cfs_rq:	the group's runqueue there
 *
 * Called by tg_unthrottle_up() once no level above @cfs_rq is throttled.
 * Its parked tasks rejoin the policy as woken ones would, and an idle CPU
 * is kicked (unthrottle_cfs_rq() kicks only for fair tasks). One still
 * running (parked, not yet switched out) is the policy's current again.
 */
void plugsched_bw_unpark(struct rq *rq, struct cfs_rq *cfs_rq)
{
	struct plugsched_rq *prq = &rq->plug;
	struct task_struct *p;

	list_for_each_entry(p, &cfs_rq->plug_tasks, se.group_node) {
		if (WARN_ON_ONCE(!(p->plugsched.flags & PLUGSCHED_TF_PARKED)))
			continue;
		plugsched_unpark_one(prq, p);
		if (unlikely(plugsched_task_owner(p) != plugsched_owner))
			plugsched_task_init(p);
		/* Its wait starts now: time parked was no wait of the policy's. */
		p->plugsched.runnable_at = plugsched_now(prq);
		plugsched_queue(rq, p, PLUGSCHED_ENQ_UNTHROTTLE, 0);
		if (task_current(rq, p)) {
			update_curr_plug(rq);
			set_next_task(rq, p);
		} else {
			wakeup_preempt(rq, p, 0);
		}
	}
}

#endif /* CONFIG_CFS_BANDWIDTH */
