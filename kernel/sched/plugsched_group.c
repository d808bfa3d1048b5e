// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the cgroup CPU controller's weights and cpu.idle for every
 * policy (cpu.max: plugsched_bandwidth.c).
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
		plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 2);
		atomic64_add(weight, &tg->plug.load);
		if (atomic_inc_return(&tg->plug.nr) != 1)
			return;
		plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 1);
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
		plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 2);
		atomic64_sub(weight, &tg->plug.load);
		if (!atomic_dec_and_test(&tg->plug.nr))
			return;
		plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 1);
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
	plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 2);
	old = atomic64_xchg(&tg->plug.contrib, shares);
	atomic64_add(shares - old, &tg->parent->plug.load);
	if (unlikely(!atomic_read(&tg->plug.nr))) {
		plugsched_bal_count(PLUGSCHED_BAL_GROUP_ATOMICS, 2);
		old = atomic64_xchg(&tg->plug.contrib, 0);
		atomic64_sub(old, &tg->parent->plug.load);
	}
}

/**
 * plugsched_group_scale - a weight in @tg, as a weight in the root group
 * @tg:		a task group below the root, with queued tasks
 * @w:		nice weights of some of its queued tasks
 *
 * Return: @w times each level's shares over that level's load, up to the
 * root, at least 1.
 */
unsigned long plugsched_group_scale(struct task_group *tg, u64 w)
{
	for (; tg != &root_task_group; tg = tg->parent) {
		unsigned long shares = plugsched_tg_shares(tg);
		s64 load = atomic64_read(&tg->plug.load);

		plugsched_group_refresh(tg, shares);
		/* @w is part of @load, unless a racing update is not in yet. */
		w = div64_u64(w * shares, max_t(s64, load, w));
	}
	return clamp_t(u64, w, 1, U32_MAX);
}

/**
 * __plugsched_group_weight - @p's effective weight in its group hierarchy
 * @p:		a queued plugged task in a group below the root; its runqueue
 *		is locked (plugsched_group_weight() is the caller for any task)
 *
 * Return: @p's nice weight, scaled by plugsched_group_scale().
 */
unsigned long __plugsched_group_weight(struct task_struct *p)
{
	return plugsched_group_scale(task_group(p), plugsched_load_weight(p));
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
static bool plugsched_idle_requeue(struct rq *rq, struct task_struct *p, struct task_group *tg)
{
	bool idle = plugsched_tg_idle(task_group(p));

	if (idle == !!(p->plugsched.flags & PLUGSCHED_TF_GROUP_IDLE) ||
	    !plugsched_tg_within(task_group(p), tg))
		return false;
	plugsched_requeue(rq, p);
	return true;
}

/*
 * The pools of @rq whose group cpu.idle made idle: their tasks become
 * SCHED_IDLE ones, which are in no pool. A pool's tasks are all of one
 * group, so the first one tells for all; the pool leaves the tree as it
 * empties (or as a throttle parks the rest), and the walk starts over.
 */
static void plugsched_idle_requeue_pools(struct rq *rq, struct task_group *tg)
{
	struct rb_node *node;

again:
	for (node = rb_first_cached(&rq->plug.pools); node; node = rb_next(node)) {
		struct plugsched_pool *pool = plugsched_pool_entry(node);

		if (!plugsched_idle_requeue(rq, plugsched_pool_first(pool), tg))
			continue;
		while (pool->nr && plugsched_idle_requeue(rq, plugsched_pool_first(pool), tg))
			;
		goto again;
	}
}

/*
 * Requeue the SCHED_IDLE tasks of @head (prq->runnable_idle) that cpu.idle
 * changed: they join their pools, or, SCHED_IDLE by policy, go to the tail
 * of @head, where they are met again and left alone: their flag agrees
 * now. But requeueing can throttle a group out of runtime (its enqueue,
 * or put_prev of a running one), which parks that group's tasks here:
 * the next entry may then be on prq->parked, and a walk going on from it
 * would never meet @head again. So the walk starts over after such a
 * park; each start over follows a throttle, at most one per group on
 * this CPU, as nothing unthrottles while the runqueue is locked.
 */
static void plugsched_idle_requeue_list(struct rq *rq, struct list_head *head,
					struct task_group *tg)
{
	struct task_struct *p, *n;

again:
	list_for_each_entry_safe(p, n, head, plugsched.runnable_node) {
		if (plugsched_idle_requeue(rq, p, tg) &&
		    &n->plugsched.runnable_node != head &&
		    (n->plugsched.flags & PLUGSCHED_TF_PARKED))
			goto again;
	}
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
 * next queued. A cpu.idle write walks each CPU's pools once for each pool
 * that changes, and its SCHED_IDLE tasks once, and again after each group
 * a requeue throttles there.
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
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		plugsched_idle_requeue_pools(rq, tg);
		plugsched_idle_requeue_list(rq, &prq->runnable_idle, tg);
		rq_unlock_irqrestore(rq, &rf);
	}
}

/**
 * plugsched_group_alloc - a new task group's pools
 * @tg:		the group, from alloc_fair_sched_group()
 *
 * Return: 1, or 0 if out of memory (alloc_fair_sched_group()'s convention).
 */
int plugsched_group_alloc(struct task_group *tg)
{
	int cpu;

	tg->plug.pools = alloc_percpu(struct plugsched_pool);
	if (!tg->plug.pools)
		return 0;
	for_each_possible_cpu(cpu)
		plugsched_pool_init(per_cpu_ptr(tg->plug.pools, cpu));
	return 1;
}

/**
 * plugsched_group_free - free a task group's pools
 * @tg:		the group, from free_fair_sched_group(): no task is in it
 */
void plugsched_group_free(struct task_group *tg)
{
	free_percpu(tg->plug.pools);
}

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_group_kunit.c"
#endif

#endif /* CONFIG_FAIR_GROUP_SCHED */
