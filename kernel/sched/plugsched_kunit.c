// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the core's checks: a policy is validated before it is
 * trusted, and the core's phases move only along the state machine's
 * transitions, and the arithmetic of slices and of the utilisation
 * signal. Included by plugsched_register.c.
 *
 * Two broken policies are registered for real: the core must refuse them
 * at boot (and say why in the log), so that they never show in
 * /sys/kernel/plugsched/available nor answer to sched=.
 */
#include <kunit/test.h>

#include "pelt.h"

static int kunit_knob_a, kunit_knob_b;

static void kunit_init_rq(struct plugsched_rq *prq)
{
}

static void kunit_task_init(struct task_struct *p)
{
}

static void kunit_enqueue(struct plugsched_rq *prq, struct task_struct *p, unsigned int flags)
{
}

static void kunit_dequeue(struct plugsched_rq *prq, struct task_struct *p, unsigned int flags)
{
}

static struct task_struct *kunit_pick(struct plugsched_rq *prq)
{
	return NULL;
}

static bool kunit_slice_expired(struct plugsched_rq *prq, struct task_struct *p)
{
	return true;
}

static bool kunit_preempt(struct plugsched_rq *prq, struct task_struct *curr,
			  struct task_struct *p)
{
	return false;
}

static void kunit_yield(struct plugsched_rq *prq, struct task_struct *p)
{
}

static struct task_struct *kunit_candidate(struct plugsched_rq *src, int dst_cpu, bool idle)
{
	return NULL;
}

static const char * const kunit_modes[] = { "one", "two", NULL };

/* A well-formed policy with two knobs, for each test to break once. */
static void kunit_good_ops(struct plugsched_ops *ops, struct plugsched_knob *knobs)
{
	knobs[0] = (struct plugsched_knob){
		.name = "kunit_slice_ms", .unit = "ms", .value = &kunit_knob_a,
		.min = 1, .max = 100, .def = 10,
	};
	knobs[1] = (struct plugsched_knob){
		.name = "kunit_mode", .value = &kunit_knob_b,
		.min = 0, .max = 1, .def = 0, .choices = kunit_modes,
	};
	*ops = (struct plugsched_ops){
		.name = "kunit_good", .knobs = knobs, .nr_knobs = 2,
		.balance_ms = 100, .idle_balance_ms = 1, .imbalance_pct = 125,
		.init_rq = kunit_init_rq, .task_init = kunit_task_init,
		.enqueue = kunit_enqueue, .dequeue = kunit_dequeue,
		.pick = kunit_pick, .slice_expired = kunit_slice_expired,
		.preempt = kunit_preempt, .yield = kunit_yield,
		.migration_candidate = kunit_candidate,
	};
}

static void kunit_expect_refused(struct kunit *test, const struct plugsched_ops *ops,
				 const char *reason)
{
	char why[128] = "";

	KUNIT_EXPECT_EQ(test, plugsched_validate_ops(ops, why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, reason), "reason \"%s\", expected \"%s\"",
				  why, reason);
}

static void plugsched_test_validate_ops(struct kunit *test)
{
	struct plugsched_knob knobs[2];
	struct plugsched_ops ops;
	char why[128] = "";

	kunit_good_ops(&ops, knobs);
	KUNIT_EXPECT_EQ_MSG(test, plugsched_validate_ops(&ops, why, sizeof(why)), 0,
			    "refused: %s", why);

	kunit_good_ops(&ops, knobs);
	ops.name = NULL;
	kunit_expect_refused(test, &ops, "name \"(null)\"");
	ops.name = "Kunit";
	kunit_expect_refused(test, &ops, "name \"Kunit\" is not 1..15 of [a-z0-9_]");
	ops.name = "kunit_name_too_long";
	kunit_expect_refused(test, &ops, "is not 1..15");
	ops.name = "eevdf";
	kunit_expect_refused(test, &ops, "mainline's");

	kunit_good_ops(&ops, knobs);
	ops.pick = NULL;
	kunit_expect_refused(test, &ops, "no pick callback");
	kunit_good_ops(&ops, knobs);
	ops.migration_candidate = NULL;
	kunit_expect_refused(test, &ops, "no migration_candidate callback");

	kunit_good_ops(&ops, knobs);
	ops.balance_ms = 0;
	kunit_expect_refused(test, &ops, "balance_ms 0 is not in 1..10000");
	kunit_good_ops(&ops, knobs);
	ops.idle_balance_ms = 20000;
	kunit_expect_refused(test, &ops, "idle_balance_ms 20000");
	kunit_good_ops(&ops, knobs);
	ops.imbalance_pct = 99;
	kunit_expect_refused(test, &ops, "imbalance_pct 99 is not in 100..1000");
}

