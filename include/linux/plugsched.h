/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugsched: the interface between the pluggable scheduler core and the
 * policies. A policy implements &struct plugsched_ops and uses the helpers
 * below; it never sees struct sched_class or struct rq.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#ifndef _LINUX_PLUGSCHED_H
#define _LINUX_PLUGSCHED_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/plugsched_types.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/topology.h>

struct seq_file;

/* The API exists with the option on; mainline files include this anyway. */
#ifdef CONFIG_PLUGSCHED

/* Queues in a priority array; the last one holds SCHED_IDLE tasks. */
#define PLUGSCHED_NR_SLOTS	64
#define PLUGSCHED_IDLE_SLOT	(PLUGSCHED_NR_SLOTS - 1)

/* Flags passed to &plugsched_ops.enqueue. */
#define PLUGSCHED_ENQ_WAKEUP	0x01	/* the task woke up */
#define PLUGSCHED_ENQ_NEW	0x02	/* first enqueue of a new task */
#define PLUGSCHED_ENQ_MIGRATED	0x04	/* moved here while runnable */
#define PLUGSCHED_ENQ_RESTORE	0x08	/* back after a nice/policy change */
#define PLUGSCHED_ENQ_PULLED	0x10	/* with MIGRATED: by the balancer */
#define PLUGSCHED_ENQ_UNTHROTTLE 0x20	/* its group has cpu.max runtime again */

/* Flags passed to &plugsched_ops.dequeue. */
#define PLUGSCHED_DEQ_SLEEP	0x01	/* the task goes to sleep */
#define PLUGSCHED_DEQ_MIGRATE	0x04	/* moving to another CPU while runnable */
#define PLUGSCHED_DEQ_SAVE	0x08	/* dequeued for a nice/policy change */
#define PLUGSCHED_DEQ_THROTTLE	0x10	/* its group ran out of cpu.max runtime */

/**
 * struct plugsched_pool - the plugged tasks of one task group queued on one
 * CPU (SCHED_IDLE ones apart), which share that group's part of the CPU
 * @vnode:	in &plugsched_rq.pools, by @vclock, while @nr is not 0
 * @wnode:	in &plugsched_rq.waits, by its first task's wait, the same
 * @runnable:	its tasks, longest waiting first, linked by
 *		&plugsched_task.runnable_node
 * @vclock:	virtual clock: the pool's run time in ns, times
 *		NICE_0_LOAD over its part of the CPU (plugsched_queue.c)
 * @weight:	sum of its tasks' nice weights; its part of the CPU is that
 *		scaled by the shares of its group and the group's parents
 * @nr:		how many tasks are on @runnable
 *
 * The root group's pool of a CPU is in its &struct plugsched_rq, every
 * other group's in the group's per-CPU &plugsched_group.pools.
 */
struct plugsched_pool {
	struct rb_node		vnode;
	struct rb_node		wnode;
	struct list_head	runnable;
	u64			vclock;
	unsigned long		weight;
	unsigned int		nr;
};

