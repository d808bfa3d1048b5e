// SPDX-License-Identifier: GPL-2.0
/*
 * The CFS-style policy (sched=cfs), after Ingo Molnar's Completely Fair
 * Scheduler of 2007 (CFS v1..v20, Linux 2.6.23/2.6.24), on the plugsched
 * core.
 *
 * Each runnable task keeps a virtual runtime: the CPU time it used, scaled
 * by NICE_0_LOAD / weight, so that a heavier (lower nice) task's clock runs
 * slower. Per CPU the waiting tasks sit in a red-black tree ordered by
 * virtual runtime and the leftmost, the one that got the least, runs next.
 * The running task is kept off the tree while its key changes and goes back
 * when it stops. The runqueue's min_vruntime only moves forward; new, waking
 * and migrating tasks are placed relative to it, so that no task banks
 * credit while it sleeps or brings a foreign clock from another CPU.
 *
 * Preemption: at the tick once the running task leads the leftmost waiter by
 * more than sched_granularity_ns of virtual runtime, or once it has run its
 * share of the scheduling period since it was picked (sched_latency_ns, as
 * 2.6.23's ideal runtime: of n hogs each waits n - 1 shares of one period,
 * not 2 (n - 1) granularities); on wakeup when the woken task is more than
 * sched_wakeup_granularity_ns behind the running one.
 */
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/plugsched.h>
#include <linux/rbtree.h>
#include <linux/seq_file.h>

/* Knobs, in ns: the core sets them to the table's defaults at boot and activation. */
static int sysctl_pcfs_granularity;
static int sysctl_pcfs_wakeup_granularity;
static int sysctl_pcfs_latency;
static int sysctl_pcfs_child_runs_first;

static const struct plugsched_knob pcfs_knobs[] = {
	{
		.name	= "sched_granularity_ns",
		.unit	= "ns",
		.value	= &sysctl_pcfs_granularity,
		.min	= 100000,
		.max	= 1000000000,
		.def	= 6000000,
	},
	{
		.name	= "sched_wakeup_granularity_ns",
		.unit	= "ns",
		.value	= &sysctl_pcfs_wakeup_granularity,
		.min	= 0,
		.max	= 1000000000,
		.def	= 1000000,
	},
	{
		.name	= "sched_latency_ns",
		.unit	= "ns",
		.value	= &sysctl_pcfs_latency,
		.min	= 100000,
		.max	= 1000000000,
		.def	= 20000000,
	},
	{
		.name	= "sched_child_runs_first",
		.unit	= "bool",
		.value	= &sysctl_pcfs_child_runs_first,
		.min	= 0,
		.max	= 1,
		.def	= 0,
	},
};

/* The largest distance from min_vruntime a reweight makes (2^62 ns). */
#define PCFS_KEY_MAX		BIT_ULL(62)

/* vcpu of a task whose vruntime is an offset from any min_vruntime. */
#define PCFS_VCPU_OFFSET	(-1)

struct pcfs_task {
	struct rb_node	node;		/* in the timeline; cleared when not */
	u64		vruntime;
	int		vcpu;		/* CPU whose min_vruntime @vruntime is on */
	u32		weight;		/* weight @vruntime's distance was run at */
};

struct pcfs_rq {
	struct rb_root_cached	timeline;	/* waiting tasks by vruntime */
	struct task_struct	*curr;		/* running task, off the tree */
	u64			min_vruntime;	/* monotonic */
};

static DEFINE_PER_CPU(struct pcfs_rq, pcfs_rqs);

static inline struct pcfs_task *pcfs_task(struct task_struct *p)
{
	return plugsched_task_priv(p, struct pcfs_task);
}

static inline struct task_struct *pcfs_task_of(struct pcfs_task *pt)
{
	return plugsched_priv_task(pt);
}

static inline struct pcfs_rq *pcfs_rq(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&pcfs_rqs, prq->cpu);
}

static inline s64 pcfs_key_diff(u64 a, u64 b)
{
	return (s64)(a - b);
}

static inline struct pcfs_task *pcfs_node_task(const struct rb_node *node)
{
	return rb_entry(node, struct pcfs_task, node);
}

