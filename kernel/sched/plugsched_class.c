// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: plug_sched_class.
 *
 * The core is the only code that knows about struct sched_class. This file
 * defines plug_sched_class, which sits between the fair and the ext class
 * and, while a policy is active, owns every SCHED_NORMAL, SCHED_BATCH and
 * SCHED_IDLE task; the fair class is then empty and skipped. Each class
 * hook does the bookkeeping every policy needs (run time and slice
 * accounting, counts, SCHED_BATCH/SCHED_IDLE rules, relief, directed
 * yield) and calls the active policy's &struct plugsched_ops for the
 * decisions; the plug server that runs it under RT pressure is in
 * plugsched_server.c. The rest of the core: see plugsched_internal.h.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#include <linux/plugsched.h>
#include <linux/seq_file.h>

#include "plugsched_internal.h"
#include "pelt.h"

/* Remote ticks that found their CPU's current task dequeued (debugfs). */
atomic_t plugsched_tick_dequeued;

/* /proc/sys/kernel/plugsched_relief_ms; runs it gave so far (debugfs). */
int plugsched_relief_ms;
atomic_t plugsched_nr_reliefs;

/*
 * /proc/sys/kernel/plugsched_watchdog_ms: the longest wait of a plugged
 * task (plugsched_watchdog.c); here, since relief keeps under half of it.
 */
int plugsched_watchdog_ms;