/**
 * struct plugsched_rq - the part of a CPU's runqueue the core keeps for
 * the plugged policy
 * @nr_running:	plugged tasks queued on this CPU, the running one included
 * @nr_idle:	how many of them are SCHED_IDLE
 * @load:	sum of the queued tasks' effective weights (p->plugsched.load:
 *		the nice weight, scaled by the task's groups' shares)
 * @units:	the queued tasks counted SCHED_CAPACITY_SCALE each, scaled
 *		the same way (what balancing by task count balances)
 * @cpu:	the CPU this runqueue belongs to
 * @next_balance: jiffies of the next periodic balance
 * @next_kick:	jiffies before which no idle CPU is kicked again
 * @kick_backoff: current kick interval in jiffies (doubles while kicks fail)
 * @pools:	the pools (&struct plugsched_pool) with queued tasks, by
 *		virtual clock: the core runs the first one's longest waiting
 *		task when the policy's pick is in a pool too far ahead of it
 * @waits:	the same pools by their longest waiting task's wait: the
 *		first one's first task waited longest on this CPU
 * @root_pool:	the root task group's pool on this CPU
 * @min_vclock:	the pools' virtual clocks never fall behind this (monotonic)
 * @nr_pools:	pools in @pools
 * @runnable_idle: the queued SCHED_IDLE tasks, which may wait for ever,
 *		longest waiting first (see &plugsched_task.runnable_node)
 * @released:	a higher class (RT, deadline, stop) took the CPU from the
 *		policy and the policy has not picked on it since
 * @released_at: jiffies when it was taken
 * @released_jiffies: jiffies the CPU was released in all, the current
 *		release not counted; the policy's clock (plugsched_now())
 *		stands still while the CPU is released
 * @nr_released: how often the CPU was released, for statistics
 * @bypass:	the core's own: no policy decides on this CPU (none is
 *		active, or the active one is being ejected); the core runs
 *		the queued tasks itself, first come first served
 * @watch_bound: the policy's design bound of a wait here (ns, see
 *		&plugsched_ops.wait_bound) in the watchdog's last window ([0])
 *		and the one before ([1]): the harmonic mean of the ticks'
 *		bounds, each at least the watchdog's limit
 * @watch_inv:	the current window's sum of 2^32 over each tick's bound in ms
 * @watch_n:	the ticks it counts
 * @watch_rotate: jiffies when the current window ends
 * @idle_next:	jiffies from which the CPU may run its next SCHED_IDLE task
 *		that waited PLUGSCHED_IDLE_WAIT (plugsched_class.c)
 * @relief_next: jiffies from which the CPU may give its next relief
 *		(plugsched_class.c): one per second, 1% of the CPU at most
 * @yield_next:	the target of a yield_to() here, to run next: kept until
 *		the next pick or its dequeue (plugsched_class.c)
 * @avg:	the plugged tasks' utilisation and load on this CPU (PELT, as
 *		the fair class's rq->cfs.avg), which schedutil reads beside it
 * @pelt_running: a plugged task runs, for @avg
 * @parked:	tasks held off the policy while their group is throttled
 *		(cgroup cpu.max), linked by &plugsched_task.runnable_node;
 *		neither in @nr_running nor in rq->nr_running
 * @nr_parked:	how many
 *
 * Policies keep their own per-CPU state in per-CPU variables indexed by
 * @cpu, so that switching policies never has to resize struct rq.
 */
struct plugsched_rq {
	unsigned int		nr_running;
	unsigned int		nr_idle;
	unsigned long		load;
	unsigned long		units;
	int			cpu;
	unsigned long		next_balance;
	unsigned long		next_kick;
	unsigned long		kick_backoff;
	struct rb_root_cached	pools;
	struct rb_root_cached	waits;
	struct plugsched_pool	root_pool;
	u64			min_vclock;
	unsigned int		nr_pools;
	struct list_head	runnable_idle;
	bool			released;
	unsigned long		released_at;
	unsigned long		released_jiffies;
	unsigned long		nr_released;
	bool			bypass;
	u64			watch_bound[2];
	u64			watch_inv;
	unsigned int		watch_n;
	unsigned long		watch_rotate;
	unsigned long		idle_next;
	unsigned long		relief_next;
	struct task_struct	*yield_next;
#ifdef CONFIG_SMP
	struct sched_avg	avg;
	bool			pelt_running;
#endif
#ifdef CONFIG_CFS_BANDWIDTH
	struct list_head	parked;
	unsigned int		nr_parked;
#endif
};

/**
 * struct plugsched_group - a task group's part in the flattened shares of
 * plugged tasks (cpu.weight, autogroup), machine-wide
 * @load:	nice weights of the group's queued plugged tasks plus what its
 *		active child groups contribute (their @contrib)
 * @contrib:	the shares this group adds to its parent's @load now; the
 *		group's weight while it is active, 0 otherwise
 * @nr:		queued plugged tasks of the group plus its active children:
 *		the group is active while this is not 0
 * @pools:	the group's pool on each CPU (its own tasks, not its children's)
 */
