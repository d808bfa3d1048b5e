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
		sd_enter(&st->srq, st->srq.active, p, sd_static_level(p), sd_rr());
	}
	return st;
}

/* Run @p for @ns as the core would: its quota and its level's budget. */
static void sd_test_run(struct sd_rq *srq, struct task_struct *p, s64 ns)
{
	p->plugsched.slice -= ns;
	sd_account(srq, p, ns);
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
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 2 * rr);
	KUNIT_EXPECT_EQ(test, srq->active->quota[25], rr);
	KUNIT_EXPECT_EQ(test, srq->active->nr[20], 2U);
	KUNIT_EXPECT_PTR_EQ(test, plugsched_array_first(&srq->active->pa), &st->t[0]);

	/* Part of a quota: same level, head stays. */
	sd_test_run(srq, &st->t[0], rr / 2);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[0])->level, 20);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 2 * rr - rr / 2);

	/* The whole quota, 1 ns over: one level down, the overrun kept. */
	sd_test_run(srq, &st->t[0], rr - rr / 2 + 1);
	KUNIT_EXPECT_EQ(test, sd_task(&st->t[0])->level, 21);
	KUNIT_EXPECT_EQ(test, st->t[0].plugsched.slice, rr - 1);
	KUNIT_EXPECT_EQ(test, srq->active->quota[21], rr - 1);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], rr);
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
	KUNIT_EXPECT_EQ(test, srq->active->quota[38] + srq->active->quota[39], 2 * rr);
	KUNIT_EXPECT_EQ(test, srq->expired->quota[39], 0LL);
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
	sd_open(srq, 20);
	srq->budget = 0;
	KUNIT_EXPECT_TRUE(test, sd_rotate(srq));
	KUNIT_EXPECT_EQ(test, srq->level, 21U);
	KUNIT_EXPECT_EQ(test, srq->nr_minor, 1UL);
	KUNIT_EXPECT_EQ(test, srq->active->nr[21], 3U);
	KUNIT_EXPECT_EQ(test, srq->active->nr[20], 0U);
	KUNIT_EXPECT_EQ(test, srq->active->quota[21], 3 * rr);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 0LL);
	KUNIT_EXPECT_EQ(test, srq->budget, 3 * rr);
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

/*
 * A level's budget is what was queued on it when it opened, plus what
 * tasks joining it bring, up to as much again: tasks coming and going
 * cannot hold it open for ever.
 */
static void sd_test_budget(struct kunit *test)
{
	static const int nice[] = { 0, 0, 0 };
	struct sd_test *st = sd_test_setup(test, nice, 3);
	struct sd_rq *srq = &st->srq;
	struct task_struct *late = &st->t[2];
	s64 rr = sd_rr();
	int i;

	/* Only two were there when the level opened. */
	sd_del(srq, late);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 2 * rr);
	sd_open(srq, 20);
	KUNIT_EXPECT_EQ(test, srq->budget, 2 * rr);

	/* One more joins, with its quota. */
	sd_enter(srq, srq->active, late, 20, rr);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 3 * rr);
	KUNIT_EXPECT_EQ(test, srq->budget, 3 * rr);

	/* Half a quota each; the late one leaves and comes back, 3 times. */
	sd_test_run(srq, late, rr / 2);
	sd_test_run(srq, &st->t[0], rr / 2);
	KUNIT_EXPECT_EQ(test, srq->budget, 2 * rr);
	for (i = 0; i < 3; i++) {
		sd_del(srq, late);
		sd_add(srq, srq->active, late, 20);
	}
	/* Two returns were paid for, out of what the level opened with. */
	KUNIT_EXPECT_EQ(test, srq->budget, 2 * rr - rr / 2);
	KUNIT_EXPECT_EQ(test, srq->extra, 0LL);
	KUNIT_EXPECT_EQ(test, srq->active->quota[20], 3 * rr - 2 * (rr / 2));
	KUNIT_EXPECT_FALSE(test, sd_rotate(srq));

	/* Spent: whoever is left goes down, all together. */
	sd_test_run(srq, &st->t[0], rr / 2);
	sd_test_run(srq, &st->t[1], rr);
	KUNIT_EXPECT_LE(test, srq->budget, 0LL);
	KUNIT_EXPECT_TRUE(test, sd_rotate(srq));
	KUNIT_EXPECT_EQ(test, srq->level, 21U);
	KUNIT_EXPECT_EQ(test, srq->active->nr[21], 3U);
	KUNIT_EXPECT_EQ(test, srq->budget, srq->active->quota[21]);
}

