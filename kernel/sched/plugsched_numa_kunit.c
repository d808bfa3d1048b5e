// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the NUMA-aware policy: it is the O(1) policy's queues
 * with its own placement and balancing, as completed at boot from
 * &plugsched_ops.base. Included by plugsched_numa.c.
 */
#include <kunit/test.h>

/* Every queue callback is the O(1) policy's, none is missing. */
static void numa_test_inherits_o1(struct kunit *test)
{
	const struct plugsched_ops *numa = &plugsched_numa_ops, *o1 = numa->base;

	KUNIT_ASSERT_NOT_NULL(test, o1);
	KUNIT_EXPECT_STREQ(test, o1->name, "o1");
	KUNIT_EXPECT_STREQ(test, numa->base_name, "o1");
	KUNIT_EXPECT_PTR_EQ(test, numa->init_rq, o1->init_rq);
	KUNIT_EXPECT_PTR_EQ(test, numa->task_init, o1->task_init);
	KUNIT_EXPECT_PTR_EQ(test, numa->fork, o1->fork);
	KUNIT_EXPECT_PTR_EQ(test, numa->enqueue, o1->enqueue);
	KUNIT_EXPECT_PTR_EQ(test, numa->dequeue, o1->dequeue);
	KUNIT_EXPECT_PTR_EQ(test, numa->pick, o1->pick);
	KUNIT_EXPECT_PTR_EQ(test, numa->slice_expired, o1->slice_expired);
	KUNIT_EXPECT_PTR_EQ(test, numa->tick, o1->tick);
	KUNIT_EXPECT_PTR_EQ(test, numa->preempt, o1->preempt);
	KUNIT_EXPECT_PTR_EQ(test, numa->yield, o1->yield);
	KUNIT_EXPECT_PTR_EQ(test, numa->migration_candidate, o1->migration_candidate);
	KUNIT_EXPECT_PTR_EQ(test, numa->count, o1->count);
	KUNIT_EXPECT_EQ(test, numa->idle_balance_ms, o1->idle_balance_ms);
	KUNIT_EXPECT_EQ(test, numa->imbalance_pct, o1->imbalance_pct);
}

/* Placement, balancing and reporting are its own. */
static void numa_test_own_ops(struct kunit *test)
{
	const struct plugsched_ops *numa = &plugsched_numa_ops;

	KUNIT_EXPECT_TRUE(test, numa->home_nodes);
	KUNIT_EXPECT_FALSE(test, numa->base->home_nodes);
	KUNIT_EXPECT_PTR_EQ(test, numa->select_cpu, &numa_select_cpu);
	KUNIT_EXPECT_PTR_EQ(test, numa->balance, &numa_balance);
	KUNIT_EXPECT_PTR_EQ(test, numa->show_task, &numa_show_task);
	KUNIT_EXPECT_EQ(test, numa->balance_ms, 100U);
	KUNIT_EXPECT_EQ(test, numa->nr_knobs, 2U);
	KUNIT_EXPECT_STREQ(test, numa->knobs[0].name, "node_balance_ratio");
	KUNIT_EXPECT_EQ(test, numa->knobs[1].def, 125);
}

static struct kunit_case plugsched_numa_test_cases[] = {
	KUNIT_CASE(numa_test_inherits_o1),
	KUNIT_CASE(numa_test_own_ops),
	{}
};

static struct kunit_suite plugsched_numa_test_suite = {
	.name = "plugsched_numa",
	.test_cases = plugsched_numa_test_cases,
};

kunit_test_suite(plugsched_numa_test_suite);
