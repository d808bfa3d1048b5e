// SPDX-License-Identifier: GPL-2.0
/*
 * The Zaphod policy (sched=zaphod), after Peter Williams' Zaphod scheduler
 * of the SPA ("single priority array") family, 2004-2006, on the plugsched
 * core.
 *
 * One priority array per CPU and no expired array. A task's slot is its
 * static level (pb mode) or its entitlement level (eb mode) plus
 * ZAPHOD_MAX_BONUS, minus two bonuses:
 *
 * - the interactive bonus persists across cycles: it rises toward
 *   max_ia_bonus * sleep / (sleep + cpu) while the task sleeps more than
 *   ia_threshold of its cycles, and decays toward 0 while it is a CPU hog;
 * - the throughput bonus is recomputed at every requeue, from how long the
 *   task waited on the runqueue against its CPU use times the queue length.
 *
 * Both come from decaying averages, per wake-to-wake cycle, of CPU time,
 * sleep and runqueue delay (a task that does not sleep ends a cycle at the
 * end of each slice). Every base_promotion_interval * (nr_running - 1) ms
 * every queued task moves up one slot, so nobody starves; whole lists
 * move, and tasks learn their new slot when next touched.
 *
 * In eb mode nice does not order tasks directly: a task's level is its
 * recent CPU use per share (load weight) against the CPU's yardstick, the
 * highest use per share seen there lately. Tasks that used less than their
 * entitlement go first, so shares follow the weights. The use is averaged
 * over time, not cycles: a task that runs one long cycle a second must
 * count as much as one running ten short ones. A task that waits uses
 * less per share and moves up by that: eb mode has no throughput bonus,
 * which would count the wait twice.
 */
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/plugsched.h>
#include <linux/seq_file.h>

#define ZAPHOD_LEVELS		NICE_WIDTH		/* 40 */
#define ZAPHOD_MAX_IA		10			/* max_ia_bonus ceiling */
#define ZAPHOD_MAX_TPT		9			/* max_tpt_bonus ceiling */
#define ZAPHOD_MAX_BONUS	(ZAPHOD_MAX_IA + ZAPHOD_MAX_TPT)
#define ZAPHOD_SLOTS		(ZAPHOD_LEVELS + ZAPHOD_MAX_BONUS)	/* 59 */
#define ZAPHOD_MILLI		1000	/* ia_bonus unit: 1/1000 of a slot */
#define ZAPHOD_AVG_SHIFT	3	/* averages move 1/8 of the way a cycle */
#define ZAPHOD_IA_SHIFT		3	/* so does the interactive bonus */
#define ZAPHOD_MAX_SLEEP	(15ULL * 60 * NSEC_PER_SEC)
#define ZAPHOD_YARD_SHIFT	14	/* yardstick decay per tick: ~6% a second */
#define ZAPHOD_EB_WINDOW	(10ULL * NSEC_PER_SEC)	/* eb use: time constant */

enum { ZAPHOD_PB, ZAPHOD_EB };

static const char * const zaphod_modes[] = { "pb", "eb", NULL };

/* Knobs: the core sets them to the table's defaults at boot and activation. */
static int zaphod_time_slice_ms;
static int zaphod_promotion_ms;
static int zaphod_max_ia_bonus;
static int zaphod_initial_ia_bonus;
static int zaphod_ia_threshold;
static int zaphod_cpu_hog_threshold;
static int zaphod_max_tpt_bonus;
static int zaphod_mode;