struct plugsched_group {
	atomic64_t		load;
	atomic64_t		contrib;
	atomic_t		nr;
	struct plugsched_pool __percpu *pools;
};

/**
 * struct plugsched_prio_array - a bitmap-indexed array of FIFO queues
 * @bitmap:	bit n set when @queue[n] is not empty
 * @nr_queued:	tasks on all queues
 * @queue:	one FIFO per slot; lower slots are picked first
 *
 * The O(1) structure: insert, remove and pick-first are constant time.
 */
struct plugsched_prio_array {
	u64			bitmap;
	unsigned int		nr_queued;
	struct list_head	queue[PLUGSCHED_NR_SLOTS];
};

/**
 * struct plugsched_knob - a tunable of a policy, shown in /proc/sys/kernel
 * @name:	file name under /proc/sys/kernel
 * @unit:	unit for the documentation and the boot log ("ms", "ns", ...)
 * @value:	the policy's variable; read it with READ_ONCE()
 * @min:	smallest accepted value
 * @max:	largest accepted value
 * @def:	value set each time the policy is activated
 * @choices:	NULL for a number; else a NULL-terminated list of the strings
 *		accepted, and *@value is the index of the chosen one
 * @zero_off:	0 is accepted too, below @min: it turns off what the knob
 *		sets (a number's knob only)
 *
 * Writes outside [@min, @max] (and not 0 with @zero_off), or that are not
 * exactly one number (or one of @choices), fail with -EINVAL and leave
 * *@value unchanged.
 */
struct plugsched_knob {
	const char		*name;
	const char		*unit;
	int			*value;
	int			min;
	int			max;
	int			def;
	const char * const	*choices;
	bool			zero_off;
};

