// SPDX-License-Identifier: GPL-2.0
/*
 * The Staircase Deadline policy (sched=sd), after Con Kolivas' RSDL/SD
 * scheduler of 2007 (SD 0.46/0.48 for 2.6.21), on the plugsched core.
 *
 * Per CPU an active and an expired array of the 40 nice levels. A task of
 * nice n may run rr_interval at every level from its own, n + 20, down to
 * the lowest, 39: it starts at its level and drops one level each time it
 * has used a quota there. After the last level it waits in the expired
 * array; when nothing is left active the arrays swap and everybody starts
 * again at the top of its staircase (a major rotation).
 *
 * Each level keeps the total quota queued on it. When a level becomes the
 * current one, that total is its budget; tasks joining it later run out of
 * the same budget, they do not extend it. When it is spent, whoever is
 * still on the level is pushed down one level (a minor rotation), and
 * levels above the current one stay closed until the next major rotation:
 * a task that wakes up joins at the current level at best. When the last
 * level's budget is spent while tasks wait in the expired array, the
 * active array closes: those on the last level finish their quotas and
 * everybody else waits in the expired array for the swap. So how long
 * anybody waits follows from the nice
 * levels of the runnable tasks alone, however often tasks come and go;
 * there is no sleep/run estimator.
 */
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/plugsched.h>
#include <linux/seq_file.h>

#define SD_LEVELS		NICE_WIDTH	/* 40 */
#define SD_LOWEST		(SD_LEVELS - 1)
#define SD_RR_BASE_MS		8

/* How a task came while runnable: any move, or the balancer's pull. */
#define SD_MOVED		1
#define SD_PULLED		2

/* Knobs: the core sets them to the table's defaults at boot and activation. */
static int sd_rr_interval_ms;
static int sd_interactive;

static const struct plugsched_knob sd_knobs[] = {
	{
		.name	= "rr_interval",
		.unit	= "ms",
		.value	= &sd_rr_interval_ms,
		.min	= 1,
		.max	= 5000,
		.def	= SD_RR_BASE_MS,
	},
	{
		.name	= "interactive",
		.unit	= "bool",
		.value	= &sd_interactive,
		.min	= 0,
		.max	= 1,
		.def	= 1,
	},
};

struct sd_task {
	u32	epoch;		/* rotation of @cpu that @level belongs to */
	u32	slept;		/* jiffies when it last went to sleep */
	s16	cpu;		/* CPU whose staircase the task is on, -1: none */
	u8	level;		/* 0..39 in the active array */
	u8	quota_level;	/* level p->plugsched.slice was granted at */
	u8	pulled;		/* just moved here while runnable: SD_MOVED, SD_PULLED */
	u8	lead;		/* levels below the current one when it left */
	u8	woke;		/* being placed after a sleep of a quota or more */
};

struct sd_array {
	struct plugsched_prio_array	pa;
	s64				quota[SD_LEVELS];	/* ns queued */
	unsigned int			nr[SD_LEVELS];
};

struct sd_rq {
	struct sd_array		arrays[2];
	struct sd_array		*active;
	struct sd_array		*expired;
	unsigned int		level;		/* levels above are closed */
	s64			budget;		/* ns left at @level */
	s64			extra;		/* what joiners may still add */
	u32			epoch;		/* major rotations */
	bool			closed;		/* nobody joins until the swap */
	unsigned long		nr_minor;	/* minor rotations */
	unsigned long		nr_closed;	/* rotations ended by the budget */
};

static DEFINE_PER_CPU(struct sd_rq, sd_rqs);

static inline struct sd_task *sd_task(struct task_struct *p)
{
	return plugsched_task_priv(p, struct sd_task);
}

static inline struct sd_rq *sd_rq(struct plugsched_rq *prq)
{
	return per_cpu_ptr(&sd_rqs, prq->cpu);
}

static inline struct sd_array *sd_array_of(struct task_struct *p)
{
	return container_of((struct plugsched_prio_array *)p->plugsched.array,
			    struct sd_array, pa);
}

static inline s64 sd_rr(void)
{
	return (s64)READ_ONCE(sd_rr_interval_ms) * NSEC_PER_MSEC;
}

/* @p's quota at a level: tasks take turns, so it carries the group shares. */
static inline s64 sd_quota(const struct task_struct *p)
{
	return plugsched_scale_slice(p, sd_rr());
}

