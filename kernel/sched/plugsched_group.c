// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the cgroup CPU controller's weights and bandwidth for every
 * policy.
 *
 * cpu.weight, cpu.weight.nice and autogroup's nice all set a task group's
 * shares. The core flattens the hierarchy into one effective weight per
 * task, as scx_flatcg does: the task's nice weight times, at each level
 * up to the root, the group's shares over the group's load (the nice
 * weights of its queued tasks plus the shares of its active children).
 * A group with shares S and tasks anywhere below it then weighs S in
 * all, as a group entity does in the fair class, and tasks in the root
 * group keep their nice weight. The policies see the result in
 * p->plugsched.load: weight-based ones through plugsched_task_weight() and
 * plugsched_scale_delta(), slice-based ones through plugsched_scale_slice().
 *
 * A group's load is machine-wide, one atomic add per enqueue and dequeue
 * of its tasks (a group becoming active or idle adds its shares to its
 * parent's, and so on up): no lock, and nothing for the root group. A
 * queued task's effective weight is computed when it is queued and again
 * at each tick it runs; a change of cpu.weight reaches the sums at the
 * next tick of one of the group's tasks.
 */
#include "plugsched_internal.h"

#ifdef CONFIG_FAIR_GROUP_SCHED

static inline unsigned long plugsched_tg_shares(struct task_group *tg)
{
	return max(scale_load_down(READ_ONCE(tg->shares)), 2UL);
}

/* @weight joins @tg's load; a group becoming active joins its parent's. */
static void plugsched_group_add(struct task_group *tg, s64 weight)
{
	while (tg != &root_task_group) {
		atomic64_add(weight, &tg->plug.load);
		if (atomic_inc_return(&tg->plug.nr) != 1)
			return;
		/* Whatever a racing update left in @contrib is counted already. */
		weight = plugsched_tg_shares(tg);
		weight -= atomic64_xchg(&tg->plug.contrib, weight);
		tg = tg->parent;
	}
}

/* @weight leaves @tg's load; a group going idle leaves its parent's. */
static void plugsched_group_sub(struct task_group *tg, s64 weight)
{
	while (tg != &root_task_group) {
		atomic64_sub(weight, &tg->plug.load);
		if (!atomic_dec_and_test(&tg->plug.nr))
			return;
		weight = atomic64_xchg(&tg->plug.contrib, 0);
		tg = tg->parent;
	}
}

void __plugsched_group_enqueue(struct task_struct *p)
{
	plugsched_group_add(task_group(p), plugsched_load_weight(p));
}

/* p->sched_task_group only changes while @p is dequeued (sched_move_task()). */
void __plugsched_group_dequeue(struct task_struct *p)
{
	plugsched_group_sub(task_group(p), plugsched_load_weight(p));
}

/*
 * An active group whose shares changed (cpu.weight written) contributes
 * the new ones. A group that went idle meanwhile takes them back; an
 * activation racing with that loses its contribution until the next tick
 * of one of its tasks puts it back here.
 */
static void plugsched_group_refresh(struct task_group *tg, unsigned long shares)
{
	s64 old;

	if (atomic64_read(&tg->plug.contrib) == (s64)shares || !atomic_read(&tg->plug.nr))
		return;
	old = atomic64_xchg(&tg->plug.contrib, shares);
	atomic64_add(shares - old, &tg->parent->plug.load);
	if (unlikely(!atomic_read(&tg->plug.nr))) {
		old = atomic64_xchg(&tg->plug.contrib, 0);
		atomic64_sub(old, &tg->parent->plug.load);
	}
}

/**
 * __plugsched_group_weight - @p's effective weight in its group hierarchy
 * @p:		a queued plugged task in a group below the root; its runqueue
 *		is locked (plugsched_group_weight() is the caller for any task)
 *
 * Return: @p's nice weight times each level's shares over that level's
 * load, at least 1.
 */
unsigned long __plugsched_group_weight(struct task_struct *p)
{
	struct task_group *tg = task_group(p);
	u64 w = plugsched_load_weight(p);

	for (; tg != &root_task_group; tg = tg->parent) {
		unsigned long shares = plugsched_tg_shares(tg);
		s64 load = atomic64_read(&tg->plug.load);

		plugsched_group_refresh(tg, shares);
		/* @w is part of @load, unless a racing update is not in yet. */
		w = div64_u64(w * shares, max_t(s64, load, w));
	}
	return clamp_t(u64, w, 1, U32_MAX);
}

/* @tg is @p_tg or one of its ancestors. */
static bool plugsched_tg_within(struct task_group *p_tg, struct task_group *tg)
{
	for (; p_tg; p_tg = p_tg->parent)
		if (p_tg == tg)
			return true;
	return false;
}

/* As sched_move_task(): @p leaves and joins the policy, running or not. */
static void plugsched_requeue(struct rq *rq, struct task_struct *p)
{
	bool running = task_current(rq, p);

	dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (running)
		put_prev_task(rq, p);
	enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	if (running)
		set_next_task(rq, p);
	resched_curr(rq);
}

/* Requeue @p if it is in @tg and its groups now say otherwise of idleness. */
static void plugsched_idle_requeue(struct rq *rq, struct task_struct *p, struct task_group *tg)
{
	bool idle = plugsched_tg_idle(task_group(p));

	if (idle != !!(p->plugsched.flags & PLUGSCHED_TF_GROUP_IDLE) &&
	    plugsched_tg_within(task_group(p), tg))
		plugsched_requeue(rq, p);
}

/**
 * plugsched_group_idle_changed - a group's cpu.idle was written
 * @tg:		the group; its shares are set already (an idle group's are
 *		mainline's minimum, WEIGHT_IDLEPRIO)
 *
 * Called by sched_group_set_idle(), no runqueue locked. Each plugged task
 * queued in @tg or below it whose idleness changed is queued again on its
 * CPU, so that from now on the policy treats it as a SCHED_IDLE task, or
 * no longer does; parked and sleeping ones read cpu.idle when they are
 * next queued. A cpu.idle write walks each CPU's queued plugged tasks
 * once.
 */
void plugsched_group_idle_changed(struct task_group *tg)
{
	int cpu;

	/*
	 * Under eevdf nothing to do; a switch starting after this reads the
	 * new cpu.idle as it queues each task.
	 */
	if (!plugsched_enabled() || plugsched_breaks(PLUGSCHED_BREAK_GROUP_IDLE))
		return;
	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;
		struct rq *rq = cpu_rq(cpu);
		struct task_struct *p, *n;
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		/*
		 * A requeued task goes to the tail of one of the two lists,
		 * where it is met again and left alone: its flag agrees now.
		 */
		list_for_each_entry_safe(p, n, &prq->runnable, plugsched.runnable_node)
			plugsched_idle_requeue(rq, p, tg);
		list_for_each_entry_safe(p, n, &prq->runnable_idle, plugsched.runnable_node)
			plugsched_idle_requeue(rq, p, tg);
		rq_unlock_irqrestore(rq, &rf);
	}
}

