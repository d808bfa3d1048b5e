// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the CFS-style policy: placement and period formulas,
 * weight scaling, and the cost of the vruntime tree from 10 to 10,000
 * queued entities. Included by plugsched_cfs.c so that the static helpers
 * are tested as they are built.
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/slab.h>

#define MS	NSEC_PER_MSEC

static void pcfs_test_place_sleeper(struct kunit *test)
{
	u64 min = 1000 * MS;

	/* A long sleeper gets half a latency period of credit, no more. */
	KUNIT_EXPECT_EQ(test, pcfs_place_sleeper(0, min, 20 * MS), min - 10 * MS);
	/* A short sleeper keeps its place. */
	KUNIT_EXPECT_EQ(test, pcfs_place_sleeper(min - 5 * MS, min, 20 * MS), min - 5 * MS);
	KUNIT_EXPECT_EQ(test, pcfs_place_sleeper(min + 7, min, 20 * MS), min + 7);
	/* Across the u64 wrap the order still holds. */
	KUNIT_EXPECT_EQ(test, pcfs_place_sleeper(-(u64)(50 * MS), 5 * MS, 20 * MS),
			(u64)(-5 * (s64)MS));
}

static void pcfs_test_place_migrated(struct kunit *test)
{
	u64 min = 1000 * MS;

	/* From a busier CPU: a wakeup granularity ahead, so it preempts... */
	KUNIT_EXPECT_EQ(test, pcfs_place_migrated(min + 3 * MS, min, MS), min - MS - 1);
	KUNIT_EXPECT_EQ(test, pcfs_place_migrated(min, min, 0), min - 1);
	/* ...but no further: further behind stays where it is. */
	KUNIT_EXPECT_EQ(test, pcfs_place_migrated(min - 4 * MS, min, MS), min - 4 * MS);
}

static void pcfs_test_place(struct kunit *test)
{
	u64 min = 1000 * MS, back = min + 30 * MS;

	/* Pulled by the balancer: to the front. */
	KUNIT_EXPECT_LT(test, pcfs_key_diff(pcfs_place(PLUGSCHED_ENQ_MIGRATED |
						       PLUGSCHED_ENQ_PULLED, back, min), min), 0);
	/* Moved by its affinity or by hotplug: where it was, not ahead... */
	KUNIT_EXPECT_EQ(test, pcfs_place(PLUGSCHED_ENQ_MIGRATED, back, min), back);
	/* ...and with no credit: at min_vruntime at the earliest. */
	KUNIT_EXPECT_EQ(test, pcfs_place(PLUGSCHED_ENQ_MIGRATED, min - 3 * MS, min), min);
	KUNIT_EXPECT_EQ(test, pcfs_place(PLUGSCHED_ENQ_RESTORE, back, min), back);
	/* A sleeper, or a group unthrottled: at most half a latency of credit. */
	KUNIT_EXPECT_EQ(test, pcfs_place(PLUGSCHED_ENQ_WAKEUP, 0, min),
			min - READ_ONCE(sysctl_pcfs_latency) / 2);
	KUNIT_EXPECT_EQ(test, pcfs_place(PLUGSCHED_ENQ_UNTHROTTLE, back, min), back);
}

static void pcfs_test_vslice(struct kunit *test)
{
	/* Two nice-0 tasks share one 20 ms latency period: 10 ms each. */
	KUNIT_EXPECT_EQ(test, pcfs_vslice(1, 1024, 1024, 20 * MS, 6 * MS), 10 * MS);
	/* Ten tasks stretch the period to 10 x 6 ms: 6 ms each. */
	KUNIT_EXPECT_EQ(test, pcfs_vslice(9, 9 * 1024, 1024, 20 * MS, 6 * MS), 6 * MS);
	/* Virtual time: the same for a light child (debit by total load). */
	KUNIT_EXPECT_EQ(test, pcfs_vslice(1, 1024, 110, 20 * MS, 6 * MS),
			div64_u64(20 * MS * 1024, 1134));
	KUNIT_EXPECT_EQ(test, pcfs_period(3, 20 * MS, 6 * MS), 20 * MS);
	KUNIT_EXPECT_EQ(test, pcfs_period(4, 20 * MS, 6 * MS), 24 * MS);
}

static void pcfs_test_ideal_slice(struct kunit *test)
{
	/* Three nice-0 hogs: a third of 20 ms each, so each waits 13.3 ms. */
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(3, 3 * 1024, 1024, 20 * MS, 6 * MS),
			div64_u64(20 * MS, 3));
	/* Eight stretch the period to 8 x 6 ms: one granularity each. */
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(8, 8 * 1024, 1024, 20 * MS, 6 * MS), 6 * MS);
	/* By weight: nice 10 (110) beside nice 0 runs 20 ms x 110 / 1134. */
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(2, 1134, 110, 20 * MS, 6 * MS),
			div64_u64(20 * MS * 110, 1134));
	/* Alone, or a load not yet counted: the whole period. */
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(1, 1024, 1024, 20 * MS, 6 * MS), 20 * MS);
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(1, 0, 0, 20 * MS, 6 * MS), 20 * MS);
	/* A million tasks at the largest knobs: no overflow, 1 s each. */
	KUNIT_EXPECT_EQ(test, pcfs_ideal_slice(1000000, 1000000ul * 88761, 88761,
					       1000 * MS, 1000 * MS), 1000 * MS);
}

