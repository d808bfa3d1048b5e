// SPDX-License-Identifier: GPL-2.0
/*
 * Torture helpers: sched_setattr() and affinity churn, random knob writes
 * (make test's torture runs them beside stress-ng and CPU hotplug).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "plugsched.h"

/* A child for churn: 1 ms of CPU, then 1 ms asleep, until killed. */
static void churn_child(void)
{
	struct timespec ts = { 0, MSEC };

	for (;;) {
		burn_cpu(1);
		nanosleep(&ts, NULL);
	}
}

/*
 * churn SECS: sched_setattr churn of 8 tasks between SCHED_OTHER, BATCH,
 * IDLE and FIFO, with random nice and affinity, for SECS seconds. Every
 * call succeeds and every task is reaped.
 */
static int test_churn(int argc, char **argv)
{
	int secs = argc ? atoi(argv[0]) : 60, ncpu = nr_cpus(), i, bad = 0, dead = 0;
	static const int policies[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO };
	uint64_t end = now_ns(CLOCK_MONOTONIC) + secs * NSEC;
	unsigned long calls = 0;
	pid_t pids[8];

	ksft_set_plan(2);
	srand(getpid());
	for (i = 0; i < 8; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			churn_child();
	}
	while (now_ns(CLOCK_MONOTONIC) < end) {
		struct ps_sched_attr a = { .size = sizeof(a) };
		pid_t p = pids[rand() % 8];
		cpu_set_t set;
		int c;

		a.sched_policy = policies[rand() % 4];
		if (a.sched_policy == SCHED_FIFO)
			a.sched_priority = 1 + rand() % 10;
		else
			a.sched_nice = rand() % 40 - 20;
		if (syscall(SYS_sched_setattr, p, &a, 0))
			bad++;
		CPU_ZERO(&set);
		for (c = 0; c < ncpu; c++)
			if (rand() & 1)
				CPU_SET(c, &set);
		CPU_SET(rand() % ncpu, &set);
		/* EINVAL: every CPU of the mask went offline meanwhile. */
		if (sched_setaffinity(p, sizeof(set), &set) && errno != EINVAL)
			bad++;
		calls += 2;
		usleep(500);
	}
	for (i = 0; i < 8; i++) {
		kill(pids[i], SIGKILL);
		if (reap(pids[i]) != 128 + SIGKILL)
			dead++;
	}
	ksft_test_result(!bad, "%lu sched_setattr/sched_setaffinity calls, %d failed\n",
			 calls, bad);
	ksft_test_result(!dead, "8 churned tasks reaped (%d not as expected)\n", dead);
	return 0;
}

/* knobfuzz SECS NAME:MIN:MAX...: random in-range knob writes all succeed. */
static int test_knobfuzz(int argc, char **argv)
{
	int secs = argc ? atoi(argv[0]) : 60, n = argc - 1, bad = 0, i;
	uint64_t end = now_ns(CLOCK_MONOTONIC) + secs * NSEC;
	unsigned long writes = 0;
	char path[128], val[32];

	ksft_set_plan(1);
	if (n < 1)
		ksft_exit_skip("no knobs given\n");
	srand(getpid());
	while (now_ns(CLOCK_MONOTONIC) < end) {
		char name[64];
		long lo, hi, v;

		i = 1 + rand() % n;
		if (sscanf(argv[i], "%63[^:]:%ld:%ld", name, &lo, &hi) != 3)
			ksft_exit_fail_msg("bad knob spec %s\n", argv[i]);
		v = lo + (long)((double)rand() / RAND_MAX * (hi - lo));
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
		snprintf(val, sizeof(val), "%ld", v);
		if (write_file(path, val, strlen(val)))
			bad++;
		writes++;
		usleep(20000);
	}
	ksft_test_result(!bad, "%lu random in-range knob writes, %d failed\n", writes, bad);
	return 0;
}

PLUGSCHED_TEST("churn", test_churn, "[SECS]",
	       "sched_setattr and affinity churn of 8 tasks; every call succeeds");
PLUGSCHED_TEST("knobfuzz", test_knobfuzz, "SECS NAME:MIN:MAX...",
	       "random in-range knob writes all succeed");
