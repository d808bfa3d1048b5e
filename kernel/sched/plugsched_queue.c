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
 * Pools. The policy picks among every queued task of a CPU, which is fair
 * between tasks as its design is, but not between task groups: a turn-based
 * policy gives each of a hundred tasks of one group a turn for every turn
 * of the lone task of another group of the same weight. So the core keeps
 * the tasks of each group on each CPU in a pool, whose weight is the sum
 * of its tasks' nice weights scaled by the group's shares as the charge
 * finds them (the group's part of the CPU now: the tasks' own effective
 * weights are each from when the task last ran, and summed they count a
 * group whose tasks joined one by one several times over) and whose
 * virtual clock advances by its run time over that weight. When the policy
 * picks a task of a pool that is more than PLUGSCHED_POOL_LAG ahead of the
 * pool furthest behind, the core runs that pool's longest waiting task
 * instead, and the tick ends a run that gets that far ahead: between
 * groups the CPU goes by weight, as the fair class's group entities have
 * it; within a group, and on a CPU with one pool, the policy decides.
 * SCHED_IDLE tasks are in no pool (plugsched_class.c gives them their
 * ticks). Each pool is in two trees of its CPU: by virtual clock, for the
 * gate, and by its longest waiting task's wait, for the watchdog and relief.
 * Every change is O(log pools), and none with one pool.
 */
#define PLUGSCHED_POOL_LAG	(3 * NSEC_PER_MSEC)

static bool plugsched_vclock_less(struct rb_node *a, const struct rb_node *b)
{
	return (s64)(rb_entry(a, struct plugsched_pool, vnode)->vclock -
		     rb_entry(b, struct plugsched_pool, vnode)->vclock) < 0;
}

/* When the first task of the pool at @node of a waits tree began to wait. */
static u32 plugsched_pool_since(const struct rb_node *node)
{
	struct plugsched_pool *pool = rb_entry(node, struct plugsched_pool, wnode);

	return plugsched_pool_first(pool)->plugsched.runnable_at;
}

static bool plugsched_wait_less(struct rb_node *a, const struct rb_node *b)
{
	return (s32)(plugsched_pool_since(a) - plugsched_pool_since(b)) < 0;
}

/* @pool has its first task: in the trees, not far from the CPU's clock. */
static void plugsched_pool_start(struct plugsched_rq *prq, struct plugsched_pool *pool)
{
	s64 lead = pool->vclock - prq->min_vclock;

	if (lead < -PLUGSCHED_POOL_LAG || lead > PLUGSCHED_POOL_LAG)
		pool->vclock = prq->min_vclock + clamp_t(s64, lead, -PLUGSCHED_POOL_LAG,
							 PLUGSCHED_POOL_LAG);
	rb_add_cached(&pool->vnode, &prq->pools, plugsched_vclock_less);
	rb_add_cached(&pool->wnode, &prq->waits, plugsched_wait_less);
	prq->nr_pools++;
}

static void plugsched_pool_stop(struct plugsched_rq *prq, struct plugsched_pool *pool)
{
	rb_erase_cached(&pool->vnode, &prq->pools);
	RB_CLEAR_NODE(&pool->vnode);
	rb_erase_cached(&pool->wnode, &prq->waits);
	RB_CLEAR_NODE(&pool->wnode);
	prq->nr_pools--;
}

/* @pool's first task, or its wait, changed. */
static void plugsched_pool_rewait(struct plugsched_rq *prq, struct plugsched_pool *pool)
{
	rb_erase_cached(&pool->wnode, &prq->waits);
	rb_add_cached(&pool->wnode, &prq->waits, plugsched_wait_less);
}

/* @p, being queued, joins the tail of its pool (or of the SCHED_IDLE tasks). */
static void plugsched_runnable_add(struct plugsched_rq *prq, struct task_struct *p)
{
	struct plugsched_pool *pool;

	if (plugsched_task_is_idle(p)) {
		list_add_tail(&p->plugsched.runnable_node, &prq->runnable_idle);
		return;
	}
	pool = plugsched_pool_of(prq, p);
	list_add_tail(&p->plugsched.runnable_node, &pool->runnable);
	if (!pool->nr++)
		plugsched_pool_start(prq, pool);
}

static void plugsched_runnable_del(struct plugsched_rq *prq, struct task_struct *p)
{
	struct plugsched_pool *pool;
	bool first;

	if (plugsched_task_is_idle(p)) {
		list_del_init(&p->plugsched.runnable_node);
		return;
	}
	pool = plugsched_pool_of(prq, p);
	first = plugsched_pool_first(pool) == p;
	list_del_init(&p->plugsched.runnable_node);
	if (!--pool->nr)
		plugsched_pool_stop(prq, pool);
	else if (first)
		plugsched_pool_rewait(prq, pool);
}

/**
 * plugsched_requeue_runnable - a queued task's wait starts over
 * @prq:	its runqueue, locked
 * @p:		the task; p->plugsched.runnable_at is set already
 *
 * @p goes to the tail of its pool: it waited least there now.
 */
