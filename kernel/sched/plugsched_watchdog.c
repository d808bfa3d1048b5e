// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the watchdog and ejection. No runnable task of a policy may
 * wait for too long, and SysRq-P ejects the policy on demand. An ejection
 * first puts every runqueue in bypass (plugsched_internal.h), from any
 * context and under runqueue locks only, so that no task waits for the
 * broken policy any more; the switch back to mainline, which sleeps, runs
 * after it on the switch's real-time worker (plugsched_switch.c).
 */
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/plugsched.h>
#include <linux/sysrq.h>

#include "plugsched_internal.h"

static void plugsched_watchdog_fn(struct kthread_work *work);
static DEFINE_KTHREAD_DELAYED_WORK(plugsched_watchdog_work, plugsched_watchdog_fn);

/* The switch back to mainline after an ejection, on the worker. */
static void plugsched_fallback_fn(struct kthread_work *work);
static DEFINE_KTHREAD_WORK(plugsched_fallback_work, plugsched_fallback_fn);
static void plugsched_fallback_retry_fn(struct kthread_work *work);
static DEFINE_KTHREAD_DELAYED_WORK(plugsched_fallback_retry, plugsched_fallback_retry_fn);

/* One ejection at a time, for the first reason given. */
static DEFINE_RAW_SPINLOCK(plugsched_eject_lock);
static bool plugsched_eject_pending;
static char plugsched_eject_why[80];

static void plugsched_eject_irq_fn(struct irq_work *work);
static struct irq_work plugsched_eject_irq = IRQ_WORK_INIT_HARD(plugsched_eject_irq_fn);

static unsigned long plugsched_watchdog_period(void)
{
	unsigned int ms = READ_ONCE(plugsched_watchdog_ms);

	return msecs_to_jiffies(clamp(ms / 4, 10U, 1000U));
}

void plugsched_watchdog_start(void)
{
	if (plugsched_worker && READ_ONCE(plugsched_watchdog_ms))
		kthread_mod_delayed_work(plugsched_worker, &plugsched_watchdog_work,
					 plugsched_watchdog_period());
}

void plugsched_watchdog_kick(void)
{
	if (READ_ONCE(plugsched_cur_ops))
		plugsched_watchdog_start();
}

/* What the core and the policy know of a stalled @p, for the bug report. */
static void plugsched_dump(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = plug_rq_curr(rq);

	pr_err("plugsched: CPU %d: %u queued (%u idle), load %lu, running %s/%d (%s)\n",
	       cpu_of(rq), rq->plug.nr_running, rq->plug.nr_idle, rq->plug.load,
	       curr->comm, task_pid_nr(curr),
	       curr->sched_class == &plug_sched_class ? plugsched_cur_ops->name : "other class");
	pr_err("plugsched: %s/%d: nice %d, policy %u, slot %u, slice %lld ns, on CPU %d\n",
	       p->comm, task_pid_nr(p), task_nice(p), p->policy, p->plugsched.slot,
	       p->plugsched.slice, task_cpu(p));
	if (plugsched_cur_ops->dump)
		plugsched_cur_ops->dump(&rq->plug, p);
}

/*
 * The watchdog's windows. A wait's design bound follows the CPU's runnable
 * count while it lasts, and the count can jump for a tick (a fork burst)
 * to a bound of hours. A waiter gains on its bound at a rate of one over
 * the bound of the moment, so the bound of a window is the harmonic mean
 * of its ticks' bounds, each at least the limit: a tick at hours among
 * thousands at the limit adds next to nothing, while a load that lasts
 * the window gives its bound in full. Ticks with no waiter possible (one
 * task or none) are not counted. Windows last the limit; the limit on a
 * CPU is the largest of the current window's mean and the two before.
 */
#define PLUGSCHED_WATCH_ONE	BIT_ULL(32)

/* The current window's mean, in ns; 0 before its first sample. */
static u64 plugsched_watch_mean(const struct plugsched_rq *prq)
{
	u64 inv = READ_ONCE(prq->watch_inv);

	if (!inv)
		return 0;
	return div64_u64((u64)READ_ONCE(prq->watch_n) * PLUGSCHED_WATCH_ONE, inv) *
	       NSEC_PER_MSEC;
}

/**
 * plugsched_watch_limit - the watchdog's limit on a runqueue
 * @prq:	the runqueue
 * @limit:	plugsched_watchdog_ms, in jiffies
 *
 * The policy's design bound of a wait, where it is longer than @limit, as
 * the current window and the two before give it, plus 10% and two ticks
 * for the tick's granularity.
 *
 * Return: the limit in jiffies.
 */
unsigned long plugsched_watch_limit(struct plugsched_rq *prq, unsigned long limit)
{
	u64 bound = max3(READ_ONCE(prq->watch_bound[0]), READ_ONCE(prq->watch_bound[1]),
			 plugsched_watch_mean(prq));

	if (nsecs_to_jiffies64(bound) <= limit)
		return limit;
	return nsecs_to_jiffies64(bound + bound / 10) + 2;
}

