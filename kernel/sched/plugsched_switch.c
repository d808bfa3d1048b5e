// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the core's phases, and what moves it between them. A switch
 * moves every normal task from the fair class to the plug class or back,
 * at boot or at run time (/sys/kernel/plugsched/active), on one real-time
 * worker; the watchdog and SysRq-P (plugsched_watchdog.c) use the same
 * switch to go back to mainline EEVDF after an ejection.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/plugsched.h>

#include "plugsched_internal.h"

/* Held by whoever switches; the watchdog only tries it. */
DEFINE_MUTEX(plugsched_switch_mutex);

/* The phase, and what /sys/kernel/plugsched shows of it. */
static DEFINE_SPINLOCK(plugsched_state_lock);
static enum plugsched_phase plugsched_cur_phase;
static const char *plugsched_shown_name = PLUGSCHED_MAINLINE_NAME;
static char plugsched_fallback_why[96];
static unsigned long plugsched_switches;

static const char * const plugsched_phase_names[PLUGSCHED_NR_PHASES] = {
	[PLUGSCHED_PHASE_MAINLINE]	= "mainline",
	[PLUGSCHED_PHASE_ENABLING]	= "enabling",
	[PLUGSCHED_PHASE_ENABLED]	= "enabled",
	[PLUGSCHED_PHASE_DISABLING]	= "disabling",
	[PLUGSCHED_PHASE_FALLBACK]	= "fallback",
};

/*
 * The transitions: a policy is entered from mainline (or from a fall
 * back), and left all the way back to mainline before another one is
 * entered; a policy that could not take every task leaves from ENABLING.
 * MAINLINE -> FALLBACK records why a policy went or did not start.
 */
static const u8 plugsched_next_phases[PLUGSCHED_NR_PHASES] = {
	[PLUGSCHED_PHASE_MAINLINE]	= BIT(PLUGSCHED_PHASE_ENABLING) |
					  BIT(PLUGSCHED_PHASE_FALLBACK),
	[PLUGSCHED_PHASE_ENABLING]	= BIT(PLUGSCHED_PHASE_ENABLED) |
					  BIT(PLUGSCHED_PHASE_DISABLING),
	[PLUGSCHED_PHASE_ENABLED]	= BIT(PLUGSCHED_PHASE_DISABLING),
	[PLUGSCHED_PHASE_DISABLING]	= BIT(PLUGSCHED_PHASE_MAINLINE),
	[PLUGSCHED_PHASE_FALLBACK]	= BIT(PLUGSCHED_PHASE_ENABLING) |
					  BIT(PLUGSCHED_PHASE_FALLBACK),
};

/**
 * plugsched_phase_allowed - whether the core may go from one phase to another
 * @from:	the current phase
 * @to:		the next one
 *
 * Return: true for a transition of the state machine.
 */
bool plugsched_phase_allowed(enum plugsched_phase from, enum plugsched_phase to)
{
	return from < PLUGSCHED_NR_PHASES && to < PLUGSCHED_NR_PHASES &&
	       (plugsched_next_phases[from] & BIT(to));
}

enum plugsched_phase plugsched_phase(void)
{
	return READ_ONCE(plugsched_cur_phase);
}

/*
 * The one place the phase changes, at boot or under plugsched_switch_mutex
 * and the CPU hotplug lock (plugsched_switch()): the static keys follow it.
 * An illegal transition is a bug of the core's; it WARNs, and the keys
 * still follow the phase the caller's steps reach.
 * @why: for FALLBACK, the reason shown in /sys/kernel/plugsched/state.
 */