/* CONFIG_PLUGSCHED_DEBUG: the policy holds exactly the tasks counted here. */
static void plugsched_check_counts(struct rq *rq)
{
	unsigned int n = 0;
	struct rb_node *node;

	for (node = rb_first_cached(&rq->plug.pools); node; node = rb_next(node))
		n += plugsched_pool_entry(node)->nr;
	WARN_ONCE(n + rq->plug.nr_idle != rq->plug.nr_running,
		  "plugsched: %u tasks in pools and %u SCHED_IDLE ones on CPU %d, the core counts %u\n",
		  n, rq->plug.nr_idle, cpu_of(rq), rq->plug.nr_running);
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

#ifdef CONFIG_CFS_BANDWIDTH
/*
 * Where the fair class throttles its running task (pick, put_prev): @p
 * ran out of runtime, so its levels are throttled now, parking it with
 * its group's other tasks here.
 */
static void plugsched_bw_check(struct rq *rq, struct task_struct *p)
{
	if (p->sched_class != &plug_sched_class || !task_current(rq, p) ||
	    !(p->plugsched.flags & PLUGSCHED_TF_QUEUED) || likely(!plugsched_bw_limited(p)))
		return;
	update_curr_plug(rq);
	plugsched_bw_throttle(p->se.cfs_rq);
}
#else
static inline void plugsched_bw_check(struct rq *rq, struct task_struct *p) { }
#endif

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
	/* No hint may outlive the target's stay on this runqueue. */
	if (unlikely(prq->yield_next == p))
		prq->yield_next = NULL;
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

/*
 * yield_to() (KVM's directed yield to a preempted lock holder's vCPU): the
 * target runs next on its CPU, the yielder yields. A hint for the next
 * pick there only, as the fair class's next buddy: kept until that pick
 * or the target's dequeue, honoured if the target is still queued and its
 * group is not ahead; the policy's order is left as it was.
 */
static bool yield_to_task_plug(struct rq *rq, struct task_struct *p)
{
	struct rq *p_rq = task_rq(p);

	if (!(p->plugsched.flags & PLUGSCHED_TF_QUEUED) || plugsched_rq_bypass(&p_rq->plug))
		return false;
	p_rq->plug.yield_next = p;
	yield_task_plug(rq);
	return true;
}

/* The task yield_to() named on @rq, if it is to run next; the hint is used. */
static struct task_struct *plugsched_yield_pick(struct rq *rq)
{
	struct task_struct *p = rq->plug.yield_next;

	if (likely(!p))
		return NULL;
	rq->plug.yield_next = NULL;
	if (!(p->plugsched.flags & PLUGSCHED_TF_QUEUED) || plugsched_pool_behind(&rq->plug, p))
		return NULL;
	return p;
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
	/* Its group is ahead of another on this CPU: the pick would not run it. */
	if (plugsched_pool_behind(&rq->plug, p))
		return;

	update_curr_plug(rq);
	if (plugsched_cur_ops->preempt(&rq->plug, curr, p))
		resched_curr(rq);
}

/*
 * A SCHED_IDLE task runs when nothing else of the policy wants the CPU,
 * and for a tick after waiting PLUGSCHED_IDLE_WAIT: one preempted in an
 * RCU read-side section, or holding a lock, must not stall everybody (the
 * fair class gives such tasks a small weight, not nothing). Such ticks
 * are the CPU's, not each task's: one in PLUGSCHED_IDLE_GAP ticks at
 * most, the longest waiting task first, so that SCHED_IDLE tasks, which
 * any user may start by the hundred, take a quarter of the CPU at most
 * (the fair class gives 300 of them, weighing 3 each, half of it beside
 * a nice 0 task), and each of N waits N * PLUGSCHED_IDLE_GAP ticks.
 */
#define PLUGSCHED_IDLE_WAIT	HZ
#define PLUGSCHED_IDLE_GAP	4

/* The SCHED_IDLE task owed its tick on @rq now, if any (the tick asks too). */
static struct task_struct *plugsched_idle_due(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	struct task_struct *p;

	if (likely(!prq->nr_idle) || prq->nr_idle >= prq->nr_running ||
	    time_before(jiffies, prq->idle_next))
		return NULL;
	p = list_first_entry(&prq->runnable_idle, struct task_struct, plugsched.runnable_node);
	if (task_current(rq, p) || plugsched_waited(prq, p) <= PLUGSCHED_IDLE_WAIT)
		return NULL;
	return p;
}

/* Bypass: the task that waited longest, SCHED_IDLE ones after the rest. */
static struct task_struct *plugsched_bypass_pick(struct plugsched_rq *prq)
{
	return plugsched_first_waiter(prq);
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
 * The candidate is the longest waiting task of the group furthest behind
 * (plugsched_pool_waiter()): O(1), its pool's first task or, behind the
 * running task, the next one. Relief comes at half the watchdog's limit
 * at the latest, whatever the two knobs say: a wait the policy means to
 * end is rescued before it ejects the policy.
 *
 * Relief is the CPU's budget, not each task's right: one relief per
 * PLUGSCHED_RELIEF_GAP on a CPU, 1% of it at most, however many tasks
 * wait. Per task, a hundred tasks past the limit made every pick a relief:
 * the CPU ran them first come first served, and nice, cgroup weights and
 * wakeup preemption stopped counting. The cost: N tasks a policy starves
 * on one CPU are rescued over N seconds, not at once.
 */
#define PLUGSCHED_RELIEF_GAP	HZ

static unsigned long plugsched_relief_jiffies(void)
{
	unsigned int ms = READ_ONCE(plugsched_relief_ms);
	unsigned int wd = READ_ONCE(plugsched_watchdog_ms);

	/* A design-bound check turned relief off: the control keeps it on. */
	if (!ms && plugsched_breaks(PLUGSCHED_BREAK_RELIEF))
		ms = 100;
	if (!ms)
		return 0;
	if (wd)
		ms = min(ms, max(wd / 2, 1U));
	return msecs_to_jiffies(ms);
}

static bool plugsched_relief_due(struct plugsched_rq *prq, struct task_struct *p,
				 unsigned long relief)
{
	return relief && !time_before(jiffies, prq->relief_next) &&
	       plugsched_waited(prq, p) > relief;
}

static struct task_struct *plugsched_relief_pick(struct rq *rq)
{
	unsigned long relief = plugsched_relief_jiffies();
	struct task_struct *p;

	/* The budget first: for a second after each relief, no lookup. */
	if (!relief || time_before(jiffies, rq->plug.relief_next))
		return NULL;
	p = plugsched_pool_waiter(rq);
	return p && plugsched_relief_due(&rq->plug, p, relief) ? p : NULL;
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
	p = plugsched_idle_due(rq);
	if (unlikely(p)) {
		prq->idle_next = jiffies + PLUGSCHED_IDLE_GAP;
		return p;
	}
	if (plugsched_rq_bypass(prq))
		return plugsched_bypass_pick(prq);
	p = plugsched_relief_pick(rq);
	if (unlikely(p))
		return p;
	p = plugsched_yield_pick(rq);
	if (unlikely(p))
		return p;
	p = plugsched_cur_ops->pick(prq);
	/* A group ahead gives way to the one furthest behind (plugsched_queue.c). */
	if (p) {
		struct plugsched_pool *behind = plugsched_pool_behind(prq, p);

		if (unlikely(behind))
			p = plugsched_pool_first(behind);
	}
	return p;
}

/* The plug server's pick (plugsched_server.c): the class's own. */
struct task_struct *plugsched_server_pick_task(struct sched_dl_entity *dl_se)
{
	return pick_task_plug(dl_se->rq);
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
		plugsched_requeue_runnable(&rq->plug, p);
		if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->put_prev)
			plugsched_cur_ops->put_prev(&rq->plug, p);
	}
	/* As sched_ext: the policy hears of @p first, then of the CPU. */
	if (next)
		plugsched_release(rq, next);
}