/**
 * struct plugsched_ops - a scheduling policy for normal tasks
 * @name:	name used with sched= and in /sys/kernel/plugsched
 * @knobs:	the policy's tunables, registered while it is active
 * @nr_knobs:	number of entries in @knobs
 * @balance_ms:	periodic balance interval of a busy CPU, in ms
 * @idle_balance_ms: periodic balance interval of an idle CPU, in ms
 * @imbalance_pct: a busier CPU is pulled from when its load exceeds this
 *		CPU's by this percentage (125: 25% more)
 * @balance_by_load: balance summed load weights rather than task counts
 * @home_nodes:	tasks have a home node (p->plugsched.home_node), inherited
 *		at fork; the core's migration scan moves tasks going home
 *		first and tasks at home last (see plugsched_numa_select_cpu()
 *		and plugsched_numa_balance() for the rest of the mechanism)
 * @base_name:	the name of a policy this one is built on: every callback,
 *		number and flag left 0 here is taken from that policy at boot,
 *		and its knobs are registered with this policy's own
 * @base:	that policy, set by the core at boot; an own callback may call
 *		the base's through it
 *
 * @init:	activation: set up global state. Knobs already hold their
 *		defaults and may be adjusted (e.g. scaled by CPU count).
 *		Called before any task is handed to the policy, with the
 *		CPU hotplug lock held for reading.
 * @init_rq:	set up the per-CPU state of @prq->cpu; called for every
 *		possible CPU after @init succeeded, before any task is handed
 *		to the policy.
 * @task_init:	give @p fresh policy state: @p is new to the policy (a new
 *		task, a task coming from another class or from another policy).
 *		@p is not queued.
 * @fork:	@p is a new child of @parent (current). Both are stable;
 *		@parent's runqueue is locked when @parent_prq is not NULL
 *		(i.e. the parent runs under this policy). @task_init was
 *		called on @p already. Optional.
 * @enqueue:	@p becomes runnable on @prq. PLUGSCHED_ENQ_* @flags.
 * @dequeue:	@p stops being runnable on @prq. PLUGSCHED_DEQ_* @flags.
 * @pick:	return the task to run next; @prq->nr_running > 0. The task
 *		running now is still queued when @pick is called, unless the
 *		policy took it off in @set_next. Must not return NULL.
 * @set_next:	the queued @p starts running. Optional.
 * @put_prev:	@p, still queued, stops running. Not called for a running
 *		task the policy dequeued already (it slept, or its nice or
 *		policy changes: then @enqueue and @set_next follow). Optional.
 * @charge:	@p ran for @delta ns; the core already charged @p's slice.
 *		Optional.
 * @slice_expired: @p's slice (p->plugsched.slice) is used up: refill it and
 *		requeue @p. Return true to reschedule.
 * @tick:	called every tick for the running @p whose slice is left.
 *		Return true to reschedule. Optional.
 * @preempt:	should the woken @p preempt the running @curr? SCHED_BATCH
 *		and SCHED_IDLE rules are applied by the core before asking.
 * @yield:	the running @p yields the CPU.
 * @prio_changed: nice or policy of the queued @p changed (the core already
 *		dequeued and enqueued it with the RESTORE/SAVE flags). Optional.
 * @migration_candidate: return a task queued on @src that may move to
 *		@dst_cpu (see plugsched_can_migrate()), in the order the policy
 *		prefers to give tasks away, or NULL.
 * @select_cpu:	choose a CPU for @p waking (@wake_flags WF_TTWU), forking
 *		(WF_FORK) or exec'ing (WF_EXEC). Optional; the core's
 *		plugsched_select_cpu() is used otherwise.
 * @balance:	periodic or idle balancing of @this; return tasks pulled.
 *		Optional; plugsched_balance() is used otherwise.
 * @show_task:	print @p's policy fields to /proc/PID/sched, under @p's
 *		runqueue lock. Optional.
 * @rr_interval: the task's round-robin interval in ns, for
 *		sched_rr_get_interval(). Optional.
 * @count:	with CONFIG_PLUGSCHED_DEBUG, count the tasks the policy holds
 *		on @prq, checking its structures on the way (e.g. with
 *		plugsched_array_count()); return UINT_MAX for a broken one.
 *		Called from the tick; the core WARNs once when the count is
 *		not @prq->nr_running. Optional.
 * @dump:	print @prq's state and that of @p, queued on it, to the log;
 *		called under @prq's lock (printk is deferred) when the
 *		watchdog finds @p stalled, to tell a policy bug from a design
 *		bound. Optional.
 * @wait_bound:	the longest a runnable task may wait on one CPU by the
 *		policy's design, in ns, among @nr runnable tasks (SCHED_IDLE
 *		ones not counted), with the knobs as they are now; 0: the
 *		design gives no bound. The watchdog's limit on a CPU is the
 *		larger of plugsched_watchdog_ms and this bound (plus 10% and
 *		two ticks) at its highest over the wait. Called from the tick,
 *		without a runqueue lock: it may read knobs only. Optional.
 *
 * All callbacks but @init, @init_rq, @task_init and @wait_bound run
 * with the runqueue lock of @prq held and interrupts disabled; none may
 * sleep. None may assume the policy was chosen at boot: a policy can be
 * activated and deactivated while the system runs.
 */
struct plugsched_ops {
	const char			*name;
	const struct plugsched_knob	*knobs;
	unsigned int			nr_knobs;
	unsigned int			balance_ms;
	unsigned int			idle_balance_ms;
	unsigned int			imbalance_pct;
	bool				balance_by_load;
	bool				home_nodes;
	const char			*base_name;
	const struct plugsched_ops	*base;

