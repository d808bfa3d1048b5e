// SPDX-License-Identifier: GPL-2.0
/*
 * Zaphod's interactive bonus and its promotion of waiting tasks.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plugsched.h"

/*
 * A task running 1 ms every 10 ms beside 4 hogs on CPU 0 for 5 s: its
 * interactive bonus after 3.5 s into @bonus, the hogs' into @hog_bonus
 * (the largest), its wakeup latencies into @res.
 */
static void zaphod_sleeper_run(struct lat_result *res, long long *bonus,
			       long long *hog_bonus)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 200 * MSEC;
	struct timespec ts;
	pid_t pids[4], p;
	uint64_t t;
	int i;

	for (i = 0; i < 4; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + 5000 * MSEC);
	p = fork();
	if (p == 0) {
		res->n = periodic(0, SCHED_OTHER, 1000, 10000, 2000, 5000, res->lat, 4096);
		_exit(0);
	}
	t = start + 3500 * MSEC;
	ts.tv_sec = t / NSEC;
	ts.tv_nsec = t % NSEC;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	*bonus = sched_field(p, "zaphod.ia_bonus_milli");
	*hog_bonus = -1;
	for (i = 0; i < 4; i++) {
		long long b = sched_field(pids[i], "zaphod.ia_bonus ");

		if (b > *hog_bonus)
			*hog_bonus = b;
	}
	reap(p);
	for (i = 0; i < 4; i++)
		reap(pids[i]);
	qsort(res->lat, res->n, sizeof(uint64_t), cmp_u64);
}

/*
 * zaphod bonus: a task sleeping 90% of its cycles earns an interactive
 * bonus near max_ia_bonus * 0.9 and low latency beside 4 hogs, whose own
 * bonus decays to nothing; with max_ia_bonus 0 its latency is worse.
 *
 * zaphod promote INTERVAL_MS: a nice 19 hog among three nice 0 hogs on one
 * CPU runs at least once per promotion bound: every task climbs one of
 * Zaphod's 59 slots every INTERVAL_MS x 3 (the bound: 59 of those, plus a
 * time slice each for the four).
 */
static int test_zaphod(int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "bonus")) {
		struct lat_result *a = shared(sizeof(*a)), *b = shared(sizeof(*b));
		int max_ia = knob_int("max_ia_bonus");
		long long bonus, hog, bonus0, hog0;
		uint64_t gaps[4];
		int i;

		ksft_set_plan(4);
		zaphod_sleeper_run(a, &bonus, &hog);
		for (i = 0; i < 4; i++)
			gaps[i] = hogs[i].max_gap_ns;
		qsort(gaps, 4, sizeof(uint64_t), cmp_u64);
		set_knob("max_ia_bonus", 0);
		zaphod_sleeper_run(b, &bonus0, &hog0);
		set_knob("max_ia_bonus", max_ia);
		ksft_print_msg("max_ia_bonus %d: %d wakeups, p50 %llu us, p95 %llu us\n",
			       max_ia, a->n, (unsigned long long)pct(a, 50) / 1000,
			       (unsigned long long)pct(a, 95) / 1000);
		ksft_print_msg("hogs' median longest wait %llu us\n",
			       (unsigned long long)gaps[1] / 1000);
		ksft_print_msg("max_ia_bonus 0: %d wakeups, p50 %llu us, p95 %llu us\n",
			       b->n, (unsigned long long)pct(b, 50) / 1000,
			       (unsigned long long)pct(b, 95) / 1000);
		ksft_test_result(bonus >= (max_ia - 2) * 1000LL,
				 "90%% sleeper's interactive bonus %lld/1000 >= %d after 3.5 s\n",
				 bonus, max_ia - 2);
		ksft_test_result(hog == 0, "hogs' interactive bonus decayed to %lld\n", hog);
		ksft_test_result(a->n > 50 && pct(a, 95) * 10 < gaps[1],
				 "90%% sleeper's p95 wakeup latency %llu us < 1/10 of hogs' wait %llu us\n",
				 (unsigned long long)pct(a, 95) / 1000,
				 (unsigned long long)gaps[1] / 1000);
		ksft_test_result(b->n > 10 && pct(b, 95) > 2 * pct(a, 95),
				 "with max_ia_bonus 0 its p95 latency %llu us > 2 x %llu us\n",
				 (unsigned long long)pct(b, 95) / 1000,
				 (unsigned long long)pct(a, 95) / 1000);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[0], "promote")) {
		static const int nice[] = { 0, 0, 0, 19 };
		int old = knob_int("base_promotion_interval"), interval = atoi(argv[1]);
		uint64_t bound, start;
		pid_t pids[4];
		long reliefs;
		int i, relief;

		ksft_set_plan(1);
		relief = relief_suspend();
		set_knob("base_promotion_interval", interval);
		bound = (59ULL * interval * 3 + 4ULL * knob_int("time_slice")) * MSEC;
		start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
		for (i = 0; i < 4; i++)
			pids[i] = spawn_hog(i, 0, nice[i], start, start + 3 * bound);
		for (i = 0; i < 4; i++)
			reap(pids[i]);
		set_knob("base_promotion_interval", old);
		reliefs = relief_resume(relief);
		for (i = 0; i < 4; i++)
			ksft_print_msg("nice %d hog: %llu ms CPU, longest wait %llu ms\n", nice[i],
				       (unsigned long long)(hogs[i].cpu_ns / MSEC),
				       (unsigned long long)(hogs[i].max_gap_ns / MSEC));
		ksft_test_result(hogs[3].cpu_ns > 0 && hogs[3].max_gap_ns <= bound && !reliefs,
				 "nice 19 hog among 3 nice 0 hogs waited at most %llu ms <= %llu ms (promotion every %d x 3 ms), relief off (%ld reliefs)\n",
				 (unsigned long long)(hogs[3].max_gap_ns / MSEC),
				 (unsigned long long)(bound / MSEC), interval, reliefs);
		return 0;
	}
	ksft_exit_fail_msg("usage: zaphod bonus | zaphod promote INTERVAL_MS\n");
	return 1;
}

PLUGSCHED_TEST("zaphod", test_zaphod, "bonus | promote INTERVAL_MS",
	       "a sleeper's bonus and latency; promotion bounds a nice 19 hog's wait");
