// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup latency: a mostly sleeping task beside hogs, a SCHED_FIFO task
 * beside plugged hogs (against eevdf in the same run), and the round trip
 * of two tasks bouncing a byte.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "plugsched.h"

static int run_periodic_under_hogs(int nr_hogs, int policy, int run_us, int period_us,
				   struct lat_result *res)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 200 * MSEC;
	pid_t pids[MAX_HOGS], p;
	int i;

	for (i = 0; i < nr_hogs; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + 5000 * MSEC);
	p = fork();
	if (p == 0) {
		res->n = periodic(0, policy, run_us, period_us, 2000, 5000, res->lat, 4096);
		_exit(0);
	}
	reap(p);
	for (i = 0; i < nr_hogs; i++)
		reap(pids[i]);
	qsort(res->lat, res->n, sizeof(uint64_t), cmp_u64);
	return res->n;
}

/* interactive: a task sleeping 90% of the time waits far less than hogs. */
static int test_interactive(int argc, char **argv)
{
	struct lat_result *res = shared(sizeof(*res));
	uint64_t gaps[4];
	int i;

	ksft_set_plan(1);
	run_periodic_under_hogs(4, SCHED_OTHER, 1000, 10000, res);
	for (i = 0; i < 4; i++)
		gaps[i] = hogs[i].max_gap_ns;
	qsort(gaps, 4, sizeof(uint64_t), cmp_u64);
	ksft_print_msg("sleeper: %d wakeups, p50 %llu us, p95 %llu us\n",
		       res->n, (unsigned long long)pct(res, 50) / 1000,
		       (unsigned long long)pct(res, 95) / 1000);
	ksft_print_msg("hogs' median longest wait %llu us\n",
		       (unsigned long long)gaps[1] / 1000);
	ksft_test_result(res->n > 50 && pct(res, 95) * 10 < gaps[1],
			 "interactive task's p95 wakeup latency %llu us < 1/10 of hogs' wait %llu us\n",
			 (unsigned long long)pct(res, 95) / 1000,
			 (unsigned long long)gaps[1] / 1000);
	return 0;
}

/* rt: the samples of one side, the active policy (0) or eevdf (1). */
struct rt_side {
	int n;
	uint64_t lat[2048];
};

/*
 * The SCHED_FIFO task of test_rt: 200 us of work every 5 ms on CPU 0 for
 * @ms, each wakeup latency filed under the side *@side says (none while
 * it is -1: a switch under way or just done).
 */
static void rt_periodic(int *side, struct rt_side *sides, int ms)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), next = start, t;
	struct sched_param sp = { .sched_priority = 50 };

	pin(0, 0);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		ksft_exit_fail_msg("sched_setscheduler: %s\n", strerror(errno));
	while ((t = now_ns(CLOCK_MONOTONIC)) < start + ms * MSEC) {
		uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		struct timespec ts;
		int s;

		while (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0 < 200 * 1000ULL)
			;
		next += 5000 * 1000ULL;
		ts.tv_sec = next / NSEC;
		ts.tv_nsec = next % NSEC;
		s = __atomic_load_n(side, __ATOMIC_RELAXED);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = now_ns(CLOCK_MONOTONIC);
		/* the side must hold across the sleep, or the sample is void */
		if (t > next && s >= 0 && s == __atomic_load_n(side, __ATOMIC_RELAXED) &&
		    sides[s].n < 2048)
			sides[s].lat[sides[s].n++] = t - next;
		if (t > next + 5000 * 1000ULL)
			next = t;	/* overran: start a new period */
	}
}

static uint64_t side_pct(struct rt_side *r, int pc)
{
	return r->n ? r->lat[(r->n - 1) * pc / 100] : ~0ULL;
}