#ifdef CONFIG_CFS_BANDWIDTH
/*
 * cgroup cpu.max. A plugged task charges its run time to its group's
 * runqueue on its CPU, p->se.cfs_rq, and to the ancestors' (fair.c's
 * plugsched_bw_charge()), and a level out of runtime is throttled by the
 * fair class's own code at the points where fair throttles: pick,
 * put_prev, enqueue (plugsched_bw_throttle()). Throttling parks the plugged
 * tasks of every runqueue below it on this CPU: the policy dequeues them
 * (PLUGSCHED_DEQ_THROTTLE), they leave the CPU's counts and wait on
 * prq->parked; the refill unparks them (PLUGSCHED_ENQ_UNTHROTTLE). Each
 * cfs_rq lists the group's plugged tasks on its CPU, queued or parked,
 * linked by p->se.group_node: the fair class uses that link only for
 * its own queued tasks (rq->cfs_tasks).
 */
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
			set_next_task_plug(rq, p, false);
		} else {
			wakeup_preempt(rq, p, 0);
		}
	}
}

/*
 * Where the fair class throttles its running task (pick, put_prev): @p
 * ran out of runtime, so its levels are throttled now, parking it with
 * its group's other tasks here.
 */
void plugsched_bw_check(struct rq *rq, struct task_struct *p)
{
	if (p->sched_class != &plug_sched_class || !task_current(rq, p) ||
	    !(p->plugsched.flags & PLUGSCHED_TF_QUEUED) || likely(!plugsched_bw_limited(p)))
		return;
	update_curr_plug(rq);
	plugsched_bw_throttle(p->se.cfs_rq);
}
#endif /* CONFIG_CFS_BANDWIDTH */

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_group_kunit.c"
#endif

#endif /* CONFIG_FAIR_GROUP_SCHED */