	int	(*init)(void);
	void	(*init_rq)(struct plugsched_rq *prq);
	void	(*task_init)(struct task_struct *p);
	void	(*fork)(struct plugsched_rq *parent_prq, struct task_struct *parent,
			struct task_struct *p);
	void	(*enqueue)(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags);
	void	(*dequeue)(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags);
	struct task_struct *(*pick)(struct plugsched_rq *prq);
	void	(*set_next)(struct plugsched_rq *prq, struct task_struct *p);
	void	(*put_prev)(struct plugsched_rq *prq, struct task_struct *p);
	void	(*charge)(struct plugsched_rq *prq, struct task_struct *p, u64 delta);
	bool	(*slice_expired)(struct plugsched_rq *prq, struct task_struct *p);
	bool	(*tick)(struct plugsched_rq *prq, struct task_struct *p);
	bool	(*preempt)(struct plugsched_rq *prq, struct task_struct *curr,
			   struct task_struct *p);
	void	(*yield)(struct plugsched_rq *prq, struct task_struct *p);
	void	(*prio_changed)(struct plugsched_rq *prq, struct task_struct *p);
	struct task_struct *(*migration_candidate)(struct plugsched_rq *src,
						   int dst_cpu, bool idle);
	int	(*select_cpu)(struct task_struct *p, int prev_cpu, int wake_flags);
	int	(*balance)(struct plugsched_rq *this, bool idle);
	void	(*show_task)(struct seq_file *m, struct task_struct *p);
	u64	(*rr_interval)(struct task_struct *p);
	unsigned int (*count)(struct plugsched_rq *prq);
	void	(*dump)(struct plugsched_rq *prq, struct task_struct *p);
	u64	(*wait_bound)(unsigned int nr);
};

/**
 * PLUGSCHED_POLICY - register a policy with the core
 * @ops:	the policy's &struct plugsched_ops, defined __ro_after_init (the
 *		core completes a derived policy from its base at boot)
 *
 * Places a pointer to @ops in the __plugsched_policies section, where the
 * core finds every built-in policy at boot. It checks each one before it
 * trusts it (required callbacks, numbers in range, well-formed knob
 * tables); one that fails is refused with a message naming the problem
 * and is not listed in /sys/kernel/plugsched/available.
 */
#define PLUGSCHED_POLICY(ops)							\
	static struct plugsched_ops * const __plugsched_policy_##ops		\
	__used __section("__plugsched_policies") = &(ops)

/* Flags of plugsched_balance_span(). */
#define PLUGSCHED_BAL_KEEP_HOME	0x01	/* leave tasks on their home node */

/* Core services for policies (kernel/sched/plugsched*.c). */
u64 plugsched_clock(struct plugsched_rq *prq);
struct task_struct *plugsched_curr(struct plugsched_rq *prq);
void plugsched_resched(struct plugsched_rq *prq);
bool plugsched_can_migrate(struct plugsched_rq *src, struct task_struct *p,
			   int dst_cpu, bool idle);
int plugsched_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags);
int plugsched_balance(struct plugsched_rq *this, bool idle);
int plugsched_balance_span(struct plugsched_rq *this, bool idle,
			   const struct cpumask *span, unsigned int flags);
/* Home nodes (kernel/sched/plugsched_homenode.c): select PLUGSCHED_HOME_NODES. */
int plugsched_numa_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags,
			      unsigned int threshold);
int plugsched_numa_balance(struct plugsched_rq *this, bool idle,
			   unsigned int ratio, unsigned int threshold);
void plugsched_array_init(struct plugsched_prio_array *array);
struct task_struct *plugsched_array_migratable(struct plugsched_rq *src,
					       struct plugsched_prio_array *array,
					       int dst_cpu, bool idle);
unsigned long plugsched_task_weight(const struct task_struct *p);
unsigned int plugsched_array_count(const struct plugsched_prio_array *array);
u64 plugsched_scale_delta(const struct task_struct *p, u64 delta);
u64 plugsched_scale_slice(const struct task_struct *p, u64 ns);
s64 plugsched_refill_slice(const struct task_struct *p, s64 ns);
u64 plugsched_scale_wait(struct plugsched_rq *prq, const struct task_struct *p, u64 wait);
/* A policy that finds its own state broken ejects itself: any context. */
void plugsched_eject(const char *why);

