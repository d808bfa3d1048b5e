// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: pluggable CPU scheduler policies for normal tasks.
 *
 * This file is the only place that knows about struct sched_class. It
 * defines plug_sched_class, which sits between the fair and the ext class
 * and, while a policy is active, owns every SCHED_NORMAL, SCHED_BATCH and
 * SCHED_IDLE task; the fair class is then empty and skipped. Each class
 * hook does the bookkeeping every policy needs (run time and slice
 * accounting, counts, SCHED_BATCH/SCHED_IDLE rules, balancing, hotplug)
 * and calls the active policy's &struct plugsched_ops for the decisions.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/mmu_context.h>
#include <linux/plugsched.h>
#include <linux/proc_fs.h>
#include <linux/sched/isolation.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>
#include <linux/sysrq.h>

#include "sched.h"
#include "pelt.h"

#define PLUGSCHED_MAINLINE	"eevdf"

/* The promise of plugsched_types.h: task_struct grows by 128 bytes at most. */
static_assert(sizeof(struct plugsched_task) <= 128);

/*
 * p->plugsched.flags: which activation of a policy the task's state belongs
 * to (0: none). Every activation takes a new tag, so that state left from
 * an earlier activation, even of the same policy, is never reused.
 */
#define PLUGSCHED_TF_OWNER	0x00ff
/* The policy has the task queued (between its enqueue and dequeue calls). */
#define PLUGSCHED_TF_QUEUED	0x0100
/* Being moved by the balancer (set around its enqueue only). */
#define PLUGSCHED_TF_PULLED	0x0200

/* Built-in policies; index + 1 is the owner tag kept in p->plugsched.flags. */
static const struct plugsched_ops * const plugsched_policies[] = {
#ifdef CONFIG_PLUGSCHED_O1
	&plugsched_o1_ops,
#endif
#ifdef CONFIG_PLUGSCHED_CFS
	&plugsched_cfs_ops,
#endif
#ifdef CONFIG_PLUGSCHED_SD
	&plugsched_sd_ops,
#endif
#ifdef CONFIG_PLUGSCHED_ZAPHOD
	&plugsched_zaphod_ops,
#endif
#ifdef CONFIG_PLUGSCHED_NUMA
	&plugsched_numa_ops,
#endif
#ifdef CONFIG_PLUGSCHED_STARVE_TEST
	&plugsched_starve_ops,
#endif
};

/*
 * Three states: mainline (both keys off, the fair class owns normal
 * tasks), a policy active (both on: the plug class owns them and the fair
 * class is skipped) and, during a switch, both classes in use (enabled
 * only); plugsched_to_plug then says which class new tasks join.
 */
DEFINE_STATIC_KEY_FALSE(__plugsched_enabled);
DEFINE_STATIC_KEY_FALSE(__plugsched_all);
bool plugsched_to_plug __read_mostly;

/*
 * The active policy; NULL while mainline EEVDF owns normal tasks. It only
 * changes while no task is in the plug class (see plugsched_switch()).
 */
static const struct plugsched_ops *ps_ops __read_mostly;
static u16 ps_owner __read_mostly;

/* Knob writes; switches are serialised by plugsched_switch_mutex. */
static DEFINE_MUTEX(plugsched_mutex);
static DEFINE_MUTEX(plugsched_switch_mutex);
static char plugsched_boot_name[32] __initdata;
static unsigned int plugsched_boot_given __initdata;

/*
 * Negative controls (CONFIG_PLUGSCHED_DEBUG only): each breaks one
 * guarantee of the core on purpose, so that make test can show that the
 * check guarding it fails; "window" instead widens a race window so that
 * a test reaches it. Set through /sys/kernel/debug/sched/plug_break; none
 * by default, and compiled out of production kernels.
 */
enum plugsched_break {
	PLUGSCHED_BREAK_NICE,		/* every task weighs as nice 0 */
	PLUGSCHED_BREAK_BALANCE,	/* no CPU ever pulls tasks */
	PLUGSCHED_BREAK_PREEMPT,	/* a wakeup never preempts */
	PLUGSCHED_BREAK_SLICE,		/* odd PIDs' run time counts twice */
	PLUGSCHED_BREAK_WINDOW,		/* balance_plug() unlocked for 2 ms */
	PLUGSCHED_NR_BREAKS,
};

/* Remote ticks that found their CPU's current task dequeued (debugfs). */
static atomic_t plugsched_tick_dequeued __maybe_unused;

#ifdef CONFIG_PLUGSCHED_DEBUG
static unsigned long plugsched_broken;

static inline bool plugsched_breaks(enum plugsched_break what)
{
	return unlikely(test_bit(what, &plugsched_broken));
}
#else
static inline bool plugsched_breaks(enum plugsched_break what)
{
	return false;
}
#endif

static inline struct rq *prq_rq(struct plugsched_rq *prq)
{
	return container_of(prq, struct rq, plug);
}

/* rq->curr is RCU-published; under the rq lock it is stable. */
static inline struct task_struct *plug_rq_curr(struct rq *rq)
{
	return rcu_dereference_protected(rq->curr, lockdep_is_held(__rq_lockp(rq)));
}

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

struct plugsched_rq *plugsched_cpu_rq(int cpu)
{
	return &cpu_rq(cpu)->plug;
}

/* The weight the core's own load sums count, whatever a break says. */
static inline unsigned long plugsched_load_weight(const struct task_struct *p)
{
	return scale_load_down(p->se.load.weight);
}

unsigned long plugsched_task_weight(const struct task_struct *p)
{
	if (plugsched_breaks(PLUGSCHED_BREAK_NICE))
		return SCHED_CAPACITY_SCALE;
	return plugsched_load_weight(p);
}

/**
 * plugsched_scale_delta - run time in nice-0 units: @delta * 1024 / weight
 * @p:		the task that ran; its weight follows nice (1.25x per step)
 *		and is minimal for SCHED_IDLE
 * @delta:	ns @p ran
 *
 * Multiplies by the precomputed inverse weight 2^32/weight instead of
 * dividing, so it is cheap enough for every accounting update.
 *
 * Return: the scaled time in ns; @delta itself at nice 0.
 */
u64 plugsched_scale_delta(const struct task_struct *p, u64 delta)
{
	unsigned long w = scale_load_down(p->se.load.weight);
	u32 inv = p->se.load.inv_weight;

	if (likely(w == SCHED_CAPACITY_SCALE) || plugsched_breaks(PLUGSCHED_BREAK_NICE))
		return delta;
	if (unlikely(!inv))
		return div64_ul(delta << SCHED_FIXEDPOINT_SHIFT, max(w, 1UL));
	/* inv_weight = 2^32 / weight (fair.c's WMULT_SHIFT is 32) */
	return mul_u64_u32_shr(delta << SCHED_FIXEDPOINT_SHIFT, inv, 32);
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

/* CONFIG_PLUGSCHED_DEBUG: the policy holds exactly the tasks counted here. */
static void plugsched_check_counts(struct rq *rq)
{
	unsigned int n;

	if (!ps_ops->count)
		return;
	n = ps_ops->count(&rq->plug);
	WARN_ONCE(n != rq->plug.nr_running,
		  "plugsched: %s holds %d tasks on CPU %d (-1: broken queues), the core counts %u\n",
		  ps_ops->name, (int)n, cpu_of(rq), rq->plug.nr_running);
}

/* The watchdog watches @runnable; SCHED_IDLE tasks may wait for ever. */
static inline struct list_head *plugsched_runnable(struct plugsched_rq *prq,
						   const struct task_struct *p)
{
	return plugsched_task_is_idle(p) ? &prq->runnable_idle : &prq->runnable;
}

/*
 * The watchdog's clock on @prq, in jiffies (low 32 bits): it stands still
 * while a higher class has the CPU (@prq->released), so that a wait behind
 * RT or deadline tasks, which the policy cannot end and mainline does not
 * bound either once the plug server is off, is not taken for a stall of
 * the policy. p->plugsched.runnable_at is a time of this clock.
 */
static inline u32 plugsched_now(const struct plugsched_rq *prq)
{
	unsigned long now = READ_ONCE(prq->released) ? READ_ONCE(prq->released_at) : jiffies;

	return now - READ_ONCE(prq->released_jiffies);
}

/*
 * Jiffies @p, queued on @prq, has waited since it became runnable or last
 * ran, the CPU's releases not counted; a wait of 49 days wraps.
 */
static inline unsigned long plugsched_waited(const struct plugsched_rq *prq,
					     const struct task_struct *p)
{
	return (u32)(plugsched_now(prq) - p->plugsched.runnable_at);
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

/*
 * cpu_release / cpu_acquire, as in sched_ext: a higher class took the CPU
 * while the policy had a task on it. The tasks queued here wait until the
 * policy picks again; idle CPUs are kicked at the next tick to pull them.
 */
static void __plugsched_release(struct rq *rq, struct task_struct *next)
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
	if (ps_ops->cpu_release)
		ps_ops->cpu_release(prq, next);
}

/* RT, deadline or stop: a class that takes CPUs from the policy. */
static inline bool plugsched_class_above(const struct task_struct *p)
{
	return sched_class_above(p->sched_class, &fair_sched_class);
}

/* @next, about to run or running on @rq, takes the CPU if of such a class. */
static inline void plugsched_release(struct rq *rq, struct task_struct *next)
{
	if (!rq->plug.released && plugsched_class_above(next))
		__plugsched_release(rq, next);
}

/* The release's time goes to the total; the watchdog's clock runs again. */
static void plugsched_end_release(struct plugsched_rq *prq)
{
	WRITE_ONCE(prq->released_jiffies, prq->released_jiffies + jiffies - prq->released_at);
	WRITE_ONCE(prq->released, false);
}

/*
 * From the pick, with or without a task queued, and when a plugged task
 * starts running (it may have come back from RT as the current task);
 * also after a switch, with no policy.
 */
static void plugsched_acquire(struct rq *rq)
{
	const struct plugsched_ops *ops = READ_ONCE(ps_ops);

	plugsched_end_release(&rq->plug);
	if (ops && ops->cpu_acquire)
		ops->cpu_acquire(&rq->plug);
}

static inline u16 plugsched_task_owner(const struct task_struct *p)
{
	return p->plugsched.flags & PLUGSCHED_TF_OWNER;
}

/*
 * The node all of @p's allowed CPUs lie in, else NUMA_NO_NODE. The mask,
 * not cpus_ptr: migrate_disable() pins cpus_ptr to one CPU for a while.
 */
static int plugsched_mask_node(const struct task_struct *p)
{
	int node = cpu_to_node(cpumask_first(&p->cpus_mask));

	return cpumask_subset(&p->cpus_mask, cpumask_of_node(node)) ? node : NUMA_NO_NODE;
}

/* Under a policy with home nodes, a task bound to one node is at home there. */
static void plugsched_home_from_mask(struct task_struct *p)
{
	int node;

	if (!ps_ops->home_nodes)
		return;
	node = plugsched_mask_node(p);
	if (node != NUMA_NO_NODE)
		p->plugsched.home_node = node;
}

/* Give @p fresh state of @ops, the active policy; @p is not queued. */
static void __plugsched_task_init(const struct plugsched_ops *ops, struct task_struct *p)
{
	INIT_LIST_HEAD(&p->plugsched.run_list);
	INIT_LIST_HEAD(&p->plugsched.runnable_node);
	p->plugsched.array = NULL;
	p->plugsched.slice = 0;
	p->plugsched.last_ran = 0;
	p->plugsched.runnable_at = plugsched_now(&task_rq(p)->plug);
	/* Bound to one node (a per-CPU kthread): at home there from the start. */
	p->plugsched.home_node = ops->home_nodes ? plugsched_mask_node(p) : NUMA_NO_NODE;
	memset(p->plugsched.priv, 0, sizeof(p->plugsched.priv));
	p->plugsched.flags &= ~(PLUGSCHED_TF_OWNER | PLUGSCHED_TF_QUEUED);
	p->plugsched.flags |= ps_owner;
	ops->task_init(p);
}

static inline void plugsched_task_init(struct task_struct *p)
{
	__plugsched_task_init(ps_ops, p);
}

/*
 * Charge the running task's run time to its slice and to the policy.
 * Every caller knows the running task is a plugged one.
 */
static void update_curr_plug(struct rq *rq)
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
	/* The negative control: half the tasks pay twice for their time. */
	if (plugsched_breaks(PLUGSCHED_BREAK_SLICE) && (curr->pid & 1))
		delta *= 2;
	curr->plugsched.slice -= delta;
	if (ps_ops->charge)
		ps_ops->charge(&rq->plug, curr, delta);
}