static inline unsigned int sd_static_level(const struct task_struct *p)
{
	return p->static_prio - MAX_RT_PRIO;
}

/*
 * A minor rotation moves a whole level at once without touching its
 * tasks: every task the active array lists on a closed level is on the
 * current one. Bring @p's fields up to date; a task pushed down starts
 * the new level with a fresh quota. Return: true if @p got one.
 */
static bool sd_fix(struct sd_rq *srq, struct task_struct *p)
{
	struct sd_task *st = sd_task(p);

	if (p->plugsched.array != &srq->active->pa ||
	    p->plugsched.slot >= srq->level || plugsched_task_is_idle(p))
		return false;
	p->plugsched.slot = srq->level;
	st->level = srq->level;
	if (st->quota_level == st->level)
		return false;
	st->quota_level = st->level;
	p->plugsched.slice = sd_quota(p);
	return true;
}

/*
 * @p's quota counts at its level while it is queued there. One joining the
 * current level adds it to the level's budget too, but all joiners
 * together at most as much as the level opened with: tasks coming and
 * going cannot hold a level open for ever.
 */
static void sd_add(struct sd_rq *srq, struct sd_array *arr, struct task_struct *p,
		   unsigned int level)
{
	s64 quota = max_t(s64, p->plugsched.slice, 0);

	/*
	 * A task pulled from a busier CPU, where it got less, goes first;
	 * one moved otherwise queues behind its level like any other. A
	 * kernel thread that woke, or a task back from a sleep of a quota or
	 * more, goes first on the active array: it runs what is left of its
	 * quota at the level before those that stayed runnable there. That
	 * moves no share (the quota is all it gets at the level) and adds at
	 * most a quota per waker to anybody's wait, but a kworker that wakes
	 * once the rotation has reached 50 nice 19 tasks at level 39 no longer
	 * waits for 50 quotas (1.6 s measured). Not every user task that
	 * wakes: hackbench's, all woken first, took 1.2x as long as at the
	 * end of their level. And the sleep alone does not tell a kworker: one
	 * woken twice within 6 ms waited 1.3 s the second time.
	 */
	plugsched_array_add(&arr->pa, p, level, sd_task(p)->pulled == SD_PULLED ||
			    (sd_task(p)->woke && arr == srq->active));
	if (level >= SD_LEVELS)
		return;
	arr->nr[level]++;
	arr->quota[level] += quota;
	if (arr == srq->active && level == srq->level) {
		quota = min(quota, srq->extra);
		srq->budget += quota;
		srq->extra -= quota;
	}
}

/* And no longer once it leaves: a sleeper does not hold a level open. */
static void sd_del(struct sd_rq *srq, struct task_struct *p)
{
	struct sd_array *arr = sd_array_of(p);
	unsigned int level;
	s64 quota;

	sd_fix(srq, p);
	level = p->plugsched.slot;
	quota = max_t(s64, p->plugsched.slice, 0);
	if (level < SD_LEVELS) {
		arr->nr[level]--;
		arr->quota[level] -= quota;
		if (arr == srq->active && level == srq->level)
			srq->budget -= quota;
	}
	plugsched_array_del(p);
}

/* @p starts @level of @arr with a fresh quota. */
static void sd_enter(struct sd_rq *srq, struct sd_array *arr, struct task_struct *p,
		     unsigned int level, s64 quota)
{
	struct sd_task *st = sd_task(p);

	st->level = level;
	st->quota_level = level;
	p->plugsched.slice = quota;
	sd_add(srq, arr, p, level);
}

/* @level becomes the current one: what is queued there is its budget. */
static void sd_open(struct sd_rq *srq, unsigned int level)
{
	srq->level = level;
	srq->budget = srq->active->quota[level];
	srq->extra = srq->budget;
}

/*
 * @p ran @delta ns (its slice is already charged): take it off the quota
 * queued at its level and, at the current level, off the budget.
 */
