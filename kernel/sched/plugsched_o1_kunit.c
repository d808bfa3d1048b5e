// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the O(1) policy's formulas and of the plugsched priority
 * array. Included by plugsched_o1.c so that the static helpers are tested
 * as they are built.
 */
#include <kunit/test.h>

static void o1_test_timeslice(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, o1_timeslice_ns(NICE_TO_PRIO(-20), 100), 800 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, o1_timeslice_ns(NICE_TO_PRIO(0), 100), 100 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, o1_timeslice_ns(NICE_TO_PRIO(19), 100), 5 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, o1_timeslice_ns(NICE_TO_PRIO(10), 100), 50 * NSEC_PER_MSEC);
	/* Never below MIN_TIMESLICE, whatever the knob. */
	KUNIT_EXPECT_EQ(test, o1_timeslice_ns(NICE_TO_PRIO(19), 5), 5 * NSEC_PER_MSEC);
}

static void o1_test_bonus(struct kunit *test)
{
	int sp = NICE_TO_PRIO(0);

	/* No sleep: 5 levels worse; a full sleep_avg: 5 levels better. */
	KUNIT_EXPECT_EQ(test, o1_effective_prio(sp, 0), sp + 5);
	KUNIT_EXPECT_EQ(test, o1_effective_prio(sp, O1_MAX_SLEEP_AVG), sp - 5);
	KUNIT_EXPECT_EQ(test, o1_effective_prio(sp, O1_MAX_SLEEP_AVG / 2), sp);
	/* Clamped to the normal range. */
	KUNIT_EXPECT_EQ(test, o1_effective_prio(NICE_TO_PRIO(-20), O1_MAX_SLEEP_AVG),
			MAX_RT_PRIO);
	KUNIT_EXPECT_EQ(test, o1_effective_prio(NICE_TO_PRIO(19), 0), MAX_PRIO - 1);
}

static void o1_test_interactive(struct kunit *test)
{
	int sp = NICE_TO_PRIO(0);

	/* Nice 0 is interactive from a bonus of +2 (DELTA = 2). */
	KUNIT_EXPECT_TRUE(test, o1_interactive(sp - 2, sp));
	KUNIT_EXPECT_FALSE(test, o1_interactive(sp - 1, sp));
	/* Nice 19 can never be: DELTA = 6 > the maximum bonus of 5. */
	KUNIT_EXPECT_FALSE(test, o1_interactive(NICE_TO_PRIO(19) - 5, NICE_TO_PRIO(19)));
	/* Nice -20 is interactive even with a small penalty (DELTA = -3). */
	KUNIT_EXPECT_TRUE(test, o1_interactive(NICE_TO_PRIO(-20) + 3, NICE_TO_PRIO(-20)));
}

static void o1_test_credit_sleep(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct o1_task *ot;
	int sp = NICE_TO_PRIO(0);

	KUNIT_ASSERT_NOT_NULL(test, p);
	ot = o1_task(p);
	p->static_prio = sp;
	p->policy = SCHED_NORMAL;
	/* New to the policy: a user task at its static priority... */
	ot->sleep_avg = o1_initial_sleep_avg(p);
	o1_recalc_prio(p);
	KUNIT_EXPECT_EQ(test, ot->prio, sp);
	/* ... a kernel thread at the top of its range. */
	p->flags = PF_KTHREAD;
	ot->sleep_avg = o1_initial_sleep_avg(p);
	o1_recalc_prio(p);
	KUNIT_EXPECT_EQ(test, ot->prio, sp - 5);
	p->flags = 0;
	ot->sleep_avg = 0;
	/* Asleep since before the policy: a user task just interactive... */
	o1_credit_sleep(p, 5 * NSEC_PER_SEC);
	o1_recalc_prio(p);
	KUNIT_EXPECT_EQ(test, ot->prio, sp - 2);
	KUNIT_EXPECT_TRUE(test, o1_task_interactive(p));
	/* ... a kernel thread the whole sleep_avg. */
	ot->sleep_avg = 0;
	p->flags = PF_KTHREAD;
	o1_credit_sleep(p, 5 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, ot->sleep_avg, O1_MAX_SLEEP_AVG);
	/* A known sleep adds its length, up to the maximum. */
	ot->sleep_avg = 100 * NSEC_PER_MSEC;
	ot->timestamp = 1 * NSEC_PER_SEC;
	o1_credit_sleep(p, 1 * NSEC_PER_SEC + 300 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, ot->sleep_avg, 400 * NSEC_PER_MSEC);
	o1_credit_sleep(p, 5 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, ot->sleep_avg, O1_MAX_SLEEP_AVG);
	/* SCHED_BATCH earns nothing and ranks as a CPU hog, as in 2.6. */
	p->policy = SCHED_BATCH;
	ot->sleep_avg = 0;
	ot->timestamp = 0;
	o1_credit_sleep(p, 5 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, ot->sleep_avg, 0ULL);
	ot->sleep_avg = O1_MAX_SLEEP_AVG;
	o1_recalc_prio(p);
	KUNIT_EXPECT_EQ(test, ot->prio, sp + 5);
}

