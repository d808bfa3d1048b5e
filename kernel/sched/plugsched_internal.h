/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugsched: what the core's files share. Policies never include this
 * header; they see <linux/plugsched.h> only.
 *
 * Each file calls only files listed above it:
 *
 *   plugsched.c		the core's state; the services policies call
 *   plugsched_knobs.c	the active policy's knobs in /proc/sys/kernel
 *   plugsched_group.c	task groups' shares (cpu.weight, autogroup), cpu.idle
 *   plugsched_balance.c	CPU selection, periodic and idle balancing, kicks
 *   plugsched_homenode.c	home nodes: NUMA placement policies may reuse
 *   plugsched_queue.c	a task joins and leaves the core's counts and sums
 *   plugsched_bandwidth.c	cpu.max: parking and unparking throttled tasks
 *   plugsched_class.c	plug_sched_class: the hooks the scheduler calls
 *   plugsched_server.c	the plug server: a deadline server for plugged tasks
 *   plugsched_switch.c	the state machine and switching
 *   plugsched_watchdog.c	the watchdog, ejection, SysRq-P
 *   plugsched_register.c	the registered policies, and the checks they pass
 *   plugsched_ui.c		sched=, sysfs, /proc, debugfs, boot
 *
 * plug_sched_class itself, like fair_sched_class, is declared in sched.h
 * for any file to compare a task's class with.
 */
#ifndef _KERNEL_SCHED_PLUGSCHED_INTERNAL_H
#define _KERNEL_SCHED_PLUGSCHED_INTERNAL_H

#include <linux/mmu_context.h>
#include <linux/plugsched.h>

#include "sched.h"

#define PLUGSCHED_MAINLINE_NAME	"eevdf"

/*
 * p->plugsched.flags: which activation of a policy the task's state belongs
 * to (0: none). Every activation takes a new tag, so that state left from
 * an earlier activation, even of the same policy, is never reused. Each
 * task leaving a policy drops its tag (plugsched_fix_task()), so none
 * holds one from an earlier activation when the 8 bits wrap.
 */
#define PLUGSCHED_TF_OWNER	0x00ff
/* The policy has the task queued (between its enqueue and dequeue calls). */
#define PLUGSCHED_TF_QUEUED	0x0100
/* Being moved by the balancer (set around its enqueue only). */
#define PLUGSCHED_TF_PULLED	0x0200
/* Runs PLUGSCHED_RELIEF_NS after waiting over plugsched_relief_ms, not preempted. */
#define PLUGSCHED_TF_RELIEVED	0x0400
/* Held off the policy: its group is throttled here (cpu.max); not QUEUED. */
#define PLUGSCHED_TF_PARKED	0x0800
/* Left the parked list by a save (group move, class change): kick at restore. */
#define PLUGSCHED_TF_UNPARKED	0x1000
/* PLUGSCHED_TF_GROUP_IDLE 0x2000: in linux/plugsched.h, for the policies. */

/*
 * The active policy; NULL while mainline EEVDF owns normal tasks. It only
 * changes while no task is in the plug class (see plugsched_switch()).
 * plugsched_owner is the tag of its activation.
 */
extern const struct plugsched_ops *plugsched_cur_ops;
extern u16 plugsched_owner;

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
	PLUGSCHED_BREAK_WINDOW,		/* plugsched_balance_newidle() unlocked 2 ms */
	PLUGSCHED_BREAK_KNOB_WINDOW,	/* a knob write yields in the handler */
	PLUGSCHED_BREAK_SWITCH_WINDOW,	/* a switch waits 1 s in ENABLING */
	PLUGSCHED_BREAK_NUMA_SCAN,	/* the tick starts no NUMA scan */
	PLUGSCHED_BREAK_UTIL,		/* cpu_util() sees no plugged task */
	PLUGSCHED_BREAK_BANDWIDTH,	/* no run time is charged to cpu.max */
	PLUGSCHED_BREAK_GROUP_IDLE,	/* a cpu.idle write requeues nobody */
	PLUGSCHED_BREAK_TAGS,		/* tasks keep their tags past a leave */
	PLUGSCHED_BREAK_RELIEF,		/* relief_ms 0 relieves at 100 ms */
	PLUGSCHED_NR_BREAKS,
};