static void plugsched_set_phase(enum plugsched_phase to, const char *why)
{
	enum plugsched_phase from = plugsched_cur_phase;

	WARN(!plugsched_phase_allowed(from, to), "plugsched: illegal phase change %s -> %s\n",
	     plugsched_phase_names[from], plugsched_phase_names[to]);
	switch (to) {
	case PLUGSCHED_PHASE_ENABLING:
		/* New tasks join the plug class from now on, and the class runs. */
		WRITE_ONCE(plugsched_to_plug, true);
		static_branch_enable_cpuslocked(&__plugsched_enabled);
		break;
	case PLUGSCHED_PHASE_ENABLED:
		/* The fair class is empty: it is skipped from now on. */
		static_branch_enable_cpuslocked(&__plugsched_all);
		break;
	case PLUGSCHED_PHASE_DISABLING:
		/* The fair class runs again before any task may join it. */
		static_branch_disable_cpuslocked(&__plugsched_all);
		WRITE_ONCE(plugsched_to_plug, false);
		break;
	default:
		/* The plug class is empty; a no-op when it was never on. */
		static_branch_disable_cpuslocked(&__plugsched_enabled);
		break;
	}

	spin_lock(&plugsched_state_lock);
	WRITE_ONCE(plugsched_cur_phase, to);
	if (to == PLUGSCHED_PHASE_ENABLED)
		plugsched_shown_name = plugsched_cur_ops->name;
	else if (to == PLUGSCHED_PHASE_MAINLINE || to == PLUGSCHED_PHASE_FALLBACK)
		plugsched_shown_name = PLUGSCHED_MAINLINE_NAME;
	if (to == PLUGSCHED_PHASE_FALLBACK)
		strscpy(plugsched_fallback_why, why ?: "", sizeof(plugsched_fallback_why));
	spin_unlock(&plugsched_state_lock);
}

/* /sys/kernel/plugsched/active, /proc/scheduler: the policy that runs. */
const char *plugsched_active_name(void)
{
	const char *name;

	spin_lock(&plugsched_state_lock);
	name = plugsched_shown_name;
	spin_unlock(&plugsched_state_lock);
	return name;
}

/* /sys/kernel/plugsched/state: the phase, with the reason of a fall back. */
int plugsched_state_show(char *buf, size_t size)
{
	int len;

	spin_lock(&plugsched_state_lock);
	if (plugsched_cur_phase == PLUGSCHED_PHASE_FALLBACK)
		len = scnprintf(buf, size, "fallback (%s)\n", plugsched_fallback_why);
	else
		len = scnprintf(buf, size, "%s\n", plugsched_phase_names[plugsched_cur_phase]);
	spin_unlock(&plugsched_state_lock);
	return len;
}

unsigned long plugsched_nr_switches(void)
{
	return READ_ONCE(plugsched_switches);
}

/*
 * Every runqueue into bypass or out of it, as plugsched_bypassing says when
 * its lock is taken: one the flag was cleared for before (a switch) stays
 * as the switch left it. A CPU going in picks again at once.
 */
void plugsched_bypass_rqs(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		rq->plug.bypass = READ_ONCE(plugsched_bypassing);
		if (rq->plug.bypass && rq->plug.nr_running)
			resched_curr(rq);
		rq_unlock_irqrestore(rq, &rf);
	}
}

static void plugsched_set_bypass(bool on)
{
	WRITE_ONCE(plugsched_bypassing, on);
	plugsched_bypass_rqs();
}

/* Switching: move every normal task between the fair and the plug class. */

/*
 * Give @p the class its policy and priority call for now; like a policy
 * change, with @p's runqueue and pi_lock held. Returns whether it moved.
 */
static bool plugsched_fix_class(struct rq *rq, struct task_struct *p)
{
	const struct sched_class *prev_class = p->sched_class, *class;
	int flags = DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK;
	bool queued, running;

	if (prev_class != &fair_sched_class && prev_class != &plug_sched_class)
		return false;
	class = __setscheduler_class(p->policy, p->prio);
	if (class == prev_class)
		return false;

	update_rq_clock(rq);
	/* A fair task that slept but is still queued for its lag goes now. */
	if (p->se.sched_delayed)
		dequeue_task(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_NOCLOCK);
	queued = task_on_rq_queued(p);
	running = task_current(rq, p);
	if (queued)
		dequeue_task(rq, p, flags);
	if (running)
		put_prev_task(rq, p);
	p->sched_class = class;
	check_class_changing(rq, p, prev_class);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK);
	if (running)
		set_next_task(rq, p);
	check_class_changed(rq, p, prev_class, p->prio);
	return true;
}

static bool plugsched_fix_task(struct task_struct *p, bool forget)
{
	struct balance_callback *head;
	struct rq_flags rf;
	struct rq *rq;
	bool moved;

	rq = task_rq_lock(p, &rf);
	moved = plugsched_fix_class(rq, p);
	/* Leaving a policy: its state in @p is stale from now on. */
	if (forget && !plugsched_breaks(PLUGSCHED_BREAK_TAGS))
		p->plugsched.flags &= ~PLUGSCHED_TF_OWNER;
	/*
	 * Joining one: a sleeper gets its state now, not at its next wakeup,
	 * whose CPU choice would read the old policy's (a stale home node).
	 * A queued task got it when enqueue_task_plug() saw the old owner.
	 */
	else if (moved && p->sched_class == &plug_sched_class && !task_on_rq_queued(p) &&
		 plugsched_task_owner(p) != plugsched_owner)
		plugsched_task_init(p);
	head = splice_balance_callbacks(rq);
	preempt_disable();
	task_rq_unlock(rq, p, &rf);
	balance_callbacks(rq, head);
	preempt_enable();
	return moved;
}