static const struct plugsched_knob zaphod_knobs[] = {
	{
		.name	= "time_slice",
		.unit	= "ms",
		.value	= &zaphod_time_slice_ms,
		.min	= 1,
		.max	= 1000,
		.def	= 100,
	},
	{
		.name	= "base_promotion_interval",
		.unit	= "ms",
		.value	= &zaphod_promotion_ms,
		.min	= 1,
		.max	= 60000,
		.def	= 255,
	},
	{
		.name	= "max_ia_bonus",
		.value	= &zaphod_max_ia_bonus,
		.min	= 0,
		.max	= ZAPHOD_MAX_IA,
		.def	= 9,
	},
	{
		.name	= "initial_ia_bonus",
		.value	= &zaphod_initial_ia_bonus,
		.min	= 0,
		.max	= ZAPHOD_MAX_IA,
		.def	= 1,
	},
	{
		/*
		 * 900 in 2004: a task sleeping 90% of its cycles then sits
		 * on the boundary and, with wakeup overhead, just under it.
		 */
		.name	= "ia_threshold",
		.unit	= "ppt",
		.value	= &zaphod_ia_threshold,
		.min	= 1,
		.max	= 1000,
		.def	= 800,
	},
	{
		.name	= "cpu_hog_threshold",
		.unit	= "ppt",
		.value	= &zaphod_cpu_hog_threshold,
		.min	= 1,
		.max	= 1000,
		.def	= 900,
	},
	{
		.name	= "max_tpt_bonus",
		.value	= &zaphod_max_tpt_bonus,
		.min	= 0,
		.max	= ZAPHOD_MAX_TPT,
		.def	= 4,
	},
	{
		.name	= "zaphod_mode",
		.value	= &zaphod_mode,
		.min	= ZAPHOD_PB,
		.max	= ZAPHOD_EB,
		.def	= ZAPHOD_PB,
		.choices = zaphod_modes,
	},
};

/*
 * 40 bytes, the room the core leaves: averages of u32 samples fit a u32.
 * A cycle's delay saturates at 4.29 s (a wait that long counts as that).
 */
struct zaphod_task {
	u64	avg_sleep;	/* ns per cycle, decaying average */
	u64	stamp;		/* clock: began to wait, or went to sleep */
	u32	avg_delay;	/* ns per cycle, decaying average */
	u32	cycle_delay;	/* ns in the cycle so far */
	u32	avg_cpu;	/* ns per cycle, of @cycle_cpu samples */
	u32	cycle_cpu;	/* ns: a cycle ends at the latest with its slice */
	u32	promo;		/* the CPU's promotion count at the last requeue */
	u16	ia_bonus;	/* 1/1000 of a slot */
	u16	use:12;		/* eb: part of its time it ran, 1/1000 */
	u16	tpt_bonus:4;	/* 0..ZAPHOD_MAX_TPT */
};

static_assert(ZAPHOD_MAX_TPT < 16);

struct zaphod_rq {
	struct plugsched_prio_array	pa;
	u64				next_promotion;	/* clock, ns */
	u32				promotions;
	u64				yardstick;	/* eb: use per share */
};

static DEFINE_PER_CPU(struct zaphod_rq, zaphod_rqs);

static inline struct zaphod_task *zaphod_task(struct task_struct *p)
{
	return plugsched_task_priv(p, struct zaphod_task);
}

static inline struct zaphod_rq *zaphod_rq(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&zaphod_rqs, prq->cpu);
}

static inline s64 zaphod_time_slice(void)
{
	return (s64)READ_ONCE(zaphod_time_slice_ms) * NSEC_PER_MSEC;
}

/*
 * @p's slice. In pb mode tasks share a slot by turns, so the slice carries
 * the task groups' shares; in eb mode the shares are in the slot already
 * (use per share).
 */
static inline s64 zaphod_task_slice(const struct task_struct *p)
{
	if (READ_ONCE(zaphod_mode) == ZAPHOD_EB)
		return zaphod_time_slice();
	return plugsched_scale_slice(p, zaphod_time_slice());
}

/* Pure arithmetic, shared with the KUnit tests. */

static inline u64 zaphod_avg(u64 avg, u64 sample)
{
	return avg - (avg >> ZAPHOD_AVG_SHIFT) + (sample >> ZAPHOD_AVG_SHIFT);
}

/*
 * The interactive bonus (1/1000) after a cycle, from the averages: a hog
 * (CPU over @hog_ppt of the cycle, or a cycle without sleep) loses 1/8 of
 * it; a task sleeping over @ia_ppt of its sleep + CPU time gains 1/8 of the
 * way to @max_ia * sleep / (sleep + cpu). Anything else keeps it.
 */
