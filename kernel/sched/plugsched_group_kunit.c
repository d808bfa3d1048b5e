// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the flattened task group weights: a group weighs its
 * shares in all, split by its tasks' nice weights, at every level; the
 * loads go back to nothing when the tasks leave. Included by
 * plugsched_group.c; the groups and tasks are fakes, never scheduled.
 */
#include <kunit/test.h>

#define KUNIT_NR_TASKS	12

static struct task_group *kunit_group(struct kunit *test, struct task_group *parent,
				      unsigned long weight)
{
	struct task_group *tg = kunit_kzalloc(test, sizeof(*tg), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tg);
	tg->parent = parent;
	tg->shares = scale_load(weight);
	return tg;
}

/* Queue @p in @tg at nice weight @weight, as enqueue_task_plug() does. */
static void kunit_queue(struct task_struct *p, struct task_group *tg, unsigned long weight)
{
	p->sched_task_group = tg;
	p->se.load.weight = scale_load(weight);
	plugsched_group_enqueue(p);
}

static void plugsched_group_test_flat(struct kunit *test)
{
	struct task_struct *t = kunit_kcalloc(test, KUNIT_NR_TASKS, sizeof(*t), GFP_KERNEL);
	struct task_group *a, *b;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* cpu.weight 100 and 400: four nice 0 tasks each. */
	a = kunit_group(test, &root_task_group, 1024);
	b = kunit_group(test, &root_task_group, 4096);
	for (i = 0; i < 4; i++) {
		kunit_queue(&t[i], a, 1024);
		kunit_queue(&t[4 + i], b, 1024);
	}
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[0]), 256UL);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[4]), 1024UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->plug.nr), 4);
	/* In a group, nice still splits the group's shares: 1024 : 335. */
	plugsched_group_dequeue(&t[3]);
	kunit_queue(&t[3], a, 335);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[0]), 1024UL * 1024 / (3 * 1024 + 335));
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[3]), 335UL * 1024 / (3 * 1024 + 335));
	/* A new cpu.weight counts from the next look at the group. */
	b->shares = scale_load(2048);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[4]), 512UL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->plug.contrib), 2048LL);
	for (i = 0; i < 8; i++)
		plugsched_group_dequeue(&t[i]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->plug.load), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->plug.load), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->plug.contrib), 0LL);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->plug.nr), 0);
}

static void plugsched_group_test_nested(struct kunit *test)
{
	struct task_struct *t = kunit_kcalloc(test, KUNIT_NR_TASKS, sizeof(*t), GFP_KERNEL);
	struct task_group *p, *c1, *c2, *q;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* p (100) holds c1 (100) and c2 (300), beside q (100): 2, 2, 4 tasks. */
	p = kunit_group(test, &root_task_group, 1024);
	c1 = kunit_group(test, p, 1024);
	c2 = kunit_group(test, p, 3072);
	q = kunit_group(test, &root_task_group, 1024);
	for (i = 0; i < 2; i++) {
		kunit_queue(&t[i], c1, 1024);
		kunit_queue(&t[2 + i], c2, 1024);
	}
	for (i = 4; i < 8; i++)
		kunit_queue(&t[i], q, 1024);
	KUNIT_EXPECT_EQ(test, atomic64_read(&p->plug.load), 4096LL);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->plug.nr), 2);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[0]), 128UL);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[2]), 384UL);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[4]), 256UL);
	/* c1 empties: c2 has p's shares alone. */
	plugsched_group_dequeue(&t[0]);
	plugsched_group_dequeue(&t[1]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&p->plug.load), 3072LL);
	KUNIT_EXPECT_EQ(test, plugsched_group_weight(&t[2]), 512UL);
	for (i = 2; i < 8; i++)
		plugsched_group_dequeue(&t[i]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&p->plug.load), 0LL);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->plug.nr), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c2->plug.contrib), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&q->plug.load), 0LL);
}

static struct kunit_case plugsched_group_test_cases[] = {
	KUNIT_CASE(plugsched_group_test_flat),
	KUNIT_CASE(plugsched_group_test_nested),
	{}
};

static struct kunit_suite plugsched_group_test_suite = {
	.name = "plugsched_group",
	.test_cases = plugsched_group_test_cases,
};

kunit_test_suite(plugsched_group_test_suite);