#ifdef CONFIG_PLUGSCHED_DEBUG
extern unsigned long plugsched_broken;

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

/* Remote ticks that found their CPU's current task dequeued (debugfs). */
extern atomic_t plugsched_tick_dequeued;
/* Tasks found with a tag after a policy's leave walk (debugfs, debug only). */
extern atomic_t plugsched_stale_tags;

static inline struct rq *prq_rq(struct plugsched_rq *prq)
{
	return container_of(prq, struct rq, plug);
}

/* rq->curr is RCU-published; under the rq lock it is stable. */
static inline struct task_struct *plug_rq_curr(struct rq *rq)
{
	return rcu_dereference_protected(rq->curr, lockdep_is_held(__rq_lockp(rq)));
}

/* The weight the core's own load sums count, whatever a break says. */
static inline unsigned long plugsched_load_weight(const struct task_struct *p)
{
	return scale_load_down(p->se.load.weight);
}

/*
 * Task groups (plugsched_group.c): a queued task's group load and its
 * effective weight, p->plugsched.load.
 */
#ifdef CONFIG_FAIR_GROUP_SCHED
void __plugsched_group_enqueue(struct task_struct *p);
void __plugsched_group_dequeue(struct task_struct *p);
unsigned long __plugsched_group_weight(struct task_struct *p);
unsigned long plugsched_group_scale(struct task_group *tg, u64 w);

static inline bool plugsched_task_grouped(const struct task_struct *p)
{
	return p->sched_task_group != &root_task_group;
}

/* Most tasks are in the root group: no call for them on the hot paths. */
static inline void plugsched_group_enqueue(struct task_struct *p)
{
	if (plugsched_task_grouped(p))
		__plugsched_group_enqueue(p);
}

static inline void plugsched_group_dequeue(struct task_struct *p)
{
	if (plugsched_task_grouped(p))
		__plugsched_group_dequeue(p);
}

static inline unsigned long plugsched_group_weight(struct task_struct *p)
{
	if (plugsched_task_grouped(p))
		return __plugsched_group_weight(p);
	return plugsched_load_weight(p);
}

/* @p's pool's part of its CPU, from the pool's nice weights (@w). */
static inline unsigned long plugsched_pool_part(struct task_struct *p, unsigned long w)
{
	if (plugsched_task_grouped(p))
		return plugsched_group_scale(task_group(p), w);
	return w;
}

/* A level of @tg's path to the root has cpu.idle set. */
static inline bool plugsched_tg_idle(struct task_group *tg)
{
	for (; tg != &root_task_group; tg = tg->parent)
		if (READ_ONCE(tg->idle) > 0)
			return true;
	return false;
}

/* @p joins the policy: whether it is idle by its groups, until it leaves. */
static inline void plugsched_set_group_idle(struct task_struct *p)
{
	bool idle = plugsched_task_grouped(p) && plugsched_tg_idle(task_group(p));

	if (unlikely(idle != !!(p->plugsched.flags & PLUGSCHED_TF_GROUP_IDLE)))
		p->plugsched.flags ^= PLUGSCHED_TF_GROUP_IDLE;
}
#else
static inline void plugsched_set_group_idle(struct task_struct *p) { }
static inline void plugsched_group_enqueue(struct task_struct *p) { }
static inline void plugsched_group_dequeue(struct task_struct *p) { }
static inline unsigned long plugsched_group_weight(struct task_struct *p)
{
	return plugsched_load_weight(p);
}

static inline unsigned long plugsched_pool_part(struct task_struct *p, unsigned long w)
{
	return w;
}

static inline bool plugsched_task_grouped(const struct task_struct *p)
{
	return false;
}
#endif

#ifdef CONFIG_CFS_BANDWIDTH
/* @p's group, or one above it, has a cpu.max limit: @p pays for its time. */
static inline bool plugsched_bw_limited(const struct task_struct *p)
{
	return plugsched_task_grouped(p) &&
	       READ_ONCE(p->sched_task_group->cfs_bandwidth.hierarchical_quota) != RUNTIME_INF;
}

