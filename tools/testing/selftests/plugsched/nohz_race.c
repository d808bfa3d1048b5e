// SPDX-License-Identifier: GPL-2.0
/*
 * nohz_full (issue 15 item 3): the remote tick of a tickless CPU may take
 * the runqueue lock while balance_plug() has dropped it, and find the CPU's
 * current task dequeued already. The debug kernel's "window" break holds
 * that lock dropped for 2 ms on nohz_full CPUs, so that a test reaches the
 * case at all (once a second, as the remote tick comes), and counts each
 * time the tick met it in /sys/kernel/debug/sched/plug_tick_dequeued.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugsched.h"

#define DBG_SCHED	"/sys/kernel/debug/sched/"

/* @cpu is in /sys/devices/system/cpu/nohz_full ("1", "1-3", "1,3"). */
static bool nohz_full_cpu(int cpu)
{
	char buf[256], *s;
	int lo, hi, n;

	if (read_file("/sys/devices/system/cpu/nohz_full", buf, sizeof(buf)) <= 0)
		return false;
	for (s = strtok(buf, ",\n"); s; s = strtok(NULL, ",\n")) {
		n = sscanf(s, "%d-%d", &lo, &hi);
		if (n == 1)
			hi = lo;
		if (n >= 1 && cpu >= lo && cpu <= hi)
			return true;
	}
	return false;
}

/*
 * nohzrace SECS CPU: a task bound to the nohz_full CPU runs 0.5 ms and
 * sleeps 0.1 ms, over and over for SECS, so that its CPU is in
 * balance_plug() with the task dequeued most of the time with the window
 * open. Some remote tick must meet that (one a second; 4..7 of 8 did in
 * each run seen, so 8 s all miss with odds of about 1 in 4000), the task
 * must keep running, and the boot's log must stay clean (the host scans
 * it).
 */
static int test_nohz_race(int argc, char **argv)
{
	int secs = argc ? atoi(argv[0]) : 8, cpu = argc > 1 ? atoi(argv[1]) : 1;
	uint64_t start, end;
	long before, after;
	struct hog *h;
	pid_t pid;
	int rc;

	if (!nohz_full_cpu(cpu))
		ksft_exit_skip("CPU %d is not nohz_full\n", cpu);
	if (!strcmp(active_policy(), "eevdf"))
		ksft_exit_skip("no plugged task under eevdf\n");
	if (write_file(DBG_SCHED "plug_break", "window", 6))
		ksft_exit_skip("no plug_break (not a debug kernel)\n");
	ksft_set_plan(2);
	h = shared(sizeof(*h));
	memset(h, 0, sizeof(*h));
	before = read_long(DBG_SCHED "plug_tick_dequeued");
	start = now_ns(CLOCK_MONOTONIC) + 100 * MSEC;
	end = start + secs * NSEC;
	pid = fork();
	if (pid == 0) {
		uint64_t c0;

		pin(0, cpu);
		while (now_ns(CLOCK_MONOTONIC) < start)
			;
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		while (now_ns(CLOCK_MONOTONIC) < end) {
			uint64_t t = now_ns(CLOCK_THREAD_CPUTIME_ID);

			while (now_ns(CLOCK_THREAD_CPUTIME_ID) - t < MSEC / 2)
				;
			usleep(100);
		}
		h->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		_exit(0);
	}
	rc = reap(pid);
	after = read_long(DBG_SCHED "plug_tick_dequeued");
	write_file(DBG_SCHED "plug_break", "none", 4);
	ksft_test_result(!rc && h->cpu_ns * 10 >= secs * NSEC,
			 "a task on nohz_full CPU %d with the balancer's window open ran %llu ms of %d s (>= 1/10)\n",
			 cpu, (unsigned long long)(h->cpu_ns / MSEC), secs);
	ksft_test_result(before >= 0 && after > before,
			 "remote ticks met the current task dequeued %ld times in %d s (> 0)\n",
			 after - before, secs);
	return 0;
}

PLUGSCHED_TEST("nohzrace", test_nohz_race, "[SECS [CPU]]",
	       "a remote tick meets a dequeued current task on a nohz_full CPU, safely");