/**
 * plugsched_watch_window - enter a tick's design bound into a runqueue's windows
 * @prq:	the runqueue
 * @bound:	the policy's design bound of a wait there now, in ns
 * @limit:	plugsched_watchdog_ms, in jiffies
 * @now:	jiffies
 */
void plugsched_watch_window(struct plugsched_rq *prq, u64 bound, unsigned long limit,
			    unsigned long now)
{
	u64 ms = max_t(u64, div_u64(bound, NSEC_PER_MSEC), jiffies_to_msecs(limit));

	if (time_after_eq(now, prq->watch_rotate)) {
		WRITE_ONCE(prq->watch_bound[1], prq->watch_bound[0]);
		WRITE_ONCE(prq->watch_bound[0], plugsched_watch_mean(prq));
		WRITE_ONCE(prq->watch_inv, 0);
		WRITE_ONCE(prq->watch_n, 0);
		prq->watch_rotate = now + max(limit, 1UL);
	}
	WRITE_ONCE(prq->watch_n, prq->watch_n + 1);
	WRITE_ONCE(prq->watch_inv, prq->watch_inv + div64_u64(PLUGSCHED_WATCH_ONE, max(ms, 1ULL)));
}

/* No bound is worth more tasks than this: the policies' arithmetic is u64. */
#define PLUGSCHED_BOUND_MAX_NR	65536

/* This CPU's design bound now, into its windows; from the tick. */
static void plugsched_watch_sample(struct plugsched_rq *prq, unsigned long limit)
{
	const struct plugsched_ops *ops = READ_ONCE(plugsched_cur_ops);
	int nr = READ_ONCE(prq->nr_running) - READ_ONCE(prq->nr_idle);

	if (ops && ops->wait_bound && nr > 1)
		plugsched_watch_window(prq, ops->wait_bound(clamp(nr, 0, PLUGSCHED_BOUND_MAX_NR)),
				       limit, jiffies);
}

/*
 * Whether the task on @rq that waited longest, under a policy, waited over
 * @limit jiffies; if so it is reported, and @why (of @size) says who.
 */
static bool plugsched_stalled(struct rq *rq, unsigned long limit, char *why, size_t size)
{
	struct task_struct *p;
	unsigned long waited;
	bool found = false;
	struct rq_flags rf;

	if (cpu_of(rq) != raw_smp_processor_id())
		plugsched_bal_count(PLUGSCHED_BAL_WATCH_LOCKED, 1);
	rq_lock_irqsave(rq, &rf);
	if (plugsched_rq_bypass(&rq->plug))
		goto out;
	limit = plugsched_watch_limit(&rq->plug, limit);
	p = plugsched_longest_waiter(rq);
	waited = p ? plugsched_waited(&rq->plug, p) : 0;
	if (waited > limit) {
		found = true;
		/* The console may wake tasks: no printk under the rq lock. */
		printk_deferred_enter();
		pr_err("plugsched: watchdog: %s/%d runnable on CPU %d for %u ms under %s (limit %u ms)\n",
		       p->comm, task_pid_nr(p), cpu_of(rq), jiffies_to_msecs(waited),
		       plugsched_cur_ops->name, jiffies_to_msecs(limit));
		plugsched_dump(rq, p);
		printk_deferred_exit();
		scnprintf(why, size, "watchdog: %s/%d stalled for %u ms", p->comm,
			  task_pid_nr(p), jiffies_to_msecs(waited));
	}
out:
	rq_unlock_irqrestore(rq, &rf);
	return found;
}

/**
 * plugsched_eject - take every CPU from the active policy, then switch to mainline
 * @why:	the reason, for the log and /sys/kernel/plugsched/state
 *
 * Safe from any context, runqueue locks held or not: every runqueue goes
 * into bypass from an IRQ work, under its own lock only, and the switch
 * back, which sleeps, is queued on the worker from there. Calls before that
 * switch is done add nothing; one during a switch ejects whatever policy
 * the switch leads to.
 */
void plugsched_eject(const char *why)
{
	unsigned long flags;
	bool first;

	raw_spin_lock_irqsave(&plugsched_eject_lock, flags);
	first = !plugsched_eject_pending;
	if (first) {
		plugsched_eject_pending = true;
		strscpy(plugsched_eject_why, why, sizeof(plugsched_eject_why));
	}
	raw_spin_unlock_irqrestore(&plugsched_eject_lock, flags);
	if (!first)
		return;
	WRITE_ONCE(plugsched_bypassing, true);
	irq_work_queue(&plugsched_eject_irq);
}