/*
 * Every task, from fork until its last schedule, on one of these per-CPU
 * lists: a switch walks them, so that no task keeps the class being left.
 * The task list would miss one that exits, from its unhash on (it may
 * still block in do_exit(), on PREEMPT_RT); sched_ext keeps scx_tasks for
 * the same reason. Only fork, exit and the switch take these locks, never
 * a wakeup.
 */
struct plugsched_tasks {
	raw_spinlock_t		lock;
	struct list_head	head;
	unsigned int		nr;
};

static DEFINE_PER_CPU(struct plugsched_tasks, plugsched_tasks);

static void plugsched_track(struct task_struct *p)
{
	int cpu = raw_smp_processor_id();
	struct plugsched_tasks *pt = per_cpu_ptr(&plugsched_tasks, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pt->lock, flags);
	p->plugsched.tasks_cpu = cpu;
	list_add_tail(&p->plugsched.tasks_node, &pt->head);
	pt->nr++;
	raw_spin_unlock_irqrestore(&pt->lock, flags);
}

/* The lists start with the boot task, before anything forks. */
void __init plugsched_tasks_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_tasks *pt = per_cpu_ptr(&plugsched_tasks, cpu);

		raw_spin_lock_init(&pt->lock);
		INIT_LIST_HEAD(&pt->head);
	}
	plugsched_track(current);
}

/**
 * plugsched_post_fork - track a new task, and move it if a switch missed it
 * @p:		the child, on the task list, not yet woken
 *
 * sched_fork() chose @p's class before @p was on a list a switch walks.
 * Forks are not held off (a switch, an ejection above all, must never wait
 * for a fork, which may wait long for memory or be starved by the policy
 * being ejected): the switch writes the class new tasks join before it
 * walks the lists, under each list's lock, which @p is put on here; so
 * either the walk finds @p, or this check, after that lock, sees the new
 * class.
 */
void plugsched_post_fork(struct task_struct *p)
{
	const struct sched_class *class;

	plugsched_track(p);
	class = READ_ONCE(p->sched_class);
	/*
	 * Leaving the policy, @p forgets its state as the walk's tasks do:
	 * a task keeps no tag but the current activation's, so that the
	 * 8-bit tags can wrap without an old tag ever matching a new one.
	 */
	if (unlikely((class == &fair_sched_class || class == &plug_sched_class) &&
		     class != normal_sched_class()))
		plugsched_fix_task(p, class == &plug_sched_class);
}

/*
 * @p's last schedule is done: nothing can queue it again (it sleeps in
 * TASK_DEAD, which no wakeup matches), so no switch needs to see it.
 */
void plugsched_task_dead(struct task_struct *p)
{
	struct plugsched_tasks *pt = per_cpu_ptr(&plugsched_tasks, p->plugsched.tasks_cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pt->lock, flags);
	if (!list_empty(&p->plugsched.tasks_node)) {
		list_del_init(&p->plugsched.tasks_node);
		pt->nr--;
	}
	raw_spin_unlock_irqrestore(&pt->lock, flags);
}

/* The tasks on the lists now, for debugfs: every task but the dead. */
unsigned int plugsched_nr_tracked(void)
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(&plugsched_tasks, cpu)->nr);
	return n;
}

/*
 * Move every tracked task. A visited task goes to a list of the walk's own
 * (under the same lock: an exit takes it off either), so that the lock is
 * dropped while the task moves; the lists are whole again at the end. No
 * cond_resched() per task: the worker is real time, and the one thing it
 * would yield to there is a deadline server, whose 50 ms a second then
 * stretch the switch (a writer's median under hackbench went from 3.4 ms
 * to 104 ms with it).
 */