static bool pcfs_less(struct rb_node *a, const struct rb_node *b)
{
	return pcfs_key_diff(pcfs_node_task(a)->vruntime,
			     pcfs_node_task(b)->vruntime) < 0;
}

/* O(log n); equal keys go right of each other, i.e. FIFO. */
static void pcfs_tree_insert(struct pcfs_rq *crq, struct pcfs_task *pt)
{
	rb_add_cached(&pt->node, &crq->timeline, pcfs_less);
}

static void pcfs_tree_erase(struct pcfs_rq *crq, struct pcfs_task *pt)
{
	rb_erase_cached(&pt->node, &crq->timeline);
	RB_CLEAR_NODE(&pt->node);
}

/* O(1): the tree caches its leftmost node. */
static inline struct pcfs_task *pcfs_first(struct pcfs_rq *crq)
{
	struct rb_node *left = rb_first_cached(&crq->timeline);

	return left ? pcfs_node_task(left) : NULL;
}

static inline bool pcfs_on_tree(const struct pcfs_task *pt)
{
	return !RB_EMPTY_NODE(&pt->node);
}

/* min_vruntime follows the smaller of the running and the leftmost task. */
static void pcfs_update_min(struct pcfs_rq *crq)
{
	struct pcfs_task *left = pcfs_first(crq);
	u64 v;

	if (crq->curr) {
		v = pcfs_task(crq->curr)->vruntime;
		if (left && pcfs_key_diff(left->vruntime, v) < 0)
			v = left->vruntime;
	} else if (left) {
		v = left->vruntime;
	} else {
		return;
	}
	if (pcfs_key_diff(v, crq->min_vruntime) > 0)
		WRITE_ONCE(crq->min_vruntime, v);
}

/*
 * A waking task gets at most half a latency period of credit: what it
 * saved while sleeping is capped, so sleeping never banks more.
 */
static u64 pcfs_place_sleeper(u64 vruntime, u64 min_vruntime, u64 latency)
{
	u64 floor = min_vruntime - latency / 2;

	return pcfs_key_diff(vruntime, floor) < 0 ? floor : vruntime;
}

/*
 * Balancing moves a waiting task from a busier CPU, where everyone got less
 * CPU per real second, to a less busy one: it goes ahead of the tasks
 * there, far enough to preempt, so that the roles rotate and no task keeps
 * the better CPU for long.
 */
static u64 pcfs_place_migrated(u64 vruntime, u64 min_vruntime, u64 wakeup_gran)
{
	u64 front = min_vruntime - wakeup_gran - 1;

	return pcfs_key_diff(vruntime, front) > 0 ? front : vruntime;
}

/*
 * Where an enqueued task goes, its vruntime already on this CPU's clock
 * (pcfs_renormalise()). Held off by cpu.max, it waited as a sleeper does
 * (fair: a wakeup). Only the balancer's pulls go to the front: a task
 * moved by its affinity or by hotplug keeps what it owes (a place after
 * min_vruntime) but no credit, or any task could jump the queue by moving
 * itself. Credit measured against the old CPU's min_vruntime is no lag
 * anyway: the running task is often the one furthest behind, and when it
 * leaves, min_vruntime jumps to the next one, up to a granularity ahead;
 * carried over, that jump let a task moving itself every 0.1 ms preempt
 * on arrival each time and take 0.83 of a CPU beside a hog on each.
 */
static u64 pcfs_place(unsigned int flags, u64 vruntime, u64 min_vruntime)
{
	if (flags & (PLUGSCHED_ENQ_WAKEUP | PLUGSCHED_ENQ_UNTHROTTLE))
		return pcfs_place_sleeper(vruntime, min_vruntime, READ_ONCE(sysctl_pcfs_latency));
	if (flags & PLUGSCHED_ENQ_PULLED)
		return pcfs_place_migrated(vruntime, min_vruntime,
					   READ_ONCE(sysctl_pcfs_wakeup_granularity));
	if ((flags & PLUGSCHED_ENQ_MIGRATED) && pcfs_key_diff(vruntime, min_vruntime) < 0)
		return min_vruntime;
	return vruntime;
}