static void plugsched_test_validate_knobs(struct kunit *test)
{
	struct plugsched_knob knobs[2];
	struct plugsched_ops ops;

	kunit_good_ops(&ops, knobs);
	knobs[0].def = 101;
	kunit_expect_refused(test, &ops,
			     "knob kunit_slice_ms: not min <= def <= max (1, 101, 100)");
	kunit_good_ops(&ops, knobs);
	knobs[0].min = 200;
	kunit_expect_refused(test, &ops, "not min <= def <= max");
	kunit_good_ops(&ops, knobs);
	knobs[1].name = "kunit_slice_ms";
	kunit_expect_refused(test, &ops, "knob kunit_slice_ms: declared twice");
	kunit_good_ops(&ops, knobs);
	knobs[1].name = "kunit/mode";
	kunit_expect_refused(test, &ops, "knob 1: name \"kunit/mode\"");
	kunit_good_ops(&ops, knobs);
	knobs[1].name = PLUGSCHED_WATCHDOG_KNOB;
	kunit_expect_refused(test, &ops, "the core's own");
	kunit_good_ops(&ops, knobs);
	knobs[0].value = NULL;
	kunit_expect_refused(test, &ops, "knob kunit_slice_ms: no variable");
	kunit_good_ops(&ops, knobs);
	knobs[1].max = 2;
	kunit_expect_refused(test, &ops, "must index its 2 choices");
	kunit_good_ops(&ops, knobs);
	knobs[1].zero_off = true;
	kunit_expect_refused(test, &ops, "knob kunit_mode: choices cannot be off");
	kunit_good_ops(&ops, knobs);
	ops.knobs = NULL;
	kunit_expect_refused(test, &ops, "knobs counted but not given");
}

/* Registered for real: the core must refuse both at boot. */
static struct plugsched_ops kunit_nopick_ops __ro_after_init = {
	.name = "kunit_nopick",
	.balance_ms = 100, .idle_balance_ms = 1, .imbalance_pct = 125,
	.init_rq = kunit_init_rq, .task_init = kunit_task_init,
	.enqueue = kunit_enqueue, .dequeue = kunit_dequeue,
	.slice_expired = kunit_slice_expired, .preempt = kunit_preempt,
	.yield = kunit_yield, .migration_candidate = kunit_candidate,
};

PLUGSCHED_POLICY(kunit_nopick_ops);

static const struct plugsched_knob kunit_bad_knobs[] = {
	{ .name = "kunit_bad_knob", .value = &kunit_knob_a, .min = 0, .max = 10, .def = 11 },
};

static struct plugsched_ops kunit_badknob_ops __ro_after_init = {
	.name = "kunit_badknob", .knobs = kunit_bad_knobs, .nr_knobs = 1,
	.balance_ms = 100, .idle_balance_ms = 1, .imbalance_pct = 125,
	.init_rq = kunit_init_rq, .task_init = kunit_task_init,
	.enqueue = kunit_enqueue, .dequeue = kunit_dequeue, .pick = kunit_pick,
	.slice_expired = kunit_slice_expired, .preempt = kunit_preempt,
	.yield = kunit_yield, .migration_candidate = kunit_candidate,
};

PLUGSCHED_POLICY(kunit_badknob_ops);

static void plugsched_test_refused_at_boot(struct kunit *test)
{
	const struct plugsched_ops *ops;
	char why[128], list[PLUGSCHED_MAX_POLICIES * (PLUGSCHED_NAME_MAX + 1) + 8];
	unsigned int i;

	KUNIT_EXPECT_NULL(test, plugsched_find("kunit_nopick"));
	KUNIT_EXPECT_NULL(test, plugsched_find("kunit_badknob"));
	plugsched_list_choices(list, sizeof(list));
	KUNIT_EXPECT_NULL(test, strstr(list, "kunit"));
	/* Every policy listed passed, and is found by its name. */
	for (i = 0; (ops = plugsched_policy(i)); i++) {
		KUNIT_EXPECT_EQ_MSG(test, plugsched_validate_ops(ops, why, sizeof(why)), 0,
				    "%s: %s", ops->name, why);
		KUNIT_EXPECT_PTR_EQ(test, plugsched_find(ops->name), ops);
	}
}