static struct task_struct *pick_task_plug(struct rq *rq);

/*
 * The plug server: what the fair server is to fair tasks, a deadline
 * server that runs plugged tasks starved by RT or deadline tasks, 50 ms
 * every second by default (set by dl_server_start()), deferred until they
 * did starve; /sys/kernel/debug/sched/plug_server/cpuN/{runtime,period}
 * tune it.
 */
static struct task_struct *plug_server_pick_task(struct sched_dl_entity *dl_se)
{
	return pick_task_plug(dl_se->rq);
}

void plugsched_server_init(struct rq *rq)
{
	init_dl_entity(&rq->plug_server);
	dl_server_init(&rq->plug_server, rq, plug_server_pick_task);
}

/*
 * The CPU is dying: nothing is queued on it any more. Only an active
 * server is stopped: stopping one that its own empty pick stopped already
 * takes its bandwidth off the running bandwidth a second time (6.12's
 * dl_server_stop() does not check; make torture hit the underflow WARN in
 * sub_running_bw() on CPU hotplug).
 */
void plugsched_server_stop(struct rq *rq)
{
	if (dl_server_active(&rq->plug_server))
		dl_server_stop(&rq->plug_server);
}

/* A new root domain: the server's bandwidth moves with the CPU. */
void plugsched_server_attach_root(struct rq *rq)
{
	if (rq->plug_server.dl_server)
		__dl_server_attach_root(&rq->plug_server, rq);
}

static void enqueue_task_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned int pflags = 0;
	bool fresh = false;

	if (unlikely(plugsched_task_owner(p) != ps_owner)) {
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

	/* A task first queued under a policy with home nodes is at home here. */
	if (ps_ops->home_nodes && p->plugsched.home_node == NUMA_NO_NODE)
		p->plugsched.home_node = cpu_to_node(cpu_of(rq));

	if (!prq->nr_running++) {
		/* As fair does: idle time counts as time the server had. */
		if (!rq->nr_running)
			dl_server_update_idle_time(rq, plug_rq_curr(rq));
		dl_server_start(&rq->plug_server);
	}
	prq->nr_idle += plugsched_task_is_idle(p);
	prq->load += plugsched_load_weight(p);
	p->plugsched.flags |= PLUGSCHED_TF_QUEUED;
	list_add_tail(&p->plugsched.runnable_node, plugsched_runnable(prq, p));
	ps_ops->enqueue(prq, p, pflags);
	add_nr_running(rq, 1);
	/* Queued behind a task of a higher class: the CPU is not ours. */
	plugsched_release(rq, plug_rq_curr(rq));
}

static bool dequeue_task_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned int pflags = 0;

	if (task_current(rq, p))
		update_curr_plug(rq);

	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		WARN_ONCE(!(p->plugsched.flags & PLUGSCHED_TF_QUEUED),
			  "plugsched: %s/%d dequeued while not queued\n", p->comm, p->pid);
	if (flags & DEQUEUE_SLEEP)
		pflags |= PLUGSCHED_DEQ_SLEEP;
	if (flags & DEQUEUE_SAVE)
		pflags |= PLUGSCHED_DEQ_SAVE;
	if (task_on_rq_migrating(p))
		pflags |= PLUGSCHED_DEQ_MIGRATE;

	ps_ops->dequeue(prq, p, pflags);
	list_del_init(&p->plugsched.runnable_node);
	p->plugsched.flags &= ~PLUGSCHED_TF_QUEUED;
	/* Clocks differ between CPUs: carry the wait, not the stamp. */
	if (pflags & PLUGSCHED_DEQ_MIGRATE)
		p->plugsched.runnable_at = plugsched_now(prq) - p->plugsched.runnable_at;
	prq->nr_running--;
	prq->nr_idle -= plugsched_task_is_idle(p);
	prq->load -= plugsched_load_weight(p);
	sub_nr_running(rq, 1);
	return true;
}

static void yield_task_plug(struct rq *rq)
{
	/* do_sched_yield() does not update the clock; the switch that follows will. */
	update_rq_clock(rq);
	update_curr_plug(rq);
	rq_clock_skip_update(rq);
	ps_ops->yield(&rq->plug, plug_rq_curr(rq));
}

static void wakeup_preempt_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = plug_rq_curr(rq);

	if (curr == p || curr->sched_class != &plug_sched_class ||
	    plugsched_breaks(PLUGSCHED_BREAK_PREEMPT))
		return;

	/* SCHED_IDLE runs only while nothing else wants the CPU. */
	if (plugsched_task_is_idle(curr) && !plugsched_task_is_idle(p)) {
		resched_curr(rq);
		return;
	}
	/* SCHED_BATCH and SCHED_IDLE never preempt on wakeup. */
	if (plugsched_task_is_idle(p) || p->policy == SCHED_BATCH)
		return;
	/* A synchronous waker on this CPU is about to sleep: let it. */
	if ((flags & WF_SYNC) && cpu_of(rq) == smp_processor_id())
		return;

	update_curr_plug(rq);
	if (ps_ops->preempt(&rq->plug, curr, p))
		resched_curr(rq);
}

/*
 * A SCHED_IDLE task runs when nothing else of the policy wants the CPU,
 * and for a tick after waiting PLUGSCHED_IDLE_WAIT: one preempted in an
 * RCU read-side section, or holding a lock, must not stall everybody (the
 * fair class gives such tasks a small weight, not nothing).
 */
#define PLUGSCHED_IDLE_WAIT	HZ

static struct task_struct *pick_task_plug(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;

	if (unlikely(prq->released))
		plugsched_acquire(rq);
	if (!prq->nr_running)
		return NULL;
	if (unlikely(prq->nr_idle) && prq->nr_idle < prq->nr_running) {
		struct task_struct *p = list_first_entry(&prq->runnable_idle,
							 struct task_struct,
							 plugsched.runnable_node);

		if (!task_current(rq, p) && plugsched_waited(prq, p) > PLUGSCHED_IDLE_WAIT)
			return p;
	}
	return ps_ops->pick(prq);
}

static void put_prev_task_plug(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	update_curr_plug(rq);
	p->plugsched.last_ran = rq_clock(rq);
	/* Not after a dequeue for a nice or policy change: on_rq is still set. */
	if (p->plugsched.flags & PLUGSCHED_TF_QUEUED) {
		p->plugsched.runnable_at = plugsched_now(&rq->plug);
		list_move_tail(&p->plugsched.runnable_node, plugsched_runnable(&rq->plug, p));
		if (ps_ops->put_prev)
			ps_ops->put_prev(&rq->plug, p);
	}
	/* As sched_ext: the policy hears of @p first, then of the CPU. */
	if (next)
		plugsched_release(rq, next);
}

