// SPDX-License-Identifier: GPL-2.0
/*
 * Bounds of Staircase Deadline's design: the longest wait at each nice
 * level, and an interbench-like periodic task meeting its deadlines.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "plugsched.h"

/*
 * sdbound NICE...: hogs at the given nice levels share CPU 0 under the
 * Staircase Deadline policy; none waits longer than the bound the design
 * gives for its level s_i = nice + 20 among k tasks:
 *   rr_interval * (2 (k - 1) + sum over j of max(0, s_i - s_j))
 * (the others' levels above it, plus one round at the end of a rotation
 * and one at the start of the next), with 10% + 10 ms for the tick.
 */
static int test_sdbound(int argc, char **argv)
{
	int nice[MAX_HOGS], n = argc, i, j, bad = 0, relief;
	long rr, reliefs;
	char buf[64];

	if (n < 2 || n > MAX_HOGS)
		ksft_exit_fail_msg("usage: sdbound NICE NICE...\n");
	if (read_file("/proc/sys/kernel/rr_interval", buf, sizeof(buf)) <= 0)
		ksft_exit_fail_msg("no /proc/sys/kernel/rr_interval\n");
	rr = atol(buf);
	ksft_set_plan(1);
	for (i = 0; i < n; i++)
		nice[i] = atoi(argv[i]);
	relief = relief_suspend();
	run_hogs_warm(n, 1, nice, 4000, 1, 0);
	reliefs = relief_resume(relief);
	for (i = 0; i < n; i++) {
		long levels = 2 * (n - 1), bound_ms;

		for (j = 0; j < n; j++)
			if (nice[j] < nice[i])
				levels += nice[i] - nice[j];
		bound_ms = rr * levels * 11 / 10 + 10;
		ksft_print_msg("nice %3d: %5llu ms CPU, longest wait %4llu ms, bound %ld ms\n",
			       nice[i], (unsigned long long)(hogs[i].cpu_ns / MSEC),
			       (unsigned long long)(hogs[i].max_gap_ns / MSEC), bound_ms);
		if (hogs[i].max_gap_ns > bound_ms * MSEC || !hogs[i].cpu_ns)
			bad++;
	}
	ksft_test_result(!bad && !reliefs,
			 "%d hogs at mixed nice, rr_interval %ld ms: %d over their bound, relief off (%ld reliefs)\n",
			 n, rr, bad, reliefs);
	return 0;
}

/*
 * deadline NR_HOGS RUN_MS PERIOD_MS SECONDS MIN_PCT: an interbench-like
 * periodic task (X: RUN_MS of CPU every PERIOD_MS) shares CPU 0 with
 * NR_HOGS hogs; at least MIN_PCT% of its periods finish their work in time.
 */
static int test_deadline(int argc, char **argv)
{
	int nr, run_ms, period_ms, secs, min_pct, i;
	int *res = shared(2 * sizeof(int));
	uint64_t start;
	pid_t pids[MAX_HOGS], x;

	if (argc < 5)
		ksft_exit_fail_msg("usage: deadline NR_HOGS RUN_MS PERIOD_MS SECONDS MIN_PCT\n");
	nr = atoi(argv[0]);
	run_ms = atoi(argv[1]);
	period_ms = atoi(argv[2]);
	secs = atoi(argv[3]);
	min_pct = atoi(argv[4]);
	if (nr > MAX_HOGS)
		ksft_exit_fail_msg("at most %d hogs\n", MAX_HOGS);
	ksft_set_plan(1);

	start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	for (i = 0; i < nr; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + (secs + 1) * 1000 * MSEC);
	x = fork();
	if (x == 0) {
		uint64_t p = period_ms * MSEC, t0 = start + 1000 * MSEC;
		uint64_t end = t0 + secs * 1000 * MSEC, k = 0, met = 0, total = 0;

		pin(0, 0);
		while (t0 + k * p < end) {
			uint64_t due = t0 + k * p, c0, t;
			struct timespec ts = { .tv_sec = due / NSEC, .tv_nsec = due % NSEC };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
			while (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0 < run_ms * MSEC)
				;
			t = now_ns(CLOCK_MONOTONIC);
			total++;
			if (t <= due + p) {
				met++;
				k++;
			} else {
				/* Late: the periods it overran are missed too. */
				uint64_t next = (t - t0 + p - 1) / p;

				total += next - k - 1;
				k = next;
			}
		}
		res[0] = met;
		res[1] = total;
		_exit(0);
	}
	reap(x);
	for (i = 0; i < nr; i++)
		reap(pids[i]);
	ksft_test_result(res[1] > 0 && res[0] * 100 >= min_pct * res[1],
			 "%d ms every %d ms under %d hogs: %d of %d deadlines met (%.1f%%, want >= %d%%)\n",
			 run_ms, period_ms, nr, res[0], res[1],
			 res[1] ? 100.0 * res[0] / res[1] : 0.0, min_pct);
	return 0;
}

PLUGSCHED_TEST("sdbound", test_sdbound, "NICE NICE...",
	       "hogs at mixed nice on one CPU: none waits past sd's bound for its level");
PLUGSCHED_TEST("deadline", test_deadline, "NR_HOGS RUN_MS PERIOD_MS SECONDS MIN_PCT",
	       "a periodic task beside hogs meets MIN_PCT% of its deadlines");