/* @p's group is throttled on @cpu: it would be parked there at once. */
static inline bool plugsched_bw_throttled_on(const struct task_struct *p, int cpu)
{
	return plugsched_task_grouped(p) && p->sched_task_group->cfs_rq[cpu]->throttle_count;
}

/*
 * Charge @p's run time to its limited groups. Return: true if a level is
 * out of runtime: the next pick or put_prev throttles it.
 */
static inline bool plugsched_bw_account(struct task_struct *p, u64 delta)
{
	return plugsched_bw_limited(p) && !plugsched_breaks(PLUGSCHED_BREAK_BANDWIDTH) &&
	       plugsched_bw_charge(p->se.cfs_rq, delta);
}

bool __plugsched_bw_enqueue(struct rq *rq, struct task_struct *p);
void __plugsched_bw_dequeue_parked(struct rq *rq, struct task_struct *p, int flags);
void __plugsched_bw_unlink(struct task_struct *p);

/*
 * Only grouped tasks are linked to their group's runqueue (cpu.max); the
 * root group's pay one test inline. Return: true if @p was parked.
 */
static inline bool plugsched_bw_enqueue(struct rq *rq, struct task_struct *p)
{
	return plugsched_task_grouped(p) && __plugsched_bw_enqueue(rq, p);
}

/* Return: true if @p was parked, and is gone now. */
static inline bool plugsched_bw_dequeue_parked(struct rq *rq, struct task_struct *p, int flags)
{
	if (likely(!(p->plugsched.flags & PLUGSCHED_TF_PARKED)))
		return false;
	__plugsched_bw_dequeue_parked(rq, p, flags);
	return true;
}

/*
 * @p was parked until the dequeue of this save/restore pair and is queued
 * now: nothing else tells its CPU, which may idle (sched_move_task() kicks
 * only a running task).
 */
static inline void plugsched_bw_kick(struct rq *rq, struct task_struct *p)
{
	if (likely(!(p->plugsched.flags & PLUGSCHED_TF_UNPARKED)))
		return;
	p->plugsched.flags &= ~PLUGSCHED_TF_UNPARKED;
	if ((p->plugsched.flags & PLUGSCHED_TF_QUEUED) && !task_current(rq, p))
		wakeup_preempt(rq, p, 0);
}

static inline void plugsched_bw_unlink(struct task_struct *p)
{
	if (!list_empty(&p->se.group_node))
		__plugsched_bw_unlink(p);
}

static inline unsigned int plugsched_nr_parked(const struct plugsched_rq *prq)
{
	return READ_ONCE(prq->nr_parked);
}
#else
static inline unsigned int plugsched_nr_parked(const struct plugsched_rq *prq) { return 0; }
static inline bool plugsched_bw_limited(const struct task_struct *p) { return false; }
static inline bool plugsched_bw_throttled_on(const struct task_struct *p, int cpu)
{
	return false;
}

static inline bool plugsched_bw_account(struct task_struct *p, u64 delta) { return false; }
static inline bool plugsched_bw_enqueue(struct rq *rq, struct task_struct *p) { return false; }
static inline bool plugsched_bw_dequeue_parked(struct rq *rq, struct task_struct *p, int flags)
{
	return false;
}

static inline void plugsched_bw_kick(struct rq *rq, struct task_struct *p) { }
static inline void plugsched_bw_unlink(struct task_struct *p) { }
#endif

/*
 * A queued task in task-count terms (balancing by count): one task,
 * SCHED_CAPACITY_SCALE, scaled by its groups' share of it (effective
 * over nice weight); exactly SCHED_CAPACITY_SCALE in the root group.
 */
static inline unsigned long plugsched_task_units(const struct task_struct *p)
{
	unsigned long nice_w = plugsched_load_weight(p);

	if (likely(p->plugsched.load == nice_w))
		return SCHED_CAPACITY_SCALE;
	return max_t(unsigned long,
		     div64_ul((u64)p->plugsched.load * SCHED_CAPACITY_SCALE, nice_w), 1);
}

static inline u16 plugsched_task_owner(const struct task_struct *p)
{
	return p->plugsched.flags & PLUGSCHED_TF_OWNER;
}