/*
 * rt: a SCHED_FIFO task preempts plugged hogs at once: the plug class has
 * no say in it, so its wakeup latency beside 3 hogs is mainline's. Judged
 * against eevdf in the same run, not by an absolute: the active policy and
 * eevdf alternate every 500 ms (switched to at run time), so that the
 * host's load weighs on both alike (an absolute p95 <= 5 ms failed twice
 * in a day when the host made eevdf's own p95 1.5-3.4 ms). The policy's
 * p95 must be within 2x eevdf's, or within 2 ms of it where eevdf's is
 * under 2 ms (each side has some 700 wakeups; a few of the 1-4 ms stalls a
 * TCG vCPU gets from the host move a percentile by that much). p95, not
 * p99: the plugged side's worst wakeups (up to 48-68 ms beside another
 * guest, eevdf's 11-31 ms) follow the switches to the policy, which this
 * test makes and users do not.
 */
static int test_rt(int argc, char **argv)
{
	struct rt_side *sides = shared(2 * sizeof(*sides));
	int *side = shared(sizeof(int));
	uint64_t t, p95[2], bound;
	char policy[32];
	pid_t pids[3], p;
	int i, k, seg;

	snprintf(policy, sizeof(policy), "%s", active_policy());
	ksft_set_plan(1);
	__atomic_store_n(side, -1, __ATOMIC_RELAXED);
	t = now_ns(CLOCK_MONOTONIC) + 200 * MSEC;
	for (i = 0; i < 3; i++)
		pids[i] = spawn_hog(i, 0, 0, t, t + 9500 * MSEC);
	p = fork();
	if (p == 0) {
		rt_periodic(side, sides, 9500);
		_exit(0);
	}
	/* 1 s of warm up under the policy, then 16 segments of 500 ms */
	usleep(1200000);
	for (t = now_ns(CLOCK_MONOTONIC), seg = 0; seg < 16; seg++) {
		k = seg & 1;
		__atomic_store_n(side, -1, __ATOMIC_RELAXED);
		if (switch_to(k ? "eevdf" : policy, NULL))
			ksft_exit_fail_msg("cannot switch to %s\n", k ? "eevdf" : policy);
		usleep(50000);
		__atomic_store_n(side, k, __ATOMIC_RELAXED);
		t += 500 * MSEC;
		while (now_ns(CLOCK_MONOTONIC) < t)
			usleep(10000);
	}
	__atomic_store_n(side, -1, __ATOMIC_RELAXED);
	switch_to(policy, NULL);
	reap(p);
	for (i = 0; i < 3; i++)
		reap(pids[i]);
	for (k = 0; k < 2; k++) {
		qsort(sides[k].lat, sides[k].n, sizeof(uint64_t), cmp_u64);
		p95[k] = side_pct(&sides[k], 95);
		ksft_print_msg("SCHED_FIFO under %s: %d wakeups, ", k ? "eevdf" : policy,
			       sides[k].n);
		printf("p50/95/99/max %llu/%llu/%llu/%llu us\n",
		       (unsigned long long)side_pct(&sides[k], 50) / 1000,
		       (unsigned long long)p95[k] / 1000,
		       (unsigned long long)side_pct(&sides[k], 99) / 1000,
		       (unsigned long long)side_pct(&sides[k], 100) / 1000);
	}
	bound = p95[1] * 2 > p95[1] + 2000 * 1000 ? p95[1] * 2 : p95[1] + 2000 * 1000;
	ksft_test_result(sides[0].n > 300 && sides[1].n > 300 && p95[0] <= bound,
			 "SCHED_FIFO p95 wakeup latency under 3 hogs: %s %llu us, eevdf %llu us in the same run (<= %llu us)\n",
			 policy, (unsigned long long)p95[0] / 1000,
			 (unsigned long long)p95[1] / 1000, (unsigned long long)bound / 1000);
	return 0;
}

/*
 * pingpong NR_CPUS ROUND_TRIPS: two tasks bounce a byte over two pipes, on
 * one CPU or on two; prints "BENCH pingpong_<n>cpu_us <us per round trip>".
 */
