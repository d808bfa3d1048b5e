/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task state of the pluggable scheduler policies, embedded in
 * task_struct. Kept apart from <linux/plugsched.h> so that task_struct
 * does not pull in the policy API.
 */
#ifndef _LINUX_PLUGSCHED_TYPES_H
#define _LINUX_PLUGSCHED_TYPES_H

#include <linux/types.h>

/* Room for a policy's own per-task fields, in u64 words. */
#define PLUGSCHED_TASK_PRIV_WORDS	5

/**
 * struct plugsched_task - per-task state shared by all plugsched policies
 * @run_list:	link in a &struct plugsched_prio_array queue
 * @runnable_node: link in the CPU's list of queued tasks, kept in the
 *		order they last became runnable or stopped running (the
 *		watchdog looks at its head; a switch drains it)
 * @tasks_node: link in a per-CPU list of every task, from fork until
 *		its last schedule (a switch walks these lists: the task
 *		list misses a task that exits, from its unhash on)
 * @array:	the priority array @run_list is queued on, NULL if none
 * @slice:	time slice left, in ns; the core charges run time against it
 * @runnable_at: jiffies (low 32 bits) when the task last became runnable
 *		or ran; waits are told apart modulo 2^32 jiffies
 * @slot:	queue index within @array
 * @flags:	PLUGSCHED_TF_* flags, owned by the core
 * @nr_node_migrations: migrations that changed the task's NUMA node
 * @home_node:	the node the task belongs to under a policy with home
 *		nodes (&plugsched_ops.home_nodes), NUMA_NO_NODE for none yet
 * @tasks_cpu:	the CPU whose list @tasks_node is on
 * @load:	the task's effective weight while queued: its nice weight,
 *		scaled by its task groups' shares (cpu.weight, autogroup);
 *		the core adds exactly this to its CPU's load sums
 * @priv:	policy-private state, see plugsched_task_priv()
 *
 * The whole structure is 128 bytes; a policy whose per-task state does
 * not fit in @priv fails to build (BUILD_BUG_ON in plugsched_task_priv()).
 */
struct plugsched_task {
	struct list_head	run_list;
	struct list_head	runnable_node;
	struct list_head	tasks_node;
	void			*array;
	s64			slice;
	u32			runnable_at;
	u16			slot;
	u16			flags;
	u32			nr_node_migrations;
	s16			home_node;
	u16			tasks_cpu;
	u32			load;
	u64			priv[PLUGSCHED_TASK_PRIV_WORDS];
};

#endif /* _LINUX_PLUGSCHED_TYPES_H */
