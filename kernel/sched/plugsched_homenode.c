// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: home nodes, a placement mechanism for NUMA machines after
 * Erich Focht's NUMA scheduler for 2.5. It is policy code that policies
 * may reuse, not part of the core: a policy that sets
 * &plugsched_ops.home_nodes gets a home node per task (a new task's is its
 * parent's, a task bound to one node's CPUs is at home there, a task
 * first queued without one is at home where it is), the core's migration
 * scan moves tasks going home first and tasks at home last, and the
 * policy may place and balance with plugsched_numa_select_cpu() and
 * plugsched_numa_balance().
 */
#include <linux/plugsched.h>
#include <linux/slab.h>

#include "plugsched_internal.h"

/*
 * The node all of @p's allowed CPUs lie in, else NUMA_NO_NODE. The mask,
 * not cpus_ptr: migrate_disable() pins cpus_ptr to one CPU for a while.
 */
static int plugsched_mask_node(const struct task_struct *p)
{
	int node = cpu_to_node(cpumask_first(&p->cpus_mask));

	return cpumask_subset(&p->cpus_mask, cpumask_of_node(node)) ? node : NUMA_NO_NODE;
}

/* Bound to one node (a per-CPU kthread), a new task is at home there. */
void __plugsched_home_init(struct task_struct *p)
{
	p->plugsched.home_node = plugsched_mask_node(p);
}

/*
 * A child lives near its parent's (current's) memory; kernel threads, which
 * all come from kthreadd and never exec, are at home where they first run.
 */
void __plugsched_home_fork(struct task_struct *p)
{
	if (!(p->flags & PF_KTHREAD))
		p->plugsched.home_node = plugsched_task_home(current);
}

/* A task first queued without a home is at home on @cpu's node. */
void __plugsched_home_enqueue(struct task_struct *p, int cpu)
{
	if (p->plugsched.home_node == NUMA_NO_NODE)
		p->plugsched.home_node = cpu_to_node(cpu);
}

/* A task bound to one node is at home there. */
void __plugsched_home_from_mask(struct task_struct *p)
{
	int node = plugsched_mask_node(p);

	if (node != NUMA_NO_NODE)
		p->plugsched.home_node = node;
}

/*
 * Per CPU: busy balances since the last one across nodes, and when an idle
 * one looks across next (jiffies).
 */
struct plugsched_node_balance {
	unsigned int	nr_balances;
	unsigned long	next;
};

static DEFINE_PER_CPU(struct plugsched_node_balance, plugsched_node_balance);

/*
 * Active CPUs of @node and their summed load, @p not counted; their plugged
 * tasks in *@nr if @nr is not NULL.
 */
static unsigned int plugsched_node_sum(int node, struct task_struct *p,
				       unsigned long *sum, unsigned int *nr)
{
	unsigned int n = 0;
	int cpu;

	*sum = 0;
	if (nr)
		*nr = 0;
	for_each_cpu_and(cpu, cpumask_of_node(node), cpu_active_mask) {
		*sum += plugsched_rq_load(&cpu_rq(cpu)->plug);
		if (nr)
			*nr += READ_ONCE(cpu_rq(cpu)->plug.nr_running);
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
		n = plugsched_node_sum(node, p, &sum, NULL);
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
 * tasks per CPU of this node or more. An idle CPU whose node has a CPU to
 * spare also pulls from the node with the most tasks per CPU, one of
 * them waiting, judged by task counts (the loads are weighted).
 *
 * Return: the number of tasks pulled.
 */
int plugsched_numa_balance(struct plugsched_rq *this, bool idle,
			   unsigned int ratio, unsigned int threshold)
{
	int node, this_node = cpu_to_node(this->cpu), busiest_node = NUMA_NO_NODE;
	unsigned long sum, load, this_load, max_load = 0;
	struct plugsched_node_balance *nb = per_cpu_ptr(&plugsched_node_balance, this->cpu);
	unsigned int n, this_n, flags = 0, nr, this_nr, wait_n = 0, wait_nr = 0;
	int wait_node = NUMA_NO_NODE;
	bool spare, move_home;
	int moved;

	moved = plugsched_balance_span(this, idle, cpumask_of_node(this_node), 0);
	if (num_online_nodes() < 2)
		return moved;
	/*
	 * An idle CPU balances when kicked, not at every tick (nohz): it
	 * looks across nodes once @ratio idle balance intervals have passed,
	 * as it would have ticking.
	 */
	if (idle ? time_before(jiffies, nb->next) : ++nb->nr_balances < ratio)
		return moved;
	nb->nr_balances = 0;
	nb->next = jiffies + msecs_to_jiffies(ratio * plugsched_cur_ops->idle_balance_ms);

	this_n = plugsched_node_sum(this_node, NULL, &sum, &this_nr);
	this_load = plugsched_node_view(this, this_node, this_n ? sum / this_n : 0);
	for_each_online_node(node) {
		if (node == this_node)
			continue;
		n = plugsched_node_sum(node, NULL, &sum, &nr);
		load = plugsched_node_view(this, node, n ? sum / n : 0);
		if (n && load > max_load) {
			max_load = load;
			busiest_node = node;
		}
		/* The node with the most tasks per CPU, one waiting at least. */
		if (nr > n && (!wait_n || nr * wait_n > wait_nr * n)) {
			wait_node = node;
			wait_n = n;
			wait_nr = nr;
		}
	}
	/*
	 * Loads are weighted: three hogs of a cgroup (341 each) on one node's
	 * two CPUs weigh what one root hog (1024) does on the other's, and a
	 * CPU there idled while a hog waited, or the weighted difference kept
	 * the tasks home. An idle CPU of a node with a CPU to spare also
	 * pulls from the node with the most tasks per CPU, one waiting, and
	 * judges tasks at home by task counts too.
	 */
	spare = idle && wait_node != NUMA_NO_NODE && this_nr < this_n;
	/* Two tasks per CPU of this node more there (nr > n > this_nr here). */
	move_home = spare && wait_nr * this_n - this_nr * wait_n >= 2 * wait_n;
	if (busiest_node != NUMA_NO_NODE &&
	    max_load * 100 > this_load * threshold && max_load > this_load) {
		if ((max_load - this_load) * max(this_n, 1U) < 2 * SCHED_CAPACITY_SCALE &&
		    !(move_home && wait_node == busiest_node))
			flags |= PLUGSCHED_BAL_KEEP_HOME;
	} else if (spare) {
		busiest_node = wait_node;
		if (!move_home)
			flags |= PLUGSCHED_BAL_KEEP_HOME;
	} else {
		return moved;
	}
	return moved + plugsched_balance_span(this, idle, cpumask_of_node(busiest_node), flags);
}

static int __init plugsched_home_late_init(void)
{
	if (nr_node_ids > 1)
		plugsched_node_loads = kcalloc(array_size(nr_cpu_ids, nr_node_ids),
					       sizeof(unsigned long), GFP_KERNEL);
	return 0;
}
late_initcall(plugsched_home_late_init);