static void set_next_task_plug(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	if (unlikely(rq->plug.released))
		plugsched_acquire(rq);
	p->plugsched.runnable_at = plugsched_now(&rq->plug);
	if (!(p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		return;
	list_move_tail(&p->plugsched.runnable_node, plugsched_runnable(&rq->plug, p));
	if (ps_ops->set_next)
		ps_ops->set_next(&rq->plug, p);
}

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

	if (p->plugsched.slice <= 0) {
		if (ps_ops->slice_expired(&rq->plug, p))
			resched_curr(rq);
	} else if (ps_ops->tick && ps_ops->tick(&rq->plug, p)) {
		resched_curr(rq);
	}
	/* A SCHED_IDLE task picked after its wait gets one tick. */
	if (plugsched_task_is_idle(p) && rq->plug.nr_idle < rq->plug.nr_running)
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
	 * only after every CPU took an IPI once ps_ops is NULL.
	 */
	ops = READ_ONCE(ps_ops);
	if (unlikely(!ops)) {
		rq_unlock(rq, &rf);
		return;
	}
	update_rq_clock(rq);
	__plugsched_task_init(ops, p);
	/*
	 * A child lives near its parent's memory; kernel threads, which all
	 * come from kthreadd and never exec, are at home where they first run.
	 */
	if (ops->home_nodes && !(p->flags & PF_KTHREAD))
		p->plugsched.home_node = plugsched_task_home(current);
	/* A plugged parent keeps the plug class, and ps_ops, alive. */
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
	/* Its affinity may have changed there, unseen by set_cpus_allowed_plug(). */
	plugsched_home_from_mask(p);
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
	if (!task_on_rq_queued(p))
		return;

	if (ps_ops->prio_changed)
		ps_ops->prio_changed(&rq->plug, p);

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

	if (ps_ops->rr_interval)
		ns = ps_ops->rr_interval(p);
	else
		ns = max_t(s64, p->plugsched.slice, 0);
	return NS_TO_JIFFIES(ns);
}

#ifdef CONFIG_SMP

bool plugsched_can_migrate(struct plugsched_rq *src, struct task_struct *p,
			   int dst_cpu, bool idle)
{
	struct rq *rq = prq_rq(src);

	if (task_on_cpu(rq, p) || task_current(rq, p))
		return false;
	if (!cpumask_test_cpu(dst_cpu, p->cpus_ptr))
		return false;
	if (is_migration_disabled(p) || kthread_is_per_cpu(p))
		return false;
	if (!cpu_active(dst_cpu))
		return false;
	/* Leave cache-hot tasks alone unless the puller is idle. */
	if (!idle && rq_clock(rq) - p->plugsched.last_ran <
		     sysctl_sched_migration_cost)
		return false;
	return true;
}

/* Bounded scan: balancing must not walk a long queue under two locks. */
#define PLUGSCHED_MIGRATE_SCAN	32

/**
 * plugsched_array_migratable - a task of @array that may move to @dst_cpu
 * @src:	the runqueue @array belongs to; locked
 * @array:	the priority array to scan, best slots first, each slot from
 *		its tail (the task that would run last)
 * @dst_cpu:	the CPU pulling
 * @idle:	@dst_cpu has nothing to run
 *
 * Looks at PLUGSCHED_MIGRATE_SCAN tasks at most. Under a policy with home
 * nodes a move across nodes takes, among those, a task going home first,
 * then one away from home, and a task at home last.
 *
 * Return: the task, or NULL.
 */
struct task_struct *plugsched_array_migratable(struct plugsched_rq *src,
					       struct plugsched_prio_array *array,
					       int dst_cpu, bool idle)
{
	int src_node = cpu_to_node(src->cpu), dst_node = cpu_to_node(dst_cpu);
	bool by_home = ps_ops->home_nodes && src_node != dst_node;
	struct task_struct *p, *away = NULL, *home = NULL;
	unsigned int budget = PLUGSCHED_MIGRATE_SCAN;
	u64 bitmap = array->bitmap;

	while (bitmap) {
		unsigned int slot = __ffs64(bitmap);

		bitmap &= bitmap - 1;
		list_for_each_entry_reverse(p, &array->queue[slot], plugsched.run_list) {
			if (plugsched_can_migrate(src, p, dst_cpu, idle)) {
				int node;

				if (!by_home)
					return p;
				node = plugsched_task_home(p);
				if (node == dst_node)
					return p;
				if (node != src_node && !away)
					away = p;
				else if (node == src_node && !home)
					home = p;
			}
			if (!--budget)
				return away ?: home;
		}
	}
	return away ?: home;
}

static void plugsched_move_task(struct rq *src, struct rq *dst,
				struct task_struct *p)
{
	deactivate_task(src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, cpu_of(dst));
	p->plugsched.flags |= PLUGSCHED_TF_PULLED;
	activate_task(dst, p, ENQUEUE_NOCLOCK);
	p->plugsched.flags &= ~PLUGSCHED_TF_PULLED;
	wakeup_preempt(dst, p, 0);
}

static unsigned long plugsched_rq_load(struct plugsched_rq *prq)
{
	if (ps_ops->balance_by_load)
		return READ_ONCE(prq->load);
	return READ_ONCE(prq->nr_running) * SCHED_CAPACITY_SCALE;
}

/*
 * What RT, deadline and IRQ time leave of a CPU for plugged tasks, as
 * fair's scale_rt_capacity() computes it: 1 .. SCHED_CAPACITY_SCALE.
 */
static unsigned long plugsched_capacity(struct rq *rq)
{
	unsigned long max = arch_scale_cpu_capacity(cpu_of(rq));
	unsigned long used = cpu_util_rt(rq) + cpu_util_dl(rq);
	unsigned long irq = cpu_util_irq(rq);

	if (irq >= max || used >= max)
		return 1;
	return max(scale_irq_capacity(max - used, irq, max), 1UL);
}

/* @load on @rq as if @rq had a whole CPU: a CPU busy with RT work is full. */
static inline unsigned long plugsched_scaled(struct rq *rq, unsigned long load,
					     unsigned long cap)
{
	return load * SCHED_CAPACITY_SCALE / cap;
}

/* Whether @rq's current task is a plugged one (or the idle task). */
static bool plugsched_curr_is_ours(struct rq *rq)
{
	const struct sched_class *class;

	rcu_read_lock();
	class = rcu_dereference(rq->curr)->sched_class;
	rcu_read_unlock();
	return class == &plug_sched_class || class == &idle_sched_class;
}

/*
 * Plugged tasks queued on @prq that wait: all but the running one, or
 * all of them while a higher class holds the CPU.
 */
static unsigned int plugsched_nr_waiting(struct plugsched_rq *prq)
{
	unsigned int nr = READ_ONCE(prq->nr_running);

	if (nr && plugsched_curr_is_ours(prq_rq(prq)))
		nr--;
	return nr;
}

/* CPUs that balance and are balanced to: isolcpus=domain leaves some out. */
static inline bool plugsched_balance_cpu(int cpu)
{
	return cpu_active(cpu) && housekeeping_cpu(cpu, HK_TYPE_DOMAIN);
}

/**
 * plugsched_balance_span - pull tasks from the busiest CPU of @span
 * @this:	the runqueue to pull to; its lock is held, and may be dropped
 *		and taken again
 * @idle:	@this has nothing to run (pull one task, ignore cache-hotness)
 * @span:	the CPUs to look at (active ones only)
 * @flags:	PLUGSCHED_BAL_KEEP_HOME: leave tasks that are on their home
 *		node where they are
 *
 * The busiest CPU is the one with the most load (task count, or summed
 * weights with &plugsched_ops.balance_by_load) for the capacity RT,
 * deadline and IRQ work leave it, among those with a plugged task waiting.
 * It is pulled from when it exceeds this CPU by
 * &plugsched_ops.imbalance_pct, until half the difference has moved and
 * as long as a move leaves this CPU no busier than the busiest was; the
 * policy chooses which tasks. Isolated CPUs (isolcpus=domain) neither
 * pull nor are pulled from.
 *
 * Return: the number of tasks pulled.
 */
int plugsched_balance_span(struct plugsched_rq *this, bool idle,
			   const struct cpumask *span, unsigned int flags)
{
	unsigned long load, max_load = 0, this_load, this_cap, busiest_cap = 1, imbalance;
	struct rq *this_rq = prq_rq(this), *busiest = NULL;
	int cpu, moved = 0, loops = 0;

	if (!plugsched_balance_cpu(this->cpu))
		return 0;
	for_each_cpu(cpu, span) {
		struct rq *rq = cpu_rq(cpu);
		unsigned long cap;

		if (cpu == this->cpu || !plugsched_balance_cpu(cpu) ||
		    !plugsched_nr_waiting(&rq->plug))
			continue;
		cap = plugsched_capacity(rq);
		load = plugsched_scaled(rq, plugsched_rq_load(&rq->plug), cap);
		if (load > max_load) {
			max_load = load;
			busiest = rq;
			busiest_cap = cap;
		}
	}
	if (!busiest)
		return 0;

	/* Idle, it has all its room now, whatever RT work it had before. */
	this_cap = idle ? arch_scale_cpu_capacity(this->cpu) : plugsched_capacity(this_rq);
	this_load = plugsched_scaled(this_rq, plugsched_rq_load(this), this_cap);
	if (max_load <= this_load)
		return 0;
	if (!idle && max_load * 100 < this_load * ps_ops->imbalance_pct)
		return 0;
	imbalance = (max_load - this_load) / 2;
	if (!imbalance && !idle)
		return 0;

	/* Taking both locks forgets both clock updates: redo them. */
	double_lock_balance(this_rq, busiest);
	update_rq_clock(this_rq);
	update_rq_clock(busiest);
	while (plugsched_nr_waiting(&busiest->plug) && loops++ < PLUGSCHED_MIGRATE_SCAN) {
		struct task_struct *p;
		unsigned long w;

		p = ps_ops->migration_candidate(&busiest->plug, this->cpu, idle);
		if (!p)
			break;
		/* Candidates come home-bound first, at home last. */
		if ((flags & PLUGSCHED_BAL_KEEP_HOME) &&
		    plugsched_task_home(p) == cpu_to_node(cpu_of(busiest)))
			break;
		w = ps_ops->balance_by_load ? plugsched_load_weight(p) :
					       SCHED_CAPACITY_SCALE;
		/*
		 * Never make this CPU, with @p, busier than the busiest is
		 * (by more than imbalance_pct: a little RT or IRQ time here
		 * must not stop the rotation below), each judged by the
		 * capacity RT and deadline work leave it:
		 * a CPU an RT hog holds pulls nothing, a task waiting behind
		 * one moves to any CPU with room. Between equal CPUs a task
		 * still moves from two to one, so that three tasks on two
		 * CPUs take turns at the CPU of their own.
		 */
		if (plugsched_scaled(this_rq, plugsched_rq_load(this) + w, this_cap) * 100 >
		    plugsched_scaled(busiest, plugsched_rq_load(&busiest->plug), busiest_cap) *
		    ps_ops->imbalance_pct)
			break;
		plugsched_move_task(busiest, this_rq, p);
		moved++;
		/* Until half the difference has moved, in busiest's terms. */
		w = plugsched_scaled(busiest, w, busiest_cap);
		if (idle || w >= imbalance)
			break;
		imbalance -= w;
	}
	if (moved) {
		WRITE_ONCE(busiest->plug.kick_backoff, 1);
		this->nr_pulled += moved;
	}
	double_unlock_balance(this_rq, busiest);
	return moved;
}

/**
 * plugsched_balance - pull tasks from the busiest CPU of the machine
 * @this:	the runqueue to pull to; its lock is held, and may be dropped
 * @idle:	@this has nothing to run
 *
 * plugsched_balance_span() over every active CPU.
 *
 * Return: the number of tasks pulled.
 */
int plugsched_balance(struct plugsched_rq *this, bool idle)
{
	return plugsched_balance_span(this, idle, housekeeping_cpumask(HK_TYPE_DOMAIN), 0);
}

static int plugsched_do_balance(struct plugsched_rq *this, bool idle)
{
	struct rq *rq = prq_rq(this);

	if (plugsched_breaks(PLUGSCHED_BREAK_BALANCE))
		return 0;
	/* This CPU's RT and deadline load decays while it does not tick. */
	update_rq_clock(rq);
	update_other_load_avgs(rq);
	if (ps_ops->balance)
		return ps_ops->balance(this, idle);
	return plugsched_balance(this, idle);
}

static int balance_plug(struct rq *rq, struct task_struct *prev,
			struct rq_flags *rf)
{
	if (rq->plug.nr_running)
		return 1;
	if (!cpu_active(cpu_of(rq)))
		return 0;

	rq_unpin_lock(rq, rf);
	plugsched_do_balance(&rq->plug, !rq->nr_running);
	/*
	 * double_lock_balance() may drop this lock for a moment; the test of
	 * a remote tick meeting the dequeued @prev needs longer (nohz_full
	 * CPUs get one remote tick a second).
	 */
	if (plugsched_breaks(PLUGSCHED_BREAK_WINDOW) && tick_nohz_full_cpu(cpu_of(rq))) {
		raw_spin_rq_unlock(rq);
		udelay(2 * USEC_PER_MSEC);
		raw_spin_rq_lock(rq);
		update_rq_clock(rq);
	}
	rq_repin_lock(rq, rf);

	return rq->plug.nr_running > 0;
}

/* The first idle active CPU of @mask that @p may use, or -1. */
static int plugsched_idle_cpu(struct task_struct *p, const struct cpumask *mask)
{
	int cpu;

	for_each_cpu_and(cpu, mask, p->cpus_ptr) {
		if (plugsched_balance_cpu(cpu) && available_idle_cpu(cpu))
			return cpu;
	}
	return -1;
}

/* The active CPU of @mask that @p may use with the fewest tasks, or -1. */
static int plugsched_least_loaded_cpu(struct task_struct *p,
				      const struct cpumask *mask, int prefer)
{
	unsigned int nr, best_nr = UINT_MAX;
	int cpu, best = -1;

	for_each_cpu_and(cpu, mask, p->cpus_ptr) {
		if (!plugsched_balance_cpu(cpu))
			continue;
		nr = READ_ONCE(cpu_rq(cpu)->nr_running);
		if (nr < best_nr || (nr == best_nr && cpu == prefer)) {
			best_nr = nr;
			best = cpu;
		}
	}
	return best;
}

/**
 * plugsched_select_cpu - default CPU choice for a waking, new or exec'ing task
 * @p:		the task
 * @prev_cpu:	the CPU @p last ran on
 * @wake_flags:	WF_TTWU, WF_FORK or WF_EXEC
 *
 * A waking task stays where it ran if that CPU is idle, else takes the CPU
 * of a synchronous waker that runs alone there, else an idle CPU sharing the
 * last-level cache. A new or exec'ing task goes to the allowed CPU with the
 * fewest runnable tasks. Balancing fixes the rest.
 *
 * Return: the CPU; the core falls back to an allowed one if needed.
 */
int plugsched_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags)
{
	struct sched_domain *sd;
	int cpu;

	if (wake_flags & WF_TTWU) {
		int this_cpu = smp_processor_id();

		if (cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
		    available_idle_cpu(prev_cpu))
			return prev_cpu;

		/* A synchronous waker is about to sleep: take its CPU. */
		if ((wake_flags & WF_SYNC) && cpumask_test_cpu(this_cpu, p->cpus_ptr) &&
		    cpu_active(this_cpu) && cpu_rq(this_cpu)->nr_running <= 1)
			return this_cpu;

		/* An isolated CPU (isolcpus=domain) has no domain: stay. */
		rcu_read_lock();
		sd = rcu_dereference(per_cpu(sd_llc, prev_cpu));
		cpu = sd ? plugsched_idle_cpu(p, sched_domain_span(sd)) : -1;
		rcu_read_unlock();
		return cpu >= 0 ? cpu : prev_cpu;
	}

	cpu = plugsched_least_loaded_cpu(p, cpu_active_mask, prev_cpu);
	return cpu >= 0 ? cpu : prev_cpu;
}