static void plugsched_test_phases(struct kunit *test)
{
	static const u8 legal[PLUGSCHED_NR_PHASES] = {
		[PLUGSCHED_PHASE_MAINLINE]	= BIT(PLUGSCHED_PHASE_ENABLING) |
						  BIT(PLUGSCHED_PHASE_FALLBACK),
		[PLUGSCHED_PHASE_ENABLING]	= BIT(PLUGSCHED_PHASE_ENABLED) |
						  BIT(PLUGSCHED_PHASE_DISABLING),
		[PLUGSCHED_PHASE_ENABLED]	= BIT(PLUGSCHED_PHASE_DISABLING),
		[PLUGSCHED_PHASE_DISABLING]	= BIT(PLUGSCHED_PHASE_MAINLINE),
		[PLUGSCHED_PHASE_FALLBACK]	= BIT(PLUGSCHED_PHASE_ENABLING) |
						  BIT(PLUGSCHED_PHASE_FALLBACK),
	};
	int from, to;

	for (from = 0; from <= PLUGSCHED_NR_PHASES; from++)
		for (to = 0; to <= PLUGSCHED_NR_PHASES; to++)
			KUNIT_EXPECT_EQ_MSG(test, plugsched_phase_allowed(from, to),
					    from < PLUGSCHED_NR_PHASES &&
					    to < PLUGSCHED_NR_PHASES &&
					    !!(legal[from] & BIT(to)), "%d -> %d", from, to);
	/* After boot the core rests: never half way through a switch. */
	KUNIT_EXPECT_NE(test, plugsched_phase(), PLUGSCHED_PHASE_ENABLING);
	KUNIT_EXPECT_NE(test, plugsched_phase(), PLUGSCHED_PHASE_DISABLING);
	KUNIT_EXPECT_EQ(test, plugsched_phase() == PLUGSCHED_PHASE_ENABLED, !!plugsched_cur_ops);
}

/*
 * The watchdog's windows: the limit follows the harmonic mean of the
 * ticks' design bounds over the current window and the two before, each
 * bound at least the limit, and a window lasts the limit.
 */
static void plugsched_test_watch_windows(struct kunit *test)
{
	unsigned long limit = msecs_to_jiffies(3000), t = 1000, i;
	struct plugsched_rq prq = { .watch_rotate = t };

	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), limit);
	/* Bounds under the limit leave it as it is. */
	for (i = 0; i < 10; i++)
		plugsched_watch_window(&prq, NSEC_PER_SEC, limit, t + i);
	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), limit);
	KUNIT_EXPECT_EQ(test, prq.watch_rotate, t + limit);
	/* A load that lasts: 10 s, so 11 s (+ two ticks) from its first tick. */
	t += limit;
	plugsched_watch_window(&prq, 10ULL * NSEC_PER_SEC, limit, t);
	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), msecs_to_jiffies(11000) + 2);
	for (i = 1; i < limit; i++)
		plugsched_watch_window(&prq, 10ULL * NSEC_PER_SEC, limit, t + i);
	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), msecs_to_jiffies(11000) + 2);
	/* It holds two windows after the load is gone: a wait begun then. */
	t += limit;
	for (i = 0; i < 2 * limit; i++)
		plugsched_watch_window(&prq, NSEC_PER_SEC, limit, t + i);
	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), msecs_to_jiffies(11000) + 2);
	/* Then only the user's limit is left. */
	t += 2 * limit;
	plugsched_watch_window(&prq, NSEC_PER_SEC, limit, t);
	KUNIT_EXPECT_EQ(test, plugsched_watch_limit(&prq, limit), limit);
	/*
	 * One tick of a burst, a bound of ten hours, among the window's
	 * 3,000 at the limit: the window's bound is 3 s x 3000 / 2999.9,
	 * 3.001 s, nowhere near hours (a highest-bound rule gave 11 hours).
	 */
	t += limit;
	plugsched_watch_window(&prq, 36000ULL * NSEC_PER_SEC, limit, t);
	for (i = 1; i < limit; i++)
		plugsched_watch_window(&prq, NSEC_PER_SEC, limit, t + i);
	KUNIT_EXPECT_LE(test, plugsched_watch_limit(&prq, limit), msecs_to_jiffies(3302) + 2);
	KUNIT_EXPECT_EQ(test, prq.watch_rotate, t + limit);
}