/**
 * plugsched_task_priv - a policy's private per-task state
 * @p:		the task
 * @type:	the policy's per-task structure type
 *
 * Return: a pointer to @p's policy-private area as a @type pointer.
 */
#define plugsched_task_priv(p, type) ({					\
	BUILD_BUG_ON(sizeof(type) > sizeof((p)->plugsched.priv));		\
	BUILD_BUG_ON(__alignof__(type) > __alignof__(u64));		\
	(type *)(p)->plugsched.priv;						\
})

/**
 * plugsched_priv_task - the task owning a policy-private area
 * @priv:	a pointer returned by plugsched_task_priv()
 *
 * Return: the task whose p->plugsched.priv @priv is.
 */
static inline struct task_struct *plugsched_priv_task(void *priv)
{
	return container_of(priv, struct task_struct, plugsched.priv);
}

/*
 * In p->plugsched.flags: @p is in a cgroup with cpu.idle set, at some
 * level. The core sets it when @p joins the policy (and requeues its
 * queued tasks when cpu.idle is written), so that it holds from a task's
 * enqueue to its dequeue.
 */
#define PLUGSCHED_TF_GROUP_IDLE	0x2000

/**
 * plugsched_task_is_idle - whether @p is an idle task for the policy
 * @p:		the task
 *
 * Return: true for a SCHED_IDLE task, or one in a cgroup with cpu.idle
 * set (mainline's idle group entity, flattened), which only runs when
 * nothing else of the policy is runnable on its CPU.
 */
static inline bool plugsched_task_is_idle(const struct task_struct *p)
{
	return p->policy == SCHED_IDLE || (p->plugsched.flags & PLUGSCHED_TF_GROUP_IDLE);
}

/**
 * plugsched_task_home - @p's home node
 * @p:		the task
 *
 * Return: p->plugsched.home_node, or the node of @p's CPU while it has
 * none (then the task is at home wherever it is).
 */
static inline int plugsched_task_home(const struct task_struct *p)
{
	int home = p->plugsched.home_node;

	return home != NUMA_NO_NODE ? home : cpu_to_node(task_cpu(p));
}

/**
 * plugsched_now - the watchdog's clock on @prq, in jiffies (low 32 bits)
 * @prq:	the runqueue
 *
 * It stands still while a higher class has the CPU (@prq->released), so
 * that a wait behind RT or deadline tasks, which the policy cannot end and
 * mainline does not bound either once the plug server is off, is not
 * taken for a stall of the policy. p->plugsched.runnable_at is a time of
 * this clock.
 *
 * Return: the clock's value.
 */
static inline u32 plugsched_now(const struct plugsched_rq *prq)
{
	unsigned long now = READ_ONCE(prq->released) ? READ_ONCE(prq->released_at) : jiffies;

	return now - READ_ONCE(prq->released_jiffies);
}

/**
 * plugsched_waited - how long @p has waited on @prq
 * @prq:	the runqueue @p is queued on, locked
 * @p:		a queued task
 *
 * Return: jiffies since @p became runnable or last ran, the CPU's releases
 * not counted; a wait of 49 days wraps.
 */
static inline unsigned long plugsched_waited(const struct plugsched_rq *prq,
					     const struct task_struct *p)
{
	return (u32)(plugsched_now(prq) - p->plugsched.runnable_at);
}

/**
 * plugsched_array_add - queue @p on @array at @slot
 * @array:	the priority array
 * @p:		a task not on any array
 * @slot:	0 (picked first) .. PLUGSCHED_IDLE_SLOT
 * @head:	queue at the head of the slot instead of the tail
 */
static inline void plugsched_array_add(struct plugsched_prio_array *array,
				       struct task_struct *p, unsigned int slot,
				       bool head)
{
	struct list_head *queue = &array->queue[slot];

	if (head)
		list_add(&p->plugsched.run_list, queue);
	else
		list_add_tail(&p->plugsched.run_list, queue);
	array->bitmap |= BIT_ULL(slot);
	array->nr_queued++;
	p->plugsched.array = array;
	p->plugsched.slot = slot;
}