static void plugsched_test_prio_array(struct kunit *test)
{
	struct plugsched_prio_array *array;
	struct task_struct *t;
	int i;

	array = kunit_kzalloc(test, sizeof(*array), GFP_KERNEL);
	t = kunit_kcalloc(test, 3, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, array);
	KUNIT_ASSERT_NOT_NULL(test, t);

	plugsched_array_init(array);
	KUNIT_EXPECT_NULL(test, plugsched_array_first(array));
	KUNIT_EXPECT_EQ(test, plugsched_array_first_slot(array), PLUGSCHED_NR_SLOTS);

	for (i = 0; i < 3; i++)
		INIT_LIST_HEAD(&t[i].plugsched.run_list);
	plugsched_array_add(array, &t[0], 20, false);
	plugsched_array_add(array, &t[1], 5, false);
	plugsched_array_add(array, &t[2], 5, false);
	KUNIT_EXPECT_EQ(test, array->nr_queued, 3U);
	KUNIT_EXPECT_EQ(test, plugsched_array_count(array), 3U);
	/* The debug check catches a bitmap that lies and a wrong count. */
	array->bitmap |= BIT_ULL(7);
	KUNIT_EXPECT_EQ(test, plugsched_array_count(array), UINT_MAX);
	array->bitmap &= ~BIT_ULL(7);
	array->nr_queued++;
	KUNIT_EXPECT_EQ(test, plugsched_array_count(array), UINT_MAX);
	array->nr_queued--;
	KUNIT_EXPECT_EQ(test, array->bitmap, BIT_ULL(5) | BIT_ULL(20));
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(array), &t[1]);
	/* The longest waiter at the lowest priority, unless it is running. */
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_last(array, NULL), &t[0]);
	KUNIT_EXPECT_NULL(test, plugsched_array_last(array, &t[0]));

	/* Round robin within a slot. */
	plugsched_array_requeue(&t[1]);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(array), &t[2]);

	plugsched_array_del(&t[2]);
	plugsched_array_del(&t[1]);
	KUNIT_EXPECT_EQ(test, array->bitmap, BIT_ULL(20));
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(array), &t[0]);
	KUNIT_EXPECT_TRUE(test, plugsched_array_slot_singular(&t[0]));

	plugsched_array_add(array, &t[1], PLUGSCHED_IDLE_SLOT, false);
	plugsched_array_add(array, &t[2], 20, true);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(array), &t[2]);
	/* SCHED_IDLE's slot is no priority: it waits by design. */
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_last(array, NULL), &t[2]);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_last(array, &t[2]), &t[0]);
	plugsched_array_del(&t[2]);
	plugsched_array_del(&t[0]);
	KUNIT_EXPECT_EQ(test, plugsched_array_first_slot(array),
			(unsigned int)PLUGSCHED_IDLE_SLOT);
	plugsched_array_del(&t[1]);
	KUNIT_EXPECT_EQ(test, array->nr_queued, 0U);
	KUNIT_EXPECT_EQ(test, array->bitmap, 0ULL);
}

static struct kunit_case plugsched_o1_test_cases[] = {
	KUNIT_CASE(o1_test_timeslice),
	KUNIT_CASE(o1_test_bonus),
	KUNIT_CASE(o1_test_interactive),
	KUNIT_CASE(o1_test_credit_sleep),
	KUNIT_CASE(plugsched_test_prio_array),
	{}
};

static struct kunit_suite plugsched_o1_test_suite = {
	.name = "plugsched_o1",
	.test_cases = plugsched_o1_test_cases,
};

kunit_test_suite(plugsched_o1_test_suite);