/*
 * Pools (plugsched_queue.c): the queued tasks of a CPU, SCHED_IDLE ones
 * apart, by task group; the root group has one too. The policy picks among
 * all of them; the core holds the groups to their weights between pools.
 */
static inline void plugsched_pool_init(struct plugsched_pool *pool)
{
	RB_CLEAR_NODE(&pool->vnode);
	RB_CLEAR_NODE(&pool->wnode);
	INIT_LIST_HEAD(&pool->runnable);
	pool->vclock = 0;
	pool->weight = 0;
	pool->nr = 0;
}

/* The pool of @p's group on @prq's CPU. */
static inline struct plugsched_pool *plugsched_pool_of(struct plugsched_rq *prq,
						       struct task_struct *p)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	struct task_group *tg = task_group(p);

	if (tg != &root_task_group)
		return per_cpu_ptr(tg->plug.pools, prq->cpu);
#endif
	return &prq->root_pool;
}

static inline struct plugsched_pool *plugsched_pool_entry(struct rb_node *node)
{
	return node ? rb_entry(node, struct plugsched_pool, vnode) : NULL;
}

static inline struct plugsched_pool *plugsched_wpool_entry(struct rb_node *node)
{
	return node ? rb_entry(node, struct plugsched_pool, wnode) : NULL;
}

/* The first task of @pool, which waited longest of it. */
static inline struct task_struct *plugsched_pool_first(struct plugsched_pool *pool)
{
	return list_first_entry(&pool->runnable, struct task_struct, plugsched.runnable_node);
}

/* The queued task that waited longest on @prq, SCHED_IDLE ones last; NULL if none. */
static inline struct task_struct *plugsched_first_waiter(struct plugsched_rq *prq)
{
	struct plugsched_pool *pool = plugsched_wpool_entry(rb_first_cached(&prq->waits));

	if (pool)
		return plugsched_pool_first(pool);
	return list_first_entry_or_null(&prq->runnable_idle, struct task_struct,
					plugsched.runnable_node);
}

/*
 * Bypass (plugsched_switch.c): a runqueue whose plug.bypass is set, under
 * its lock, calls no policy; the core runs its plugged tasks itself, the
 * longest waiting first (plugsched_first_waiter()), a
 * PLUGSCHED_BYPASS_SLICE each, and balances nothing. It is set while no
 * policy is active (a task a switch missed still runs), and from the
 * moment a policy is ejected, from any context and under runqueue locks
 * only, until the switch back to mainline has moved every task: what
 * sleeps in that switch (static keys, the CPU hotplug lock, sysctl
 * unregistration) may wait for a task the policy starves. The hooks that
 * run without the runqueue's lock (CPU choice, fork) read
 * plugsched_bypassing, set before and cleared before the runqueues'.
 */
#define PLUGSCHED_BYPASS_SLICE	(5 * NSEC_PER_MSEC)

extern bool plugsched_bypassing;

static inline bool plugsched_rq_bypass(const struct plugsched_rq *prq)
{
	return unlikely(prq->bypass);
}

/* plugsched.c: a higher class takes the CPU, and gives it back */
void __plugsched_release(struct rq *rq);
void plugsched_end_release(struct plugsched_rq *prq);

/* plugsched_class.c: the class's pick, which the plug server runs */
struct task_struct *plugsched_server_pick_task(struct sched_dl_entity *dl_se);

/* plugsched_server.c: the plug servers' deadline bandwidth */
u64 plugsched_server_params(int cpu, bool period);
int plugsched_server_set(struct rq *rq, u64 runtime, u64 period);
int plugsched_servers_reserve(void);
void plugsched_servers_release(void);
void plugsched_servers_on_at_boot(void);

/* plugsched.c: the plugged tasks' utilisation of a CPU */
#ifdef CONFIG_SMP
bool plugsched_update_util(struct rq *rq);

static inline void plugsched_set_running(struct plugsched_rq *prq, bool running)
{
	prq->pelt_running = running;
}