static unsigned int zaphod_ia_next(unsigned int bonus, u64 cpu, u64 sleep,
				   u64 delay, bool slept, int max_ia,
				   int ia_ppt, int hog_ppt)
{
	u64 active = cpu + sleep, cycle = cpu + sleep + delay, target;

	if (!slept || (cycle && cpu * 1000 > (u64)hog_ppt * cycle))
		return bonus - DIV_ROUND_UP(bonus, 1 << ZAPHOD_IA_SHIFT);
	if (!active || sleep >= ZAPHOD_MAX_SLEEP ||
	    sleep * 1000 <= (u64)ia_ppt * active)
		return bonus;
	target = div64_u64(sleep * max_ia * ZAPHOD_MILLI, active);
	if (target > bonus)
		bonus += DIV_ROUND_UP(target - bonus, 1 << ZAPHOD_IA_SHIFT);
	return bonus;
}

/* @max_tpt * delay / (delay + cpu * nr), rounded. */
static unsigned int zaphod_tpt(u64 cpu, u64 delay, unsigned int nr, int max_tpt)
{
	u64 den = delay + cpu * max(nr, 1U);

	if (!max_tpt || !den)
		return 0;
	return div64_u64(delay * max_tpt + den / 2, den);
}

/*
 * eb: the part of its time a task ran (1/1000) after a cycle of @cpu,
 * @sleep and @delay ns, a time-weighted average with a time constant of
 * ZAPHOD_EB_WINDOW.
 */
static unsigned int zaphod_use_next(unsigned int use, u64 cpu, u64 sleep, u64 delay)
{
	u64 cycle = cpu + sleep + delay;
	s64 sample;

	if (!cycle)
		return use;
	sample = div64_u64(cpu * 1000, cycle);
	return use + div64_s64((sample - use) * (s64)cycle, cycle + ZAPHOD_EB_WINDOW);
}

/* Use per share: @use (1/1000) per load weight (nice 0: 1024). */
static u64 zaphod_use_per_share(unsigned int use, unsigned long weight)
{
	if (!weight)
		return 0;
	return div64_u64((u64)use << 20, weight);
}

/*
 * eb: 0 (used half the yardstick per share, or less) .. ZAPHOD_LEVELS - 1
 * (as much as the most). The levels cover the top half only, so that near
 * the shares, where it matters, a level is 1.3% of use: a promotion moves
 * a waiting task by that much, not by the 2.5% of a scale from 0.
 */
static unsigned int zaphod_eb_level(u64 use, u64 yardstick)
{
	if (!yardstick || 2 * use <= yardstick)
		return 0;
	use = min(use, yardstick);
	return div64_u64((2 * use - yardstick) * (ZAPHOD_LEVELS - 1) + yardstick / 2,
			 yardstick);
}

/* Lists move up whole in a promotion: slot numbers are caught up lazily. */
static void zaphod_fix(struct zaphod_rq *zrq, struct task_struct *p)
{
	struct zaphod_task *zt = zaphod_task(p);
	u32 k = zrq->promotions - zt->promo;

	if (p->plugsched.array != &zrq->pa || p->plugsched.slot >= ZAPHOD_SLOTS)
		return;
	zt->promo = zrq->promotions;
	p->plugsched.slot -= min_t(u32, k, p->plugsched.slot);
}

/* Every queued task one slot up (but the top one): O(slots). */
static void zaphod_promote(struct zaphod_rq *zrq)
{
	u64 bits = zrq->pa.bitmap & GENMASK_ULL(ZAPHOD_SLOTS - 1, 1);

	while (bits) {
		unsigned int slot = __ffs64(bits);

		bits &= bits - 1;
		plugsched_array_move_slot(&zrq->pa, slot, slot - 1);
	}
	zrq->promotions++;
}

static inline unsigned int zaphod_ia(struct task_struct *p)
{
	if (p->policy == SCHED_BATCH)
		return 0;
	return min_t(unsigned int, (zaphod_task(p)->ia_bonus + ZAPHOD_MILLI / 2) / ZAPHOD_MILLI,
		     READ_ONCE(zaphod_max_ia_bonus));
}

