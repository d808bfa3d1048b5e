// SPDX-License-Identifier: GPL-2.0
/*
 * What schedutil sees of a CPU's tasks, from the figures it would use
 * (QEMU has no cpufreq driver): /sys/kernel/debug/sched/plug_util. A hog
 * drives its CPU's utilisation near the capacity, the plugged tasks' signal
 * decays with PELT's half-life once the hog sleeps, and a hog's uclamp
 * limit caps what schedutil would ask for.
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
#include <unistd.h>

#include "plugsched.h"

#define UTIL_FILE		"/sys/kernel/debug/sched/plug_util"
#define PELT_HALFLIFE_NS	(32ULL << 20)	/* 32 periods of 1024 us */

struct cpu_util {
	long nr, plug, util, eff, min, max, perf;
};

static void read_util(int cpu, struct cpu_util *u)
{
	char buf[4096], key[16], *s;

	if (read_file(UTIL_FILE, buf, sizeof(buf)) <= 0)
		ksft_exit_fail_msg("cannot read %s\n", UTIL_FILE);
	snprintf(key, sizeof(key), "cpu%d ", cpu);
	s = strstr(buf, key);
	if (!s || sscanf(s,
			 "cpu%*d nr %ld plug_nr %*d plug_util %ld plug_runnable %*d util %ld eff %ld min %ld max %ld perf %ld",
			 &u->nr, &u->plug, &u->util, &u->eff, &u->min, &u->max, &u->perf) != 7)
		ksft_exit_fail_msg("no line for CPU %d in %s\n", cpu, UTIL_FILE);
}

/* 2^-@x, within 6% (the check allows a factor of 2): no libm. */
static double half_lives(double x)
{
	double r = 1;

	for (; x >= 1; x -= 1)
		r /= 2;
	return r * (1 - x / 2);
}

/*
 * A hog on @cpu; with @util_max, its uclamp limit; spins until @stop_ns,
 * then sleeps. The caller may stop it earlier (SIGSTOP): the deadline is
 * only a bound on the CPU a lost test takes.
 */
static pid_t util_hog(int cpu, int util_max, uint64_t stop_ns)
{
	pid_t pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid)
		return pid;
	pin(0, cpu);
	if (util_max) {
		struct ps_sched_attr a = {
			.size = sizeof(a),
			/* SCHED_FLAG_KEEP_POLICY | KEEP_PARAMS | UTIL_CLAMP_MAX */
			.sched_flags = 0x08 | 0x10 | 0x40,
			.sched_util_max = util_max,
		};

		if (syscall(SYS_sched_setattr, 0, &a, 0))
			_exit(2);
	}
	while (now_ns(CLOCK_MONOTONIC) < stop_ns)
		;
	for (;;)
		pause();
}

/*
 * util [CPU]: a hog on CPU (1) for 2 s: the utilisation schedutil reads
 * at its end is over 900 of 1024 (the plugged tasks' own signal too, under
 * a plugged policy), and it would ask for the CPU's full capacity (by
 * then PELT keeps nothing of the first second, y^1000: a late start of the
 * hog, behind what ran there before, does not count). The reader stops the
 * hog (SIGSTOP) only after that read: a read that comes late (the host held
 * the reader's vCPU) still finds it running. Stopped, 64 ms later its CPU's
 * plugged signal has decayed by PELT's 32 ms
 * half-life (within a factor of 2, for the host), and after 500 ms less
 * than 24 is left (y^500 of 1024 is 0; the least of five reads, for the
 * kernel threads that run there). Then a hog with uclamp's util_max 300:
 * schedutil's limit there is 300, and the performance it would ask for is
 * no more.
 */
static int test_util(int argc, char **argv)
{
	int cpu = argc ? atoi(argv[0]) : 1;
	bool plugged = strcmp(active_policy(), "eevdf");
	struct cpu_util busy, u0, u1, idle, capped = { 0 };
	uint64_t t0, t1, start = now_ns(CLOCK_MONOTONIC);
	double want, got;
	long busy_ms;
	pid_t pid;
	int i;

	ksft_set_plan(4);
	if (cpu >= nr_cpus() || nr_cpus() < 2)
		ksft_exit_skip("needs CPU %d and another\n", cpu);
	/* The reader stays off the hog's CPU: its own runs would count there. */
	pin(0, cpu ? 0 : 1);
	pid = util_hog(cpu, 0, start + 10000 * MSEC);
	usleep(1990000);
	read_util(cpu, &busy);
	busy_ms = (now_ns(CLOCK_MONOTONIC) - start) / MSEC;
	kill(pid, SIGSTOP);
	usleep(60000);
	/* It is stopped now: read, wait two half-lives, read again. */
	t0 = now_ns(CLOCK_MONOTONIC);
	read_util(cpu, &u0);
	usleep(64000);
	read_util(cpu, &u1);
	t1 = now_ns(CLOCK_MONOTONIC);
	usleep(500000);
	/*
	 * The least of five reads 25 ms apart: a kworker's 1 ms there adds
	 * some 22 (1024 * (1 - y)) to the one read after it.
	 */
	read_util(cpu, &idle);
	for (i = 0; i < 4; i++) {
		struct cpu_util u;

		usleep(25000);
		read_util(cpu, &u);
		if (u.plug + u.util < idle.plug + idle.util)
			idle = u;
	}
	kill(pid, SIGKILL);
	reap(pid);

	ksft_test_result(busy.util >= 900 && (!plugged || busy.plug >= 900) &&
			 (!busy.perf || busy.perf == 1024),
			 "a hog's CPU under %s: utilisation %ld (plugged tasks' %ld), schedutil would ask for %ld of 1024 (read at %ld ms)\n",
			 active_policy(), busy.util, busy.plug, busy.perf, busy_ms);
	want = half_lives((double)(t1 - t0) / PELT_HALFLIFE_NS);
	got = u0.plug ? (double)u1.plug / u0.plug : 0;
	ksft_test_result(!plugged || (got >= want / 2 && got <= want * 2),
			 "its signal decays: %ld -> %ld in %llu ms, %.3f of it (PELT: %.3f)\n",
			 u0.plug, u1.plug, (unsigned long long)((t1 - t0) / MSEC), got, want);
	ksft_test_result(idle.plug < 24 && (!plugged || idle.util < 24),
			 "500 ms later: utilisation %ld, plugged tasks' %ld (< 24)\n",
			 idle.util, idle.plug);

	start = now_ns(CLOCK_MONOTONIC);
	pid = util_hog(cpu, 300, start + 1500 * MSEC);
	usleep(700000);
	/* The first sample with the hog alone there: a kworker's visit lifts the clamp. */
	for (i = 0; i < 20; i++) {
		read_util(cpu, &capped);
		if (capped.nr == 1)
			break;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	reap(pid);
	ksft_test_result(capped.nr == 1 && capped.max == 300 && capped.perf <= 300,
			 "a hog with util_max 300: schedutil's limit %ld, it would ask for %ld\n",
			 capped.max, capped.perf);
	return 0;
}

PLUGSCHED_TEST("util", test_util, "[CPU]",
	       "schedutil's view: a hog's CPU busy, the signal's decay, uclamp's limit");
