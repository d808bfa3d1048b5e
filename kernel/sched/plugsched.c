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
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/mmu_context.h>
#include <linux/plugsched.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>

#include "sched.h"

#define PLUGSCHED_MAINLINE	"eevdf"

/* The promise of plugsched_types.h: task_struct grows by 128 bytes at most. */
static_assert(sizeof(struct plugsched_task) <= 128);

/* p->plugsched.flags: which policy's state the task carries (0: none). */
#define PLUGSCHED_TF_OWNER	0x00ff
/* The policy has the task queued (between its enqueue and dequeue calls). */
#define PLUGSCHED_TF_QUEUED	0x0100

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
};

DEFINE_STATIC_KEY_FALSE(__plugsched_enabled);

/* The active policy; NULL while mainline EEVDF owns normal tasks. */
static const struct plugsched_ops *ps_ops __read_mostly;
static u16 ps_owner __read_mostly;

static DEFINE_MUTEX(plugsched_mutex);
static char plugsched_boot_name[32] __initdata;
static unsigned int plugsched_boot_given __initdata;

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

unsigned long plugsched_task_weight(const struct task_struct *p)
{
	return scale_load_down(p->se.load.weight);
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

	if (likely(w == SCHED_CAPACITY_SCALE))
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

static inline u16 plugsched_task_owner(const struct task_struct *p)
{
	return p->plugsched.flags & PLUGSCHED_TF_OWNER;
}

/* Give @p fresh state of the active policy; @p is not queued. */
static void plugsched_task_init(struct task_struct *p)
{
	INIT_LIST_HEAD(&p->plugsched.run_list);
	p->plugsched.array = NULL;
	p->plugsched.slice = 0;
	p->plugsched.last_ran = 0;
	p->plugsched.runnable_at = jiffies;
	memset(p->plugsched.priv, 0, sizeof(p->plugsched.priv));
	p->plugsched.flags &= ~(PLUGSCHED_TF_OWNER | PLUGSCHED_TF_QUEUED);
	p->plugsched.flags |= ps_owner;
	ps_ops->task_init(p);
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

	curr->plugsched.slice -= delta;
	if (ps_ops->charge)
		ps_ops->charge(&rq->plug, curr, delta);
}

static void enqueue_task_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned int pflags = 0;

	if (unlikely(plugsched_task_owner(p) != ps_owner))
		plugsched_task_init(p);

	if (flags & ENQUEUE_WAKEUP)
		pflags |= PLUGSCHED_ENQ_WAKEUP;
	if (flags & ENQUEUE_INITIAL)
		pflags |= PLUGSCHED_ENQ_NEW;
	if (flags & ENQUEUE_RESTORE)
		pflags |= PLUGSCHED_ENQ_RESTORE;
	if (task_on_rq_migrating(p))
		pflags |= PLUGSCHED_ENQ_MIGRATED;
	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL))
		p->plugsched.runnable_at = jiffies;
	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		WARN_ONCE(p->plugsched.flags & PLUGSCHED_TF_QUEUED,
			  "plugsched: %s/%d queued twice\n", p->comm, p->pid);

	prq->nr_running++;
	prq->nr_idle += plugsched_task_is_idle(p);
	prq->load += plugsched_task_weight(p);
	p->plugsched.flags |= PLUGSCHED_TF_QUEUED;
	ps_ops->enqueue(prq, p, pflags);
	add_nr_running(rq, 1);
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
	p->plugsched.flags &= ~PLUGSCHED_TF_QUEUED;
	prq->nr_running--;
	prq->nr_idle -= plugsched_task_is_idle(p);
	prq->load -= plugsched_task_weight(p);
	sub_nr_running(rq, 1);
	return true;
}

static void yield_task_plug(struct rq *rq)
{
	update_curr_plug(rq);
	ps_ops->yield(&rq->plug, plug_rq_curr(rq));
}