/* The slot @p is queued at now, with its throughput bonus brought up to date. */
static unsigned int zaphod_slot(struct plugsched_rq *prq, struct task_struct *p)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);
	struct zaphod_task *zt = zaphod_task(p);
	unsigned int level, bonus;

	if (plugsched_task_is_idle(p))
		return PLUGSCHED_IDLE_SLOT;
	if (READ_ONCE(zaphod_mode) == ZAPHOD_EB) {
		u64 use = zaphod_use_per_share(zt->use, plugsched_task_weight(p));

		zrq->yardstick = max(zrq->yardstick, use);
		level = zaphod_eb_level(use, zrq->yardstick);
		zt->tpt_bonus = 0;
	} else {
		level = p->static_prio - MAX_RT_PRIO;
		/* A task of a small group share waits longer by design. */
		zt->tpt_bonus = zaphod_tpt(zt->avg_cpu,
					   plugsched_scale_wait(prq, p, zt->avg_delay),
					   prq->nr_running, READ_ONCE(zaphod_max_tpt_bonus));
	}
	bonus = min_t(unsigned int, zaphod_ia(p) + zt->tpt_bonus, ZAPHOD_MAX_BONUS);
	return level + ZAPHOD_MAX_BONUS - bonus;
}

static void zaphod_add(struct plugsched_rq *prq, struct task_struct *p, bool head)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);

	plugsched_array_add(&zrq->pa, p, zaphod_slot(prq, p), head);
	zaphod_task(p)->promo = zrq->promotions;
}

/* A cycle ends: at wakeup, or at the end of a slice that saw no sleep. */
static void zaphod_end_cycle(struct task_struct *p, u64 sleep, bool slept)
{
	struct zaphod_task *zt = zaphod_task(p);

	zt->use = zaphod_use_next(zt->use, zt->cycle_cpu, sleep, zt->cycle_delay);
	zt->avg_cpu = zaphod_avg(zt->avg_cpu, zt->cycle_cpu);
	zt->avg_sleep = zaphod_avg(zt->avg_sleep, sleep);
	zt->avg_delay = zaphod_avg(zt->avg_delay, zt->cycle_delay);
	zt->cycle_cpu = 0;
	zt->cycle_delay = 0;
	zt->ia_bonus = zaphod_ia_next(zt->ia_bonus, zt->avg_cpu, zt->avg_sleep,
				      zt->avg_delay, slept,
				      READ_ONCE(zaphod_max_ia_bonus),
				      READ_ONCE(zaphod_ia_threshold),
				      READ_ONCE(zaphod_cpu_hog_threshold));
}

/* @p stops waiting on the runqueue (runs, or leaves it). */
static void zaphod_stop_wait(struct task_struct *p, u64 now)
{
	struct zaphod_task *zt = zaphod_task(p);

	if (zt->stamp && now > zt->stamp)
		zt->cycle_delay = min_t(u64, (u64)zt->cycle_delay + now - zt->stamp, U32_MAX);
	zt->stamp = now;
}

static void zaphod_init_rq(struct plugsched_rq *prq)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);

	plugsched_array_init(&zrq->pa);
	zrq->next_promotion = 0;
	zrq->promotions = 0;
	zrq->yardstick = 0;
}

static void zaphod_task_init(struct task_struct *p)
{
	struct zaphod_task *zt = zaphod_task(p);

	zt->ia_bonus = READ_ONCE(zaphod_initial_ia_bonus) * ZAPHOD_MILLI;
	p->plugsched.slice = zaphod_task_slice(p);
}

static void zaphod_enqueue(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags)
{
	struct zaphod_task *zt = zaphod_task(p);
	u64 now = plugsched_clock(prq);

	if (flags & PLUGSCHED_ENQ_WAKEUP) {
		u64 sleep = zt->stamp && now > zt->stamp ? now - zt->stamp : 0;

		zaphod_end_cycle(p, sleep, true);
		p->plugsched.slice = zaphod_task_slice(p);
	}
	/* Another CPU's clock: the wait starts here. */
	zt->stamp = now;
	zaphod_add(prq, p, false);
}

