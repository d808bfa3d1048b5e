// SPDX-License-Identifier: GPL-2.0
/*
 * Where tasks may run: affinity masks honoured, hogs released from one CPU
 * spreading out, and CPUs going offline and online under load.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugsched.h"

/* affinity: masks are honoured; hogs freed from CPU 0 spread out. */
static int test_affinity(int argc, char **argv)
{
	static const int masks[4] = { 0x1, 0x2, 0xc, 0x5 };
	uint64_t start, t, spread_ns = 0;
	pid_t pids[4];
	int i, k, bad = 0, samples = 0;

	if (nr_cpus() < 4)
		ksft_exit_skip("needs 4 CPUs\n");
	ksft_set_plan(2);

	start = now_ns(CLOCK_MONOTONIC) + 100 * MSEC;
	for (i = 0; i < 4; i++) {
		cpu_set_t set;

		pids[i] = spawn_hog(i, -1, 0, start, start + 2500 * MSEC);
		CPU_ZERO(&set);
		for (k = 0; k < 4; k++)
			if (masks[i] & (1 << k))
				CPU_SET(k, &set);
		sched_setaffinity(pids[i], sizeof(set), &set);
	}
	while (now_ns(CLOCK_MONOTONIC) < start + 2400 * MSEC) {
		for (i = 0; i < 4; i++) {
			int cpu = task_cpu_of(pids[i]);

			if (cpu >= 0 && !(masks[i] & (1 << cpu))) {
				ksft_print_msg("hog %d (mask %#x) seen on CPU %d\n", i,
					       masks[i], cpu);
				bad++;
			}
			samples++;
		}
		usleep(10000);
	}
	for (i = 0; i < 4; i++)
		reap(pids[i]);
	ksft_test_result(!bad && samples >= 40, "%d samples, %d outside the mask\n",
			 samples, bad);

	/* Four hogs pinned to CPU 0, then released. */
	start = now_ns(CLOCK_MONOTONIC) + 100 * MSEC;
	for (i = 0; i < 4; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + 3000 * MSEC);
	while (now_ns(CLOCK_MONOTONIC) < start + 500 * MSEC)
		usleep(10000);
	for (i = 0; i < 4; i++)
		unpin(pids[i]);
	t = now_ns(CLOCK_MONOTONIC);
	while (now_ns(CLOCK_MONOTONIC) < t + 2000 * MSEC) {
		int seen = 0;

		for (i = 0; i < 4; i++) {
			int cpu = task_cpu_of(pids[i]);

			if (cpu >= 0)
				seen |= 1 << cpu;
		}
		if (seen == 0xf) {
			spread_ns = now_ns(CLOCK_MONOTONIC) - t;
			break;
		}
		usleep(5000);
	}
	for (i = 0; i < 4; i++)
		reap(pids[i]);
	ksft_test_result(spread_ns && spread_ns < 1000 * MSEC,
			 "4 hogs released from CPU 0 on 4 CPUs after %llu ms (< 1000)\n",
			 (unsigned long long)(spread_ns / MSEC));
	return 0;
}

/* hotplug ROUNDS: CPUs 1.. go offline and online under load; all finish. */
static int test_hotplug(int argc, char **argv)
{
	int rounds = argc ? atoi(argv[0]) : 3, ncpu = nr_cpus(), r, c, i;
	int failed_writes = 0, bad_exit = 0;
	pid_t pids[8], churn;
	char path[96];

	if (ncpu < 2)
		ksft_exit_skip("needs 2 CPUs\n");
	ksft_set_plan(2);

	for (i = 0; i < 8; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			burn_cpu(1500);
			_exit(0);
		}
	}
	churn = fork();
	if (churn == 0) {
		for (;;) {
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			if (p > 0)
				waitpid(p, NULL, 0);
			usleep(1000);
		}
	}
	for (r = 0; r < rounds; r++) {
		for (c = ncpu - 1; c >= 1; c--) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
			if (write_file(path, "0", 1))
				failed_writes++;
		}
		usleep(50000);
		for (c = 1; c < ncpu; c++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
			if (write_file(path, "1", 1))
				failed_writes++;
		}
		usleep(50000);
	}
	ksft_test_result(!failed_writes,
			 "%d rounds of CPUs 1..%d offline/online, %d failed writes\n",
			 rounds, ncpu - 1, failed_writes);
	kill(churn, SIGKILL);
	reap(churn);
	for (i = 0; i < 8; i++)
		if (reap(pids[i]))
			bad_exit++;
	ksft_test_result(!bad_exit, "all 8 CPU-bound tasks finished across hotplug (%d failed)\n",
			 bad_exit);
	return 0;
}

PLUGSCHED_TEST("affinity", test_affinity, "",
	       "masks are honoured; hogs freed from CPU 0 spread out");
PLUGSCHED_TEST("hotplug", test_hotplug, "[ROUNDS]",
	       "CPUs 1.. go offline and online under load; all tasks finish");