/*
 * A task's weight changed (its group's shares, cpu.idle, or how many tasks
 * share them): its distance from min_vruntime, lead or credit, was run at
 * the old weight. Scale it by old / new, as mainline's reweight_entity()
 * scales lag, so that it stands for the same CPU time: a hog of a cpu.idle
 * group that ran one tick at weight 3 leads by a third of a second; back at
 * weight 1024 that is a millisecond, not a third of a second of waiting.
 */
static u64 pcfs_rescale(u64 vruntime, u64 min_vruntime, u32 old_w, u32 new_w)
{
	s64 key = pcfs_key_diff(vruntime, min_vruntime);
	u64 d = key < 0 ? -(u64)key : key;

	if (!old_w || !new_w || old_w == new_w)
		return vruntime;
	/*
	 * At most PCFS_KEY_MAX either way, so that the key keeps its sign:
	 * a task asleep for months while its CPU's min_vruntime ran on, whose
	 * weight fell 10^5-fold meanwhile, must not wrap to the far front.
	 */
	if (old_w > new_w && d > div_u64(PCFS_KEY_MAX, old_w / new_w + 1))
		d = PCFS_KEY_MAX;
	else
		d = min(mul_u64_u32_div(d, old_w, new_w), PCFS_KEY_MAX);
	return key < 0 ? min_vruntime - d : min_vruntime + d;
}

static void pcfs_reweight(struct pcfs_rq *crq, struct task_struct *p)
{
	struct pcfs_task *pt = pcfs_task(p);
	u32 w = plugsched_task_weight(p);

	if (likely(pt->weight == w))
		return;
	pt->vruntime = pcfs_rescale(pt->vruntime, crq->min_vruntime, pt->weight, w);
	pt->weight = w;
}

/*
 * The scheduling period: one latency, stretched so that each of @nr tasks
 * runs at least one granularity.
 */
static u64 pcfs_period(unsigned int nr, u64 latency, u64 gran)
{
	return max(latency, (u64)nr * gran);
}

/*
 * A new task's share of the period in virtual time, period * NICE_0 /
 * (load + its weight), that it waits before its first run (start debit).
 * Only fork divides.
 */
static u64 pcfs_vslice(unsigned int nr, unsigned long load, unsigned long weight,
		       u64 latency, u64 gran)
{
	u64 period = pcfs_period(nr + 1, latency, gran);

	return div64_u64(period * SCHED_CAPACITY_SCALE, load + max(weight, 1UL));
}

/*
 * The run time a task of @weight gets once picked among @nr queued tasks of
 * summed @load (itself included): its share of the period, 2.6.23's ideal
 * runtime. The granularity lead may preempt it earlier, never later.
 */
static u64 pcfs_ideal_slice(unsigned int nr, unsigned long load, unsigned long weight,
			    u64 latency, u64 gran)
{
	weight = max(weight, 1UL);
	return mul_u64_u64_div_u64(pcfs_period(nr, latency, gran), weight, max(load, weight));
}

static void pcfs_refill(struct plugsched_rq *prq, struct task_struct *p)
{
	p->plugsched.slice = pcfs_ideal_slice(prq->nr_running, prq->load, p->plugsched.load,
					      READ_ONCE(sysctl_pcfs_latency),
					      READ_ONCE(sysctl_pcfs_granularity));
}

/* Bring @pt's vruntime onto the clock of the runqueue of @prq. */
static void pcfs_renormalise(struct plugsched_rq *prq, struct pcfs_rq *crq,
			     struct pcfs_task *pt)
{
	if (pt->vcpu == prq->cpu)
		return;
	if (pt->vcpu == PCFS_VCPU_OFFSET) {
		pt->vruntime += crq->min_vruntime;
	} else {
		/* The other CPU's lock is not held: its min may move on, fine. */
		u64 old_min = READ_ONCE(per_cpu_ptr(&pcfs_rqs, pt->vcpu)->min_vruntime);

		pt->vruntime = pt->vruntime - old_min + crq->min_vruntime;
	}
	pt->vcpu = prq->cpu;
}

static void pcfs_init_rq(struct plugsched_rq *prq)
{
	struct pcfs_rq *crq = pcfs_rq(prq);

	crq->timeline = RB_ROOT_CACHED;
	crq->curr = NULL;
	crq->min_vruntime = 0;
}