static int test_pingpong(int argc, char **argv)
{
	int ncpu = argc > 0 ? atoi(argv[0]) : 1, loops = argc > 1 ? atoi(argv[1]) : 20000;
	int a[2], b[2], i, ok = 1;
	uint64_t t0, t;
	char c = 0;
	pid_t pid;

	if (ncpu > nr_cpus())
		ksft_exit_skip("needs %d CPUs\n", ncpu);
	ksft_set_plan(1);
	if (pipe(a) || pipe(b))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid == 0) {
		pin(0, ncpu > 1 ? 1 : 0);
		for (i = 0; i < loops; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(0, 0);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < loops && ok; i++)
		ok = write(a[1], &c, 1) == 1 && read(b[0], &c, 1) == 1;
	t = now_ns(CLOCK_MONOTONIC) - t0;
	ok = ok && reap(pid) == 0;
	unpin(0);
	printf("BENCH pingpong_%dcpu_us %.3f\n", ncpu, t / 1000.0 / loops);
	ksft_test_result(ok, "%d round trips on %d CPU(s): %.2f us each\n", loops, ncpu,
			 t / 1000.0 / loops);
	return 0;
}

/*
 * sleeper NR_HOGS MAX_P90_MS: a task running 1 ms every 10 ms next to
 * NR_HOGS hogs on one CPU: its 90th percentile wakeup latency stays under
 * MAX_P90_MS, and it does not starve the hogs either (each gets at least
 * half of an equal share of what the sleeper leaves).
 */
static int test_sleeper(int argc, char **argv)
{
	struct lat_result *res = shared(sizeof(*res));
	uint64_t min_cpu = ~0ULL, sum = 0, max_ms;
	int n, i;

	if (argc < 2)
		ksft_exit_fail_msg("usage: sleeper NR_HOGS MAX_P90_MS\n");
	n = atoi(argv[0]);
	max_ms = atoll(argv[1]);
	if (n < 1 || n > MAX_HOGS)
		ksft_exit_fail_msg("1..%d hogs\n", MAX_HOGS);
	ksft_set_plan(2);
	run_periodic_under_hogs(n, SCHED_OTHER, 1000, 10000, res);
	for (i = 0; i < n; i++) {
		sum += hogs[i].cpu_ns;
		if (hogs[i].cpu_ns < min_cpu)
			min_cpu = hogs[i].cpu_ns;
		ksft_print_msg("hog %d: %llu ms CPU, longest wait %llu ms\n", i,
			       (unsigned long long)(hogs[i].cpu_ns / MSEC),
			       (unsigned long long)(hogs[i].max_gap_ns / MSEC));
	}
	ksft_print_msg("sleeper: %d wakeups, p50 %llu us, p90 %llu us, max %llu us\n",
		       res->n, (unsigned long long)pct(res, 50) / 1000,
		       (unsigned long long)pct(res, 90) / 1000,
		       (unsigned long long)pct(res, 100) / 1000);
	ksft_test_result(res->n > 100 && pct(res, 90) < max_ms * MSEC,
			 "sleeper's p90 wakeup latency %llu us < %llu ms under %d hogs\n",
			 (unsigned long long)pct(res, 90) / 1000,
			 (unsigned long long)max_ms, n);
	/* 5 s window, the sleeper takes about a tenth of it. */
	ksft_test_result(sum > 5000 * MSEC * 8 / 10 && min_cpu * n * 2 > sum,
			 "hogs got %llu ms of 5000, the least %llu ms (> half a share)\n",
			 (unsigned long long)(sum / MSEC),
			 (unsigned long long)(min_cpu / MSEC));
	return 0;
}

PLUGSCHED_TEST("interactive", test_interactive, "",
	       "a task sleeping 90% of the time waits far less than hogs");
PLUGSCHED_TEST("rt", test_rt, "",
	       "SCHED_FIFO wakeup latency beside hogs is within bounds of eevdf's");
PLUGSCHED_TEST("pingpong", test_pingpong, "[NR_CPUS [ROUND_TRIPS]]",
	       "two tasks bounce a byte over pipes; prints BENCH us per round trip");
PLUGSCHED_TEST("sleeper", test_sleeper, "NR_HOGS MAX_P90_MS",
	       "a 1 ms in 10 ms task's p90 wakeup latency beside hogs");
