// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: where plugged tasks run. The class's CPU choice for waking,
 * new and exec'ing tasks, the periodic and idle balancing between CPUs,
 * and the kicks that have idle CPUs pull from overloaded ones. A policy
 * decides which task moves (&plugsched_ops.migration_candidate) and may
 * replace the CPU choice and the balancing (&plugsched_ops.select_cpu,
 * &plugsched_ops.balance) with its own, built on the helpers here.
 */
#include <linux/delay.h>
#include <linux/plugsched.h>
#include <linux/sched/clock.h>
#include <linux/sched/isolation.h>

#include "plugsched_internal.h"
#include "pelt.h"

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
	/* As fair's throttled_lb_pair(): it would only be parked there. */
	if (plugsched_bw_throttled_on(p, dst_cpu))
		return false;
	/*
	 * Leave cache-hot tasks alone unless the puller is idle; as fair's
	 * task_hot(), exec_start is when @p last stopped running.
	 */
	if (!idle && (s64)(rq_clock_task(rq) - p->se.exec_start) <
		     (s64)sysctl_sched_migration_cost)
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
	bool by_home = plugsched_cur_ops->home_nodes && src_node != dst_node;
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

unsigned long plugsched_rq_load(struct plugsched_rq *prq)
{
	if (plugsched_cur_ops->balance_by_load)
		return READ_ONCE(prq->load);
	return READ_ONCE(prq->units);
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

/*
 * The busiest CPU of @span with a plugged task waiting, @skip[] left out;
 * its load and capacity in @load and @cap.
 */
static struct rq *plugsched_find_busiest(struct plugsched_rq *this,
					 const struct cpumask *span, const int *skip,
					 int nr_skip, unsigned long *load, unsigned long *cap)
{
	struct rq *busiest = NULL;
	unsigned long visited = 0;
	int cpu, i;

	*load = 0;
	for_each_cpu(cpu, span) {
		struct rq *rq = cpu_rq(cpu);
		unsigned long c, l;

		visited++;
		if (cpu == this->cpu || !plugsched_balance_cpu(cpu) ||
		    !plugsched_nr_waiting(&rq->plug))
			continue;
		for (i = 0; i < nr_skip && skip[i] != cpu; i++)
			;
		if (i < nr_skip)
			continue;
		c = plugsched_capacity(rq);
		l = plugsched_scaled(rq, plugsched_rq_load(&rq->plug), c);
		if (l > *load) {
			*load = l;
			*cap = c;
			busiest = rq;
		}
	}
	plugsched_bal_count(PLUGSCHED_BAL_VISITED, visited);
	return busiest;
}

/*
 * How many busiest CPUs in a row may offer nothing to take (every waiting
 * task pinned elsewhere) before a balance gives up: then the next busiest
 * is tried, as mainline's load_balance() redoes without an all-pinned CPU.
 */
#define PLUGSCHED_BALANCE_REDO	2

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
 * policy chooses which tasks. A busiest CPU whose policy offers no task
 * for this CPU (all pinned, or cache-hot) is left out and the next one
 * tried, PLUGSCHED_BALANCE_REDO times: a CPU of pinned per-CPU threads
 * must not hide a movable task behind it from an idle CPU. Isolated CPUs
 * (isolcpus=domain) neither pull nor are pulled from.
 *
 * Return: the number of tasks pulled.
 */
int plugsched_balance_span(struct plugsched_rq *this, bool idle,
			   const struct cpumask *span, unsigned int flags)
{
	unsigned long max_load, this_load, this_cap, busiest_cap = 1, imbalance;
	struct rq *this_rq = prq_rq(this), *busiest;
	int skip[PLUGSCHED_BALANCE_REDO], nr_skip = 0, moved, loops;
	bool offered;

	if (!plugsched_balance_cpu(this->cpu))
		return 0;
redo:
	moved = 0;
	loops = 0;
	offered = false;
	busiest = plugsched_find_busiest(this, span, skip, nr_skip, &max_load, &busiest_cap);
	if (!busiest)
		return 0;

	/* Idle, it has all its room now, whatever RT work it had before. */
	this_cap = idle ? arch_scale_cpu_capacity(this->cpu) : plugsched_capacity(this_rq);
	this_load = plugsched_scaled(this_rq, plugsched_rq_load(this), this_cap);
	if (max_load <= this_load)
		return 0;
	if (!idle && max_load * 100 < this_load * plugsched_cur_ops->imbalance_pct)
		return 0;
	imbalance = (max_load - this_load) / 2;
	if (!imbalance && !idle)
		return 0;

	/* Taking both locks forgets both clock updates: redo them. */
	plugsched_bal_count(PLUGSCHED_BAL_LOCKED, 1);
	double_lock_balance(this_rq, busiest);
	update_rq_clock(this_rq);
	update_rq_clock(busiest);
	/* A runqueue in bypass holds nothing the policy may look at. */
	if (plugsched_rq_bypass(&busiest->plug) || plugsched_rq_bypass(this)) {
		loops = PLUGSCHED_MIGRATE_SCAN;
		offered = true;
	}
	while (plugsched_nr_waiting(&busiest->plug) && loops++ < PLUGSCHED_MIGRATE_SCAN) {
		struct task_struct *p;
		unsigned long w;

		p = plugsched_cur_ops->migration_candidate(&busiest->plug, this->cpu, idle);
		if (!p)
			break;
		offered = true;
		/* Candidates come home-bound first, at home last. */
		if ((flags & PLUGSCHED_BAL_KEEP_HOME) &&
		    plugsched_task_home(p) == cpu_to_node(cpu_of(busiest)))
			break;
		w = plugsched_cur_ops->balance_by_load ? p->plugsched.load :
							 plugsched_task_units(p);
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
		    plugsched_cur_ops->imbalance_pct)
			break;
		plugsched_move_task(busiest, this_rq, p);
		moved++;
		/* Until half the difference has moved, in busiest's terms. */
		w = plugsched_scaled(busiest, w, busiest_cap);
		if (idle || w >= imbalance)
			break;
		imbalance -= w;
	}
	if (moved)
		WRITE_ONCE(busiest->plug.kick_backoff, 1);
	double_unlock_balance(this_rq, busiest);
	plugsched_bal_count(moved ? PLUGSCHED_BAL_PULLED : PLUGSCHED_BAL_FAILED, moved ? : 1);
	if (!offered && nr_skip < PLUGSCHED_BALANCE_REDO) {
		plugsched_bal_count(PLUGSCHED_BAL_PINNED, 1);
		skip[nr_skip++] = cpu_of(busiest);
		goto redo;
	}
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

	if (plugsched_breaks(PLUGSCHED_BREAK_BALANCE) || plugsched_rq_bypass(this))
		return 0;
	/* This CPU's RT, deadline and plugged load decays while it does not tick. */
	update_rq_clock(rq);
	update_other_load_avgs(rq);
	if (plugsched_update_util(rq))
		cpufreq_update_util(rq, 0);
	if (plugsched_cur_ops->balance)
		return plugsched_cur_ops->balance(this, idle);
	return plugsched_balance(this, idle);
}