/* New to the policy: start level with whatever runs where it is queued. */
static void pcfs_task_init(struct task_struct *p)
{
	struct pcfs_task *pt = pcfs_task(p);

	RB_CLEAR_NODE(&pt->node);
	pt->vruntime = 0;
	pt->vcpu = PCFS_VCPU_OFFSET;
	pt->weight = 0;
	p->plugsched.slice = READ_ONCE(sysctl_pcfs_granularity);
}

/*
 * A child starts one share of the period after min_vruntime, so that a
 * fork loop cannot take over the CPU; with sched_child_runs_first it
 * swaps places with the parent when that lets it run first. Its vruntime
 * is on the parent CPU's clock until it is queued (maybe elsewhere).
 */
static void pcfs_fork(struct plugsched_rq *parent_prq, struct task_struct *parent,
		      struct task_struct *p)
{
	u64 gran = READ_ONCE(sysctl_pcfs_granularity);
	struct pcfs_task *ct = pcfs_task(p);
	struct pcfs_task *pt;
	struct pcfs_rq *crq;
	u64 debit;

	if (!parent_prq)
		return;
	crq = pcfs_rq(parent_prq);
	pt = pcfs_task(parent);
	pcfs_update_min(crq);
	debit = pcfs_vslice(parent_prq->nr_running, parent_prq->load,
			    plugsched_task_weight(p), READ_ONCE(sysctl_pcfs_latency), gran);
	ct->vruntime = crq->min_vruntime + debit;
	ct->vcpu = parent_prq->cpu;

	if (READ_ONCE(sysctl_pcfs_child_runs_first) && crq->curr == parent &&
	    pcfs_key_diff(pt->vruntime, ct->vruntime) < 0) {
		swap(pt->vruntime, ct->vruntime);
		plugsched_resched(parent_prq);
	}
}

static void pcfs_enqueue(struct plugsched_rq *prq, struct task_struct *p,
			 unsigned int flags)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *pt = pcfs_task(p);

	pcfs_renormalise(prq, crq, pt);
	pcfs_reweight(crq, p);
	pt->vruntime = pcfs_place(flags, pt->vruntime, crq->min_vruntime);
	pcfs_tree_insert(crq, pt);
	pcfs_update_min(crq);
}

static void pcfs_dequeue(struct plugsched_rq *prq, struct task_struct *p,
			 unsigned int flags)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *pt = pcfs_task(p);

	if (crq->curr == p)
		crq->curr = NULL;
	else
		pcfs_tree_erase(crq, pt);
	pcfs_update_min(crq);
}

/*
 * The leftmost waiter, or the running task while no waiter is further
 * behind. A SCHED_IDLE task gives way to any other at once.
 */
static struct task_struct *pcfs_pick(struct plugsched_rq *prq)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *left = pcfs_first(crq);
	struct task_struct *curr = crq->curr;

	if (!left)
		return curr;
	if (curr && pcfs_key_diff(left->vruntime, pcfs_task(curr)->vruntime) >= 0 &&
	    !(plugsched_task_is_idle(curr) && !plugsched_task_is_idle(pcfs_task_of(left))))
		return curr;
	return pcfs_task_of(left);
}

static void pcfs_set_next(struct plugsched_rq *prq, struct task_struct *p)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *pt = pcfs_task(p);

	if (pcfs_on_tree(pt))
		pcfs_tree_erase(crq, pt);
	crq->curr = p;
	pcfs_refill(prq, p);
}

static void pcfs_put_prev(struct plugsched_rq *prq, struct task_struct *p)
{
	struct pcfs_rq *crq = pcfs_rq(prq);

	if (crq->curr != p)
		return;
	crq->curr = NULL;
	pcfs_tree_insert(crq, pcfs_task(p));
}

/* vruntime += delta * NICE_0_LOAD / weight, by inverse weight. */
static void pcfs_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *pt = pcfs_task(p);

	/* Only a task off the tree may change its key. */
	if (pcfs_on_tree(pt))
		return;
	pcfs_reweight(crq, p);
	pt->vruntime += plugsched_scale_delta(p, delta);
	if (crq->curr == p)
		pcfs_update_min(crq);
}

/* The running task leads the leftmost waiter by more than a granularity. */
static bool pcfs_tick_preempt(struct pcfs_rq *crq, struct task_struct *p)
{
	struct pcfs_task *left = pcfs_first(crq);

	return left && pcfs_key_diff(pcfs_task(p)->vruntime, left->vruntime) >
		       READ_ONCE(sysctl_pcfs_granularity);
}