static void sd_account(struct sd_rq *srq, struct task_struct *p, s64 delta)
{
	struct sd_array *arr = sd_array_of(p);
	unsigned int level;
	s64 before;

	/* Pushed down since it last ran: the time counts at the new level. */
	if (sd_fix(srq, p))
		p->plugsched.slice -= delta;
	level = p->plugsched.slot;
	if (level >= SD_LEVELS)
		return;
	before = p->plugsched.slice + delta;
	arr->quota[level] -= max_t(s64, before, 0) - max_t(s64, p->plugsched.slice, 0);
	if (arr == srq->active && level == srq->level)
		srq->budget -= delta;
}

/* Used every level: wait in the expired array for the next rotation. */
static void sd_expire(struct sd_rq *srq, struct task_struct *p)
{
	struct sd_task *st = sd_task(p);

	st->epoch = srq->epoch + 1;
	sd_enter(srq, srq->expired, p, sd_static_level(p), sd_quota(p));
}

/* The quota at its level is used: one level down (keeping any overrun). */
static void sd_descend(struct sd_rq *srq, struct task_struct *p)
{
	struct sd_task *st = sd_task(p);
	unsigned int level = max(st->level + 1U, srq->level);

	if (level > SD_LOWEST || srq->closed) {
		sd_expire(srq, p);
		return;
	}
	sd_enter(srq, srq->active, p, level, p->plugsched.slice + sd_quota(p));
}

/* Push everybody left on the current level, whose budget is spent, down. */
static void sd_minor_rotation(struct sd_rq *srq)
{
	struct sd_array *arr = srq->active;
	unsigned int from = srq->level, n = arr->nr[from];

	plugsched_array_move_slot(&arr->pa, from, from + 1);
	arr->nr[from + 1] += n;
	arr->nr[from] = 0;
	/* sd_fix() gives each its own quota, scaled in a task group. */
	arr->quota[from + 1] += n * sd_rr();
	arr->quota[from] = 0;
	sd_open(srq, from + 1);
	srq->nr_minor++;
}

/* Nobody is left active: the expired tasks start again at the top. */
static void sd_major_rotation(struct sd_rq *srq)
{
	struct sd_array *old = srq->active;

	swap(srq->active, srq->expired);
	srq->epoch++;
	srq->closed = false;
	memset(old->quota, 0, sizeof(old->quota));
	memset(old->nr, 0, sizeof(old->nr));
	sd_open(srq, 0);
}

/* Nothing is queued but SCHED_IDLE tasks: start afresh. */
static inline bool sd_empty(struct sd_rq *srq)
{
	return !(srq->active->pa.bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT)) &&
	       !(srq->expired->pa.bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT));
}

static void sd_rq_reset(struct sd_rq *srq)
{
	memset(srq, 0, sizeof(*srq));
	plugsched_array_init(&srq->arrays[0].pa);
	plugsched_array_init(&srq->arrays[1].pa);
	srq->active = &srq->arrays[0];
	srq->expired = &srq->arrays[1];
}

static void sd_init_rq(struct plugsched_rq *prq)
{
	sd_rq_reset(sd_rq(prq));
}

/* SD scaled rr_interval with the CPUs: 8 ms x (1 + log2(CPUs)). */
static int sd_init(void)
{
	WRITE_ONCE(sd_rr_interval_ms, SD_RR_BASE_MS * (1 + ilog2(num_possible_cpus())));
	return 0;
}

/* New to the policy (a child too): its own staircase, from the top. */
static void sd_task_init(struct task_struct *p)
{
	struct sd_task *st = sd_task(p);

	st->cpu = -1;
	st->epoch = 0;
	/* As if asleep for long: a task moved in asleep by a switch. */
	st->slept = (u32)jiffies - (U32_MAX >> 1);
	st->level = sd_static_level(p);
	st->quota_level = st->level;
	p->plugsched.slice = sd_quota(p);
}