/* A refilled slice pays the overrun of the last one, at most half of it. */
static void plugsched_test_refill_slice(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	s64 ns = 4 * NSEC_PER_MSEC;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, plugsched_refill_slice(p, ns), ns);
	p->plugsched.slice = 300000;
	KUNIT_EXPECT_EQ(test, plugsched_refill_slice(p, ns), ns);
	p->plugsched.slice = -300000;
	KUNIT_EXPECT_EQ(test, plugsched_refill_slice(p, ns), ns - 300000);
	p->plugsched.slice = -3 * ns;
	KUNIT_EXPECT_EQ(test, plugsched_refill_slice(p, ns), ns / 2);
}

/*
 * A long wait among many tasks, the others in a small group's share: the
 * product of the three is over 64 bits, the answer (256 x @wait) is not.
 */
static void plugsched_test_scale_wait(struct kunit *test)
{
	struct plugsched_rq *prq = kunit_kzalloc(test, sizeof(*prq), GFP_KERNEL);
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	u64 wait = 600ULL * NSEC_PER_SEC;

	KUNIT_ASSERT_NOT_NULL(test, prq);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->se.load.weight = NICE_0_LOAD;
	p->plugsched.load = 4 * SCHED_CAPACITY_SCALE;
	prq->nr_running = 65536;
	prq->units = 4 * SCHED_CAPACITY_SCALE + 65535ul * (SCHED_CAPACITY_SCALE / 64);
	KUNIT_EXPECT_EQ(test, plugsched_task_units(p), 4 * SCHED_CAPACITY_SCALE);
	KUNIT_EXPECT_EQ(test, plugsched_scale_wait(prq, p, wait), 256 * wait);
	/* Every task counts as one: the wait as it is. */
	prq->units = 65536ul * SCHED_CAPACITY_SCALE;
	p->plugsched.load = scale_load_down(NICE_0_LOAD);
	KUNIT_EXPECT_EQ(test, plugsched_scale_wait(prq, p, wait), wait);
}

#ifdef CONFIG_SMP
/* The plugged tasks' signal: near 1024 on a hog's CPU, halving in 32 ms idle. */
static void plugsched_test_util(struct kunit *test)
{
	struct sched_avg *sa = kunit_kzalloc(test, sizeof(*sa), GFP_KERNEL);
	unsigned long u0;
	u64 now = 0;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sa);
	for (i = 0; i < 400; i++) {
		now += 1 << 20;		/* a PELT period, 1024 us */
		update_plug_load_avg(now, sa, 1024, 1, 1);
	}
	KUNIT_EXPECT_GE(test, sa->util_avg, 1002UL);
	KUNIT_EXPECT_GE(test, sa->runnable_avg, 1002UL);
	u0 = sa->util_avg;
	for (i = 0; i < 32; i++) {
		now += 1 << 20;
		update_plug_load_avg(now, sa, 0, 0, 0);
	}
	KUNIT_EXPECT_LE(test, abs((long)sa->util_avg - (long)(u0 / 2)), 8L);
	/* The lock-free read's decay of an idle CPU's signal agrees. */
	KUNIT_EXPECT_LE(test, abs((long)plugsched_util_decay(u0, 32) - (long)(u0 / 2)), 2L);
	KUNIT_EXPECT_LE(test, abs((long)plugsched_util_decay(u0, 64) - (long)(u0 / 4)), 2L);
	KUNIT_EXPECT_EQ(test, plugsched_util_decay(u0, LOAD_AVG_PERIOD * 63 + 1), 0ULL);
}
#endif

static struct kunit_case plugsched_core_test_cases[] = {
	KUNIT_CASE(plugsched_test_validate_ops),
	KUNIT_CASE(plugsched_test_validate_knobs),
	KUNIT_CASE(plugsched_test_refused_at_boot),
	KUNIT_CASE(plugsched_test_phases),
	KUNIT_CASE(plugsched_test_watch_windows),
	KUNIT_CASE(plugsched_test_refill_slice),
	KUNIT_CASE(plugsched_test_scale_wait),
#ifdef CONFIG_SMP
	KUNIT_CASE(plugsched_test_util),
#endif
	{}
};

static struct kunit_suite plugsched_core_test_suite = {
	.name = "plugsched_core",
	.test_cases = plugsched_core_test_cases,
};

kunit_test_suite(plugsched_core_test_suite);