/* schedutil hears of a moved signal, and of a task woken from I/O wait. */
static inline void plugsched_util_changed(struct rq *rq, bool moved, unsigned int flags)
{
	if (moved || flags)
		cpufreq_update_util(rq, flags);
}
#else
static inline bool plugsched_update_util(struct rq *rq) { return false; }
static inline void plugsched_util_changed(struct rq *rq, bool moved, unsigned int flags) { }
static inline void plugsched_set_running(struct plugsched_rq *prq, bool running) { }
#endif

/* plugsched_queue.c: a task joins and leaves the core */
void __plugsched_task_init(const struct plugsched_ops *ops, struct task_struct *p);
void plugsched_task_init(struct task_struct *p);
void update_curr_plug(struct rq *rq);
/* A queued task joins or leaves the policy and the core's counts. */
void plugsched_queue(struct rq *rq, struct task_struct *p, unsigned int pflags,
		     unsigned int cpufreq_flags);
void plugsched_unqueue(struct rq *rq, struct task_struct *p, unsigned int pflags);
void plugsched_reweight(struct plugsched_rq *prq, struct task_struct *p);
void plugsched_requeue_runnable(struct plugsched_rq *prq, struct task_struct *p);
void plugsched_pool_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta);
struct plugsched_pool *plugsched_pool_behind(struct plugsched_rq *prq,
					     struct task_struct *p);
struct task_struct *plugsched_longest_waiter(struct rq *rq);
struct task_struct *plugsched_pool_waiter(struct rq *rq);

/* RT, deadline or stop: a class that takes CPUs from the policy. */
static inline bool plugsched_class_above(const struct task_struct *p)
{
	return sched_class_above(p->sched_class, &fair_sched_class);
}

/* @next, about to run or running on @rq, takes the CPU if of such a class. */
static inline void plugsched_release(struct rq *rq, struct task_struct *next)
{
	if (!rq->plug.released && plugsched_class_above(next))
		__plugsched_release(rq);
}

/*
 * What balancing, placement and the core's shared bookkeeping cost,
 * counted per CPU where the work is done (debugfs plug_balance sums them;
 * plugsched.c holds them): a this_cpu_add() each, no shared cache line
 * written. PLUGSCHED_BAL_IRQOFF_MAX_NS is a maximum, not a count.
 */
enum plugsched_bal_stat {
	PLUGSCHED_BAL_NEWIDLE,		/* balances of a CPU about to idle */
	PLUGSCHED_BAL_TICK,		/* periodic balances from the tick */
	PLUGSCHED_BAL_KICK,		/* idle CPUs woken to pull */
	PLUGSCHED_BAL_NUDGED,		/* CPUs told to balance at their next tick */
	PLUGSCHED_BAL_VISITED,		/* CPUs looked at for the busiest */
	PLUGSCHED_BAL_LOCKED,		/* remote runqueue locks taken */
	PLUGSCHED_BAL_PULLED,		/* tasks moved */
	PLUGSCHED_BAL_FAILED,		/* remote locks taken, nothing moved */
	PLUGSCHED_BAL_PINNED,		/* busiest CPUs passed over: none to take */
	PLUGSCHED_BAL_WAKE_SCANNED,	/* CPUs looked at for a waking task */
	PLUGSCHED_BAL_FORK_SCANNED,	/* ... for a new or exec'ing one */
	PLUGSCHED_BAL_GROUP_ATOMICS,	/* atomics on task groups' shared load */
	PLUGSCHED_BAL_WATCH_LOCKED,	/* remote runqueue locks of the watchdog */
	PLUGSCHED_BAL_IRQOFF_MAX_NS,	/* longest balance with interrupts off */
	PLUGSCHED_NR_BAL_STATS
};

DECLARE_PER_CPU(unsigned long [PLUGSCHED_NR_BAL_STATS], plugsched_bal_stats);
extern const char * const plugsched_bal_stat_names[PLUGSCHED_NR_BAL_STATS];

static inline void plugsched_bal_count(enum plugsched_bal_stat stat, unsigned long n)
{
	this_cpu_add(plugsched_bal_stats[stat], n);
}