static void wakeup_preempt_plug(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = plug_rq_curr(rq);

	if (curr == p || curr->sched_class != &plug_sched_class)
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

static struct task_struct *pick_task_plug(struct rq *rq)
{
	if (!rq->plug.nr_running)
		return NULL;
	return ps_ops->pick(&rq->plug);
}

static void put_prev_task_plug(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	update_curr_plug(rq);
	p->plugsched.last_ran = rq_clock(rq);
	/* Not after a dequeue for a nice or policy change: on_rq is still set. */
	if (p->plugsched.flags & PLUGSCHED_TF_QUEUED) {
		p->plugsched.runnable_at = jiffies;
		if (ps_ops->put_prev)
			ps_ops->put_prev(&rq->plug, p);
	}
}

static void set_next_task_plug(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	p->plugsched.runnable_at = jiffies;
	if (ps_ops->set_next && (p->plugsched.flags & PLUGSCHED_TF_QUEUED))
		ps_ops->set_next(&rq->plug, p);
}

static void task_tick_plug(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_plug(rq);

	if (p->plugsched.slice <= 0) {
		if (ps_ops->slice_expired(&rq->plug, p))
			resched_curr(rq);
	} else if (ps_ops->tick && ps_ops->tick(&rq->plug, p)) {
		resched_curr(rq);
	}
	if (IS_ENABLED(CONFIG_PLUGSCHED_DEBUG))
		plugsched_check_counts(rq);
}

static void task_fork_plug(struct task_struct *p)
{
	struct rq *rq = this_rq();
	bool parent_plugged;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	plugsched_task_init(p);
	parent_plugged = current->sched_class == &plug_sched_class;
	if (parent_plugged)
		update_curr_plug(rq);
	if (ps_ops->fork)
		ps_ops->fork(parent_plugged ? &rq->plug : NULL, current, p);
	rq_unlock(rq, &rf);
}

static void switched_to_plug(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && !task_current(rq, p))
		wakeup_preempt(rq, p, 0);
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

struct task_struct *plugsched_array_migratable(struct plugsched_rq *src,
					       struct plugsched_prio_array *array,
					       int dst_cpu, bool idle)
{
	unsigned int budget = PLUGSCHED_MIGRATE_SCAN;
	u64 bitmap = array->bitmap;
	struct task_struct *p;

	while (bitmap) {
		unsigned int slot = __ffs64(bitmap);

		bitmap &= bitmap - 1;
		list_for_each_entry_reverse(p, &array->queue[slot], plugsched.run_list) {
			if (plugsched_can_migrate(src, p, dst_cpu, idle))
				return p;
			if (!--budget)
				return NULL;
		}
	}
	return NULL;
}

static void plugsched_move_task(struct rq *src, struct rq *dst,
				struct task_struct *p)
{
	deactivate_task(src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, cpu_of(dst));
	activate_task(dst, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(dst, p, 0);
}

static unsigned long plugsched_rq_load(struct plugsched_rq *prq)
{
	if (ps_ops->balance_by_load)
		return READ_ONCE(prq->load);
	return READ_ONCE(prq->nr_running) * SCHED_CAPACITY_SCALE;
}

/**
 * plugsched_balance - pull tasks from the busiest CPU
 * @this:	the runqueue to pull to; its lock is held, and may be dropped
 *		and taken again
 * @idle:	@this has nothing to run (pull one task, ignore cache-hotness)
 *
 * The busiest active CPU is the one with the most load (task count, or
 * summed weights with &plugsched_ops.balance_by_load). It is pulled from
 * when it exceeds this CPU by &plugsched_ops.imbalance_pct, until half the
 * difference has moved; the policy chooses which tasks.
 *
 * Return: the number of tasks pulled.
 */
int plugsched_balance(struct plugsched_rq *this, bool idle)
{
	unsigned long load, max_load = 0, this_load, imbalance;
	struct rq *this_rq = prq_rq(this), *busiest = NULL;
	int cpu, moved = 0, loops = 0;

	for_each_cpu(cpu, cpu_active_mask) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		if (cpu == this->cpu || READ_ONCE(prq->nr_running) < 2)
			continue;
		load = plugsched_rq_load(prq);
		if (load > max_load) {
			max_load = load;
			busiest = cpu_rq(cpu);
		}
	}
	if (!busiest)
		return 0;

	this_load = plugsched_rq_load(this);
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
	while (busiest->plug.nr_running > 1 && loops++ < PLUGSCHED_MIGRATE_SCAN) {
		struct task_struct *p;
		unsigned long w;

		p = ps_ops->migration_candidate(&busiest->plug, this->cpu, idle);
		if (!p)
			break;
		w = ps_ops->balance_by_load ? plugsched_task_weight(p) :
					       SCHED_CAPACITY_SCALE;
		plugsched_move_task(busiest, this_rq, p);
		moved++;
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

static int plugsched_do_balance(struct plugsched_rq *this, bool idle)
{
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
	plugsched_do_balance(&rq->plug, true);
	rq_repin_lock(rq, rf);

	return rq->plug.nr_running > 0;
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
	unsigned int nr, best_nr = UINT_MAX;
	const struct cpumask *span;
	struct sched_domain *sd;
	int cpu, best = -1;

	if (wake_flags & WF_TTWU) {
		int this_cpu = smp_processor_id();

		if (cpumask_test_cpu(prev_cpu, p->cpus_ptr) &&
		    available_idle_cpu(prev_cpu))
			return prev_cpu;

		/* A synchronous waker is about to sleep: take its CPU. */
		if ((wake_flags & WF_SYNC) && cpumask_test_cpu(this_cpu, p->cpus_ptr) &&
		    cpu_active(this_cpu) && cpu_rq(this_cpu)->nr_running <= 1)
			return this_cpu;

		rcu_read_lock();
		sd = rcu_dereference(per_cpu(sd_llc, prev_cpu));
		span = sd ? sched_domain_span(sd) : cpu_active_mask;
		for_each_cpu_and(cpu, span, p->cpus_ptr) {
			if (cpu_active(cpu) && available_idle_cpu(cpu)) {
				best = cpu;
				break;
			}
		}
		rcu_read_unlock();
		return best >= 0 ? best : prev_cpu;
	}

	for_each_cpu_and(cpu, p->cpus_ptr, cpu_active_mask) {
		nr = READ_ONCE(cpu_rq(cpu)->nr_running);
		if (nr < best_nr || (nr == best_nr && cpu == prev_cpu)) {
			best_nr = nr;
			best = cpu;
		}
	}
	return best >= 0 ? best : prev_cpu;
}

static int select_task_rq_plug(struct task_struct *p, int prev_cpu, int wake_flags)
{
	if (ps_ops->select_cpu)
		return ps_ops->select_cpu(p, prev_cpu, wake_flags);
	return plugsched_select_cpu(p, prev_cpu, wake_flags);
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

	for_each_cpu(cpu, cpu_active_mask) {
		if (cpu != prq->cpu && available_idle_cpu(cpu)) {
			resched_cpu(cpu);
			break;
		}
	}
	/* Back off while kicks pull nothing (e.g. every task is pinned). */
	prq->next_kick = jiffies + backoff;
	WRITE_ONCE(prq->kick_backoff, min_t(unsigned long, backoff * 2, HZ / 4));
}

/* Called from sched_tick() with interrupts off and the rq unlocked. */
void __plugsched_tick_balance(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned long now = jiffies;
	unsigned int ms;
	bool idle;

	if (READ_ONCE(prq->nr_running) >= 2 && time_after_eq(now, prq->next_kick))
		plugsched_kick_idle(prq);

	if (time_before(now, prq->next_balance) || !cpu_active(prq->cpu))
		return;

	idle = !READ_ONCE(prq->nr_running);
	ms = idle ? ps_ops->idle_balance_ms : ps_ops->balance_ms;
	prq->next_balance = now + max(msecs_to_jiffies(ms), 1UL);

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

int plugsched_balance(struct plugsched_rq *this, bool idle)
{
	return 0;
}

int plugsched_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags)
{
	return 0;
}

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
	.set_cpus_allowed	= set_cpus_allowed_common,
#endif
	.task_tick		= task_tick_plug,
	.task_fork		= task_fork_plug,
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
	if (ops->show_task)
		ops->show_task(m, p);
}

/* Knobs: /proc/sys/kernel/<name> for the active policy's tunables. */

static struct ctl_table *plugsched_sysctl_table;
static struct ctl_table_header *plugsched_sysctl_header;

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

	mutex_lock(&plugsched_mutex);
	WRITE_ONCE(*knob->value, val);
	if (ps_ops && ps_ops->knob_changed)
		ps_ops->knob_changed(knob);
	mutex_unlock(&plugsched_mutex);

	*ppos += *lenp;
	return 0;
}

static int plugsched_register_knobs(const struct plugsched_ops *ops)
{
	struct ctl_table *table;
	unsigned int i;

	if (!ops->nr_knobs)
		return 0;

	table = kcalloc(ops->nr_knobs, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < ops->nr_knobs; i++) {
		const struct plugsched_knob *knob = &ops->knobs[i];

		table[i].procname = knob->name;
		table[i].data = knob->value;
		table[i].maxlen = sizeof(int);
		table[i].mode = 0644;
		table[i].proc_handler = plugsched_knob_handler;
		table[i].extra1 = (void *)knob;
	}
	plugsched_sysctl_header = register_sysctl_sz("kernel", table, ops->nr_knobs);
	if (!plugsched_sysctl_header) {
		kfree(table);
		return -ENOMEM;
	}
	plugsched_sysctl_table = table;
	return 0;
}

/* Activation */

static const struct plugsched_ops *plugsched_find(const char *name, u16 *owner)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(plugsched_policies); i++) {
		if (sysfs_streq(name, plugsched_policies[i]->name)) {
			*owner = i + 1;
			return plugsched_policies[i];
		}
	}
	return NULL;
}