static void pcfs_test_rescale(struct kunit *test)
{
	u64 min = 1000 * MS;

	/* An idle group's hog 300 ms ahead at weight 3: 0.88 ms at 1024. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + 300 * MS, min, 3, 1024), min + 878906);
	/* Lighter: the same lead is worth more virtual time. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + MS, min, 1024, 256), min + 4 * MS);
	/* Credit (behind min_vruntime) scales the same way. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min - 4 * MS, min, 256, 1024), min - MS);
	/* Unchanged, or new to the policy (weight 0): as it is. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + 5, min, 1024, 1024), min + 5);
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + 5, min, 0, 1024), min + 5);
	/* Across the u64 wrap. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(2 * MS, -(u64)(2 * MS), 1024, 512), 6 * MS);
	/*
	 * 100 days behind, weight 88761 -> 1: far behind still, not ahead,
	 * and no quotient past 64 bits (x86's divq would fault).
	 */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min - 8640000000000000ULL, min, 88761, 1),
			min - PCFS_KEY_MAX);
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + (1ULL << 62), min, 3, 2), min + PCFS_KEY_MAX);
	/* Heavier: halved, below PCFS_KEY_MAX already. */
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min - S64_MAX, min, 1, 2), min - (PCFS_KEY_MAX - 1));
	KUNIT_EXPECT_EQ(test, pcfs_rescale(min + (1ULL << 40), min, 1 << 20, 1 << 18),
			min + (1ULL << 42));
}

/* The core's nice-0 scaling with inverse weights (prio_to_wmult). */
static void pcfs_test_scale_delta(struct kunit *test)
{
	struct task_struct *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->se.load.weight = 1024UL << SCHED_FIXEDPOINT_SHIFT;
	t->se.load.inv_weight = 4194304;
	KUNIT_EXPECT_EQ(test, plugsched_scale_delta(t, 12345678), 12345678ULL);

	/* nice 1: weight 820, the vruntime clock runs 1024/820 as fast. */
	t->se.load.weight = 820UL << SCHED_FIXEDPOINT_SHIFT;
	t->se.load.inv_weight = 5237765;
	KUNIT_EXPECT_LE(test, abs((s64)plugsched_scale_delta(t, MS) - 1248780), 1);

	/* nice 19 (weight 15) and, without an inverse, by division. */
	t->se.load.weight = 15UL << SCHED_FIXEDPOINT_SHIFT;
	t->se.load.inv_weight = 286331153;
	KUNIT_EXPECT_LE(test, abs((s64)plugsched_scale_delta(t, MS) - 68266666), 1);
	t->se.load.inv_weight = 0;
	KUNIT_EXPECT_EQ(test, plugsched_scale_delta(t, MS), 68266666ULL);

	/* A nice -20 task (88761) over a full second: no overflow. */
	t->se.load.weight = 88761UL << SCHED_FIXEDPOINT_SHIFT;
	t->se.load.inv_weight = 48388;
	KUNIT_EXPECT_LE(test, abs((s64)plugsched_scale_delta(t, 1000 * MS) - 11536598), 2);
}

static int pcfs_test_height(const struct rb_node *node)
{
	if (!node)
		return 0;
	return 1 + max(pcfs_test_height(node->rb_left), pcfs_test_height(node->rb_right));
}

/*
 * The tree of waiting tasks stays O(log n): after inserting n entities
 * (random keys, duplicates included), the path any insert or erase walks,
 * the tree height, is at most 2 log2(n + 1), the red-black bound; the pick
 * (cached leftmost) always is the smallest key; popping the leftmost
 * n times yields the keys in order.
 */
static void pcfs_test_tree_cost(struct kunit *test)
{
	static const unsigned int sizes[] = { 10, 100, 1000, 10000 };
	unsigned int s, i, n;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct pcfs_rq crq = { .timeline = RB_ROOT_CACHED };
		struct pcfs_task *pt;
		u64 seed = 42, min = U64_MAX, last = 0;
		int height, bound;

		n = sizes[s];
		pt = kvcalloc(n, sizeof(*pt), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pt);

		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			pt[i].vruntime = (seed >> 33) % (n * 4);
			pcfs_tree_insert(&crq, &pt[i]);
			min = min_t(u64, min, pt[i].vruntime);
			if (pcfs_first(&crq)->vruntime != min)
				break;
		}
		KUNIT_EXPECT_EQ_MSG(test, i, n, "pick is not the minimum at n=%u", i);

		height = pcfs_test_height(crq.timeline.rb_root.rb_node);
		bound = 2 * ilog2(2 * (n + 1));
		kunit_info(test, "n=%u: tree height %d, bound 2 log2(n+1) = %d\n",
			   n, height, bound);
		KUNIT_EXPECT_LE(test, height, bound);

		for (i = 0; i < n; i++) {
			struct pcfs_task *left = pcfs_first(&crq);

			if (!left || left->vruntime < last)
				break;
			last = left->vruntime;
			pcfs_tree_erase(&crq, left);
			if (pcfs_on_tree(left))
				break;
		}
		KUNIT_EXPECT_EQ(test, i, n);
		KUNIT_EXPECT_NULL(test, pcfs_first(&crq));
		kvfree(pt);
	}
}

static struct kunit_case plugsched_cfs_test_cases[] = {
	KUNIT_CASE(pcfs_test_place_sleeper),
	KUNIT_CASE(pcfs_test_place_migrated),
	KUNIT_CASE(pcfs_test_place),
	KUNIT_CASE(pcfs_test_vslice),
	KUNIT_CASE(pcfs_test_ideal_slice),
	KUNIT_CASE(pcfs_test_rescale),
	KUNIT_CASE(pcfs_test_scale_delta),
	KUNIT_CASE(pcfs_test_tree_cost),
	{}
};

static struct kunit_suite plugsched_cfs_test_suite = {
	.name = "plugsched_cfs",
	.test_cases = plugsched_cfs_test_cases,
};

kunit_test_suite(plugsched_cfs_test_suite);