/*
 * Home nodes: a core mechanism for NUMA placement (sched=numa uses it),
 * after Erich Focht's NUMA scheduler for 2.5. A policy that sets
 * &plugsched_ops.home_nodes gets a home node per task (inherited at fork),
 * and may use plugsched_numa_select_cpu() and plugsched_numa_balance().
 */

/* Active CPUs of @node and their summed load, @p not counted. */
static unsigned int plugsched_node_sum(int node, struct task_struct *p,
				       unsigned long *sum)
{
	unsigned int n = 0;
	int cpu;

	*sum = 0;
	for_each_cpu_and(cpu, cpumask_of_node(node), cpu_active_mask) {
		*sum += plugsched_rq_load(&cpu_rq(cpu)->plug);
		n++;
	}
	if (p && n && cpu_to_node(task_cpu(p)) == node && task_on_rq_queued(p))
		*sum -= min(*sum, (unsigned long)SCHED_CAPACITY_SCALE);
	return n;
}

/*
 * Exec is the cheap moment to move: the task has no memory to leave
 * behind. It goes to the node that would be the least loaded with it, to
 * that node's least loaded CPU, and that node becomes its home; it stays
 * where it is if its CPU holds two tasks or fewer and its node would not
 * be over @threshold percent as loaded as the best one.
 */
static int plugsched_numa_exec_cpu(struct task_struct *p, int prev_cpu,
				   unsigned int threshold)
{
	int node, prev_node = cpu_to_node(prev_cpu), best_node = prev_node, cpu;
	unsigned long sum, load, prev_load = ULONG_MAX, best = ULONG_MAX;
	unsigned int n;

	for_each_online_node(node) {
		if (!cpumask_intersects(cpumask_of_node(node), p->cpus_ptr))
			continue;
		n = plugsched_node_sum(node, p, &sum);
		if (!n)
			continue;
		load = (sum + SCHED_CAPACITY_SCALE) / n;
		if (node == prev_node)
			prev_load = load;
		if (load < best || (load == best && node == prev_node)) {
			best = load;
			best_node = node;
		}
	}
	if (READ_ONCE(cpu_rq(prev_cpu)->nr_running) <= 2 &&
	    (prev_load == ULONG_MAX || prev_load * 100 <= best * threshold)) {
		p->plugsched.home_node = prev_node;
		return prev_cpu;
	}
	cpu = plugsched_least_loaded_cpu(p, cpumask_of_node(best_node), prev_cpu);
	if (cpu < 0) {
		cpu = prev_cpu;
		best_node = prev_node;
	}
	p->plugsched.home_node = best_node;
	return cpu;
}

/**
 * plugsched_numa_select_cpu - CPU choice by home node
 * @p:		the task
 * @prev_cpu:	the CPU @p last ran on
 * @wake_flags:	WF_TTWU, WF_FORK or WF_EXEC
 * @threshold:	percent: at exec, @p stays on a nearly idle CPU unless its
 *		node would be this much more loaded than the least loaded
 *
 * Exec moves @p to the least loaded node and makes it @p's home (see
 * above). A new task starts on the least loaded CPU of its home node (its
 * parent's), near the memory it shares. A waking task takes an idle CPU of
 * its home node, the CPU it last ran on first, then an idle CPU of the
 * waker's node, then the CPU of a synchronous waker that runs alone in the
 * home node; else it stays where it last ran.
 *
 * Return: the CPU; the core falls back to an allowed one if needed.
 */
int plugsched_numa_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags,
			      unsigned int threshold)
{
	int home = plugsched_task_home(p), this_cpu, cpu;

	if (wake_flags & WF_EXEC)
		return plugsched_numa_exec_cpu(p, prev_cpu, threshold);
	/* No home yet (a kernel thread): wherever there is room. */
	if (wake_flags & WF_FORK && p->plugsched.home_node == NUMA_NO_NODE)
		return plugsched_select_cpu(p, prev_cpu, wake_flags);
	if (wake_flags & WF_FORK) {
		cpu = plugsched_least_loaded_cpu(p, cpumask_of_node(home), prev_cpu);
		return cpu >= 0 ? cpu : plugsched_select_cpu(p, prev_cpu, wake_flags);
	}

	if (cpu_to_node(prev_cpu) == home && cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
	    available_idle_cpu(prev_cpu))
		return prev_cpu;
	cpu = plugsched_idle_cpu(p, cpumask_of_node(home));
	if (cpu >= 0)
		return cpu;
	this_cpu = smp_processor_id();
	if (cpu_to_node(this_cpu) != home) {
		cpu = plugsched_idle_cpu(p, cpumask_of_node(cpu_to_node(this_cpu)));
		if (cpu >= 0)
			return cpu;
	} else if ((wake_flags & WF_SYNC) && cpumask_test_cpu(this_cpu, p->cpus_ptr) &&
		   cpu_active(this_cpu) && cpu_rq(this_cpu)->nr_running <= 1) {
		return this_cpu;
	}
	return prev_cpu;
}

/*
 * This CPU's view of each node's load per CPU, decayed by half at each of
 * its cross-node balances (Focht's prev_node_load): a node is judged by
 * its recent past, not by one instant. NULL until late init. The halving
 * rounds towards the new load, so that a steady load is reached exactly:
 * rounded down, a view rising to 1536 (3 tasks on 2 CPUs) stopped at 1535,
 * and 3 tasks at home on one node beside 1 on the other, exactly the two
 * tasks per CPU that move a task from home, never moved.
 */
static unsigned long *plugsched_node_loads;

static unsigned long plugsched_node_view(struct plugsched_rq *this, int node,
					 unsigned long now)
{
	unsigned long *view;

	if (!plugsched_node_loads)
		return now;
	view = &plugsched_node_loads[this->cpu * nr_node_ids + node];
	*view = (*view + now + (now > *view)) / 2;
	return *view;
}

/**
 * plugsched_numa_balance - balance within the node, now and then across
 * @this:	the runqueue to pull to; locked, may be dropped and retaken
 * @idle:	@this has nothing to run
 * @ratio:	every @ratio-th busy balance looks at the other nodes too, and
 *		an idle one after @ratio idle balance intervals
 * @threshold:	percent: another node is pulled from only when its decayed
 *		load per CPU exceeds this node's by this much
 *
 * Within the node as plugsched_balance(). Across nodes the busiest CPU of
 * the busiest node qualifying is pulled from, tasks going home first; tasks
 * at home there count double: they move only when the nodes differ by two
 * tasks per CPU of this node or more.
 *
 * Return: the number of tasks pulled.
 */
int plugsched_numa_balance(struct plugsched_rq *this, bool idle,
			   unsigned int ratio, unsigned int threshold)
{
	int node, this_node = cpu_to_node(this->cpu), busiest_node = NUMA_NO_NODE;
	unsigned long sum, load, this_load, max_load = 0;
	unsigned int n, this_n, flags = 0;
	int moved;

	moved = plugsched_balance_span(this, idle, cpumask_of_node(this_node), 0);
	if (num_online_nodes() < 2)
		return moved;
	/*
	 * An idle CPU balances when kicked, not at every tick (nohz): it
	 * looks across nodes once @ratio idle balance intervals have passed,
	 * as it would have ticking.
	 */
	if (idle ? time_before(jiffies, this->next_node_balance) :
		   ++this->nr_balances < ratio)
		return moved;
	this->nr_balances = 0;
	this->next_node_balance = jiffies +
		msecs_to_jiffies(ratio * ps_ops->idle_balance_ms);

	this_n = plugsched_node_sum(this_node, NULL, &sum);
	this_load = plugsched_node_view(this, this_node, this_n ? sum / this_n : 0);
	for_each_online_node(node) {
		if (node == this_node)
			continue;
		n = plugsched_node_sum(node, NULL, &sum);
		load = plugsched_node_view(this, node, n ? sum / n : 0);
		if (n && load > max_load) {
			max_load = load;
			busiest_node = node;
		}
	}
	if (busiest_node == NUMA_NO_NODE ||
	    max_load * 100 <= this_load * threshold || max_load <= this_load)
		return moved;
	if ((max_load - this_load) * max(this_n, 1U) < 2 * SCHED_CAPACITY_SCALE)
		flags |= PLUGSCHED_BAL_KEEP_HOME;
	return moved + plugsched_balance_span(this, idle, cpumask_of_node(busiest_node),
					      flags);
}