static bool plugsched_name_valid(const char *name)
{
	u16 owner;

	return sysfs_streq(name, PLUGSCHED_MAINLINE) || plugsched_find(name, &owner);
}

static int plugsched_activate(const struct plugsched_ops *ops, u16 owner)
{
	unsigned int i;
	int cpu, ret;

	for (i = 0; i < ops->nr_knobs; i++)
		WRITE_ONCE(*ops->knobs[i].value, ops->knobs[i].def);

	ret = ops->init ? ops->init() : 0;
	if (ret)
		return ret;

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		ops->init_rq(prq);
	}

	ps_owner = owner;
	WRITE_ONCE(ps_ops, ops);
	static_branch_enable(&__plugsched_enabled);
	return 0;
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

static void __init plugsched_warn_choices(void)
{
	char list[128];
	unsigned int i;
	int len;

	len = scnprintf(list, sizeof(list), "%s", PLUGSCHED_MAINLINE);
	for (i = 0; i < ARRAY_SIZE(plugsched_policies); i++)
		len += scnprintf(list + len, sizeof(list) - len, " %s",
				 plugsched_policies[i]->name);
	pr_warn("plugsched: choices: %s\n", list);
}

/* Called from sched_init(), before any task but init_task exists. */
void __init plugsched_init(void)
{
	const char *name = CONFIG_PLUGSCHED_DEFAULT_NAME;
	const struct plugsched_ops *ops;
	u16 owner = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		memset(prq, 0, sizeof(*prq));
		prq->cpu = cpu;
		prq->next_balance = jiffies;
		prq->kick_backoff = 1;
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

	ops = plugsched_find(name, &owner);
	/* The class walk relies on fair > plug > idle in the linker order. */
	if (ops && WARN_ON_ONCE(!sched_class_above(&fair_sched_class, &plug_sched_class) ||
				!sched_class_above(&plug_sched_class, &idle_sched_class)))
		ops = NULL;
	if (ops && plugsched_activate(ops, owner)) {
		pr_err("plugsched: %s failed to start, using %s\n", ops->name,
		       PLUGSCHED_MAINLINE);
		ops = NULL;
	}
	pr_info("plugsched: CPU scheduler: %s\n", ops ? ops->name : PLUGSCHED_MAINLINE);
}