void plugsched_requeue_runnable(struct plugsched_rq *prq, struct task_struct *p)
{
	struct plugsched_pool *pool;
	bool first;

	if (plugsched_task_is_idle(p)) {
		list_move_tail(&p->plugsched.runnable_node, &prq->runnable_idle);
		return;
	}
	pool = plugsched_pool_of(prq, p);
	first = plugsched_pool_first(pool) == p;
	list_move_tail(&p->plugsched.runnable_node, &pool->runnable);
	if (first)
		plugsched_pool_rewait(prq, pool);
}

/**
 * plugsched_pool_charge - the running task's pool ran @delta ns
 * @prq:	its runqueue, locked
 * @p:		the running task
 * @delta:	ns it ran
 */
void plugsched_pool_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta)
{
	struct plugsched_pool *pool;
	struct rb_node *next;

	if (plugsched_task_is_idle(p) || !(p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		return;
	pool = plugsched_pool_of(prq, p);
	pool->vclock += div64_ul(delta << SCHED_FIXEDPOINT_SHIFT,
				 max(plugsched_pool_part(p, pool->weight), 1UL));
	if (likely(prq->nr_pools < 2)) {
		prq->min_vclock = max_t(u64, prq->min_vclock, pool->vclock);
		return;
	}
	next = rb_next(&pool->vnode);
	if (next && plugsched_vclock_less(next, &pool->vnode)) {
		rb_erase_cached(&pool->vnode, &prq->pools);
		rb_add_cached(&pool->vnode, &prq->pools, plugsched_vclock_less);
	}
	pool = plugsched_pool_entry(rb_first_cached(&prq->pools));
	if ((s64)(pool->vclock - prq->min_vclock) > 0)
		prq->min_vclock = pool->vclock;
}

/**
 * plugsched_pool_behind - the pool that @p, queued, must give way to
 * @prq:	@p's runqueue, locked
 * @p:		a queued task, running or picked to run
 *
 * Return: the pool furthest behind on @prq, if @p's is more than
 * PLUGSCHED_POOL_LAG ahead of it; else NULL.
 */
struct plugsched_pool *plugsched_pool_behind(struct plugsched_rq *prq,
					     struct task_struct *p)
{
	struct plugsched_pool *left, *pool;

	if (likely(prq->nr_pools < 2) || plugsched_task_is_idle(p) ||
	    !(p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		return NULL;
	left = plugsched_pool_entry(rb_first_cached(&prq->pools));
	pool = plugsched_pool_of(prq, p);
	if (pool == left || (s64)(pool->vclock - left->vclock) <= PLUGSCHED_POOL_LAG)
		return NULL;
	return left;
}

/**
 * plugsched_longest_waiter - the queued task that waited longest
 * @rq:		the runqueue, locked
 *
 * Return: of @rq's queued tasks, SCHED_IDLE ones apart, the one that
 * waited longest, the running one not counted; NULL if none.
 */
struct task_struct *plugsched_longest_waiter(struct rq *rq)
{
	struct rb_node *node = rb_first_cached(&rq->plug.waits);
	struct plugsched_pool *pool = plugsched_wpool_entry(node);
	struct task_struct *p, *q = NULL;

	if (!pool)
		return NULL;
	p = plugsched_pool_first(pool);
	if (!task_current(rq, p))
		return p;
	/* The running one went to its pool's tail: first only when alone there. */
	if (!list_is_last(&p->plugsched.runnable_node, &pool->runnable))
		q = list_next_entry(p, plugsched.runnable_node);
	pool = plugsched_wpool_entry(rb_next(node));
	if (pool) {
		p = plugsched_pool_first(pool);
		if (!q || (s32)(p->plugsched.runnable_at - q->plugsched.runnable_at) < 0)
			q = p;
	}
	return q;
}

/**
 * plugsched_pool_waiter - the task relief may run
 * @rq:		the runqueue, locked
 *
 * Return: the longest waiting task of the pool furthest behind (of the
 * CPU if it has one pool), the running one not counted; NULL if none. A
 * task its policy starves is relieved in its group's turn: relief of the
 * longest waiting task of the CPU would run a group of a hundred tasks
 * that all waited a second by turns, and nothing else.
 */
struct task_struct *plugsched_pool_waiter(struct rq *rq)
{
	struct plugsched_pool *pool;
	struct task_struct *p;

	if (likely(rq->plug.nr_pools < 2))
		return plugsched_longest_waiter(rq);
	pool = plugsched_pool_entry(rb_first_cached(&rq->plug.pools));
	p = plugsched_pool_first(pool);
	if (!task_current(rq, p))
		return p;
	if (list_is_last(&p->plugsched.runnable_node, &pool->runnable))
		return NULL;
	return list_next_entry(p, plugsched.runnable_node);
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
	plugsched_pool_charge(&rq->plug, curr, delta);
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
	if (!plugsched_task_is_idle(p))
		plugsched_pool_of(prq, p)->weight += sign * (long)plugsched_load_weight(p);
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
	plugsched_runnable_add(prq, p);
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
	plugsched_runnable_del(prq, p);
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