/*
 * The class's balance hook, before a pick: a CPU with no plugged task
 * queued pulls some. Return: true if it has plugged tasks now.
 */
int plugsched_balance_newidle(struct rq *rq, struct rq_flags *rf)
{
	u64 t0;

	if (rq->plug.nr_running)
		return 1;
	if (!cpu_active(cpu_of(rq)))
		return 0;

	rq_unpin_lock(rq, rf);
	plugsched_bal_count(PLUGSCHED_BAL_NEWIDLE, 1);
	t0 = local_clock();
	plugsched_do_balance(&rq->plug, !rq->nr_running);
	plugsched_bal_irqoff(local_clock() - t0);
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
int plugsched_idle_cpu(struct task_struct *p, const struct cpumask *mask)
{
	unsigned long visited = 0;
	int cpu, found = -1;

	for_each_cpu_and(cpu, mask, p->cpus_ptr) {
		visited++;
		if (plugsched_balance_cpu(cpu) && available_idle_cpu(cpu)) {
			found = cpu;
			break;
		}
	}
	plugsched_bal_count(PLUGSCHED_BAL_WAKE_SCANNED, visited);
	return found;
}

/* The active CPU of @mask that @p may use with the fewest tasks, or -1. */
int plugsched_least_loaded_cpu(struct task_struct *p, const struct cpumask *mask,
			       int prefer)
{
	unsigned int nr, best_nr = UINT_MAX;
	unsigned long visited = 0;
	int cpu, best = -1;

	for_each_cpu_and(cpu, mask, p->cpus_ptr) {
		visited++;
		if (!plugsched_balance_cpu(cpu))
			continue;
		nr = READ_ONCE(cpu_rq(cpu)->nr_running);
		if (nr < best_nr || (nr == best_nr && cpu == prefer)) {
			best_nr = nr;
			best = cpu;
		}
	}
	plugsched_bal_count(PLUGSCHED_BAL_FORK_SCANNED, visited);
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

int select_task_rq_plug(struct task_struct *p, int prev_cpu, int wake_flags)
{
	/* Where it was: select_task_rq() moves it if it may not stay. */
	if (unlikely(READ_ONCE(plugsched_bypassing)))
		return prev_cpu;
	if (plugsched_cur_ops->select_cpu)
		return plugsched_cur_ops->select_cpu(p, prev_cpu, wake_flags);
	return plugsched_select_cpu(p, prev_cpu, wake_flags);
}

/* Wake an idle CPU so that it pulls from this overloaded one. */
static void plugsched_kick_idle(struct plugsched_rq *prq)
{
	unsigned long backoff = READ_ONCE(prq->kick_backoff);
	int cpu;

	for_each_cpu_and(cpu, cpu_active_mask, housekeeping_cpumask(HK_TYPE_DOMAIN)) {
		if (cpu != prq->cpu && available_idle_cpu(cpu)) {
			plugsched_bal_count(PLUGSCHED_BAL_KICK, 1);
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
	unsigned long nudged = 0;
	int cpu;

	for_each_cpu_and(cpu, cpu_active_mask, housekeeping_cpumask(HK_TYPE_DOMAIN)) {
		if (cpu != prq->cpu) {
			WRITE_ONCE(cpu_rq(cpu)->plug.next_balance, jiffies);
			nudged++;
		}
	}
	plugsched_bal_count(PLUGSCHED_BAL_NUDGED, nudged);
}

/* Called from sched_tick() with interrupts off and the rq unlocked. */
void __plugsched_tick_balance(struct rq *rq)
{
	struct plugsched_rq *prq = &rq->plug;
	unsigned long now = jiffies;
	unsigned int ms;
	bool idle;
	u64 t0;

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

	if (time_before(now, READ_ONCE(prq->next_balance)) || !plugsched_balance_cpu(prq->cpu) ||
	    READ_ONCE(plugsched_bypassing))
		return;

	/* A CPU running RT or deadline work is busy, not idle. */
	idle = !READ_ONCE(rq->nr_running);
	ms = idle ? plugsched_cur_ops->idle_balance_ms : plugsched_cur_ops->balance_ms;
	WRITE_ONCE(prq->next_balance, now + max(msecs_to_jiffies(ms), 1UL));

	t0 = local_clock();
	raw_spin_rq_lock(rq);
	plugsched_bal_count(PLUGSCHED_BAL_TICK, 1);
	plugsched_do_balance(prq, idle);
	raw_spin_rq_unlock(rq);
	plugsched_bal_irqoff(local_clock() - t0);
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

#endif /* CONFIG_SMP */
