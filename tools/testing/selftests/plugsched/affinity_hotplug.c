// SPDX-License-Identifier: GPL-2.0
/*
 * Where tasks may run: affinity masks honoured, hogs released from one CPU
 * spreading out, and CPUs going offline and online under load.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
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

/* The balancing's counters, each with its sum over the CPUs first. */
#define PLUG_BALANCE	"/sys/kernel/debug/sched/plug_balance"

/*
 * pinnedbusy: work conservation past a CPU whose tasks are all pinned.
 * CPU 0 holds three hogs pinned to it, CPU 1 two hogs of which one may
 * run anywhere, CPU 2 one pinned hog, CPU 3 nothing. CPU 0 is the busiest
 * CPU, but nothing on it may move: the idle CPU 3 must look past it and
 * take the free hog from CPU 1 (mainline: load_balance()'s all-pinned
 * redo). Left behind, the free hog shares CPU 1 and gets half of it; moved,
 * a CPU of its own: 80% of the 3-s window is the bound. Under a policy the
 * balancing counters show it: a busiest CPU passed over, a task pulled.
 */
static int test_pinnedbusy(int argc, char **argv)
{
	static const int where[6] = { 0, 0, 0, 2, 1, 1 };
	uint64_t start, win = 3000 * MSEC;
	long pinned = file_key(PLUG_BALANCE, "pinned"), pulled = file_key(PLUG_BALANCE, "pulled");
	bool plugged = strcmp(active_policy(), "eevdf");
	cpu_set_t all;
	pid_t pids[6];
	int i;

	if (nr_cpus() < 4)
		ksft_exit_skip("needs 4 CPUs\n");
	ksft_set_plan(2);
	start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	for (i = 0; i < 6; i++)
		pids[i] = spawn_hog(i, where[i], 0, start, start + win);
	/* Hog 4 is on CPU 1 now: free to go, it stays until a balancer moves it. */
	usleep(200000);
	CPU_ZERO(&all);
	for (i = 0; i < 4; i++)
		CPU_SET(i, &all);
	if (sched_setaffinity(pids[4], sizeof(all), &all))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
	for (i = 0; i < 6; i++)
		reap(pids[i]);
	for (i = 0; i < 6; i++)
		ksft_print_msg("hog %d (%s CPU %d): %llu ms CPU, ended on CPU %d\n", i,
			       i == 4 ? "free, from" : "pinned to", where[i],
			       (unsigned long long)(hogs[i].cpu_ns / MSEC), hogs[i].last_cpu);
	ksft_test_result(hogs[4].cpu_ns * 10 >= win * 8,
			 "the free hog beside CPU 0's three pinned ones ran %llu ms of %llu under %s (>= 80%%), ended on CPU %d\n",
			 (unsigned long long)(hogs[4].cpu_ns / MSEC),
			 (unsigned long long)(win / MSEC), active_policy(), hogs[4].last_cpu);
	pinned = pinned < 0 ? -1 : file_key(PLUG_BALANCE, "pinned") - pinned;
	pulled = pulled < 0 ? -1 : file_key(PLUG_BALANCE, "pulled") - pulled;
	if (plugged)
		ksft_test_result(pinned > 0 && pulled > 0,
				 "plug_balance counted %ld busiest CPUs passed over and %ld tasks pulled (> 0 each)\n",
				 pinned, pulled);
	else
		ksft_test_result_skip("eevdf: the plugged balancing's counters do not count\n");
	return 0;
}

/*
 * balcounters: the counters of plug_balance that pinnedbusy does not
 * judge move with the work they count, under a plugged policy. For 2.5 s:
 * a hog pinned to CPU 1 waits there behind a SCHED_FIFO hog for 1 s (CPU
 * 1 has the others balance at their next tick: nudged), a task in an
 * autogroup of its own sleeps 1 ms 500 times (each enqueue and dequeue of
 * a grouped task is two atomics on its group at least: group_atomics >=
 * 2000), every ticking CPU checks another's runqueue once a watchdog
 * period, 1 s at most (watch_locked), and balances run with interrupts off
 * (irqoff_max_ns: above 0, under a second).
 */
static int test_balcounters(int argc, char **argv)
{
	static const char * const keys[] = { "nudged", "group_atomics", "watch_locked" };
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 100 * MSEC;
	long long before[3], after[3], irqoff;
	pid_t hog, rt, sleeper;
	int i;

	if (nr_cpus() < 2)
		ksft_exit_skip("needs 2 CPUs\n");
	if (!strcmp(active_policy(), "eevdf"))
		ksft_exit_skip("eevdf: the plugged balancing's counters do not count\n");
	for (i = 0; i < 3; i++)
		before[i] = file_key(PLUG_BALANCE, keys[i]);
	ksft_set_plan(4);

	sleeper = fork();
	if (sleeper == 0) {
		setsid();
		for (i = 0; i < 500; i++)
			usleep(1000);
		_exit(0);
	}
	memset(hogs, 0, sizeof(struct hog));
	hog = spawn_hog(0, 1, 0, start, start + 1500 * MSEC);
	rt = fork();
	if (rt == 0) {
		struct sched_param sp = { .sched_priority = 50 };

		pin(0, 1);
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(3);
		while (now_ns(CLOCK_MONOTONIC) < start + 1000 * MSEC)
			;
		_exit(0);
	}
	if (reap(rt) || reap(hog) || reap(sleeper))
		ksft_exit_fail_msg("a task of the test failed\n");
	usleep(1000000);
	for (i = 0; i < 3; i++)
		after[i] = file_key(PLUG_BALANCE, keys[i]);
	irqoff = file_key(PLUG_BALANCE, "irqoff_max_ns");
	ksft_test_result(before[0] >= 0 && after[0] > before[0],
			 "%s: a hog behind a SCHED_FIFO hog on CPU 1 had %lld CPUs nudged (> 0)\n",
			 active_policy(), after[0] - before[0]);
	ksft_test_result(before[1] >= 0 && after[1] - before[1] >= 2000,
			 "%s: 500 sleeps of a task in an autogroup: %lld group atomics (>= 2000)\n",
			 active_policy(), after[1] - before[1]);
	ksft_test_result(before[2] >= 0 && after[2] > before[2],
			 "%s: the watchdog locked another CPU's runqueue %lld times in 2.5 s (> 0)\n",
			 active_policy(), after[2] - before[2]);
	ksft_test_result(irqoff > 0 && irqoff < 1000 * MSEC,
			 "%s: the longest balance with interrupts off took %lld ns (> 0, < 1 s)\n",
			 active_policy(), irqoff);
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
PLUGSCHED_TEST("pinnedbusy", test_pinnedbusy, "",
	       "an idle CPU takes a free task past a busier CPU whose tasks are pinned");
PLUGSCHED_TEST("balcounters", test_balcounters, "",
	       "nudges, group atomics, the watchdog's remote locks and IRQs-off time are counted");
PLUGSCHED_TEST("hotplug", test_hotplug, "[ROUNDS]",
	       "CPUs 1.. go offline and online under load; all tasks finish");