/* Where the normal task @p joins @prq's staircase. */
static void sd_place(struct plugsched_rq *prq, struct task_struct *p)
{
	struct sd_rq *srq = sd_rq(prq);
	struct sd_task *st = sd_task(p);
	unsigned int level, top = sd_static_level(p);
	s64 rr = sd_quota(p);

	if (st->cpu != prq->cpu) {
		struct sd_rq *old = st->cpu >= 0 ? per_cpu_ptr(&sd_rqs, st->cpu) : NULL;
		u32 old_epoch = old ? READ_ONCE(old->epoch) : 0;

		st->cpu = prq->cpu;
		if (old && st->epoch == old_epoch + 1 && st->pulled != SD_PULLED) {
			/* Used its staircase there: it waits here too. */
			st->epoch = srq->epoch + 1;
			sd_enter(srq, srq->expired, p, top, rr);
			return;
		}
		/*
		 * New, or from another CPU: keep the place on the staircase
		 * unless a rotation passed there; the level counts anew here.
		 */
		if (!old || st->epoch != old_epoch) {
			st->level = top;
			p->plugsched.slice = rr;
		}
		st->epoch = srq->epoch;
		st->quota_level = U8_MAX;
	} else if (st->epoch == srq->epoch + 1) {
		/* Expired in this rotation and slept: back where it was. */
		sd_add(srq, srq->expired, p, top);
		return;
	} else if (st->epoch != srq->epoch) {
		/* A major rotation has passed: a fresh staircase. */
		st->epoch = srq->epoch;
		st->level = top;
		st->quota_level = U8_MAX;
		p->plugsched.slice = rr;
	}

	/* The rotation is ending: wait for the next one. */
	if (srq->closed && st->pulled != SD_PULLED) {
		sd_expire(srq, p);
		return;
	}
	/* Never above its own level (nice may have changed), nor a closed one. */
	level = max3((unsigned int)st->level, top, srq->level);
	/*
	 * Pulled by the balancer from a busier CPU, where it waited: its turn
	 * here, at the current level, even if it had used its staircase or
	 * this rotation is closing. Anywhere else (a lower level, the expired
	 * array) it would only wait again until pulled back, and the other
	 * two of three hogs on two CPUs would keep a CPU each meanwhile.
	 * Moved otherwise (affinity, hotplug): as far below this CPU's current
	 * level as it was below the old one's, for levels pass at different
	 * speeds, and an expired task stays expired: moving gains nothing.
	 */
	if (st->pulled == SD_PULLED)
		level = max(top, srq->level);
	else if (st->pulled)
		level = max(top, min(srq->level + st->lead, (unsigned int)SD_LOWEST));
	if (p->plugsched.slice <= 0) {
		st->level = level;
		sd_descend(srq, p);
	} else if (level == st->quota_level) {
		/* Same level in the same rotation: the quota it left with. */
		sd_add(srq, srq->active, p, level);
	} else if (level == st->level || st->pulled == SD_MOVED) {
		/* Moved: what it had left, for a move is not a new turn. */
		sd_enter(srq, srq->active, p, level, p->plugsched.slice);
	} else {
		/*
		 * Its level closed while it slept: a fresh quota at the
		 * current one, plus, if interactive, what it had left.
		 */
		s64 quota = rr;

		if (READ_ONCE(sd_interactive))
			quota = min(rr + p->plugsched.slice, 2 * rr);
		sd_enter(srq, srq->active, p, level, quota);
	}
}

static void sd_enqueue(struct plugsched_rq *prq, struct task_struct *p,
		       unsigned int flags)
{
	struct sd_rq *srq = sd_rq(prq);
	struct sd_task *st = sd_task(p);
	bool fresh;

	st->pulled = flags & PLUGSCHED_ENQ_PULLED ? SD_PULLED :
		     flags & PLUGSCHED_ENQ_MIGRATED ? SD_MOVED : 0;
	if (plugsched_task_is_idle(p)) {
		st->cpu = prq->cpu;
		p->plugsched.slice = sd_quota(p);
		plugsched_array_add(&srq->active->pa, p, PLUGSCHED_IDLE_SLOT, false);
		return;
	}
	/*
	 * The CPU ran out of work: a new rotation, so that the first task
	 * back does not find its levels closed and their budgets spent.
	 */
	fresh = sd_empty(srq);
	if (fresh)
		sd_major_rotation(srq);
	/* SCHED_BATCH asks for throughput: it waits its turn when it wakes. */
	st->woke = flags & PLUGSCHED_ENQ_WAKEUP && p->policy != SCHED_BATCH &&
		   ((p->flags & PF_KTHREAD) ||
		    (u32)jiffies - st->slept >= msecs_to_jiffies(READ_ONCE(sd_rr_interval_ms)));
	sd_place(prq, p);
	st->woke = 0;
	if (fresh)
		sd_open(srq, srq->level);
}