static void __init plugsched_numa_late_init(void)
{
	if (nr_node_ids > 1)
		plugsched_node_loads = kcalloc(array_size(nr_cpu_ids, nr_node_ids),
					       sizeof(unsigned long), GFP_KERNEL);
}

static int select_task_rq_plug(struct task_struct *p, int prev_cpu, int wake_flags)
{
	if (ps_ops->select_cpu)
		return ps_ops->select_cpu(p, prev_cpu, wake_flags);
	return plugsched_select_cpu(p, prev_cpu, wake_flags);
}

/*
 * A task bound to one node's CPUs (a per-CPU kthread) is at home there.
 * migrate_disable() and migrate_enable() pass here too: they change no
 * home, the task only waits on its CPU for a while.
 */
static void set_cpus_allowed_plug(struct task_struct *p, struct affinity_context *ctx)
{
	set_cpus_allowed_common(p, ctx);
	if (!(ctx->flags & (SCA_MIGRATE_DISABLE | SCA_MIGRATE_ENABLE)))
		plugsched_home_from_mask(p);
}

static void migrate_task_rq_plug(struct task_struct *p, int new_cpu)
{
	if (cpu_to_node(task_cpu(p)) != cpu_to_node(new_cpu))
		p->plugsched.nr_node_migrations++;
}

/* Wake an idle CPU so that it pulls from this overloaded one. */
static void plugsched_kick_idle(struct plugsched_rq *prq)
{
	unsigned long backoff = READ_ONCE(prq->kick_backoff);
	int cpu;

	for_each_cpu_and(cpu, cpu_active_mask, housekeeping_cpumask(HK_TYPE_DOMAIN)) {
		if (cpu != prq->cpu && available_idle_cpu(cpu)) {
			resched_cpu(cpu);
			break;
		}
	}
	/* Back off while kicks pull nothing (e.g. every task is pinned). */
	prq->next_kick = jiffies + backoff;
	WRITE_ONCE(prq->kick_backoff, min_t(unsigned long, backoff * 2, HZ / 4));
}

/* Every other CPU that balances does so at its next tick. */
static void plugsched_nudge(struct plugsched_rq *prq)
{
	int cpu;

	for_each_cpu_and(cpu, cpu_active_mask, housekeeping_cpumask(HK_TYPE_DOMAIN)) {
		if (cpu != prq->cpu)
			WRITE_ONCE(cpu_rq(cpu)->plug.next_balance, jiffies);
	}
}

/* Called from sched_tick() with interrupts off and the rq unlocked. */
void __plugsched_tick_balance(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned long now = jiffies;
	unsigned int ms;
	bool idle;

	/* Nothing may be queued in the fair class while it is skipped. */
	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG) && plugsched_all())
		WARN_ONCE(READ_ONCE(rq->cfs.h_nr_queued),
			  "plugsched: %u tasks in the skipped fair class on CPU %d\n",
			  READ_ONCE(rq->cfs.h_nr_queued), cpu_of(rq));

	/*
	 * The hooks see a CPU taken by RT from a plugged task, but not one
	 * handed from idle to an RT task that woke with a plugged one.
	 * @current is this CPU's running task (the tick is local).
	 */
	if (unlikely(READ_ONCE(prq->nr_running) && !READ_ONCE(prq->released) &&
		     plugsched_class_above(current))) {
		raw_spin_rq_lock(rq);
		if (prq->nr_running)
			plugsched_release(rq, plug_rq_curr(rq));
		raw_spin_rq_unlock(rq);
	}

	/* A plugged task waits, behind another or behind an RT task. */
	if (plugsched_nr_waiting(prq) && time_after_eq(now, READ_ONCE(prq->next_kick))) {
		/*
		 * Behind a higher class nobody here runs it soon: have the
		 * other CPUs balance at their next tick, busy or not.
		 */
		if (!plugsched_curr_is_ours(rq))
			plugsched_nudge(prq);
		plugsched_kick_idle(prq);
	}

	if (time_before(now, READ_ONCE(prq->next_balance)) || !plugsched_balance_cpu(prq->cpu))
		return;

	/* A CPU running RT or deadline work is busy, not idle. */
	idle = !READ_ONCE(rq->nr_running);
	ms = idle ? ps_ops->idle_balance_ms : ps_ops->balance_ms;
	WRITE_ONCE(prq->next_balance, now + max(msecs_to_jiffies(ms), 1UL));

	raw_spin_rq_lock(rq);
	plugsched_do_balance(prq, idle);
	raw_spin_rq_unlock(rq);
}

#else /* !CONFIG_SMP */

bool plugsched_can_migrate(struct plugsched_rq *src, struct task_struct *p,
			   int dst_cpu, bool idle)
{
	return false;
}

struct task_struct *plugsched_array_migratable(struct plugsched_rq *src,
					       struct plugsched_prio_array *array,
					       int dst_cpu, bool idle)
{
	return NULL;
}

int plugsched_balance_span(struct plugsched_rq *this, bool idle,
			   const struct cpumask *span, unsigned int flags)
{
	return 0;
}

int plugsched_balance(struct plugsched_rq *this, bool idle)
{
	return 0;
}

int plugsched_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags)
{
	return 0;
}

int plugsched_numa_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags,
			      unsigned int threshold)
{
	return 0;
}

int plugsched_numa_balance(struct plugsched_rq *this, bool idle,
			   unsigned int ratio, unsigned int threshold)
{
	return 0;
}

static inline void plugsched_numa_late_init(void) { }

#endif /* CONFIG_SMP */

/* The tick must keep running while tasks of the policy share the CPU. */
bool plugsched_can_stop_tick(struct rq *rq)
{
	return rq->plug.nr_running <= 1;
}

DEFINE_SCHED_CLASS(plug) = {
	.enqueue_task		= enqueue_task_plug,
	.dequeue_task		= dequeue_task_plug,
	.yield_task		= yield_task_plug,
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
};

/* /proc/PID/sched */
void plugsched_show_task(struct task_struct *p, struct seq_file *m)
{
	const struct plugsched_ops *ops = READ_ONCE(ps_ops);

	if (!ops || p->sched_class != &plug_sched_class)
		return;
	seq_printf(m, "%-45s:%21s\n", "plugsched.policy", ops->name);
	seq_printf(m, "%-45s:%21lld\n", "plugsched.slice_ns", p->plugsched.slice);
	seq_printf(m, "%-45s:%21u\n", "plugsched.nr_node_migrations",
		   p->plugsched.nr_node_migrations);
	/* What the watchdog sees: how long a queued task has waited. */
	seq_printf(m, "%-45s:%21u\n", "plugsched.waiting_ms",
		   (p->plugsched.flags & PLUGSCHED_TF_QUEUED) && !task_on_cpu(task_rq(p), p) ?
		   jiffies_to_msecs(plugsched_waited(&task_rq(p)->plug, p)) : 0);
	if (ops->show_task)
		ops->show_task(m, p);
}

/* Knobs: /proc/sys/kernel/<name> for the active policy's tunables. */

/* The core's own knob, registered whichever scheduler runs. */
static int plugsched_watchdog_ms = 30000;

static const struct plugsched_knob plugsched_watchdog_knob = {
	.name	= "plugsched_watchdog_ms",
	.unit	= "ms",
	.value	= &plugsched_watchdog_ms,
	.min	= 0,
	.max	= 600000,
	.def	= 30000,
};

static struct ctl_table *plugsched_sysctl_table;
static struct ctl_table_header *plugsched_sysctl_header;
static bool plugsched_sysctl_ready;

static void plugsched_watchdog_kick(void);

static int plugsched_knob_handler(const struct ctl_table *table, int write,
				  void *buffer, size_t *lenp, loff_t *ppos)
{
	const struct plugsched_knob *knob = table->extra1;
	char buf[32];
	size_t len;
	int val;

	if (!write) {
		val = READ_ONCE(*knob->value);
		if (knob->choices)
			len = scnprintf(buf, sizeof(buf), "%s\n", knob->choices[val]);
		else
			len = scnprintf(buf, sizeof(buf), "%d\n", val);
		if (*ppos >= len) {
			*lenp = 0;
			return 0;
		}
		len = min_t(size_t, len - *ppos, *lenp);
		memcpy(buffer, buf + *ppos, len);
		*lenp = len;
		*ppos += len;
		return 0;
	}

	/* Exactly one value, written at once: anything else is rejected. */
	if (*ppos || !*lenp || *lenp >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, buffer, *lenp);
	buf[*lenp] = '\0';

	if (knob->choices) {
		val = match_string(knob->choices, -1, strim(buf));
		if (val < 0)
			return -EINVAL;
	} else if (kstrtoint(strim(buf), 10, &val) ||
		   val < knob->min || val > knob->max) {
		return -EINVAL;
	}

	/*
	 * A policy's knobs are unregistered, waiting for writers like this
	 * one, before the policy goes: ps_ops is the knob's policy here.
	 */
	mutex_lock(&plugsched_mutex);
	WRITE_ONCE(*knob->value, val);
	if (knob == &plugsched_watchdog_knob)
		plugsched_watchdog_kick();
	else if (ps_ops && ps_ops->knob_changed)
		ps_ops->knob_changed(knob);
	mutex_unlock(&plugsched_mutex);

	*ppos += *lenp;
	return 0;
}

static void plugsched_knob_entry(struct ctl_table *entry,
				 const struct plugsched_knob *knob)
{
	entry->procname = knob->name;
	entry->data = knob->value;
	entry->maxlen = sizeof(int);
	entry->mode = 0644;
	entry->proc_handler = plugsched_knob_handler;
	entry->extra1 = (void *)knob;
}

/* A policy built on another (&plugsched_ops.base) has the base's knobs too. */
static unsigned int plugsched_nr_knobs(const struct plugsched_ops *ops)
{
	return ops->nr_knobs + (ops->base ? ops->base->nr_knobs : 0);
}

static const struct plugsched_knob *plugsched_knob(const struct plugsched_ops *ops,
						   unsigned int i)
{
	return i < ops->nr_knobs ? &ops->knobs[i] : &ops->base->knobs[i - ops->nr_knobs];
}