static unsigned int plugsched_move_tracked(bool forget)
{
	unsigned int moved = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_tasks *pt = per_cpu_ptr(&plugsched_tasks, cpu);
		struct task_struct *p;
		LIST_HEAD(done);

		raw_spin_lock_irq(&pt->lock);
		while ((p = list_first_entry_or_null(&pt->head, struct task_struct,
						     plugsched.tasks_node))) {
			list_move_tail(&p->plugsched.tasks_node, &done);
			/* Not past its last schedule: its task_struct is held. */
			get_task_struct(p);
			raw_spin_unlock_irq(&pt->lock);
			moved += plugsched_fix_task(p, forget);
			put_task_struct(p);
			raw_spin_lock_irq(&pt->lock);
		}
		list_splice(&done, &pt->head);
		raw_spin_unlock_irq(&pt->lock);
	}
	return moved;
}

/* A task of @class queued on @rq, or NULL; @rq is locked. */
static struct task_struct *plugsched_first_queued(struct rq *rq,
						  const struct sched_class *class)
{
	if (class == &plug_sched_class) {
		struct task_struct *p = plugsched_first_waiter(&rq->plug);

#ifdef CONFIG_CFS_BANDWIDTH
		/* Parked by cpu.max: still in the class. */
		if (!p)
			p = list_first_entry_or_null(&rq->plug.parked, struct task_struct,
						     plugsched.runnable_node);
#endif
		return p;
	}
#ifdef CONFIG_SMP
	return list_first_entry_or_null(&rq->cfs_tasks, struct task_struct, se.group_node);
#else
	return NULL;
#endif
}

#ifdef CONFIG_PLUGSCHED_DEBUG
atomic_t plugsched_stale_tags;

/*
 * After a leave walk no task may hold a tag: one that did would match the
 * activation 255 later, when the 8-bit tags wrap, and that policy would
 * take the old state for its own. Counted for make test (plug_stale_tags),
 * not warned of: the negative control breaks it on purpose. Nothing can
 * tag a task now (the plug class is empty, new tasks join the fair one),
 * so the flags are stable without the runqueue locks.
 */
static void plugsched_audit_tags(void)
{
	unsigned int stale = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_tasks *pt = per_cpu_ptr(&plugsched_tasks, cpu);
		struct task_struct *p;

		raw_spin_lock_irq(&pt->lock);
		list_for_each_entry(p, &pt->head, plugsched.tasks_node)
			stale += !!plugsched_task_owner(p);
		raw_spin_unlock_irq(&pt->lock);
	}
	if (stale)
		atomic_add(stale, &plugsched_stale_tags);
}
#else
static inline void plugsched_audit_tags(void) { }
#endif

/* Tasks of @class still queued anywhere; 0 once a switch is complete. */
static unsigned int plugsched_nr_left(const struct sched_class *class)
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (class == &plug_sched_class)
			n += READ_ONCE(rq->plug.nr_running) + plugsched_nr_parked(&rq->plug);
		else
			n += READ_ONCE(rq->cfs.h_nr_queued);
	}
	return n;
}

/*
 * Move every tracked task: then nothing of @class is queued anywhere. The
 * drain after the walk checks that: a task it finds was on no list, a bug
 * of the tracking (it is moved all the same). @class is the class being
 * left, @forget drops the state of the policy being left.
 */
static unsigned int plugsched_move_all(const struct sched_class *class, bool forget)
{
	unsigned int moved = plugsched_move_tracked(forget), missed = 0;
	struct task_struct *p;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		for (;;) {
			rq_lock_irqsave(rq, &rf);
			p = plugsched_first_queued(rq, class);
			if (p)
				get_task_struct(p);
			rq_unlock_irqrestore(rq, &rf);
			if (!p)
				break;
			missed += plugsched_fix_task(p, forget);
			put_task_struct(p);
		}
	}
	WARN_ONCE(missed, "plugsched: %u queued tasks were on no tracked list\n", missed);
	return moved + missed;
}

/*
 * Move them all, and wait for the class hooks in flight: they run with
 * interrupts off, so an IPI to every CPU, waited for, ends them (a grace
 * period would also wait for preempted RCU readers, who may wait long
 * under the new policy). Nothing should be left; the drain retries if so.
 */
static unsigned int plugsched_move_until_empty(const struct sched_class *class,
					       bool forget)
{
	unsigned int moved = plugsched_move_all(class, forget);
	int tries;

	for (tries = 0; tries < 10; tries++) {
		kick_all_cpus_sync();
		if (!plugsched_nr_left(class))
			break;
		moved += plugsched_move_all(class, forget);
	}
	return moved;
}