static void zaphod_dequeue(struct plugsched_rq *prq, struct task_struct *p,
			   unsigned int flags)
{
	u64 now = plugsched_clock(prq);

	zaphod_fix(zaphod_rq(prq), p);
	plugsched_array_del(p);
	if (plugsched_curr(prq) != p)
		zaphod_stop_wait(p, now);
	if (flags & PLUGSCHED_DEQ_SLEEP)
		zaphod_task(p)->stamp = now;
}

static struct task_struct *zaphod_pick(struct plugsched_rq *prq)
{
	return plugsched_array_first(&zaphod_rq(prq)->pa);
}

static void zaphod_set_next(struct plugsched_rq *prq, struct task_struct *p)
{
	zaphod_stop_wait(p, plugsched_clock(prq));
}

static void zaphod_put_prev(struct plugsched_rq *prq, struct task_struct *p)
{
	zaphod_task(p)->stamp = plugsched_clock(prq);
}

static void zaphod_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta)
{
	struct zaphod_task *zt = zaphod_task(p);

	zt->cycle_cpu = min_t(u64, (u64)zt->cycle_cpu + delta, U32_MAX);
}

/* A full slice used without sleeping: a cycle of its own, and a new slot. */
static bool zaphod_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	zaphod_fix(zaphod_rq(prq), p);
	plugsched_array_del(p);
	if (!plugsched_task_is_idle(p))
		zaphod_end_cycle(p, 0, false);
	/* The tick overran it: the next slice pays (group shares). */
	p->plugsched.slice = plugsched_refill_slice(p, zaphod_task_slice(p));
	zaphod_add(prq, p, false);
	return true;
}

/* Promotion, and the eb yardstick forgets old highs. */
static bool zaphod_tick(struct plugsched_rq *prq, struct task_struct *p)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);
	unsigned int nr = prq->nr_running - prq->nr_idle;
	u64 now = plugsched_clock(prq);
	u64 interval = (u64)READ_ONCE(zaphod_promotion_ms) * NSEC_PER_MSEC;

	if (READ_ONCE(zaphod_mode) == ZAPHOD_EB)
		zrq->yardstick -= zrq->yardstick >> ZAPHOD_YARD_SHIFT;
	if (nr < 2) {
		zrq->next_promotion = now + interval;
		return false;
	}
	if (now < zrq->next_promotion)
		return false;
	zaphod_promote(zrq);
	zrq->next_promotion = now + interval * (nr - 1);
	return false;
}

static bool zaphod_preempt(struct plugsched_rq *prq, struct task_struct *curr,
			   struct task_struct *p)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);

	zaphod_fix(zrq, curr);
	zaphod_fix(zrq, p);
	return p->plugsched.slot < curr->plugsched.slot;
}

/*
 * sched_yield(): behind every task queued here, at the end of the last
 * slot taken (SCHED_IDLE's apart), where promotion lifts it as any other.
 * At the end of its own slot, a yielder that waits a lot earns a
 * throughput bonus for it and, sleeping never, keeps its interactive one:
 * 16 unprivileged tasks yielding in a loop kept a hog in a worse slot to
 * 0.006 of the CPU (eevdf: 0.71).
 */
static void zaphod_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);
	u64 taken = zrq->pa.bitmap & GENMASK_ULL(ZAPHOD_SLOTS - 1, 0);
	unsigned int last;

	zaphod_fix(zrq, p);
	if (plugsched_task_is_idle(p) || p->plugsched.array != &zrq->pa || !taken) {
		plugsched_array_requeue(p);
		return;
	}
	last = fls64(taken) - 1;
	if (last <= p->plugsched.slot) {
		plugsched_array_requeue(p);
		return;
	}
	plugsched_array_del(p);
	plugsched_array_add(&zrq->pa, p, last, false);
	zaphod_task(p)->promo = zrq->promotions;
}