static bool pcfs_tick(struct plugsched_rq *prq, struct task_struct *p)
{
	return pcfs_tick_preempt(pcfs_rq(prq), p);
}

/* Its share of the period ran out: the leftmost waiter, if any, runs. */
static bool pcfs_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	pcfs_refill(prq, p);
	return !!pcfs_first(pcfs_rq(prq));
}

static bool pcfs_preempt(struct plugsched_rq *prq, struct task_struct *curr,
			 struct task_struct *p)
{
	return pcfs_key_diff(pcfs_task(curr)->vruntime, pcfs_task(p)->vruntime) >
	       READ_ONCE(sysctl_pcfs_wakeup_granularity);
}

/* sched_yield(): go behind the rightmost waiter (O(log n) to find it). */
static void pcfs_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	struct pcfs_task *pt = pcfs_task(p);
	struct rb_node *last = rb_last(&crq->timeline.rb_root);
	struct pcfs_task *right;

	if (!last || pcfs_on_tree(pt))
		return;
	right = pcfs_node_task(last);
	if (pcfs_key_diff(right->vruntime, pt->vruntime) >= 0)
		pt->vruntime = right->vruntime + 1;
}

/* Give away the task that would wait longest here: the rightmost ones. */
static struct task_struct *pcfs_migration_candidate(struct plugsched_rq *src,
						    int dst_cpu, bool idle)
{
	struct pcfs_rq *crq = pcfs_rq(src);
	unsigned int budget = 32;
	struct rb_node *node;

	for (node = rb_last(&crq->timeline.rb_root); node && budget--;
	     node = rb_prev(node)) {
		struct task_struct *p = pcfs_task_of(pcfs_node_task(node));

		if (plugsched_can_migrate(src, p, dst_cpu, idle))
			return p;
	}
	return NULL;
}

/* The running task plus the tree, whose cached leftmost must be right. */
static unsigned int pcfs_count(struct plugsched_rq *prq)
{
	struct pcfs_rq *crq = pcfs_rq(prq);
	unsigned int n = crq->curr ? 1 : 0;
	struct rb_node *node;

	node = rb_first(&crq->timeline.rb_root);
	if (node != rb_first_cached(&crq->timeline))
		return UINT_MAX;
	for (; node; node = rb_next(node))
		n++;
	return n;
}

static u64 pcfs_rr_interval(struct task_struct *p)
{
	return READ_ONCE(sysctl_pcfs_granularity);
}

static void pcfs_show_task(struct seq_file *m, struct task_struct *p)
{
	struct pcfs_task *pt = pcfs_task(p);

	seq_printf(m, "%-45s:%21llu\n", "cfs.vruntime", pt->vruntime);
	seq_printf(m, "%-45s:%21d\n", "cfs.vcpu", pt->vcpu);
	seq_printf(m, "%-45s:%21lu\n", "cfs.weight", plugsched_task_weight(p));
}

static struct plugsched_ops plugsched_cfs_ops __ro_after_init = {
	.name			= "cfs",
	.knobs			= pcfs_knobs,
	.nr_knobs		= ARRAY_SIZE(pcfs_knobs),
	.balance_ms		= 8,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.balance_by_load	= true,
	.init_rq		= pcfs_init_rq,
	.task_init		= pcfs_task_init,
	.fork			= pcfs_fork,
	.enqueue		= pcfs_enqueue,
	.dequeue		= pcfs_dequeue,
	.pick			= pcfs_pick,
	.set_next		= pcfs_set_next,
	.put_prev		= pcfs_put_prev,
	.charge			= pcfs_charge,
	.slice_expired		= pcfs_slice_expired,
	.tick			= pcfs_tick,
	.preempt		= pcfs_preempt,
	.yield			= pcfs_yield,
	.migration_candidate	= pcfs_migration_candidate,
	.rr_interval		= pcfs_rr_interval,
	.show_task		= pcfs_show_task,
	.count			= pcfs_count,
};

PLUGSCHED_POLICY(plugsched_cfs_ops);

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_cfs_kunit.c"
#endif
