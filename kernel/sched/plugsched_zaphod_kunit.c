// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Zaphod policy's pure logic: the interactive and
 * throughput bonuses, the entitlement level and the promotion step.
 * Included by plugsched_zaphod.c so that the static helpers are tested as
 * they are built.
 */
#include <kunit/test.h>

#define ZT_MS	NSEC_PER_MSEC

/* A task running 1 ms and sleeping 9 ms a cycle nears 9 * 0.9 = 8.1. */
static void zaphod_test_ia_rises(struct kunit *test)
{
	unsigned int bonus = 1000;
	u64 cpu = 0, sleep = 0;
	int i;

	for (i = 0; i < 100; i++) {
		cpu = zaphod_avg(cpu, 1 * ZT_MS);
		sleep = zaphod_avg(sleep, 9 * ZT_MS + 100000);
		bonus = zaphod_ia_next(bonus, cpu, sleep, 0, true, 9, 900, 900);
	}
	KUNIT_EXPECT_GE(test, bonus, 8000U);
	KUNIT_EXPECT_LE(test, bonus, 8200U);
	/* Never above max_ia_bonus * sleep ratio. */
	for (i = 0; i < 100; i++)
		bonus = zaphod_ia_next(bonus, cpu, sleep, 0, true, 9, 900, 900);
	KUNIT_EXPECT_LE(test, bonus, 8200U);
}

/* Below the threshold the bonus stays where it is, up or down. */
static void zaphod_test_ia_keeps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, zaphod_ia_next(5000, 50 * ZT_MS, 50 * ZT_MS, 0, true,
					     9, 900, 900), 5000U);
	KUNIT_EXPECT_EQ(test, zaphod_ia_next(0, 50 * ZT_MS, 50 * ZT_MS, 0, true,
					     9, 900, 900), 0U);
	/* A lower threshold lets the same task rise. */
	KUNIT_EXPECT_GT(test, zaphod_ia_next(0, 50 * ZT_MS, 50 * ZT_MS, 0, true,
					     9, 400, 900), 0U);
}

/* A hog loses it: a cycle without sleep, or CPU over the hog threshold. */
static void zaphod_test_ia_decays(struct kunit *test)
{
	unsigned int bonus = 9000;
	int i;

	for (i = 0; i < 100; i++)
		bonus = zaphod_ia_next(bonus, 100 * ZT_MS, 0, 300 * ZT_MS, false,
				       9, 900, 900);
	KUNIT_EXPECT_EQ(test, bonus, 0U);
	KUNIT_EXPECT_LT(test, zaphod_ia_next(8000, 95 * ZT_MS, 1 * ZT_MS, 4 * ZT_MS,
					     true, 9, 900, 900), 8000U);
}

static void zaphod_test_tpt(struct kunit *test)
{
	/* Never waited: nothing. Only waited: all of it. */
	KUNIT_EXPECT_EQ(test, zaphod_tpt(10 * ZT_MS, 0, 5, 4), 0U);
	KUNIT_EXPECT_EQ(test, zaphod_tpt(0, 10 * ZT_MS, 5, 4), 4U);
	/* 300 ms waited for 100 ms run among 5: 4 * 300 / 800 = 1.5 -> 2. */
	KUNIT_EXPECT_EQ(test, zaphod_tpt(100 * ZT_MS, 300 * ZT_MS, 5, 4), 2U);
	KUNIT_EXPECT_EQ(test, zaphod_tpt(100 * ZT_MS, 300 * ZT_MS, 5, 0), 0U);
	KUNIT_EXPECT_EQ(test, zaphod_tpt(0, 0, 0, 9), 0U);
}

/* eb: use over time, per share, against the yardstick, 0 .. 39. */
static void zaphod_test_eb_level(struct kunit *test)
{
	u64 hog0 = zaphod_use_per_share(1000, 1024);
	u64 hog5 = zaphod_use_per_share(1000, 335);

	/* A cycle weighs by its length against a 10 s window. */
	KUNIT_EXPECT_EQ(test, zaphod_use_next(0, 100 * ZT_MS, 0, 0), 9U);
	KUNIT_EXPECT_EQ(test, zaphod_use_next(1000, 100 * ZT_MS, 0, 900 * ZT_MS), 919U);
	KUNIT_EXPECT_EQ(test, zaphod_use_next(500, 0, 0, 0), 500U);

	/* The same use counts three times as much with a third of the weight. */
	KUNIT_EXPECT_EQ(test, hog5 / hog0, 3ULL);
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(hog5, hog5), ZAPHOD_LEVELS - 1U);
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(hog0, hog5), 0U);
	/* The top half of the yardstick spreads over the levels. */
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(750000, 1000000), 20U);
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(900000, 1000000), 31U);
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(2000000, 1000000), ZAPHOD_LEVELS - 1U);
	KUNIT_EXPECT_EQ(test, zaphod_eb_level(hog0, 0), 0U);
	KUNIT_EXPECT_EQ(test, zaphod_use_per_share(0, 1024), 0ULL);
}

