// SPDX-License-Identifier: GPL-2.0
/*
 * The NUMA-aware policy (sched=numa), after Erich Focht's node-affine
 * scheduler for 2.5 (merged around 2.5.59), on the plugsched core.
 *
 * The per-CPU queues are the O(1) policy's (sched=o1): every queue
 * callback is inherited through &plugsched_ops.base. What this policy adds
 * is where tasks run, through the core's home node mechanism:
 *
 * - every task has a home node: a child inherits its parent's, and exec
 *   moves the task to the least loaded node and makes that its home,
 *   unless its CPU is nearly idle and its node not over node_threshold;
 * - wakeups take an idle CPU of the home node, then one of the waker's;
 * - balancing stays within the node, and only every node_balance_ratio-th
 *   balance of a CPU looks at the other nodes: it pulls from a node whose
 *   decayed load per CPU is over node_threshold percent of its own,
 *   taking tasks that go home first and tasks at home last.
 *
 * With one node this is the O(1) policy.
 */
#include <linux/plugsched.h>
#include <linux/seq_file.h>

/* Knobs: the core sets them to the table's defaults at boot and activation. */
static int numa_balance_ratio;
static int numa_threshold;

static const struct plugsched_knob numa_knobs[] = {
	{
		.name	= "node_balance_ratio",
		.value	= &numa_balance_ratio,
		.min	= 1,
		.max	= 1000,
		.def	= 10,
	},
	{
		.name	= "node_threshold",
		.unit	= "percent",
		.value	= &numa_threshold,
		.min	= 100,
		.max	= 1000,
		.def	= 125,
	},
};

static int numa_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags)
{
	return plugsched_numa_select_cpu(p, prev_cpu, wake_flags, READ_ONCE(numa_threshold));
}

static int numa_balance(struct plugsched_rq *this, bool idle)
{
	return plugsched_numa_balance(this, idle, READ_ONCE(numa_balance_ratio),
				      READ_ONCE(numa_threshold));
}

static void numa_show_task(struct seq_file *m, struct task_struct *p);

/* Completed from the O(1) policy at boot; read-only from then on. */
static struct plugsched_ops plugsched_numa_ops __ro_after_init = {
	.name			= "numa",
	.base_name		= "o1",
	.knobs			= numa_knobs,
	.nr_knobs		= ARRAY_SIZE(numa_knobs),
	.home_nodes		= true,
	/*
	 * Busy CPUs balance twice as often as o1's: with node_balance_ratio
	 * at 10 they look across nodes every second.
	 */
	.balance_ms		= 100,
	.select_cpu		= numa_select_cpu,
	.balance		= numa_balance,
	.show_task		= numa_show_task,
};

PLUGSCHED_POLICY(plugsched_numa_ops);

static void numa_show_task(struct seq_file *m, struct task_struct *p)
{
	seq_printf(m, "%-45s:%21d\n", "numa.home_node", plugsched_task_home(p));
	seq_printf(m, "%-45s:%21d\n", "numa.node", cpu_to_node(task_cpu(p)));
	plugsched_numa_ops.base->show_task(m, p);
}

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_numa_kunit.c"
#endif