static int plugsched_register_knobs(const struct plugsched_ops *ops)
{
	unsigned int i, n = plugsched_nr_knobs(ops);
	struct ctl_table *table;

	if (!n || !plugsched_sysctl_ready)
		return 0;

	table = kcalloc(n, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		plugsched_knob_entry(&table[i], plugsched_knob(ops, i));
	plugsched_sysctl_header = register_sysctl_sz("kernel", table, n);
	if (!plugsched_sysctl_header) {
		kfree(table);
		return -ENOMEM;
	}
	plugsched_sysctl_table = table;
	return 0;
}

/* Waits for writers in progress; later opens fail. */
static void plugsched_unregister_knobs(void)
{
	if (!plugsched_sysctl_header)
		return;
	unregister_sysctl_table(plugsched_sysctl_header);
	kfree(plugsched_sysctl_table);
	plugsched_sysctl_header = NULL;
	plugsched_sysctl_table = NULL;
}

/* State, for /sys/kernel/plugsched/{active,state,switches} */

enum plugsched_state {
	PLUGSCHED_STATE_MAINLINE,
	PLUGSCHED_STATE_ENABLED,
	PLUGSCHED_STATE_SWITCHING,
	PLUGSCHED_STATE_FALLBACK,
};

static DEFINE_SPINLOCK(plugsched_state_lock);
static enum plugsched_state ps_state;
static const char *ps_shown_name = PLUGSCHED_MAINLINE;
static char ps_fallback[96];
static unsigned long ps_nr_switches;

static void plugsched_set_state(enum plugsched_state state, const char *name)
{
	spin_lock(&plugsched_state_lock);
	ps_state = state;
	if (name)
		ps_shown_name = name;
	spin_unlock(&plugsched_state_lock);
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
	if (forget)
		p->plugsched.flags &= ~PLUGSCHED_TF_OWNER;
	/*
	 * Joining one: a sleeper gets its state now, not at its next wakeup,
	 * whose CPU choice would read the old policy's (a stale home node).
	 * A queued task got it when enqueue_task_plug() saw the old owner.
	 */
	else if (moved && p->sched_class == &plug_sched_class && !task_on_rq_queued(p) &&
		 plugsched_task_owner(p) != ps_owner)
		plugsched_task_init(p);
	head = splice_balance_callbacks(rq);
	preempt_disable();
	task_rq_unlock(rq, p, &rf);
	balance_callbacks(rq, head);
	preempt_enable();
	return moved;
}

/**
 * __plugsched_post_fork - move a new task that missed a switch
 * @p:		the child, on the task list, not yet woken
 *
 * sched_fork() chose @p's class before @p was on the task list, so a
 * switch that ran in between did not see @p. Called from sched_post_fork()
 * when @p's class is not the one normal tasks now join; the switch writes
 * plugsched_to_plug before it walks the task list, so one of the two
 * always catches @p.
 */
void __plugsched_post_fork(struct task_struct *p)
{
	plugsched_fix_task(p, false);
}

/* A task of @class queued on @rq, or NULL; @rq is locked. */
static struct task_struct *plugsched_first_queued(struct rq *rq,
						  const struct sched_class *class)
{
	if (class == &plug_sched_class) {
		struct list_head *queued = list_empty(&rq->plug.runnable) ?
					   &rq->plug.runnable_idle : &rq->plug.runnable;

		return list_first_entry_or_null(queued, struct task_struct,
						plugsched.runnable_node);
	}
#ifdef CONFIG_SMP
	return list_first_entry_or_null(&rq->cfs_tasks, struct task_struct, se.group_node);
#else
	return NULL;
#endif
}

/* Tasks of @class still queued anywhere; 0 once a switch is complete. */
static unsigned int plugsched_nr_left(const struct sched_class *class)
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (class == &plug_sched_class)
			n += READ_ONCE(rq->plug.nr_running);
		else
			n += READ_ONCE(rq->cfs.h_nr_queued);
	}
	return n;
}

/*
 * Move every task that the task list shows, then the queued ones it did not
 * (a task that exited is unhashed before its last schedule): @class is the
 * class being left, @forget drops the state of the policy being left.
 */
static unsigned int plugsched_move_all(const struct sched_class *class, bool forget)
{
	struct task_struct *g, *p;
	unsigned int moved = 0;
	int cpu;

	/* Pairs with copy_process(), see uclamp_sync_util_min_rt_default(). */
	read_lock(&tasklist_lock);
	smp_mb__after_spinlock();
	read_unlock(&tasklist_lock);

	rcu_read_lock();
	for_each_process_thread(g, p)
		moved += plugsched_fix_task(p, forget);
	rcu_read_unlock();

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
			moved += plugsched_fix_task(p, forget);
			put_task_struct(p);
			cond_resched();
		}
	}
	return moved;
}

/*
 * Move them all, then drain again until nothing is left: a task that exited
 * can be off the task list and, while it migrates, off every CPU's list too.
 * Migrations run with interrupts off, so an IPI to every CPU, waited for,
 * ends those in flight (a grace period would also wait for preempted RCU
 * readers, who may wait long under the new policy).
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

static void plugsched_watchdog_start(void);

/*
 * Hand every normal task back to the fair class and retire the policy.
 * The plug class stays in use until it is empty, so a task is never left
 * in a class nobody picks from.
 */
static unsigned int plugsched_leave(void)
{
	const struct plugsched_ops *ops = ps_ops;
	unsigned int moved;

	plugsched_unregister_knobs();
	/* The fair class runs again before any task may join it. */
	static_branch_disable(&__plugsched_all);
	WRITE_ONCE(plugsched_to_plug, false);
	moved = plugsched_move_until_empty(&plug_sched_class, true);
	WARN_ON_ONCE(plugsched_nr_left(&plug_sched_class));

	static_branch_disable(&__plugsched_enabled);
	/* Class hooks and the tick run with interrupts off: let them finish. */
	kick_all_cpus_sync();
	WRITE_ONCE(ps_ops, NULL);
	if (ops->exit) {
		/* task_fork_plug() may still hold a snapshot of @ops. */
		kick_all_cpus_sync();
		ops->exit();
	}
	return moved;
}

static void plugsched_reset_rqs(const struct plugsched_ops *ops)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		prq->next_balance = jiffies;
		prq->next_kick = jiffies;
		prq->kick_backoff = 1;
		/* A release left from the last policy ends here. */
		if (prq->released)
			plugsched_end_release(prq);
		ops->init_rq(prq);
	}
}

/* Knobs at their defaults, policy state fresh, a new owner tag. */
static int plugsched_activate(const struct plugsched_ops *ops)
{
	unsigned int i;
	int ret;

	for (i = 0; i < plugsched_nr_knobs(ops); i++)
		WRITE_ONCE(*plugsched_knob(ops, i)->value, plugsched_knob(ops, i)->def);

	ret = ops->init ? ops->init() : 0;
	if (ret)
		return ret;
	plugsched_reset_rqs(ops);

	ps_owner = ps_owner % PLUGSCHED_TF_OWNER + 1;
	WRITE_ONCE(ps_ops, ops);
	return 0;
}

/* Hand every normal task to @ops, which must be activated already. */
static int plugsched_enter(void)
{
	unsigned int moved;

	WRITE_ONCE(plugsched_to_plug, true);
	static_branch_enable(&__plugsched_enabled);
	moved = plugsched_move_until_empty(&fair_sched_class, false);
	/* The fair class is skipped from now on: it must be empty. */
	if (WARN_ON_ONCE(plugsched_nr_left(&fair_sched_class)))
		return -EBUSY;
	static_branch_enable(&__plugsched_all);
	if (plugsched_register_knobs(ps_ops))
		pr_warn("plugsched: cannot register the knobs of %s\n", ps_ops->name);
	plugsched_watchdog_start();
	return moved;
}

/*
 * Switch to @ops (NULL: mainline) at run time: first every task back to
 * the fair class, then to the new policy. Forks are not held off: see
 * __plugsched_post_fork().
 *
 * Runs on the real-time plugsched worker, for a holder of
 * plugsched_switch_mutex: a normal task doing it would be moved to the plug
 * class before the fair tasks still to move, which run before it.
 */
static int plugsched_switch(const struct plugsched_ops *ops, const char *why)
{
	const struct plugsched_ops *old = ps_ops;
	const char *from = old ? old->name : PLUGSCHED_MAINLINE;
	const char *to = ops ? ops->name : PLUGSCHED_MAINLINE;
	unsigned int moved = 0;
	ktime_t start;
	int ret = 0;

	WARN_ON_ONCE(!mutex_is_locked(&plugsched_switch_mutex) || !rt_task(current));
	if (ops == old)
		return 0;

	start = ktime_get();
	plugsched_set_state(PLUGSCHED_STATE_SWITCHING, NULL);
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

	spin_lock(&plugsched_state_lock);
	if (ret) {
		ps_state = PLUGSCHED_STATE_FALLBACK;
		scnprintf(ps_fallback, sizeof(ps_fallback), "%s: failed to start: %d",
			  to, ret);
		ps_shown_name = PLUGSCHED_MAINLINE;
	} else if (why) {
		ps_state = PLUGSCHED_STATE_FALLBACK;
		scnprintf(ps_fallback, sizeof(ps_fallback), "%s: %s", from, why);
		ps_shown_name = PLUGSCHED_MAINLINE;
	} else {
		ps_state = ops ? PLUGSCHED_STATE_ENABLED : PLUGSCHED_STATE_MAINLINE;
		ps_shown_name = to;
	}
	ps_nr_switches++;
	spin_unlock(&plugsched_state_lock);

	if (ret)
		pr_err("plugsched: %s failed to start (%d), running %s\n",
		       to, ret, PLUGSCHED_MAINLINE);
	else
		pr_info("plugsched: switched from %s to %s in %lld us (%u tasks moved)\n",
			from, to, ktime_us_delta(ktime_get(), start), moved);
	return ret;
}

/* Watchdog: no runnable task of the policy may wait for too long. */

static struct kthread_worker *plugsched_worker;
static void plugsched_watchdog_fn(struct kthread_work *work);
static DEFINE_KTHREAD_DELAYED_WORK(plugsched_watchdog_work, plugsched_watchdog_fn);

/* Eject the active policy; safe from any context. */
static void plugsched_fallback_fn(struct kthread_work *work);
static DEFINE_KTHREAD_WORK(plugsched_sysrq_work, plugsched_fallback_fn);

static unsigned long plugsched_watchdog_period(void)
{
	unsigned int ms = READ_ONCE(plugsched_watchdog_ms);

	return msecs_to_jiffies(clamp(ms / 4, 10U, 1000U));
}

static void plugsched_watchdog_start(void)
{
	if (plugsched_worker && READ_ONCE(plugsched_watchdog_ms))
		kthread_mod_delayed_work(plugsched_worker, &plugsched_watchdog_work,
					 plugsched_watchdog_period());
}

