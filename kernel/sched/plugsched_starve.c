// SPDX-License-Identifier: GPL-2.0
/*
 * A broken policy on purpose (sched=starve), for testing the plugsched
 * watchdog only: plain round robin that never picks the task whose PID
 * is written to /proc/sys/kernel/starve_pid. That task stays runnable and
 * waits until the watchdog hands every task back to the mainline class.
 *
 * Built only with CONFIG_PLUGSCHED_STARVE; never use it for real.
 */
#include <linux/percpu.h>
#include <linux/plugsched.h>
#include <linux/seq_file.h>
#include <linux/threads.h>

#define STARVE_SLICE_NS		(10 * NSEC_PER_MSEC)

static int starve_pid;

static const struct plugsched_knob starve_knobs[] = {
	{
		.name	= "starve_pid",
		.unit	= "PID",
		.value	= &starve_pid,
		.min	= 0,
		.max	= PID_MAX_LIMIT,
		.def	= 0,
	},
};

static DEFINE_PER_CPU(struct plugsched_prio_array, starve_arrays);

static inline struct plugsched_prio_array *starve_array(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&starve_arrays, prq->cpu);
}

static inline bool starve_victim(const struct task_struct *p)
{
	int pid = READ_ONCE(starve_pid);

	return pid && p->pid == pid;
}

static void starve_init_rq(struct plugsched_rq *prq)
{
	plugsched_array_init(starve_array(prq));
}

static void starve_task_init(struct task_struct *p)
{
	p->plugsched.slice = STARVE_SLICE_NS;
}

static void starve_enqueue(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags)
{
	unsigned int slot = plugsched_task_is_idle(p) ? PLUGSCHED_IDLE_SLOT : 0;

	plugsched_array_add(starve_array(prq), p, slot, false);
}

static void starve_dequeue(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags)
{
	plugsched_array_del(p);
}

/* The head of a slot, or the one behind it: there is one victim at most. */
static struct task_struct *starve_pick(struct plugsched_rq *prq)
{
	struct plugsched_prio_array *array = starve_array(prq);
	u64 bitmap = array->bitmap;
	struct task_struct *p;

	while (bitmap) {
		unsigned int slot = __ffs64(bitmap), seen = 0;

		bitmap &= bitmap - 1;
		list_for_each_entry(p, &array->queue[slot], plugsched.run_list) {
			if (!starve_victim(p))
				return p;
			if (++seen > 1)
				break;
		}
	}
	/* The bug under test: a runnable task, and nothing picked. */
	return NULL;
}

static bool starve_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	p->plugsched.slice = STARVE_SLICE_NS;
	plugsched_array_requeue(p);
	return true;
}

static bool starve_tick(struct plugsched_rq *prq, struct task_struct *p)
{
	return starve_victim(p);
}

static bool starve_preempt(struct plugsched_rq *prq, struct task_struct *curr,
			   struct task_struct *p)
{
	return starve_victim(curr);
}

static void starve_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	plugsched_array_requeue(p);
}

static struct task_struct *starve_migration_candidate(struct plugsched_rq *src,
						      int dst_cpu, bool idle)
{
	return plugsched_array_migratable(src, starve_array(src), dst_cpu, idle);
}

static unsigned int starve_count(struct plugsched_rq *prq)
{
	return plugsched_array_count(starve_array(prq));
}

static void starve_show_task(struct seq_file *m, struct task_struct *p)
{
	seq_printf(m, "%-45s:%21d\n", "starve.victim", starve_victim(p));
}

static struct plugsched_ops plugsched_starve_ops __ro_after_init = {
	.name			= "starve",
	.knobs			= starve_knobs,
	.nr_knobs		= ARRAY_SIZE(starve_knobs),
	.balance_ms		= 100,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.init_rq		= starve_init_rq,
	.task_init		= starve_task_init,
	.enqueue		= starve_enqueue,
	.dequeue		= starve_dequeue,
	.pick			= starve_pick,
	.slice_expired		= starve_slice_expired,
	.tick			= starve_tick,
	.preempt		= starve_preempt,
	.yield			= starve_yield,
	.migration_candidate	= starve_migration_candidate,
	.show_task		= starve_show_task,
	.count			= starve_count,
};

PLUGSCHED_POLICY(plugsched_starve_ops);
