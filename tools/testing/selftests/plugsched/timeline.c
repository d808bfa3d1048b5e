// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs of different lengths started together finish when the ideal fair
 * timeline (plugsched_timeline.h) says they should.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugsched.h"
#include "plugsched_timeline.h"

/*
 * timeline NR_CPUS TOLERANCE WORK_MS...: jobs needing WORK_MS of CPU each
 * start together on NR_CPUS CPUs; each finishes within TOLERANCE (0.05:
 * 5%) of the ideal fair timeline, where the k jobs left share the CPUs
 * equally (each gets min(1, NR_CPUS / k) of a CPU).
 */
static int test_timeline(int argc, char **argv)
{
	int ncpu, n, i, bad = 0;
	double ideal[MAX_HOGS], work[MAX_HOGS], tol;
	pid_t pids[MAX_HOGS];
	uint64_t start;
	cpu_set_t set;

	if (argc < 3)
		ksft_exit_fail_msg("usage: timeline NR_CPUS TOLERANCE WORK_MS...\n");
	ncpu = atoi(argv[0]);
	tol = atof(argv[1]);
	n = argc - 2;
	if (ncpu > nr_cpus() || n > MAX_HOGS)
		ksft_exit_skip("needs %d CPUs\n", ncpu);
	ksft_set_plan(n);

	for (i = 0; i < n; i++)
		work[i] = atof(argv[2 + i]);
	plugsched_fair_timeline(n, ncpu, work, ideal);

	CPU_ZERO(&set);
	for (i = 0; i < ncpu; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
	start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (pids[i] == 0) {
			uint64_t c0, c, cl, t, tl;

			while (now_ns(CLOCK_MONOTONIC) < start)
				;
			c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
			cl = c0;
			tl = now_ns(CLOCK_MONOTONIC);
			while ((c = now_ns(CLOCK_THREAD_CPUTIME_ID)) - c0 < work[i] * MSEC) {
				/* A stretch charged but not run: the host held the vCPU. */
				t = now_ns(CLOCK_MONOTONIC);
				if (t - tl > 2 * MSEC && c - cl > (t - tl) / 2)
					hogs[i].frozen_ns += t - tl;
				tl = t;
				cl = c;
			}
			hogs[i].finish_ns = now_ns(CLOCK_MONOTONIC) - start;
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		if (reap(pids[i]))
			bad++;
	unpin(0);
	if (bad)
		ksft_exit_fail_msg("%d jobs failed\n", bad);
	for (i = 0; i < n; i++) {
		double got = hogs[i].finish_ns / 1e6, err = (got - ideal[i]) / ideal[i];

		ksft_test_result(err <= tol && err >= -tol,
				 "job %d (%.0f ms of work) done at %.0f ms, ideal %.0f ms (%+.1f%%, limit %.0f%%; host froze the vCPU %llu ms of its run)\n",
				 i, work[i], got, ideal[i], err * 100, tol * 100,
				 (unsigned long long)(hogs[i].frozen_ns / MSEC));
	}
	return 0;
}

PLUGSCHED_TEST("timeline", test_timeline, "NR_CPUS TOLERANCE WORK_MS...",
	       "jobs finish within TOLERANCE of the ideal fair timeline");
