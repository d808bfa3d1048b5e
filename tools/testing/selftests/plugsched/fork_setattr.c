// SPDX-License-Identifier: GPL-2.0
/*
 * The system calls that create tasks and set their policy: fork storms,
 * and sched_setattr() with good and bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plugsched.h"

/* fork COUNT: COUNT fork/exit cycles from 4 forkers, all reaped. */
static int test_fork(int argc, char **argv)
{
	int count = argc ? atoi(argv[0]) : 10000, i;
	int *reaped = shared(sizeof(int) * 4);
	pid_t forkers[4];
	int total = 0, fails = 0;

	ksft_set_plan(1);
	for (i = 0; i < 4; i++) {
		forkers[i] = fork();
		if (forkers[i] == 0) {
			int k;

			for (k = 0; k < count / 4; k++) {
				pid_t p = fork();

				if (p == 0)
					_exit(7);
				if (p < 0)
					_exit(1);
				if (reap(p) == 7)
					reaped[i]++;
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++) {
		if (reap(forkers[i]))
			fails++;
		total += reaped[i];
	}
	ksft_test_result(!fails && total == count / 4 * 4, "%d of %d children reaped\n",
			 total, count / 4 * 4);
	return 0;
}

static int ps_setattr(struct ps_sched_attr *a)
{
	return syscall(SYS_sched_setattr, 0, a, 0) ? -errno : 0;
}

/*
 * setattr: sched_setattr() with invalid policies, priorities, flags and
 * sizes fails with EINVAL (E2BIG for a bad size) and changes nothing; the
 * valid normal policies round-trip.
 */
static int test_setattr(int argc, char **argv)
{
	static const struct {
		const char *what;
		uint32_t size, policy, prio;
		uint64_t flags;
		uint64_t runtime, deadline, period;
	} bad[] = {
		{ "policy 7", 56, 7, 0, 0 },
		{ "policy 42", 56, 42, 0, 0 },
		{ "policy -1", 56, (uint32_t)-1, 0, 0 },
		{ "SCHED_FIFO priority 0", 56, SCHED_FIFO, 0, 0 },
		{ "SCHED_FIFO priority 100", 56, SCHED_FIFO, 100, 0 },
		{ "SCHED_RR priority 4096", 56, SCHED_RR, 4096, 0 },
		{ "SCHED_OTHER priority 1", 56, SCHED_OTHER, 1, 0 },
		{ "SCHED_BATCH priority 50", 56, SCHED_BATCH, 50, 0 },
		{ "SCHED_IDLE priority 1", 56, SCHED_IDLE, 1, 0 },
		{ "unknown flag bit 40", 56, SCHED_OTHER, 0, 1ULL << 40 },
		{ "all flags", 56, SCHED_OTHER, 0, ~0ULL },
		{ "SCHED_DEADLINE runtime > deadline", 56, 6, 0, 0, 2000000, 1000000, 0 },
		{ "SCHED_DEADLINE all zero", 56, 6, 0, 0, 0, 0, 0 },
		{ "size 8", 8, SCHED_OTHER, 0, 0 },
	};
	static const int normal[] = { SCHED_IDLE, SCHED_BATCH, SCHED_OTHER };
	struct ps_sched_attr a;
	unsigned int i;
	bool all = true;
	int err, nice0;

	ksft_set_plan(2);
	nice0 = getpriority(PRIO_PROCESS, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&a, 0, sizeof(a));
		a.size = bad[i].size;
		a.sched_policy = bad[i].policy;
		a.sched_priority = bad[i].prio;
		a.sched_flags = bad[i].flags;
		a.sched_runtime = bad[i].runtime;
		a.sched_deadline = bad[i].deadline;
		a.sched_period = bad[i].period;
		a.sched_nice = 5;
		err = ps_setattr(&a);
		if ((err != -EINVAL && err != -E2BIG) || sched_getscheduler(0) != SCHED_OTHER ||
		    getpriority(PRIO_PROCESS, 0) != nice0) {
			ksft_print_msg("%s: err %d, policy %d, nice %d\n", bad[i].what, err,
				       sched_getscheduler(0), getpriority(PRIO_PROCESS, 0));
			all = false;
		}
	}
	ksft_test_result(all, "%zu invalid sched_setattr calls fail cleanly, nothing changed\n",
			 ARRAY_SIZE(bad));

	all = true;
	for (i = 0; i < ARRAY_SIZE(normal); i++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sched_policy = normal[i];
		a.sched_nice = i;
		err = ps_setattr(&a);
		/* SCHED_IDLE has no nice of its own: the old one stays. */
		if (err || sched_getscheduler(0) != normal[i] ||
		    getpriority(PRIO_PROCESS, 0) != (normal[i] == SCHED_IDLE ? nice0 : (int)i)) {
			ksft_print_msg("policy %d nice %u: err %d, reads policy %d nice %d\n",
				       normal[i], i, err, sched_getscheduler(0),
				       getpriority(PRIO_PROCESS, 0));
			all = false;
		}
	}
	ksft_test_result(all, "SCHED_BATCH, SCHED_IDLE, SCHED_OTHER with nice round-trip\n");
	return 0;
}

PLUGSCHED_TEST("fork", test_fork, "[COUNT]",
	       "COUNT fork/exit cycles from 4 forkers, all reaped");
PLUGSCHED_TEST("setattr", test_setattr, "",
	       "bad sched_setattr() calls fail and change nothing; good ones round-trip");