static void plugsched_watchdog_kick(void)
{
	if (READ_ONCE(ps_ops))
		plugsched_watchdog_start();
}

/* What the core and the policy know of a stalled @p, for the bug report. */
static void plugsched_dump(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = plug_rq_curr(rq);

	pr_err("plugsched: CPU %d: %u queued (%u idle), load %lu, running %s/%d (%s)\n",
	       cpu_of(rq), rq->plug.nr_running, rq->plug.nr_idle, rq->plug.load,
	       curr->comm, task_pid_nr(curr),
	       curr->sched_class == &plug_sched_class ? ps_ops->name : "other class");
	pr_err("plugsched: %s/%d: nice %d, policy %u, slot %u, slice %lld ns, on CPU %d\n",
	       p->comm, task_pid_nr(p), task_nice(p), p->policy, p->plugsched.slot,
	       p->plugsched.slice, task_cpu(p));
	if (ps_ops->dump)
		ps_ops->dump(&rq->plug, p);
}

/* The task on @rq that has waited longest, if it waited over @limit. */
static struct task_struct *plugsched_stalled(struct rq *rq, unsigned long limit,
					     unsigned long *waited)
{
	struct task_struct *p, *found = NULL;
	unsigned int seen = 0;
	struct rq_flags rf;

	rq_lock_irqsave(rq, &rf);
	/* The running task went to the tail when it started: two at most. */
	list_for_each_entry(p, &rq->plug.runnable, plugsched.runnable_node) {
		if (task_current(rq, p) && !seen++)
			continue;
		*waited = plugsched_waited(&rq->plug, p);
		if (*waited > limit) {
			found = p;
			get_task_struct(p);
			/* The console may wake tasks: no printk under the rq lock. */
			printk_deferred_enter();
			plugsched_dump(rq, p);
			printk_deferred_exit();
		}
		break;
	}
	rq_unlock_irqrestore(rq, &rf);
	return found;
}

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

/*
 * The watchdog scans without the switch mutex (a task of the policy is
 * queued under the rq lock it holds, so the policy stays), and only
 * tries the mutex to act: a user's switch must not fail with EBUSY
 * because a scan ran, and the holder may be waiting for a switch queued
 * behind this work. It comes back later.
 */
static void plugsched_watchdog_fn(struct kthread_work *work)
{
	unsigned long waited, limit;
	struct task_struct *p = NULL;
	const char *name;
	char why[80];
	int cpu;

	limit = msecs_to_jiffies(READ_ONCE(plugsched_watchdog_ms));
	if (!READ_ONCE(ps_ops) || !limit)
		return;

	for_each_online_cpu(cpu) {
		p = plugsched_stalled(cpu_rq(cpu), limit, &waited);
		if (p)
			break;
	}
	if (!p) {
		plugsched_watchdog_start();
		return;
	}
	if (!mutex_trylock(&plugsched_switch_mutex)) {
		put_task_struct(p);
		plugsched_watchdog_start();
		return;
	}
	/* A switch may have run since the scan: then the stall is moot. */
	name = ps_ops ? ps_ops->name : NULL;
	if (name && p->sched_class == &plug_sched_class) {
		pr_err("plugsched: watchdog: %s/%d runnable on CPU %d for %u ms under %s (limit %d ms)\n",
		       p->comm, task_pid_nr(p), cpu, jiffies_to_msecs(waited), name,
		       READ_ONCE(plugsched_watchdog_ms));
		scnprintf(why, sizeof(why), "watchdog: %s/%d stalled for %u ms", p->comm,
			  task_pid_nr(p), jiffies_to_msecs(waited));
		plugsched_switch(NULL, why);
	} else if (ps_ops) {
		plugsched_watchdog_start();
	}
	put_task_struct(p);
	mutex_unlock(&plugsched_switch_mutex);
}

static void plugsched_sysrq_retry_fn(struct kthread_work *work);
static DEFINE_KTHREAD_DELAYED_WORK(plugsched_sysrq_retry, plugsched_sysrq_retry_fn);

static void plugsched_sysrq_retry_fn(struct kthread_work *work)
{
	kthread_queue_work(plugsched_worker, &plugsched_sysrq_work);
}

static void plugsched_fallback_fn(struct kthread_work *work)
{
	if (!mutex_trylock(&plugsched_switch_mutex)) {
		kthread_mod_delayed_work(plugsched_worker, &plugsched_sysrq_retry, 1);
		return;
	}
	if (ps_ops) {
		pr_warn("plugsched: SysRq: %s ejected, every task back to %s\n",
			ps_ops->name, PLUGSCHED_MAINLINE);
		plugsched_switch(NULL, "sysrq");
	} else {
		pr_info("plugsched: SysRq: %s runs already\n", PLUGSCHED_MAINLINE);
	}
	mutex_unlock(&plugsched_switch_mutex);
}

static void plugsched_sysrq_handler(u8 key)
{
	if (plugsched_worker)
		kthread_queue_work(plugsched_worker, &plugsched_sysrq_work);
}

static const struct sysrq_key_op plugsched_sysrq_op = {
	.handler	= plugsched_sysrq_handler,
	.help_msg	= "plugsched-fallback(P)",
	.action_msg	= "Moving every task back to the mainline scheduler",
	.enable_mask	= SYSRQ_ENABLE_RTNICE,
};

/* Boot: sched= and the default */

static const struct plugsched_ops *plugsched_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(plugsched_policies); i++)
		if (sysfs_streq(name, plugsched_policies[i]->name))
			return plugsched_policies[i];
	return NULL;
}

static bool plugsched_name_valid(const char *name)
{
	return sysfs_streq(name, PLUGSCHED_MAINLINE) || plugsched_find(name);
}

static int __init plugsched_setup(char *str)
{
	plugsched_boot_given++;
	/* A name too long for any policy stays invalid: keep it truncated. */
	if (str)
		strscpy(plugsched_boot_name, str, sizeof(plugsched_boot_name));
	return 0;
}
early_param("sched", plugsched_setup);

static void plugsched_list_choices(char *list, size_t size)
{
	unsigned int i;
	int len;

	len = scnprintf(list, size, "%s", PLUGSCHED_MAINLINE);
	for (i = 0; i < ARRAY_SIZE(plugsched_policies); i++)
		len += scnprintf(list + len, size - len, " %s",
				 plugsched_policies[i]->name);
}

static void __init plugsched_warn_choices(void)
{
	char list[128];

	plugsched_list_choices(list, sizeof(list));
	pr_warn("plugsched: choices: %s\n", list);
}

/* Policies built on another (&plugsched_ops.base), completed at boot. */
static struct plugsched_ops * const plugsched_derived[] __initconst = {
#ifdef CONFIG_PLUGSCHED_NUMA
	&plugsched_numa_ops,
#endif
};

/* The callbacks a derived policy takes from its base when it has none. */
#define PLUGSCHED_OP(name)	offsetof(struct plugsched_ops, name)

static const size_t plugsched_callbacks[] __initconst = {
	PLUGSCHED_OP(init), PLUGSCHED_OP(exit), PLUGSCHED_OP(init_rq),
	PLUGSCHED_OP(task_init), PLUGSCHED_OP(fork), PLUGSCHED_OP(enqueue),
	PLUGSCHED_OP(dequeue), PLUGSCHED_OP(pick), PLUGSCHED_OP(set_next),
	PLUGSCHED_OP(put_prev), PLUGSCHED_OP(charge), PLUGSCHED_OP(slice_expired),
	PLUGSCHED_OP(tick), PLUGSCHED_OP(preempt), PLUGSCHED_OP(yield),
	PLUGSCHED_OP(prio_changed), PLUGSCHED_OP(migration_candidate),
	PLUGSCHED_OP(select_cpu), PLUGSCHED_OP(balance), PLUGSCHED_OP(show_task),
	PLUGSCHED_OP(rr_interval), PLUGSCHED_OP(knob_changed), PLUGSCHED_OP(count),
	PLUGSCHED_OP(dump), PLUGSCHED_OP(cpu_release), PLUGSCHED_OP(cpu_acquire),
};

/* Every callback, from @init to the end of the struct, is in the list. */
static_assert(sizeof(plugsched_callbacks) / sizeof(size_t) * sizeof(void *) ==
	      sizeof(struct plugsched_ops) - PLUGSCHED_OP(init));

static void __init plugsched_inherit(struct plugsched_ops *ops)
{
	const struct plugsched_ops *base = ops->base;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(plugsched_callbacks); i++) {
		void **fn = (void *)ops + plugsched_callbacks[i];

		if (!*fn)
			*fn = *(void * const *)((const void *)base + plugsched_callbacks[i]);
	}
	if (!ops->balance_ms)
		ops->balance_ms = base->balance_ms;
	if (!ops->idle_balance_ms)
		ops->idle_balance_ms = base->idle_balance_ms;
	if (!ops->imbalance_pct)
		ops->imbalance_pct = base->imbalance_pct;
	ops->balance_by_load |= base->balance_by_load;
	ops->home_nodes |= base->home_nodes;
}

/* Called from sched_init(), before any task but init_task exists. */
void __init plugsched_init(void)
{
	const char *name = CONFIG_PLUGSCHED_DEFAULT_NAME;
	const struct plugsched_ops *ops;
	unsigned int i;
	int cpu;

	for (i = 0; i < ARRAY_SIZE(plugsched_derived); i++)
		plugsched_inherit(plugsched_derived[i]);

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		memset(prq, 0, sizeof(*prq));
		prq->cpu = cpu;
		INIT_LIST_HEAD(&prq->runnable);
		INIT_LIST_HEAD(&prq->runnable_idle);
	}

	/* Names are exact (lower case); two sched= are one too many. */
	if (plugsched_boot_given > 1) {
		pr_warn("plugsched: sched= given %u times, using \"%s\"\n",
			plugsched_boot_given, name);
		plugsched_warn_choices();
	} else if (plugsched_boot_given) {
		if (plugsched_name_valid(plugsched_boot_name)) {
			name = plugsched_boot_name;
		} else {
			pr_warn("plugsched: unknown scheduler \"%s\" in sched=, using \"%s\"\n",
				plugsched_boot_name, name);
			plugsched_warn_choices();
		}
	}

	ops = plugsched_find(name);
	/* The class walk relies on fair > plug > idle in the linker order. */
	if (ops && WARN_ON_ONCE(!sched_class_above(&fair_sched_class, &plug_sched_class) ||
				!sched_class_above(&plug_sched_class, &idle_sched_class)))
		ops = NULL;
	if (ops && plugsched_activate(ops)) {
		pr_err("plugsched: %s failed to start, using %s\n", ops->name,
		       PLUGSCHED_MAINLINE);
		ops = NULL;
	}
	if (ops) {
		/* No task but the boot one, which becomes the idle task. */
		WRITE_ONCE(plugsched_to_plug, true);
		static_branch_enable(&__plugsched_enabled);
		static_branch_enable(&__plugsched_all);
		ps_state = PLUGSCHED_STATE_ENABLED;
		ps_shown_name = ops->name;
	}
	pr_info("plugsched: CPU scheduler: %s\n", ops ? ops->name : PLUGSCHED_MAINLINE);
}

