// SPDX-License-Identifier: GPL-2.0
/*
 * Core scheduling (PR_SCHED_CORE) on two SMT siblings, against eevdf in
 * the same run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "plugsched.h"

/* Give @pid a core-scheduling cookie of its own; 0 or -errno. */
static int core_cookie(pid_t pid)
{
	return prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, pid,
		     PR_SCHED_CORE_SCOPE_THREAD, 0) ? -errno : 0;
}

struct core_run {
	double share[2];	/* of the wall time, each hog */
	double both;		/* summed CPU time / wall time */
};

/*
 * Two hogs with cookies of their own, pinned to CPUs 0 and 1 (SMT
 * siblings), for @ms; hog 0 SCHED_FIFO with @rt.
 */
static int core_run(bool rt, int ms, struct core_run *r)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 200 * MSEC;
	struct sched_param sp = { .sched_priority = 10 };
	pid_t pids[2];
	int i, err = 0;

	for (i = 0; i < 2; i++) {
		pids[i] = spawn_hog(i, i, 0, start, start + ms * MSEC);
		err = err ?: core_cookie(pids[i]);
	}
	if (rt && sched_setscheduler(pids[0], SCHED_FIFO, &sp))
		err = err ?: -errno;
	for (i = 0; i < 2; i++)
		reap(pids[i]);
	for (i = 0; i < 2; i++)
		r->share[i] = (double)hogs[i].cpu_ns / (ms * MSEC);
	r->both = r->share[0] + r->share[1];
	return err;
}

/*
 * coresched MS: core scheduling (PR_SCHED_CORE) on two SMT siblings, under
 * the active policy and under eevdf in the same run. Two plugged hogs with
 * different cookies never run at once (summed CPU time <= 1.1 x wall)
 * and take turns: each gets at least a quarter of what the two got
 * (mainline alternates fair tasks by vruntime, and a forced-idle sibling
 * gets its turn once the running task used its slice; 0.44-0.48 each
 * under every policy and eevdf in a quiet guest, 0.24 against 0.51 once
 * beside another guest; before plugsched_prio_less() 0.07-0.09 of the
 * two's 1.00 under sd and zaphod). A SCHED_FIFO hog with its own cookie keeps the
 * core from the normal hog as it does under eevdf: the class order is
 * the core's order (at most eevdf's share + 10%).
 */
static int test_coresched(int argc, char **argv)
{
	int ms = argc ? atoi(argv[0]) : 2000, i, err;
	struct core_run pol[2], mainline[2];
	char sib[32], policy[32];

	read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", sib, sizeof(sib));
	if (strcmp(sib, "0-1"))
		ksft_exit_skip("CPUs 0 and 1 are not SMT siblings (%s)\n", sib);
	snprintf(policy, sizeof(policy), "%s", active_policy());
	ksft_set_plan(3);
	for (i = 0; i < 2; i++) {
		err = core_run(i, ms, &pol[i]);
		if (err)
			ksft_exit_fail_msg("core cookie or SCHED_FIFO: %s\n", strerror(-err));
	}
	if (strcmp(policy, "eevdf") && switch_to("eevdf", NULL))
		ksft_exit_fail_msg("cannot switch to eevdf\n");
	for (i = 0; i < 2; i++)
		core_run(i, ms, &mainline[i]);
	if (strcmp(policy, "eevdf") && switch_to(policy, NULL))
		ksft_exit_fail_msg("cannot switch back to %s\n", policy);
	for (i = 0; i < 2; i++)
		ksft_print_msg("%s%s: hog shares %.2f %.2f, summed %.2f; eevdf %.2f %.2f, %.2f\n",
			       i ? "SCHED_FIFO beside " : "", policy, pol[i].share[0],
			       pol[i].share[1], pol[i].both, mainline[i].share[0],
			       mainline[i].share[1], mainline[i].both);
	ksft_test_result(pol[0].both <= 1.1,
			 "%s: hogs with different cookies never run at once: summed %.2f of the wall time (<= 1.10)\n",
			 policy, pol[0].both);
	ksft_test_result(pol[0].share[0] >= 0.25 * pol[0].both &&
			 pol[0].share[1] >= 0.25 * pol[0].both,
			 "%s: they take turns on the core: %.2f and %.2f of the time (>= 1/4 of the %.2f they got)\n",
			 policy, pol[0].share[0], pol[0].share[1], pol[0].both);
	ksft_test_result(pol[1].share[1] <= mainline[1].share[1] + 0.1,
			 "%s: a SCHED_FIFO hog keeps the core from a normal hog: it got %.2f, eevdf's %.2f (+0.10 at most)\n",
			 policy, pol[1].share[1], mainline[1].share[1]);
	return 0;
}

PLUGSCHED_TEST("coresched", test_coresched, "[MS]",
	       "cookied hogs on SMT siblings never run at once and take turns");