static void plugsched_eject_irq_fn(struct irq_work *work)
{
	plugsched_bypass_rqs();
	if (plugsched_worker)
		kthread_queue_work(plugsched_worker, &plugsched_fallback_work);
}

static void plugsched_fallback_retry_fn(struct kthread_work *work)
{
	kthread_queue_work(plugsched_worker, &plugsched_fallback_work);
}

static void plugsched_fallback_fn(struct kthread_work *work)
{
	char why[sizeof(plugsched_eject_why)];
	bool sysrq;

	/* A user's switch holds the mutex until its work, queued here, ran. */
	if (!mutex_trylock(&plugsched_switch_mutex)) {
		kthread_mod_delayed_work(plugsched_worker, &plugsched_fallback_retry, 1);
		return;
	}
	raw_spin_lock_irq(&plugsched_eject_lock);
	strscpy(why, plugsched_eject_why, sizeof(why));
	raw_spin_unlock_irq(&plugsched_eject_lock);
	sysrq = !strcmp(why, "sysrq");

	if (!plugsched_cur_ops) {
		pr_info("plugsched: %s: %s runs already\n", sysrq ? "SysRq" : why,
			PLUGSCHED_MAINLINE_NAME);
	} else {
		if (sysrq)
			pr_warn("plugsched: SysRq: %s ejected, every task back to %s\n",
				plugsched_cur_ops->name, PLUGSCHED_MAINLINE_NAME);
		plugsched_switch(NULL, why);
	}

	raw_spin_lock_irq(&plugsched_eject_lock);
	plugsched_eject_pending = false;
	raw_spin_unlock_irq(&plugsched_eject_lock);
	mutex_unlock(&plugsched_switch_mutex);
}

/* The watchdog's scan of every CPU, on the worker, every quarter limit. */
static void plugsched_watchdog_fn(struct kthread_work *work)
{
	unsigned long limit = msecs_to_jiffies(READ_ONCE(plugsched_watchdog_ms));
	char why[sizeof(plugsched_eject_why)];
	int cpu;

	if (!READ_ONCE(plugsched_cur_ops) || !limit)
		return;
	for_each_online_cpu(cpu) {
		if (plugsched_stalled(cpu_rq(cpu), limit, why, sizeof(why))) {
			plugsched_eject(why);
			return;
		}
	}
	plugsched_watchdog_start();
}

static DEFINE_PER_CPU(unsigned long, plugsched_next_watch);
static DEFINE_PER_CPU(unsigned int, plugsched_watch_step);

/**
 * plugsched_tick_watch - the watchdog's check from a CPU's tick
 * @rq:		this CPU's runqueue, unlocked; interrupts are off
 *
 * Once a watchdog period each ticking CPU checks its own runqueue and, in
 * turn, one other online CPU's (a CPU the policy leaves idle beside a
 * runnable task may not tick). The worker's scan can be held off, by RT
 * tasks or by what the worker waits for; the tick cannot. The other CPU
 * is this one plus a step that grows by one each period: CPUs whose
 * periods fall in the same jiffy check different runqueues, not all the
 * same one.
 */
void plugsched_tick_watch(struct rq *rq)
{
	unsigned long limit = msecs_to_jiffies(READ_ONCE(plugsched_watchdog_ms));
	unsigned long *next = this_cpu_ptr(&plugsched_next_watch);
	unsigned int *step = this_cpu_ptr(&plugsched_watch_step);
	char why[sizeof(plugsched_eject_why)];
	int cpu;

	if (!limit || READ_ONCE(plugsched_bypassing) || READ_ONCE(plugsched_eject_pending) ||
	    plugsched_phase() != PLUGSCHED_PHASE_ENABLED)
		return;
	plugsched_watch_sample(&rq->plug, limit);
	if (time_before(jiffies, *next))
		return;
	*next = jiffies + plugsched_watchdog_period();
	*step = *step % nr_cpu_ids + 1;
	cpu = (cpu_of(rq) + *step) % nr_cpu_ids;
	if (plugsched_stalled(rq, limit, why, sizeof(why)) ||
	    (cpu != cpu_of(rq) && cpu_online(cpu) &&
	     plugsched_stalled(cpu_rq(cpu), limit, why, sizeof(why))))
		plugsched_eject(why);
}

static void plugsched_sysrq_handler(u8 key)
{
	plugsched_eject("sysrq");
}

static const struct sysrq_key_op plugsched_sysrq_op = {
	.handler	= plugsched_sysrq_handler,
	.help_msg	= "plugsched-fallback(P)",
	.action_msg	= "Moving every task back to the mainline scheduler",
	.enable_mask	= SYSRQ_ENABLE_RTNICE,
};

/* SysRq-P, before the watchdog first starts. */
void __init plugsched_sysrq_init(void)
{
	if (register_sysrq_key('P', &plugsched_sysrq_op))
		pr_warn("plugsched: SysRq-P is taken\n");
}