/* Reporting: /sys/kernel/plugsched and /proc/scheduler */

static const char *plugsched_active_name(void)
{
	const struct plugsched_ops *ops = READ_ONCE(ps_ops);

	return ops ? ops->name : PLUGSCHED_MAINLINE;
}

static ssize_t active_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", plugsched_active_name());
}

static ssize_t available_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	int len = sysfs_emit(buf, "%s", PLUGSCHED_MAINLINE);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(plugsched_policies); i++)
		len += sysfs_emit_at(buf, len, " %s", plugsched_policies[i]->name);
	return len + sysfs_emit_at(buf, len, "\n");
}

static struct kobj_attribute plugsched_active_attr = __ATTR_RO(active);
static struct kobj_attribute plugsched_available_attr = __ATTR_RO(available);

static struct attribute *plugsched_attrs[] = {
	&plugsched_active_attr.attr,
	&plugsched_available_attr.attr,
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

static int __init plugsched_late_init(void)
{
	struct kobject *kobj;
	int ret = 0;

	kobj = kobject_create_and_add("plugsched", kernel_kobj);
	if (!kobj || sysfs_create_group(kobj, &plugsched_attr_group))
		pr_warn("plugsched: cannot create /sys/kernel/plugsched\n");
	if (!proc_create_single("scheduler", 0444, NULL, plugsched_proc_show))
		pr_warn("plugsched: cannot create /proc/scheduler\n");

	mutex_lock(&plugsched_mutex);
	if (ps_ops)
		ret = plugsched_register_knobs(ps_ops);
	mutex_unlock(&plugsched_mutex);
	if (ret)
		pr_warn("plugsched: cannot register the knobs of %s: %d\n",
			ps_ops->name, ret);
	return 0;
}
late_initcall(plugsched_late_init);