/**
 * plugsched_array_del - take @p off the array it is queued on
 * @p:		a task queued on a priority array
 */
static inline void plugsched_array_del(struct task_struct *p)
{
	struct plugsched_prio_array *array = p->plugsched.array;
	unsigned int slot = p->plugsched.slot;

	list_del_init(&p->plugsched.run_list);
	if (list_empty(&array->queue[slot]))
		array->bitmap &= ~BIT_ULL(slot);
	array->nr_queued--;
	p->plugsched.array = NULL;
}

/**
 * plugsched_array_requeue - move @p to the tail of its slot
 * @p:		a task queued on a priority array
 */
static inline void plugsched_array_requeue(struct task_struct *p)
{
	struct plugsched_prio_array *array = p->plugsched.array;

	list_move_tail(&p->plugsched.run_list, &array->queue[p->plugsched.slot]);
}

/**
 * plugsched_array_move_slot - append every task of slot @from to slot @to
 * @array:	the priority array
 * @from:	the slot to empty
 * @to:		the slot whose queue the tasks join, behind its own tasks
 *
 * Constant time, however many tasks move. Their p->plugsched.slot still
 * says @from: the policy must be able to tell where they went, and set
 * the slot right before handing such a task to plugsched_array_del() or
 * plugsched_array_requeue().
 */
static inline void plugsched_array_move_slot(struct plugsched_prio_array *array,
					     unsigned int from, unsigned int to)
{
	if (list_empty(&array->queue[from]))
		return;
	list_splice_tail_init(&array->queue[from], &array->queue[to]);
	array->bitmap &= ~BIT_ULL(from);
	array->bitmap |= BIT_ULL(to);
}

/**
 * plugsched_array_first_slot - the lowest non-empty slot of @array
 * @array:	the priority array
 *
 * Return: the slot, or PLUGSCHED_NR_SLOTS when @array is empty.
 */
static inline unsigned int
plugsched_array_first_slot(const struct plugsched_prio_array *array)
{
	return array->bitmap ? __ffs64(array->bitmap) : PLUGSCHED_NR_SLOTS;
}

/**
 * plugsched_array_first - the task at the head of the lowest non-empty slot
 * @array:	the priority array
 *
 * Return: the task, or NULL when @array is empty.
 */
static inline struct task_struct *
plugsched_array_first(const struct plugsched_prio_array *array)
{
	if (!array->bitmap)
		return NULL;
	return list_first_entry(&array->queue[__ffs64(array->bitmap)],
				struct task_struct, plugsched.run_list);
}

/**
 * plugsched_array_slot_singular - whether @p is alone in its slot
 * @p:		a task queued on a priority array
 *
 * Return: true when no other task shares @p's slot.
 */
static inline bool plugsched_array_slot_singular(const struct task_struct *p)
{
	const struct plugsched_prio_array *array = p->plugsched.array;

	return list_is_singular(&array->queue[p->plugsched.slot]);
}

/**
 * plugsched_array_last - the task that has waited longest at the lowest
 * priority of @array, SCHED_IDLE's slot aside
 * @array:	the priority array
 * @skip:	a task not to return (the running one, which does not wait)
 *
 * Return: the task at the head of the highest non-empty slot below
 * PLUGSCHED_IDLE_SLOT, or the one behind it if that is @skip; NULL when
 * there is none.
 */
static inline struct task_struct *
plugsched_array_last(const struct plugsched_prio_array *array, const struct task_struct *skip)
{
	u64 bits = array->bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT);
	const struct list_head *queue;
	struct task_struct *p;

	if (!bits)
		return NULL;
	queue = &array->queue[fls64(bits) - 1];
	p = list_first_entry(queue, struct task_struct, plugsched.run_list);
	if (p != skip)
		return p;
	return list_is_singular(queue) ? NULL : list_next_entry(p, plugsched.run_list);
}

#endif /* CONFIG_PLUGSCHED */

#endif /* _LINUX_PLUGSCHED_H */
