// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Staircase Deadline policy's rotation logic: quota
 * accounting per level, dropping a level, expiry, minor and major
 * rotation. Included by plugsched_sd.c so that the static helpers are
 * tested as they are built.
 */
#include <kunit/test.h>
#include <linux/slab.h>

struct sd_test {
	struct sd_rq		srq;
	struct task_struct	*t;
};

static struct sd_test *sd_test_setup(struct kunit *test, const int *nice, int n)
{
	struct sd_test *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, st);
	st->t = kunit_kcalloc(test, n, sizeof(*st->t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->t);
	sd_rq_reset(&st->srq);
	for (i = 0; i < n; i++) {
		struct task_struct *p = &st->t[i];

		INIT_LIST_HEAD(&p->plugsched.run_list);
		p->policy = SCHED_NORMAL;
		p->static_prio = NICE_TO_PRIO(nice[i]);
		sd_task_init(p);
		sd_enter(st->srq.active, p, sd_static_level(p), sd_rr());
	}
	return st;
}

/* Run @p for @ns as the core would: its quota and its level's budget. */
static void sd_test_run(struct sd_rq *srq, struct task_struct *p, s64 ns)
{
	p->plugsched.slice -= ns;
	sd_fix(srq, p);
	if (p->plugsched.array == &srq->active->pa)
		srq->active->budget[p->plugsched.slot] -= ns;
	if (p->plugsched.slice <= 0) {
		sd_del(srq, p);
		sd_descend(srq, p);
	}
}

static void sd_test_quota(struct kunit *test)
{
	static const int nice[] = { 0, 0, 5 };
	struct sd_test *st = sd_test_setup(test, nice, 3);
	struct sd_rq *srq = &st->srq;
	s64 rr = sd_rr();

	/* Queuing records each task's quota at its level. */
	KUNIT_EXPECT_EQ(test, srq->active->budget[20], 2 * rr);
	KUNIT_EXPECT_EQ(test, srq->active->budget[25], rr);
	KUNIT_EXPECT_EQ(test, srq->active->nr[20], 2U);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[0]);

	/* Part of a quota: same level, head stays. */
	sd_test_run(srq, &st->t[0], rr / 2);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[0])->level, 20);
	KUNIT_EXPECT_EQ(test, srq->active->budget[20], 2 * rr - rr / 2);

	/* The whole quota, 1 ns over: one level down, the overrun kept. */
	sd_test_run(srq, &st->t[0], rr - rr / 2 + 1);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[0])->level, 21);
	KUNIT_EXPECT_EQ(test, st->t[0].plugsched.slice, rr - 1);
	KUNIT_EXPECT_EQ(test, srq->active->budget[21], rr - 1);
	KUNIT_EXPECT_EQ(test, srq->active->nr[20], 1U);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[1]);
}

static void sd_test_expiry(struct kunit *test)
{
	static const int nice[] = { 19, 18 };
	struct sd_test *st = sd_test_setup(test, nice, 2);
	struct sd_rq *srq = &st->srq;
	s64 rr = sd_rr();

	/* Nice 18 gets two levels, nice 19 one: 38, 39, then expired. */
	sd_test_run(srq, &st->t[1], rr);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[1])->level, 39);
	sd_test_run(srq, &st->t[0], rr);
	KUNIT_EXPECT_PTR_EQ(test, st->t[0].plugsched.array, &srq->expired->pa);
	KUNIT_EXPECT_EQ(test, st->t[0].plugsched.slot, 39);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[0])->epoch, srq->epoch + 1);
	sd_test_run(srq, &st->t[1], rr);
	KUNIT_EXPECT_PTR_EQ(test, st->t[1].plugsched.array, &srq->expired->pa);
	KUNIT_EXPECT_EQ(test, st->t[1].plugsched.slot, 38);
	KUNIT_EXPECT_EQ(test, srq->active->pa.nr_queued, 0U);

	/* Major rotation: the expired array becomes active, at the top. */
	sd_major_rotation(srq);
	KUNIT_EXPECT_EQ(test, srq->epoch, 1U);
	KUNIT_EXPECT_EQ(test, srq->level, 0U);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[1]);
	KUNIT_EXPECT_EQ(test, srq->active->budget[38] + srq->active->budget[39], 2 * rr);
	KUNIT_EXPECT_EQ(test, srq->expired->budget[39], 0LL);
	KUNIT_EXPECT_EQ(test, srq->expired->pa.nr_queued, 0U);
}

static void sd_test_minor_rotation(struct kunit *test)
{
	static const int nice[] = { 0, 0, 0 };
	struct sd_test *st = sd_test_setup(test, nice, 3);
	struct sd_rq *srq = &st->srq;
	s64 rr = sd_rr();
	int i;

	/* The level's budget is spent while two tasks still have quota. */
	srq->level = 20;
	srq->active->budget[20] = 0;
	sd_minor_rotation(srq);
	KUNIT_EXPECT_EQ(test, srq->level, 21U);
	KUNIT_EXPECT_EQ(test, srq->nr_minor, 1UL);
	KUNIT_EXPECT_EQ(test, srq->active->nr[21], 3U);
	KUNIT_EXPECT_EQ(test, srq->active->nr[20], 0U);
	KUNIT_EXPECT_EQ(test, srq->active->budget[21], 3 * rr);
	KUNIT_EXPECT_EQ(test, plugsched_array_first_slot(&srq->active->pa), 21U);

	/* The moved tasks learn their new level, with a fresh quota, lazily. */
	st->t[0].plugsched.slice = 1;
	for (i = 0; i < 3; i++) {
		sd_fix(srq, &st->t[i]);
		KUNIT_EXPECT_EQ(test, st->t[i].plugsched.slot, 21);
		KUNIT_EXPECT_EQ(test, st->t[i].plugsched.slice, rr);
	}
	/* Still FIFO, and removable at the new level. */
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[0]);
	sd_del(srq, &st->t[0]);
	KUNIT_EXPECT_EQ(test, srq->active->nr[21], 2U);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[1]);
}

static struct kunit_case plugsched_sd_test_cases[] = {
	KUNIT_CASE(sd_test_quota),
	KUNIT_CASE(sd_test_expiry),
	KUNIT_CASE(sd_test_minor_rotation),
	{}
};

static struct kunit_suite plugsched_sd_test_suite = {
	.name = "plugsched_sd",
	.test_cases = plugsched_sd_test_cases,
};

kunit_test_suite(plugsched_sd_test_suite);