static void set_next_task_plug(struct rq *rq, struct task_struct *p, bool first)
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
	    !plugsched_task_is_idle(p) && !plugsched_rq_bypass(&rq->plug) &&
	    plugsched_relief_due(&rq->plug, p, relief)) {
		p->plugsched.flags |= PLUGSCHED_TF_RELIEVED;
		rq->plug.relief_next = jiffies + PLUGSCHED_RELIEF_GAP;
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
	plugsched_requeue_runnable(&rq->plug, p);
	if (!plugsched_rq_bypass(&rq->plug) && plugsched_cur_ops->set_next)
		plugsched_cur_ops->set_next(&rq->plug, p);
}

#ifdef CONFIG_SMP
static int balance_plug(struct rq *rq, struct task_struct *prev, struct rq_flags *rf)
{
	/* A throttle (cpu.max) may leave this CPU nothing: then it pulls. */
	plugsched_bw_check(rq, prev);
	return plugsched_balance_newidle(rq, rf);
}

/*
 * A task bound to one node's CPUs (a per-CPU kthread) is at home there.
 * migrate_disable() and migrate_enable() pass here too: they change no
 * home, the task only waits on its CPU for a while.
 */
static void set_cpus_allowed_plug(struct task_struct *p, struct affinity_context *ctx)
{
	set_cpus_allowed_common(p, ctx);
	if (!(ctx->flags & (SCA_MIGRATE_DISABLE | SCA_MIGRATE_ENABLE)) &&
	    !plugsched_rq_bypass(&task_rq(p)->plug))
		plugsched_home_from_mask(plugsched_cur_ops, p);
}

static void migrate_task_rq_plug(struct task_struct *p, int new_cpu)
{
	if (cpu_to_node(task_cpu(p)) != cpu_to_node(new_cpu))
		p->plugsched.nr_node_migrations++;
	plugsched_update_scan_period(p, new_cpu);
	/* As fair's: the old CPU's clock means nothing here, @p is not hot. */
	p->se.exec_start = 0;
}
#endif

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
		/* Its group got ahead of another: the pick gives way. */
		if (plugsched_pool_behind(&rq->plug, p))
			resched_curr(rq);
	}
	/*
	 * A SCHED_IDLE task picked after its wait gets one tick; one owed
	 * its tick gets it at this one, not at the end of the slice.
	 */
	if ((plugsched_task_is_idle(p) && rq->plug.nr_idle < rq->plug.nr_running) ||
	    plugsched_idle_due(rq))
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
	if (p->plugsched.flags & PLUGSCHED_TF_QUEUED)
		plugsched_requeue_runnable(&rq->plug, p);
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
	.yield_to_task		= yield_to_task_plug,
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

static void plugsched_show_locked(struct rq *rq, struct task_struct *p,
				  const struct plugsched_ops *ops, struct seq_file *m)
{
	seq_printf(m, "%-45s:%21s\n", "plugsched.policy", ops->name);
	seq_printf(m, "%-45s:%21d\n", "plugsched.bypass", READ_ONCE(plugsched_bypassing));
	seq_printf(m, "%-45s:%21lld\n", "plugsched.slice_ns", p->plugsched.slice);
	seq_printf(m, "%-45s:%21u\n", "plugsched.nr_node_migrations",
		   p->plugsched.nr_node_migrations);
	/* What the watchdog sees: how long a queued task has waited. */
	seq_printf(m, "%-45s:%21u\n", "plugsched.waiting_ms",
		   (p->plugsched.flags & PLUGSCHED_TF_QUEUED) && !task_on_cpu(rq, p) ?
		   jiffies_to_msecs(plugsched_waited(&rq->plug, p)) : 0);
	if (ops->show_task && !READ_ONCE(plugsched_bypassing))
		ops->show_task(m, p);
}

/*
 * /proc/PID/sched. Under @p's runqueue lock: the policy's state in @p is
 * what its hooks last left there, and a switch can neither move @p nor
 * retire the policy meanwhile.
 */
void plugsched_show_task(struct task_struct *p, struct seq_file *m)
{
	const struct plugsched_ops *ops;
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	ops = READ_ONCE(plugsched_cur_ops);
	if (ops && p->sched_class == &plug_sched_class)
		plugsched_show_locked(rq, p, ops, m);
	task_rq_unlock(rq, p, &rf);
}