/* One promotion: every list one slot up in order, the top one stays. */
static void zaphod_test_promote(struct kunit *test)
{
	static const unsigned int slots[] = { 0, 1, 1, 30, 58 };
	struct zaphod_rq *zrq = kunit_kzalloc(test, sizeof(*zrq), GFP_KERNEL);
	struct task_struct *t;
	unsigned int i, n = ARRAY_SIZE(slots);

	KUNIT_ASSERT_NOT_NULL(test, zrq);
	t = kunit_kcalloc(test, n + 1, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	plugsched_array_init(&zrq->pa);
	for (i = 0; i < n; i++) {
		INIT_LIST_HEAD(&t[i].plugsched.run_list);
		t[i].policy = SCHED_NORMAL;
		plugsched_array_add(&zrq->pa, &t[i], slots[i], false);
	}
	/* A SCHED_IDLE task is not promoted. */
	INIT_LIST_HEAD(&t[n].plugsched.run_list);
	t[n].policy = SCHED_IDLE;
	plugsched_array_add(&zrq->pa, &t[n], PLUGSCHED_IDLE_SLOT, false);

	zaphod_promote(zrq);
	KUNIT_EXPECT_EQ(test, zrq->promotions, 1U);
	KUNIT_EXPECT_EQ(test, plugsched_array_count(&zrq->pa), n + 1);
	for (i = 0; i <= n; i++)
		zaphod_fix(zrq, &t[i]);
	KUNIT_EXPECT_EQ(test, t[0].plugsched.slot, 0);
	KUNIT_EXPECT_EQ(test, t[1].plugsched.slot, 0);
	KUNIT_EXPECT_EQ(test, t[3].plugsched.slot, 29);
	KUNIT_EXPECT_EQ(test, t[4].plugsched.slot, 57);
	KUNIT_EXPECT_EQ(test, t[n].plugsched.slot, PLUGSCHED_IDLE_SLOT);
	/* The top slot's own task stays first; the promoted join behind it. */
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&zrq->pa), &t[0]);

	/* Forty more: a task caught up late lands where its list went. */
	for (i = 0; i < 40; i++)
		zaphod_promote(zrq);
	zaphod_fix(zrq, &t[4]);
	zaphod_fix(zrq, &t[3]);
	KUNIT_EXPECT_EQ(test, t[4].plugsched.slot, 17);
	KUNIT_EXPECT_EQ(test, t[3].plugsched.slot, 0);
	KUNIT_EXPECT_EQ(test, zrq->pa.bitmap,
			BIT_ULL(0) | BIT_ULL(17) | BIT_ULL(PLUGSCHED_IDLE_SLOT));
	/* And can be removed from there. */
	plugsched_array_del(&t[4]);
	KUNIT_EXPECT_EQ(test, zrq->pa.bitmap, BIT_ULL(0) | BIT_ULL(PLUGSCHED_IDLE_SLOT));
}

/*
 * The design bound the watchdog follows, at the defaults with 38 runnable
 * tasks (make torture's load): 58 promotions of 37 x 255 ms, then 37
 * slices of 100 ms, each with a tick: 551 s at HZ=1000.
 */
static void zaphod_test_wait_bound(struct kunit *test)
{
	int promo = READ_ONCE(zaphod_promotion_ms), slice = READ_ONCE(zaphod_time_slice_ms);

	WRITE_ONCE(zaphod_promotion_ms, 255);
	WRITE_ONCE(zaphod_time_slice_ms, 100);
	KUNIT_EXPECT_EQ(test, zaphod_wait_bound(38),
			58 * (37 * 255 * NSEC_PER_MSEC + TICK_NSEC) +
			37 * (100 * NSEC_PER_MSEC + TICK_NSEC));
	if (HZ == 1000)
		KUNIT_EXPECT_EQ(test, zaphod_wait_bound(38), 551025000000ULL);
	/* Nothing waits for nobody; more tasks, longer waits. */
	KUNIT_EXPECT_EQ(test, zaphod_wait_bound(0), zaphod_wait_bound(2));
	KUNIT_EXPECT_GT(test, zaphod_wait_bound(39), zaphod_wait_bound(38));
	WRITE_ONCE(zaphod_promotion_ms, promo);
	WRITE_ONCE(zaphod_time_slice_ms, slice);
}

static struct kunit_case plugsched_zaphod_test_cases[] = {
	KUNIT_CASE(zaphod_test_ia_rises),
	KUNIT_CASE(zaphod_test_ia_keeps),
	KUNIT_CASE(zaphod_test_ia_decays),
	KUNIT_CASE(zaphod_test_tpt),
	KUNIT_CASE(zaphod_test_eb_level),
	KUNIT_CASE(zaphod_test_promote),
	KUNIT_CASE(zaphod_test_wait_bound),
	{}
};

static struct kunit_suite plugsched_zaphod_test_suite = {
	.name = "plugsched_zaphod",
	.test_cases = plugsched_zaphod_test_cases,
};

kunit_test_suite(plugsched_zaphod_test_suite);