static void sd_dequeue(struct plugsched_rq *prq, struct task_struct *p,
		       unsigned int flags)
{
	struct sd_rq *srq = sd_rq(prq);
	struct sd_task *st = sd_task(p);

	st->pulled = 0;
	sd_del(srq, p);
	if (flags & PLUGSCHED_DEQ_SLEEP)
		st->slept = jiffies;
	if (flags & PLUGSCHED_DEQ_MIGRATE)
		st->lead = st->level - min_t(unsigned int, srq->level, st->level);
}

static struct task_struct *sd_pick(struct plugsched_rq *prq)
{
	struct sd_rq *srq = sd_rq(prq);
	unsigned int first;

	if (!(srq->active->pa.bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT)) &&
	    srq->expired->pa.nr_queued)
		sd_major_rotation(srq);
	/* Levels nobody is on any more are closed for this rotation. */
	first = plugsched_array_first_slot(&srq->active->pa);
	if (first < SD_LEVELS && first > srq->level)
		sd_open(srq, first);
	return plugsched_array_first(&srq->active->pa);
}

/* Running at a level spends the level's budget too. */
static void sd_charge(struct plugsched_rq *prq, struct task_struct *p, u64 delta)
{
	if (!p->plugsched.array || plugsched_task_is_idle(p))
		return;
	sd_account(sd_rq(prq), p, delta);
}

static bool sd_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	struct sd_rq *srq = sd_rq(prq);

	sd_task(p)->pulled = 0;
	if (plugsched_task_is_idle(p)) {
		p->plugsched.slice = sd_quota(p);
		plugsched_array_requeue(p);
		return true;
	}
	sd_del(srq, p);
	sd_descend(srq, p);
	return true;
}

/*
 * The current level's budget is spent: a minor rotation; at the lowest
 * level, if tasks wait in the expired array, nobody joins the active array
 * any more (else the level goes on with what is queued on it now).
 */
static bool sd_rotate(struct sd_rq *srq)
{
	unsigned int level = srq->level;

	if (srq->budget > 0 || !srq->active->nr[level] || srq->closed)
		return false;
	if (level < SD_LOWEST) {
		sd_minor_rotation(srq);
		return true;
	}
	if (srq->expired->pa.bitmap & ~BIT_ULL(PLUGSCHED_IDLE_SLOT)) {
		srq->closed = true;
		srq->nr_closed++;
	} else {
		sd_open(srq, level);
	}
	return false;
}

static bool sd_tick(struct plugsched_rq *prq, struct task_struct *p)
{
	return sd_rotate(sd_rq(prq));
}

/* Expired tasks rank below every active level. */
static unsigned int sd_rank(struct sd_rq *srq, struct task_struct *p)
{
	sd_fix(srq, p);
	if (p->plugsched.array != &srq->active->pa)
		return SD_LEVELS + p->plugsched.slot;
	return p->plugsched.slot;
}

/*
 * A woken task preempts from a better level; a task the balancer just
 * pulled here also from the same one, so that the tasks of a busier and a
 * less busy CPU take turns on the less busy one instead of one keeping it.
 */
static bool sd_preempt(struct plugsched_rq *prq, struct task_struct *curr,
		       struct task_struct *p)
{
	struct sd_rq *srq = sd_rq(prq);
	bool pulled = sd_task(p)->pulled;

	sd_task(p)->pulled = 0;
	if (pulled)
		return sd_rank(srq, p) <= sd_rank(srq, curr);
	return sd_rank(srq, p) < sd_rank(srq, curr);
}

/*
 * sched_yield(): the rest of its quota at this level is given up, one
 * level down. Requeued at the end of its level instead, a yielder spent
 * next to nothing of its quota and never left the level: 16 unprivileged
 * tasks yielding in a loop kept a hog a level below them to 0.06 of the
 * CPU (eevdf: 0.71).
 */
static void sd_yield(struct plugsched_rq *prq, struct task_struct *p)
{
	struct sd_rq *srq = sd_rq(prq);

	sd_fix(srq, p);
	if (plugsched_task_is_idle(p) || p->plugsched.array != &srq->active->pa) {
		plugsched_array_requeue(p);
		return;
	}
	sd_del(srq, p);
	p->plugsched.slice = 0;
	sd_descend(srq, p);
}