/* A balance that ran @ns with interrupts off: keep this CPU's longest. */
static inline void plugsched_bal_irqoff(u64 ns)
{
	if (ns > this_cpu_read(plugsched_bal_stats[PLUGSCHED_BAL_IRQOFF_MAX_NS]))
		this_cpu_write(plugsched_bal_stats[PLUGSCHED_BAL_IRQOFF_MAX_NS], ns);
}

/* plugsched_balance.c: the class's SMP hooks and what placement shares */
#ifdef CONFIG_SMP
int plugsched_balance_newidle(struct rq *rq, struct rq_flags *rf);
int select_task_rq_plug(struct task_struct *p, int prev_cpu, int wake_flags);
unsigned long plugsched_rq_load(struct plugsched_rq *prq);
int plugsched_idle_cpu(struct task_struct *p, const struct cpumask *mask);
int plugsched_least_loaded_cpu(struct task_struct *p, const struct cpumask *mask,
			       int prefer);
#endif

/*
 * plugsched_homenode.c: what the core does for a policy with home nodes.
 * The test of the flag is inline: the hot paths of other policies pay no
 * call for it.
 */
#ifdef CONFIG_PLUGSCHED_HOME_NODES
void __plugsched_home_init(struct task_struct *p);
void __plugsched_home_fork(struct task_struct *p);
void __plugsched_home_enqueue(struct task_struct *p, int cpu);
void __plugsched_home_from_mask(struct task_struct *p);

static inline bool plugsched_has_homes(const struct plugsched_ops *ops)
{
	return ops->home_nodes;
}
#else
static inline void __plugsched_home_init(struct task_struct *p) { }
static inline void __plugsched_home_fork(struct task_struct *p) { }
static inline void __plugsched_home_enqueue(struct task_struct *p, int cpu) { }
static inline void __plugsched_home_from_mask(struct task_struct *p) { }

static inline bool plugsched_has_homes(const struct plugsched_ops *ops)
{
	return false;
}
#endif

/* @p gets fresh state of @ops: its home, if any, from its affinity. */
static inline void plugsched_home_init(const struct plugsched_ops *ops, struct task_struct *p)
{
	p->plugsched.home_node = NUMA_NO_NODE;
	if (plugsched_has_homes(ops))
		__plugsched_home_init(p);
}

/* @p is a new child of current. */
static inline void plugsched_home_fork(const struct plugsched_ops *ops, struct task_struct *p)
{
	if (plugsched_has_homes(ops))
		__plugsched_home_fork(p);
}

/* @p is queued on @cpu. */
static inline void plugsched_home_enqueue(const struct plugsched_ops *ops,
					  struct task_struct *p, int cpu)
{
	if (plugsched_has_homes(ops))
		__plugsched_home_enqueue(p, cpu);
}

/* @p's affinity changed. */
static inline void plugsched_home_from_mask(const struct plugsched_ops *ops,
					    struct task_struct *p)
{
	if (plugsched_has_homes(ops))
		__plugsched_home_from_mask(p);
}

/*
 * NUMA balancing found @p's memory on another node it may run on: home is
 * there, or the policy's balancer and task_numa_migrate() would move @p to
 * and fro. Only with faults of its own since its exec (which keeps a stale
 * numa_preferred_nid but clears the faults).
 */
static inline void plugsched_home_follow_numa(const struct plugsched_ops *ops,
					      struct task_struct *p)
{
#ifdef CONFIG_NUMA_BALANCING
	int nid = READ_ONCE(p->numa_preferred_nid);

	if (plugsched_has_homes(ops) && static_branch_unlikely(&sched_numa_balancing) &&
	    nid != NUMA_NO_NODE && nid != p->plugsched.home_node && p->total_numa_faults &&
	    cpumask_intersects(p->cpus_ptr, cpumask_of_node(nid)))
		p->plugsched.home_node = nid;
#endif
}

/*
 * plugsched_switch.c: the phases of the core. Each moves only to the
 * phases its transitions allow (plugsched_set_phase() WARNs otherwise), and
 * each has its static keys:
 *
 *   MAINLINE	no policy; the fair class owns normal tasks (keys off)
 *   ENABLING	a policy is active, tasks move from the fair class to it
 *		(__plugsched_enabled on, new tasks join the plug class)
 *   ENABLED	every normal task is the policy's (both keys on)
 *   DISABLING	tasks move back to the fair class (__plugsched_all off,
 *		new tasks join the fair class)
 *   FALLBACK	MAINLINE after a policy was ejected or failed to start
 */