/* Reporting and switching: /sys/kernel/plugsched and /proc/scheduler */

static const char *plugsched_active_name(void)
{
	const char *name;

	spin_lock(&plugsched_state_lock);
	name = ps_shown_name;
	spin_unlock(&plugsched_state_lock);
	return name;
}

static ssize_t active_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", plugsched_active_name());
}

static ssize_t active_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	const struct plugsched_ops *ops = NULL;
	struct plugsched_switch_req req;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!sysfs_streq(buf, PLUGSCHED_MAINLINE)) {
		ops = plugsched_find(buf);
		if (!ops)
			return -EINVAL;
	}
	if (!plugsched_worker)
		return -ENODEV;
	if (!mutex_trylock(&plugsched_switch_mutex))
		return -EBUSY;
	req.ops = ops;
	kthread_init_work(&req.work, plugsched_switch_fn);
	kthread_queue_work(plugsched_worker, &req.work);
	kthread_flush_work(&req.work);
	ret = req.ret;
	mutex_unlock(&plugsched_switch_mutex);
	return ret ? ret : count;
}

static ssize_t available_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	char list[128];

	plugsched_list_choices(list, sizeof(list));
	return sysfs_emit(buf, "%s\n", list);
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	static const char * const names[] = {
		[PLUGSCHED_STATE_MAINLINE]	= "mainline",
		[PLUGSCHED_STATE_ENABLED]	= "enabled",
		[PLUGSCHED_STATE_SWITCHING]	= "switching",
	};
	char state[128];

	spin_lock(&plugsched_state_lock);
	if (ps_state == PLUGSCHED_STATE_FALLBACK)
		scnprintf(state, sizeof(state), "fallback (%s)", ps_fallback);
	else
		strscpy(state, names[ps_state], sizeof(state));
	spin_unlock(&plugsched_state_lock);
	return sysfs_emit(buf, "%s\n", state);
}

static ssize_t switches_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(ps_nr_switches));
}

static struct kobj_attribute plugsched_active_attr = __ATTR_RW(active);
static struct kobj_attribute plugsched_available_attr = __ATTR_RO(available);
static struct kobj_attribute plugsched_state_attr = __ATTR_RO(state);
static struct kobj_attribute plugsched_switches_attr = __ATTR_RO(switches);

static struct attribute *plugsched_attrs[] = {
	&plugsched_active_attr.attr,
	&plugsched_available_attr.attr,
	&plugsched_state_attr.attr,
	&plugsched_switches_attr.attr,
	NULL,
};

static const struct attribute_group plugsched_attr_group = {
	.attrs = plugsched_attrs,
};

static int plugsched_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", plugsched_active_name());
	return 0;
}

static struct ctl_table plugsched_core_table[1];

#ifdef CONFIG_DEBUG_FS
/*
 * /sys/kernel/debug/sched/plug_server/cpuN/{runtime,period}: the plug
 * server's parameters in ns, with the fair server's rules (debug.c): a
 * period of 100 us .. ~4 s, a runtime of 0 (off) .. the period.
 */
#define PLUG_SERVER_PERIOD_MIN	(100 * NSEC_PER_USEC)
#define PLUG_SERVER_PERIOD_MAX	((1UL << 22) * NSEC_PER_USEC)

static int plug_server_show(struct seq_file *m, void *v)
{
	struct sched_dl_entity *dl_se = &cpu_rq((long)m->private & 0xffff)->plug_server;

	seq_printf(m, "%llu\n", (long)m->private >> 16 ? dl_se->dl_period : dl_se->dl_runtime);
	return 0;
}

static ssize_t plug_server_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	long priv = (long)((struct seq_file *)filp->private_data)->private;
	struct rq *rq = cpu_rq(priv & 0xffff);
	struct sched_dl_entity *dl_se = &rq->plug_server;
	u64 runtime, period, value;
	int ret;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &value);
	if (ret)
		return ret;

	scoped_guard (rq_lock_irqsave, rq) {
		runtime = priv >> 16 ? dl_se->dl_runtime : value;
		period = priv >> 16 ? value : dl_se->dl_period;
		/* Never started: the defaults dl_server_start() would set. */
		if (!dl_se->dl_server) {
			runtime = priv >> 16 ? 50 * NSEC_PER_MSEC : value;
			period = priv >> 16 ? value : NSEC_PER_SEC;
		}
		if (runtime > period || period > PLUG_SERVER_PERIOD_MAX ||
		    period < PLUG_SERVER_PERIOD_MIN)
			return -EINVAL;
		if (!cpu_online(cpu_of(rq)))
			return -EBUSY;
		if (!dl_se->dl_server) {
			/* Set up as dl_server_start() would, then apply. */
			dl_server_start(dl_se);
			dl_server_stop(dl_se);
		}
		update_rq_clock(rq);
		plugsched_server_stop(rq);
		ret = dl_server_apply_params(dl_se, runtime, period, 0);
		if (!runtime)
			printk_deferred("plugsched: plug server off on CPU %d, RT tasks may starve plugged ones\n",
					cpu_of(rq));
		if (rq->plug.nr_running)
			dl_server_start(dl_se);
		if (ret < 0)
			return ret;
	}
	*ppos += cnt;
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(plug_server);

/*
 * /sys/kernel/debug/sched/plug_released: per CPU, how often a higher class
 * took it from the policy (cpu_release), for how long in all, and whether
 * it is released now.
 */
static int plug_released_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;
		bool released = READ_ONCE(prq->released);
		unsigned long total = READ_ONCE(prq->released_jiffies);

		if (released)
			total += jiffies - READ_ONCE(prq->released_at);
		seq_printf(m, "cpu%d releases %lu released_ms %u released %d\n", cpu,
			   READ_ONCE(prq->nr_released), jiffies_to_msecs(total), released);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(plug_released);

#ifdef CONFIG_PLUGSCHED_DEBUG
static const char * const plugsched_break_names[PLUGSCHED_NR_BREAKS] = {
	[PLUGSCHED_BREAK_NICE]		= "nice",
	[PLUGSCHED_BREAK_BALANCE]	= "balance",
	[PLUGSCHED_BREAK_PREEMPT]	= "preempt",
	[PLUGSCHED_BREAK_SLICE]		= "slice",
	[PLUGSCHED_BREAK_WINDOW]	= "window",
};

/* Every break, the ones in effect in brackets: "[nice] balance preempt". */
static int plug_break_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < PLUGSCHED_NR_BREAKS; i++)
		seq_printf(m, test_bit(i, &plugsched_broken) ? "%s[%s]" : "%s%s",
			   i ? " " : "", plugsched_break_names[i]);
	seq_putc(m, '\n');
	return 0;
}

/* One name breaks that alone, "none" mends all; anything else: -EINVAL. */
static ssize_t plug_break_write(struct file *filp, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	char buf[16], *s;
	int i;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	s = strim(buf);
	if (!strcmp(s, "none")) {
		WRITE_ONCE(plugsched_broken, 0);
		return cnt;
	}
	i = match_string(plugsched_break_names, PLUGSCHED_NR_BREAKS, s);
	if (i < 0)
		return -EINVAL;
	pr_warn("plugsched: negative control: %s broken on purpose\n", s);
	WRITE_ONCE(plugsched_broken, BIT(i));
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(plug_break);
#endif

static void __init plug_server_debugfs_init(void)
{
	struct dentry *sched = debugfs_lookup("sched", NULL), *dir;
	long cpu;

	if (IS_ERR_OR_NULL(sched))
		return;
	dir = debugfs_create_dir("plug_server", sched);
	for_each_possible_cpu(cpu) {
		struct dentry *d_cpu;
		char buf[32];

		snprintf(buf, sizeof(buf), "cpu%ld", cpu);
		d_cpu = debugfs_create_dir(buf, dir);
		/* The CPU in the low 16 bits, the parameter (1: period) above. */
		debugfs_create_file("runtime", 0644, d_cpu, (void *)cpu, &plug_server_fops);
		debugfs_create_file("period", 0644, d_cpu, (void *)(cpu | 1L << 16),
				    &plug_server_fops);
	}
	debugfs_create_file("plug_released", 0444, sched, NULL, &plug_released_fops);
#ifdef CONFIG_PLUGSCHED_DEBUG
	debugfs_create_file("plug_break", 0600, sched, NULL, &plug_break_fops);
	debugfs_create_atomic_t("plug_tick_dequeued", 0444, sched, &plugsched_tick_dequeued);
#endif
	dput(sched);
}
#else
static inline void plug_server_debugfs_init(void) { }
#endif

static int __init plugsched_late_init(void)
{
	struct kthread_worker *worker;
	struct kobject *kobj;
	int ret = 0;

	kobj = kobject_create_and_add("plugsched", kernel_kobj);
	if (!kobj || sysfs_create_group(kobj, &plugsched_attr_group))
		pr_warn("plugsched: cannot create /sys/kernel/plugsched\n");
	if (!proc_create_single("scheduler", 0444, NULL, plugsched_proc_show))
		pr_warn("plugsched: cannot create /proc/scheduler\n");

	/* Real time, so that a policy starving normal tasks cannot stop it. */
	worker = kthread_create_worker(0, "plugsched");
	if (IS_ERR(worker)) {
		pr_warn("plugsched: no worker, no watchdog: %ld\n", PTR_ERR(worker));
	} else {
		sched_set_fifo_low(worker->task);
		plugsched_worker = worker;
	}
	if (register_sysrq_key('P', &plugsched_sysrq_op))
		pr_warn("plugsched: SysRq-P is taken\n");

	plugsched_numa_late_init();
	plug_server_debugfs_init();
	plugsched_knob_entry(&plugsched_core_table[0], &plugsched_watchdog_knob);
	if (!register_sysctl("kernel", plugsched_core_table))
		pr_warn("plugsched: cannot register plugsched_watchdog_ms\n");

	mutex_lock(&plugsched_switch_mutex);
	plugsched_sysctl_ready = true;
	if (ps_ops) {
		ret = plugsched_register_knobs(ps_ops);
		plugsched_watchdog_start();
	}
	mutex_unlock(&plugsched_switch_mutex);
	if (ret)
		pr_warn("plugsched: cannot register the knobs of %s: %d\n",
			ps_ops->name, ret);
	return 0;
}
late_initcall(plugsched_late_init);
