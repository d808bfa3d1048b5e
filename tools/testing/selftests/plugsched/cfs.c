// SPDX-License-Identifier: GPL-2.0
/*
 * Knobs changed at run time change behaviour: a granularity knob (cfs's
 * sched_granularity_ns, sd's rr_interval) sets how often hogs are
 * preempted; sched_child_runs_first who runs first after fork().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugsched.h"

/*
 * granularity KNOB LOW HIGH MIN_RATIO: two hogs on one CPU are preempted at
 * least MIN_RATIO times as often with /proc/sys/kernel/KNOB at LOW as at
 * HIGH, written while the system runs (no reboot); the knob is restored.
 */
static int test_granularity(int argc, char **argv)
{
	char path[128], old[64], val[64];
	double rate[2], min_ratio;
	int i, k;

	if (argc < 4)
		ksft_exit_fail_msg("usage: granularity KNOB LOW HIGH MIN_RATIO\n");
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", argv[0]);
	min_ratio = atof(argv[3]);
	if (read_file(path, old, sizeof(old)) <= 0)
		ksft_exit_fail_msg("cannot read %s\n", path);
	ksft_set_plan(1);

	for (k = 0; k < 2; k++) {
		snprintf(val, sizeof(val), "%s\n", argv[1 + k]);
		if (write_file(path, val, strlen(val)))
			ksft_exit_fail_msg("cannot write %s to %s\n", argv[1 + k], path);
		run_hogs(2, 1, NULL, 2000, 1);
		rate[k] = 0;
		for (i = 0; i < 2; i++)
			rate[k] += hogs[i].nvcsw / 2.0;
		ksft_print_msg("%s=%s: %.1f preemptions/s (%llu and %llu ms CPU)\n",
			       argv[0], argv[1 + k], rate[k],
			       (unsigned long long)(hogs[0].cpu_ns / MSEC),
			       (unsigned long long)(hogs[1].cpu_ns / MSEC));
	}
	write_file(path, old, strlen(old));
	ksft_test_result(rate[0] >= min_ratio * (rate[1] ? rate[1] : 1) && rate[0] > 0,
			 "%s %s: %.1f/s vs %s: %.1f/s (>= %.1fx)\n", argv[0], argv[1],
			 rate[0], argv[2], rate[1], min_ratio);
	return 0;
}

/*
 * childfirst 0|1: with /proc/sys/kernel/sched_child_runs_first at the given
 * value, a parent forking on one CPU finds its child already run in at
 * most 10% (0) or at least 90% (1) of 200 forks.
 */
static int test_childfirst(int argc, char **argv)
{
	const char *path = "/proc/sys/kernel/sched_child_runs_first";
	int *ran = shared(sizeof(int));
	int want, i, first = 0, trials = 200;
	char old[16];

	if (argc < 1)
		ksft_exit_fail_msg("usage: childfirst 0|1\n");
	want = atoi(argv[0]);
	if (read_file(path, old, sizeof(old)) <= 0)
		ksft_exit_fail_msg("cannot read %s\n", path);
	ksft_set_plan(1);
	if (write_file(path, want ? "1" : "0", 1))
		ksft_exit_fail_msg("cannot write %s\n", path);
	pin(0, 0);
	for (i = 0; i < trials; i++) {
		pid_t pid;

		__atomic_store_n(ran, 0, __ATOMIC_SEQ_CST);
		pid = fork();
		if (pid == 0) {
			__atomic_store_n(ran, 1, __ATOMIC_SEQ_CST);
			_exit(0);
		}
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		first += __atomic_load_n(ran, __ATOMIC_SEQ_CST);
		reap(pid);
	}
	unpin(0);
	write_file(path, old, strlen(old));
	ksft_test_result(want ? first * 10 >= trials * 9 : first * 10 <= trials,
			 "sched_child_runs_first=%d: child ran first in %d of %d forks\n",
			 want, first, trials);
	return 0;
}

PLUGSCHED_TEST("granularity", test_granularity, "KNOB LOW HIGH MIN_RATIO",
	       "hogs preempted MIN_RATIO times as often with KNOB at LOW as at HIGH");
PLUGSCHED_TEST("childfirst", test_childfirst, "0|1",
	       "sched_child_runs_first decides whether the child runs first");