static struct task_struct *zaphod_migration_candidate(struct plugsched_rq *src,
						      int dst_cpu, bool idle)
{
	return plugsched_array_migratable(src, &zaphod_rq(src)->pa, dst_cpu, idle);
}

static unsigned int zaphod_count(struct plugsched_rq *prq)
{
	return plugsched_array_count(&zaphod_rq(prq)->pa);
}

static u64 zaphod_rr_interval(struct task_struct *p)
{
	return zaphod_task_slice(p);
}

static void zaphod_show_task(struct seq_file *m, struct task_struct *p)
{
	struct zaphod_task *zt = zaphod_task(p);

	seq_printf(m, "%-45s:%21u\n", "zaphod.ia_bonus_milli", zt->ia_bonus);
	seq_printf(m, "%-45s:%21u\n", "zaphod.ia_bonus", zaphod_ia(p));
	seq_printf(m, "%-45s:%21u\n", "zaphod.tpt_bonus", zt->tpt_bonus);
	seq_printf(m, "%-45s:%21u\n", "zaphod.avg_cpu_ns", zt->avg_cpu);
	seq_printf(m, "%-45s:%21llu\n", "zaphod.avg_sleep_ns", zt->avg_sleep);
	seq_printf(m, "%-45s:%21u\n", "zaphod.avg_delay_ns", zt->avg_delay);
	seq_printf(m, "%-45s:%21u\n", "zaphod.use_ppt", zt->use);
}

/*
 * The design's longest wait among @nr tasks: queued at the last slot, a
 * task reaches the first in ZAPHOD_SLOTS - 1 promotions, one every
 * base_promotion_interval x (nr - 1) (and up to a tick, which makes them),
 * then waits for at most the nr - 1 others there, a time slice (and up to
 * a tick) each.
 */
static u64 zaphod_wait_bound(unsigned int nr)
{
	u64 others = max(nr, 2U) - 1;
	u64 promotion = (u64)READ_ONCE(zaphod_promotion_ms) * NSEC_PER_MSEC * others + TICK_NSEC;
	u64 slice = (u64)READ_ONCE(zaphod_time_slice_ms) * NSEC_PER_MSEC + TICK_NSEC;

	return promotion * (ZAPHOD_SLOTS - 1) + slice * others;
}

static void zaphod_dump(struct plugsched_rq *prq, struct task_struct *p)
{
	struct zaphod_rq *zrq = zaphod_rq(prq);
	struct zaphod_task *zt = zaphod_task(p);

	zaphod_fix(zrq, p);
	pr_err("zaphod: %u queued, first slot %u, %u promotions, yardstick %llu; %s/%d at slot %u, ia %u/1000, tpt %u\n",
	       zrq->pa.nr_queued, plugsched_array_first_slot(&zrq->pa), zrq->promotions,
	       zrq->yardstick, p->comm, task_pid_nr(p), p->plugsched.slot,
	       zt->ia_bonus, zt->tpt_bonus);
}

static struct plugsched_ops plugsched_zaphod_ops __ro_after_init = {
	.name			= "zaphod",
	.knobs			= zaphod_knobs,
	.nr_knobs		= ARRAY_SIZE(zaphod_knobs),
	.balance_ms		= 200,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.init_rq		= zaphod_init_rq,
	.task_init		= zaphod_task_init,
	.enqueue		= zaphod_enqueue,
	.dequeue		= zaphod_dequeue,
	.pick			= zaphod_pick,
	.set_next		= zaphod_set_next,
	.put_prev		= zaphod_put_prev,
	.charge			= zaphod_charge,
	.slice_expired		= zaphod_slice_expired,
	.tick			= zaphod_tick,
	.preempt		= zaphod_preempt,
	.yield			= zaphod_yield,
	.migration_candidate	= zaphod_migration_candidate,
	.rr_interval		= zaphod_rr_interval,
	.show_task		= zaphod_show_task,
	.count			= zaphod_count,
	.dump			= zaphod_dump,
	.wait_bound		= zaphod_wait_bound,
};

PLUGSCHED_POLICY(plugsched_zaphod_ops);

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_zaphod_kunit.c"
#endif