static struct task_struct *sd_migration_candidate(struct plugsched_rq *src,
						  int dst_cpu, bool idle)
{
	struct sd_rq *srq = sd_rq(src);
	struct task_struct *p;

	p = plugsched_array_migratable(src, &srq->active->pa, dst_cpu, idle);
	if (!p)
		p = plugsched_array_migratable(src, &srq->expired->pa, dst_cpu, idle);
	return p;
}

static unsigned int sd_count(struct plugsched_rq *prq)
{
	struct sd_rq *srq = sd_rq(prq);
	unsigned int a = plugsched_array_count(&srq->active->pa);
	unsigned int e = plugsched_array_count(&srq->expired->pa);

	return a == UINT_MAX || e == UINT_MAX ? UINT_MAX : a + e;
}

static u64 sd_rr_interval(struct task_struct *p)
{
	return sd_quota(p);
}

/*
 * The design's longest wait among @nr tasks (selftests' sdbound): one
 * quantum for each level of every other task's above one's own (39 at
 * most: nice -20 against nice 19), and two rounds at the ends of a
 * rotation; a quantum is rr_interval, and up to a tick more, as the tick
 * ends it.
 */
static u64 sd_wait_bound(unsigned int nr)
{
	u64 quantum = (u64)READ_ONCE(sd_rr_interval_ms) * NSEC_PER_MSEC + TICK_NSEC;

	return quantum * (SD_LEVELS + 1) * (max(nr, 2U) - 1);
}

static void sd_dump(struct plugsched_rq *prq, struct task_struct *p)
{
	struct sd_rq *srq = sd_rq(prq);
	struct sd_task *st = sd_task(p);
	unsigned int l = srq->level;

	pr_err("sd: level %u%s (budget %lld of %lld ns queued, %u tasks), active %u, expired %u queued, epoch %u, %lu minor rotations, %lu closed early\n",
	       l, srq->closed ? " closed" : "", srq->budget, srq->active->quota[l],
	       srq->active->nr[l], srq->active->pa.nr_queued, srq->expired->pa.nr_queued,
	       srq->epoch, srq->nr_minor, srq->nr_closed);
	pr_err("sd: %s/%d in the %s array, level %u, quota level %u, epoch %u, cpu %d\n",
	       p->comm, task_pid_nr(p),
	       p->plugsched.array == &srq->active->pa ? "active" :
	       p->plugsched.array == &srq->expired->pa ? "expired" : "unknown",
	       st->level, st->quota_level, st->epoch, st->cpu);
}

static void sd_show_task(struct seq_file *m, struct task_struct *p)
{
	struct sd_task *st = sd_task(p);
	int level = st->level;

	/* Like ps under SD: an expired task shows a level above 39. */
	if (st->cpu >= 0 && p->plugsched.array &&
	    p->plugsched.array == &per_cpu_ptr(&sd_rqs, st->cpu)->expired->pa)
		level += SD_LEVELS;
	seq_printf(m, "%-45s:%21d\n", "sd.level", level);
	seq_printf(m, "%-45s:%21lld\n", "sd.quota_ns", p->plugsched.slice);
	seq_printf(m, "%-45s:%21u\n", "sd.static_level", sd_static_level(p));
}

static struct plugsched_ops plugsched_sd_ops __ro_after_init = {
	.name			= "sd",
	.knobs			= sd_knobs,
	.nr_knobs		= ARRAY_SIZE(sd_knobs),
	.balance_ms		= 8,
	.idle_balance_ms	= 1,
	.imbalance_pct		= 125,
	.init			= sd_init,
	.init_rq		= sd_init_rq,
	.task_init		= sd_task_init,
	.enqueue		= sd_enqueue,
	.dequeue		= sd_dequeue,
	.pick			= sd_pick,
	.charge			= sd_charge,
	.slice_expired		= sd_slice_expired,
	.tick			= sd_tick,
	.preempt		= sd_preempt,
	.yield			= sd_yield,
	.migration_candidate	= sd_migration_candidate,
	.rr_interval		= sd_rr_interval,
	.show_task		= sd_show_task,
	.count			= sd_count,
	.dump			= sd_dump,
	.wait_bound		= sd_wait_bound,
};

PLUGSCHED_POLICY(plugsched_sd_ops);

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_sd_kunit.c"
#endif