/*
 * At the lowest level a spent budget closes the active array while tasks
 * wait in the expired one, however many tasks would still join the level:
 * they wait for the next rotation; those on the level finish their quotas.
 */
static void sd_test_closed(struct kunit *test)
{
	static const int nice[] = { 19, 19, 19, 0, 0 };
	struct sd_test *st = sd_test_setup(test, nice, 5);
	struct sd_rq *srq = &st->srq;
	struct task_struct *a = &st->t[0], *b = &st->t[1], *c = &st->t[2];
	struct task_struct *d = &st->t[3], *e = &st->t[4];
	s64 rr = sd_rr();

	/* c has expired already; d joins the open last level later. */
	sd_del(srq, c);
	sd_expire(srq, c);
	sd_del(srq, d);
	sd_del(srq, e);
	sd_open(srq, SD_LOWEST);
	KUNIT_EXPECT_EQ(test, srq->budget, 2 * rr);

	sd_test_run(srq, a, rr);
	KUNIT_EXPECT_PTR_EQ(test, a->plugsched.array, &srq->expired->pa);
	sd_test_run(srq, b, rr / 2);
	/* Joiners have used up what the level may grow by. */
	srq->extra = 0;
	sd_enter(srq, srq->active, d, SD_LOWEST, rr);
	KUNIT_EXPECT_EQ(test, srq->budget, rr / 2);
	KUNIT_EXPECT_FALSE(test, sd_rotate(srq));
	KUNIT_EXPECT_FALSE(test, srq->closed);
	sd_test_run(srq, d, rr / 2);
	KUNIT_EXPECT_FALSE(test, sd_rotate(srq));
	KUNIT_EXPECT_TRUE(test, srq->closed);
	KUNIT_EXPECT_EQ(test, srq->nr_closed, 1UL);

	/* Closed: a task done with a higher level waits for the swap. */
	sd_task(e)->level = 25;
	sd_descend(srq, e);
	KUNIT_EXPECT_PTR_EQ(test, e->plugsched.array, &srq->expired->pa);
	KUNIT_EXPECT_EQ(test, e->plugsched.slot, 20);

	/* b and d still finish the quotas they have on the last level. */
	KUNIT_EXPECT_PTR_EQ(test, b->plugsched.array, &srq->active->pa);
	sd_test_run(srq, b, rr / 2);
	sd_test_run(srq, d, rr / 2);
	KUNIT_EXPECT_EQ(test, srq->active->pa.nr_queued, 0U);
	KUNIT_EXPECT_EQ(test, srq->expired->pa.nr_queued, 5U);
	sd_major_rotation(srq);
	KUNIT_EXPECT_FALSE(test, srq->closed);
	KUNIT_EXPECT_EQ(test, srq->epoch, 1U);
	KUNIT_EXPECT_EQ(test, srq->active->pa.nr_queued, 5U);
}

/*
 * The design bound the watchdog follows (selftests' sdbound at its worst,
 * one task at nice 19 behind nice -20 ones): at rr_interval 24 ms (the
 * default on 4 CPUs) with 38 runnable tasks, 41 x 37 quanta of 25 ms at
 * HZ=1000: 37.9 s.
 */
static void sd_test_wait_bound(struct kunit *test)
{
	int rr = READ_ONCE(sd_rr_interval_ms);

	WRITE_ONCE(sd_rr_interval_ms, 24);
	KUNIT_EXPECT_EQ(test, sd_wait_bound(38), 41 * 37 * (24 * NSEC_PER_MSEC + TICK_NSEC));
	if (HZ == 1000)
		KUNIT_EXPECT_EQ(test, sd_wait_bound(38), 37925000000ULL);
	KUNIT_EXPECT_EQ(test, sd_wait_bound(1), sd_wait_bound(2));
	KUNIT_EXPECT_GT(test, sd_wait_bound(39), sd_wait_bound(38));
	WRITE_ONCE(sd_rr_interval_ms, rr);
}

static struct kunit_case plugsched_sd_test_cases[] = {
	KUNIT_CASE(sd_test_quota),
	KUNIT_CASE(sd_test_expiry),
	KUNIT_CASE(sd_test_minor_rotation),
	KUNIT_CASE(sd_test_budget),
	KUNIT_CASE(sd_test_closed),
	KUNIT_CASE(sd_test_wait_bound),
	{}
};

static struct kunit_suite plugsched_sd_test_suite = {
	.name = "plugsched_sd",
	.test_cases = plugsched_sd_test_cases,
};

kunit_test_suite(plugsched_sd_test_suite);