enum plugsched_phase {
	PLUGSCHED_PHASE_MAINLINE,
	PLUGSCHED_PHASE_ENABLING,
	PLUGSCHED_PHASE_ENABLED,
	PLUGSCHED_PHASE_DISABLING,
	PLUGSCHED_PHASE_FALLBACK,
	PLUGSCHED_NR_PHASES,
};

extern struct mutex plugsched_switch_mutex;

/* plugsched_class.c: relief of long waits (pick_task_plug()) */
#define PLUGSCHED_RELIEF_DEF_MS	1000
#define PLUGSCHED_RELIEF_NS	(10 * NSEC_PER_MSEC)
extern int plugsched_relief_ms;
extern atomic_t plugsched_nr_reliefs;

bool plugsched_phase_allowed(enum plugsched_phase from, enum plugsched_phase to);
enum plugsched_phase plugsched_phase(void);
int __init plugsched_enable_at_boot(const struct plugsched_ops *ops);
int plugsched_request_switch(const struct plugsched_ops *ops);
int plugsched_switch(const struct plugsched_ops *ops, const char *why);
void plugsched_bypass_rqs(void);
extern struct kthread_worker *plugsched_worker;
void __init plugsched_switch_late_init(void);
void __init plugsched_tasks_init(void);
unsigned int plugsched_nr_tracked(void);
const char *plugsched_active_name(void);
int plugsched_state_show(char *buf, size_t size);
unsigned long plugsched_nr_switches(void);

/* plugsched_watchdog.c: the watchdog, ejection and SysRq-P */
extern int plugsched_watchdog_ms;
void plugsched_watchdog_start(void);
void plugsched_watchdog_kick(void);
unsigned long plugsched_watch_limit(struct plugsched_rq *prq, unsigned long limit);
void plugsched_watch_window(struct plugsched_rq *prq, u64 bound, unsigned long limit,
			    unsigned long now);
void __init plugsched_sysrq_init(void);

/* plugsched_register.c: the policies PLUGSCHED_POLICY() placed */
#define PLUGSCHED_MAX_POLICIES	16
#define PLUGSCHED_NAME_MAX	15

extern struct plugsched_ops * const __plugsched_policies_start[];
extern struct plugsched_ops * const __plugsched_policies_end[];

void __init plugsched_register_all(void);
int plugsched_validate_ops(const struct plugsched_ops *ops, char *why, size_t size);
const struct plugsched_ops *plugsched_find(const char *name);
const struct plugsched_ops *plugsched_policy(unsigned int i);
int plugsched_list_choices(char *list, size_t size);

/* The core's own knobs (plugsched_ui.c), registered whichever policy runs. */
#define PLUGSCHED_WATCHDOG_KNOB	"plugsched_watchdog_ms"
#define PLUGSCHED_RELIEF_KNOB	"plugsched_relief_ms"

/* plugsched_knobs.c: the active policy's knobs in /proc/sys/kernel */
struct ctl_table;
extern bool plugsched_sysctl_ready;
int plugsched_knob_handler(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos);
void plugsched_knob_entry(struct ctl_table *entry, const struct plugsched_knob *knob);
void plugsched_knobs_reset(const struct plugsched_ops *ops);
int plugsched_register_knobs(const struct plugsched_ops *ops);
void plugsched_unregister_knobs(void);

/* A policy built on another (&plugsched_ops.base) has the base's knobs too. */
static inline unsigned int plugsched_nr_knobs(const struct plugsched_ops *ops)
{
	return ops->nr_knobs + (ops->base ? ops->base->nr_knobs : 0);
}

static inline const struct plugsched_knob *plugsched_knob(const struct plugsched_ops *ops,
							  unsigned int i)
{
	return i < ops->nr_knobs ? &ops->knobs[i] : &ops->base->knobs[i - ops->nr_knobs];
}

#endif /* _KERNEL_SCHED_PLUGSCHED_INTERNAL_H */