/*
 * Hand every normal task back to the fair class and retire the policy:
 * DISABLING, then MAINLINE. The plug class stays in use until it is empty,
 * so a task is never left in a class nobody picks from.
 */
static unsigned int plugsched_leave(void)
{
	unsigned int moved;

	plugsched_set_phase(PLUGSCHED_PHASE_DISABLING, NULL);
	moved = plugsched_move_until_empty(&plug_sched_class, true);
	WARN_ON_ONCE(plugsched_nr_left(&plug_sched_class));
	plugsched_audit_tags();
	/* The policy hears of no task from now on. */
	plugsched_set_bypass(true);

	plugsched_set_phase(PLUGSCHED_PHASE_MAINLINE, NULL);
	/*
	 * Only now: unregistering waits for the writers inside a knob's
	 * handler, and one may be a task the policy starved.
	 */
	plugsched_unregister_knobs();
	/* Class hooks and the tick run with interrupts off: let them finish. */
	kick_all_cpus_sync();
	WRITE_ONCE(plugsched_cur_ops, NULL);
	return moved;
}

static void plugsched_reset_rqs(const struct plugsched_ops *ops)
{
	int cpu;

	/* Nothing is in the plug class: the policy's queues start empty. */
	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		prq->next_balance = jiffies;
		prq->next_kick = jiffies;
		prq->idle_next = jiffies;
		prq->relief_next = jiffies;
		prq->kick_backoff = 1;
		prq->watch_bound[0] = 0;
		prq->watch_bound[1] = 0;
		prq->watch_inv = 0;
		prq->watch_n = 0;
		prq->watch_rotate = jiffies;
		/* A release left from the last policy ends here. */
		if (prq->released)
			plugsched_end_release(prq);
		ops->init_rq(prq);
	}
}

/* Knobs at their defaults, policy state fresh, a new owner tag. */
static int plugsched_activate(const struct plugsched_ops *ops)
{
	int ret;

	plugsched_knobs_reset(ops);
	ret = ops->init ? ops->init() : 0;
	if (ret)
		return ret;
	plugsched_reset_rqs(ops);

	plugsched_owner = plugsched_owner % PLUGSCHED_TF_OWNER + 1;
	WRITE_ONCE(plugsched_cur_ops, ops);
	plugsched_set_bypass(false);
	return 0;
}

/*
 * Hand every normal task to the policy just activated: ENABLING, then
 * ENABLED once the fair class is empty.
 */
static int plugsched_enter(void)
{
	unsigned int moved;

	plugsched_set_phase(PLUGSCHED_PHASE_ENABLING, NULL);
	/* The test of a fall back during a switch: hold the switch here. */
	if (plugsched_breaks(PLUGSCHED_BREAK_SWITCH_WINDOW))
		msleep(1000);
	moved = plugsched_move_until_empty(&fair_sched_class, false);
	/* The fair class is skipped from now on: it must be empty. */
	if (WARN_ON_ONCE(plugsched_nr_left(&fair_sched_class)))
		return -EBUSY;
	plugsched_set_phase(PLUGSCHED_PHASE_ENABLED, NULL);
	if (plugsched_register_knobs(plugsched_cur_ops))
		pr_warn("plugsched: cannot register the knobs of %s\n", plugsched_cur_ops->name);
	return moved;
}

/*
 * Switch to @ops (NULL: mainline) at run time: first every task back to
 * the fair class, then to the new policy. Forks are not held off: see
 * plugsched_post_fork(). @why: the policy is ejected (FALLBACK).
 *
 * Runs on the real-time plugsched worker, for a holder of
 * plugsched_switch_mutex: a normal task doing it would be moved to the plug
 * class before the fair tasks still to move, which run before it.
 */
int plugsched_switch(const struct plugsched_ops *ops, const char *why)
{
	const struct plugsched_ops *old = plugsched_cur_ops;
	const char *from = old ? old->name : PLUGSCHED_MAINLINE_NAME;
	const char *to = ops ? ops->name : PLUGSCHED_MAINLINE_NAME;
	char reason[sizeof(plugsched_fallback_why)];
	unsigned int moved = 0;
	ktime_t start;
	int ret = 0;

	WARN_ON_ONCE(!mutex_is_locked(&plugsched_switch_mutex) || !rt_task(current));
	if (ops == old)
		return 0;

	start = ktime_get();
	/*
	 * No CPU comes or goes during a switch: the walks over the CPUs and
	 * the static keys see one set. An offline in progress holds this off
	 * until it is done, and may be waiting for a task the policy being
	 * ejected starves: only bypass, entered before, lets it finish.
	 */
	cpus_read_lock();
	/* From mainline, the plug servers' bandwidth first, or nothing changes. */
	if (!old) {
		ret = plugsched_servers_reserve();
		if (ret) {
			cpus_read_unlock();
			pr_warn("plugsched: %s not started: no deadline bandwidth for the plug servers (%d), running %s\n",
				to, ret, from);
			return ret;
		}
	}
	if (old)
		moved += plugsched_leave();
	if (ops) {
		ret = plugsched_activate(ops);
		if (!ret) {
			ret = plugsched_enter();
			if (ret >= 0) {
				moved += ret;
				ret = 0;
			} else {
				moved += plugsched_leave();
			}
		}
	}
	/* Mainline again: the servers' bandwidth back. */
	if (!ops || ret)
		plugsched_servers_release();

	if (ret || why) {
		if (ret)
			scnprintf(reason, sizeof(reason), "%s: failed to start: %d", to, ret);
		else
			scnprintf(reason, sizeof(reason), "%s: %s", from, why);
		plugsched_set_phase(PLUGSCHED_PHASE_FALLBACK, reason);
	}
	cpus_read_unlock();
	WRITE_ONCE(plugsched_switches, plugsched_switches + 1);

	if (ret)
		pr_err("plugsched: %s failed to start (%d), running %s\n",
		       to, ret, PLUGSCHED_MAINLINE_NAME);
	else
		pr_info("plugsched: switched from %s to %s in %lld us (%u tasks moved)\n",
			from, to, ktime_us_delta(ktime_get(), start), moved);
	return ret;
}

/**
 * plugsched_enable_at_boot - make @ops the policy, before any task but init_task exists
 * @ops:	a registered policy
 *
 * Called from sched_init() through plugsched_init(): no task is to move,
 * the boot task becomes the idle task.
 *
 * Return: 0, or the error of @ops' init (the core stays in MAINLINE).
 */
int __init plugsched_enable_at_boot(const struct plugsched_ops *ops)
{
	int ret = plugsched_activate(ops);

	if (ret)
		return ret;
	plugsched_servers_on_at_boot();
	plugsched_set_phase(PLUGSCHED_PHASE_ENABLING, NULL);
	plugsched_set_phase(PLUGSCHED_PHASE_ENABLED, NULL);
	return 0;
}

/* The real-time worker that switches (and falls back, plugsched_watchdog.c). */
struct kthread_worker *plugsched_worker;

/* A switch asked for through sysfs, done on the worker. */
struct plugsched_switch_req {
	struct kthread_work		work;
	const struct plugsched_ops	*ops;
	int				ret;
};

static void plugsched_switch_fn(struct kthread_work *work)
{
	struct plugsched_switch_req *req =
		container_of(work, struct plugsched_switch_req, work);

	req->ret = plugsched_switch(req->ops, NULL);
}

/**
 * plugsched_request_switch - switch to @ops (NULL: mainline) on the worker
 * @ops:	a registered policy, or NULL
 *
 * For /sys/kernel/plugsched/active; waits until the switch is done.
 *
 * Return: 0, -EBUSY while another switch runs or, from mainline, if the
 * plug servers' deadline bandwidth is not there (nothing changed then),
 * -ENODEV without a worker, or the error of @ops' start (the core is in
 * FALLBACK then).
 */
int plugsched_request_switch(const struct plugsched_ops *ops)
{
	struct plugsched_switch_req req;

	if (!plugsched_worker)
		return -ENODEV;
	if (!mutex_trylock(&plugsched_switch_mutex))
		return -EBUSY;
	req.ops = ops;
	kthread_init_work(&req.work, plugsched_switch_fn);
	kthread_queue_work(plugsched_worker, &req.work);
	kthread_flush_work(&req.work);
	mutex_unlock(&plugsched_switch_mutex);
	return req.ret;
}

/* The worker, before the watchdog first starts. */
void __init plugsched_switch_late_init(void)
{
	struct kthread_worker *worker;

	/* Real time, so that a policy starving normal tasks cannot stop it. */
	worker = kthread_create_worker(0, "plugsched");
	if (IS_ERR(worker)) {
		pr_warn("plugsched: no worker, no watchdog: %ld\n", PTR_ERR(worker));
	} else {
		sched_set_fifo_low(worker->task);
		plugsched_worker = worker;
	}
}
