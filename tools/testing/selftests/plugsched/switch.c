// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime switching and the watchdog: /sys/kernel/plugsched
 *
 * Here the switches, under load and with bad writes; the watchdog and
 * SysRq-P are in watchdog.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugsched.h"

static const char *expected_state(const char *name)
{
	return strcmp(name, "eevdf") ? "enabled" : "mainline";
}

static int split_names(char *list, char **names, int max)
{
	int n = 0;
	char *tok;

	for (tok = strtok(list, " "); tok && n < max; tok = strtok(NULL, " "))
		names[n++] = tok;
	return n;
}

struct switch_load {
	int stop;
	int hb_runs;
	int hb_failed;
	uint64_t fifo_max_late_ns;
	uint64_t fifo_wakeups;
	uint64_t fifo_late_10ms;
};

/* A SCHED_FIFO task waking every 2 ms, measuring how late it wakes. */
static void fifo_body(struct switch_load *l)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec ts = { 0, 2 * MSEC };
	uint64_t t, late;

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(2);
	while (!l->stop) {
		t = now_ns(CLOCK_MONOTONIC);
		nanosleep(&ts, NULL);
		late = now_ns(CLOCK_MONOTONIC) - t - 2 * MSEC;
		if (late > l->fifo_max_late_ns)
			l->fifo_max_late_ns = late;
		if (late > 10 * MSEC)
			l->fifo_late_10ms++;
		l->fifo_wakeups++;
	}
	_exit(0);
}

static void hackbench_body(struct switch_load *l)
{
	while (!l->stop) {
		pid_t p = fork();

		if (p == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
			execl("/usr/bin/hackbench", "hackbench", "-g", "4", "-l", "50", NULL);
			_exit(127);
		}
		l->hb_runs++;
		if (reap(p))
			l->hb_failed++;
	}
	_exit(0);
}

/*
 * switch CYCLES: under hackbench, pinned and unpinned hogs and a SCHED_FIFO
 * task, write every available name to active CYCLES times over. Every
 * switch succeeds and shows, every task finishes; reports the switch times.
 */
static int test_switch(int argc, char **argv)
{
	int cycles = argc ? atoi(argv[0]) : 100, n, c, i, k = 0, failed = 0, wrong = 0;
	int ncpu = nr_cpus(), bad_exit = 0;
	struct switch_load *l = shared(sizeof(*l));
	char list[256], boot[64], buf[256], *names[16];
	uint64_t *ns;
	struct sched_param sp;
	long sw0, sw1;
	pid_t pids[6];

	ksft_set_plan(6);
	read_line(PS_SYSFS "active", boot, sizeof(boot));
	read_line(PS_SYSFS "available", list, sizeof(list));
	n = split_names(list, names, 16);
	ns = calloc(cycles * n, sizeof(*ns));
	sw0 = read_long(PS_SYSFS "switches");

	for (i = 0; i < 4; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			if (i < 2)
				pin(0, i % ncpu);
			while (!l->stop)
				burn_cpu(10);
			_exit(0);
		}
	}
	pids[4] = fork();
	if (pids[4] == 0)
		fifo_body(l);
	pids[5] = fork();
	if (pids[5] == 0)
		hackbench_body(l);
	usleep(300000);

	/*
	 * The switch's own time, not the writer's waits: as a normal task the
	 * writer sleeps in a switch (grace periods, IPIs) and wakes behind a
	 * hog of its own priority, which under o1, numa and zaphod (three of
	 * the six names) has a 100 ms slice; about half the samples then carry
	 * up to 100 ms of wait, and the median sat on its bound (103.5 ms in
	 * CI). Below the SCHED_FIFO checker, so that it measures its wakeups.
	 */
	sp.sched_priority = 10;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		ksft_exit_fail_msg("SCHED_FIFO writer: %s\n", strerror(errno));
	for (c = 0; c < cycles; c++) {
		for (i = 0; i < n; i++) {
			/* Start each cycle away from the policy we are on. */
			const char *name = names[(i + 1 + c) % n];

			read_line(PS_SYSFS "active", buf, sizeof(buf));
			if (!strcmp(buf, name))
				continue;
			if (switch_to(name, &ns[k])) {
				failed++;
				continue;
			}
			k++;
			/* Let the load run a little under each policy. */
			usleep(20000);
			read_line(PS_SYSFS "active", buf, sizeof(buf));
			if (strcmp(buf, name))
				wrong++;
			read_line(PS_SYSFS "state", buf, sizeof(buf));
			if (strcmp(buf, expected_state(name)))
				wrong++;
		}
	}
	switch_to(boot, NULL);
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	sw1 = read_long(PS_SYSFS "switches");
	l->stop = 1;
	for (i = 0; i < 6; i++)
		if (reap(pids[i]))
			bad_exit++;

	qsort(ns, k, sizeof(*ns), cmp_u64);
	ksft_print_msg("%d switches: median %.2f ms, p90 %.2f ms, max %.2f ms\n", k,
		       k ? ns[k / 2] / 1e6 : 0, k ? ns[k * 9 / 10] / 1e6 : 0,
		       k ? ns[k - 1] / 1e6 : 0);
	ksft_test_result(k > 0 && !failed && !wrong,
			 "%d switches over %d cycles of %d names: %d failed, %d showed a wrong active/state\n",
			 k, cycles, n, failed, wrong);
	ksft_test_result(sw1 - sw0 >= k && sw1 - sw0 <= k + 1,
			 "switches counted %ld (%d written, plus the way back)\n", sw1 - sw0, k);
	/* A SCHED_FIFO writer: TCG's and the host's delays still show in the tail. */
	ksft_test_result(k && ns[k / 2] < 100 * MSEC && ns[k * 9 / 10] < 1000 * MSEC,
			 "switch time median %.2f ms (< 100), p90 %.2f ms (< 1000), max %.2f ms\n",
			 k ? ns[k / 2] / 1e6 : 0, k ? ns[k * 9 / 10] / 1e6 : 0,
			 k ? ns[k - 1] / 1e6 : 0);
	ksft_test_result(!bad_exit && l->hb_runs > 0 && !l->hb_failed,
			 "every task finished: %d hackbench runs, %d failed, %d bad exits\n",
			 l->hb_runs, l->hb_failed, bad_exit);
	/*
	 * Under TCG each static key flip (four per switch) retranslates code
	 * on every vCPU: the worst case is the emulator's, the rate is ours.
	 */
	ksft_test_result(l->fifo_wakeups > 100 && l->fifo_late_10ms * 100 <= l->fifo_wakeups &&
			 l->fifo_max_late_ns < 1000 * MSEC,
			 "SCHED_FIFO task woke %llu times, %llu over 10 ms late (<= 1%%), at most %.2f ms (< 1000)\n",
			 (unsigned long long)l->fifo_wakeups,
			 (unsigned long long)l->fifo_late_10ms, l->fifo_max_late_ns / 1e6);
	read_line(PS_SYSFS "active", buf, sizeof(buf));
	ksft_test_result(!strcmp(buf, boot), "back on %s\n", buf);
	free(ns);
	return 0;
}

static int drop_sys_admin(void)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522, 0 };	/* _LINUX_CAPABILITY_VERSION_3 */
	struct {
		uint32_t effective, permitted, inheritable;
	} data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1U << 21);	/* CAP_SYS_ADMIN */
	data[0].permitted &= ~(1U << 21);
	return syscall(SYS_capset, &hdr, data);
}

/*
 * switchbad: bad names, unprivileged writers and concurrent switches fail
 * with EINVAL, EPERM/EACCES and EBUSY, and change nothing.
 */
static int test_switchbad(int argc, char **argv)
{
	/* (An empty write never reaches sysfs: "\n" is what "echo" sends.) */
	static const char * const bad[] = { "\n", "nosuch", "EEVDF", "o1 cfs", "o1x",
					     " ", "eevdf eevdf", "starve2" };
	char boot[64], buf[64], list[256], *names[16];
	int i, n, einval = 0, changed = 0, busy = 0, other = 0, ok = 0;
	int *res = shared(sizeof(int) * 8);
	long sw0;
	pid_t p;

	ksft_set_plan(4);
	read_line(PS_SYSFS "active", boot, sizeof(boot));
	sw0 = read_long(PS_SYSFS "switches");
	for (i = 0; i < (int)ARRAY_SIZE(bad); i++) {
		if (write_file(PS_SYSFS "active", bad[i], strlen(bad[i])) == -EINVAL)
			einval++;
		read_line(PS_SYSFS "active", buf, sizeof(buf));
		if (strcmp(buf, boot) || read_long(PS_SYSFS "switches") != sw0)
			changed++;
	}
	ksft_test_result(einval == ARRAY_SIZE(bad) && !changed,
			 "%d of %zu bad names got EINVAL, %d changed something\n",
			 einval, ARRAY_SIZE(bad), changed);

	p = fork();
	if (p == 0) {
		res[0] = drop_sys_admin() ? -999 : switch_to("eevdf", NULL);
		if (setuid(65534))
			_exit(1);
		res[1] = switch_to("eevdf", NULL);
		_exit(0);
	}
	reap(p);
	read_line(PS_SYSFS "active", buf, sizeof(buf));
	ksft_test_result(res[0] == -EPERM && res[1] == -EACCES && !strcmp(buf, boot),
			 "without CAP_SYS_ADMIN: %s; as uid 65534: %s; still %s\n",
			 strerror(-res[0]), strerror(-res[1]), buf);

	/* Two writers at once: one of them finds a switch in progress. */
	read_line(PS_SYSFS "available", list, sizeof(list));
	n = split_names(list, names, 16);
	for (i = 0; i < 2; i++) {
		if (fork() == 0) {
			int k, r;

			pin(0, i % nr_cpus());
			for (k = 0; k < 60; k++) {
				r = switch_to(names[(k + i) % n], NULL);
				__atomic_add_fetch(r == -EBUSY ? &res[2] : r ? &res[3] : &res[4],
						   1, __ATOMIC_RELAXED);
			}
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	busy = res[2];
	other = res[3];
	ok = res[4];
	ksft_test_result(busy > 0 && !other && ok > 0,
			 "concurrent writers: %d switched, %d got EBUSY, %d other errors\n",
			 ok, busy, other);
	switch_to(boot, NULL);
	read_line(PS_SYSFS "state", buf, sizeof(buf));
	ksft_test_result(!strcmp(buf, expected_state(boot)), "state \"%s\" on %s\n", buf, boot);
	return 0;
}

#define DL_RUNTIME_NS	(2500 * 1000ULL)
#define DL_PERIOD_NS	(100 * 1000 * 1000ULL)
#define DL_MAX_TASKS	1024

/*
 * Children made SCHED_DEADLINE (2.5 ms every 100 ms), asleep, until the
 * kernel refuses one or @max are in: their pids to @pids. Returns how
 * many it admitted; they stay until dl_free().
 */
static int dl_fill(pid_t *pids, int max)
{
	int n, fd[2];
	char c;

	if (pipe(fd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	for (n = 0; n < max; n++) {
		pids[n] = fork_or_fail();
		if (!pids[n]) {
			struct ps_sched_attr a = {
				.size = sizeof(a), .sched_policy = SCHED_DEADLINE,
				.sched_runtime = DL_RUNTIME_NS, .sched_deadline = DL_PERIOD_NS,
				.sched_period = DL_PERIOD_NS,
			};
			bool in = !syscall(SYS_sched_setattr, 0, &a, 0);

			c = in ? 'y' : 'n';
			if (write(fd[1], &c, 1) != 1 || !in)
				_exit(0);
			for (;;)
				pause();
		}
		if (read(fd[0], &c, 1) != 1 || c != 'y') {
			reap(pids[n]);
			break;
		}
	}
	close(fd[0]);
	close(fd[1]);
	return n;
}

static void dl_free(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		reap(pids[i]);
}

/* CPU 0's root domain's reserved deadline bandwidth (<< 20), or -1. */
static long long dl_total_bw(void)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	long long bw = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " .dl_bw->total_bw : %lld", &bw) == 1)
			break;
	fclose(f);
	return bw;
}

/*
 * Wait up to 10 s for the reserved bandwidth to read @bw: a deadline task
 * that dies asleep gives its bandwidth back at its 0-lag time (the
 * inactive timer), up to a period later, or seconds later in a guest the
 * host holds up (65..71 of 72 tasks admitted again at once, seen; 3 s
 * were not enough for a debug kernel's guest run at SCHED_IDLE).
 */
static long long dl_settle(long long bw)
{
	long long now = dl_total_bw();
	int i;

	for (i = 0; i < 1000 && now != bw; i++) {
		usleep(10000);
		now = dl_total_bw();
	}
	return now;
}

#define PLUG_SERVER	"/sys/kernel/debug/sched/plug_server/"

/* What the online CPUs' plug servers reserve, as set (<< 20). */
static long long plug_servers_bw(void)
{
	long long sum = 0;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		char path[96];
		long long runtime, period;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		/* CPU 0 has no such file: always online. */
		if (access(path, F_OK) ? cpu > 0 : read_long(path) != 1)
			continue;
		snprintf(path, sizeof(path), PLUG_SERVER "cpu%d/runtime", cpu);
		runtime = read_long(path);
		snprintf(path, sizeof(path), PLUG_SERVER "cpu%d/period", cpu);
		period = read_long(path);
		if (period > 0 && runtime >= 0)
			sum += (runtime << 20) / period;
	}
	return sum;
}

/*
 * dlbw POLICY...: the plug servers hold deadline bandwidth (50 ms a
 * second per CPU, as the fair servers) only while a policy is active.
 * The root domain's reserved bandwidth (dl_bw->total_bw in
 * /sys/kernel/debug/sched/debug) under eevdf, under each POLICY (with a
 * hog on each CPU), under eevdf again: the policy adds exactly its
 * servers' share of each online CPU, and eevdf after it reads as before:
 * bandwidth a policy reserved and never gave back would be gone from
 * every SCHED_DEADLINE user for good. Then SCHED_DEADLINE tasks of 2.5
 * ms every 100 ms, asleep, take all there is, and a switch to POLICY
 * fails with EBUSY and changes nothing.
 */
static int test_dlbw(int argc, char **argv)
{
	static pid_t pids[DL_MAX_TASKS];
	int ncpu = nr_cpus(), k, n, err, i;
	long long base, during, after, servers;
	uint64_t start, end;
	pid_t hogs[64];
	char buf[64];
	long sw0;

	if (argc < 1 || ncpu > 64)
		ksft_exit_fail_msg("usage: dlbw POLICY... (64 CPUs at most)\n");
	if (switch_to("eevdf", NULL))
		ksft_exit_fail_msg("cannot switch to eevdf: %s\n", strerror(errno));
	base = dl_total_bw();
	if (base < 0)
		ksft_exit_skip("no dl_bw->total_bw in /sys/kernel/debug/sched/debug\n");
	ksft_set_plan(2 * argc);
	for (k = 0; k < argc; k++) {
		if (dl_settle(base) != base)
			ksft_print_msg("the deadline tasks' bandwidth not all back after 10 s\n");
		base = dl_total_bw();
		servers = plug_servers_bw();
		start = now_ns(CLOCK_MONOTONIC);
		end = start + 3000 * MSEC;
		for (i = 0; i < ncpu; i++)
			hogs[i] = spawn_hog(i, i, 0, start, end);
		err = switch_to(argv[k], NULL);
		usleep(100000);
		during = dl_total_bw();
		switch_to("eevdf", NULL);
		for (i = 0; i < ncpu; i++)
			kill(hogs[i], SIGKILL);
		for (i = 0; i < ncpu; i++)
			reap(hogs[i]);
		after = dl_total_bw();
		ksft_test_result(!err && during - base == servers && after == base,
				 "%s's plug servers hold deadline bandwidth while it runs: %lld reserved under eevdf, %lld under %s (+%lld, its servers' %lld), %lld after\n",
				 argv[k], base, during, argv[k], during - base, servers, after);

		n = dl_fill(pids, DL_MAX_TASKS);
		sw0 = read_long(PS_SYSFS "switches");
		err = switch_to(argv[k], NULL);
		read_line(PS_SYSFS "active", buf, sizeof(buf));
		ksft_test_result(err == -EBUSY && !strcmp(buf, "eevdf") &&
				 read_long(PS_SYSFS "switches") == sw0,
				 "the bandwidth all taken (%d tasks of 2.5%%): the switch to %s fails (%s), %s stays, no switch counted\n",
				 n, argv[k], err ? strerror(-err) : "no error", buf);
		dl_free(pids, n);
		switch_to("eevdf", NULL);
	}
	return 0;
}

/*
 * tags ACTIVATIONS POLICY...: a task asleep across ACTIVATIONS activations
 * (the POLICYs in turn, eevdf between them if there is one) wakes and runs,
 * and no task kept a policy's tag past the policy's leave walk
 * (plug_stale_tags, a debug kernel's count): tags are 8 bits and wrap
 * every 255 activations, so a tag left behind would one day match a new
 * activation and hand it the old policy's state as its own.
 */
static int test_tags(int argc, char **argv)
{
	int n, i, acts = 0, failed = 0, status = -1;
	long stale0, stale;
	uint64_t t0;
	pid_t sleeper;

	if (argc < 2)
		ksft_exit_fail_msg("usage: tags ACTIVATIONS POLICY...\n");
	n = atoi(argv[0]);
	stale0 = read_long("/sys/kernel/debug/sched/plug_stale_tags");
	if (stale0 < 0)
		ksft_exit_skip("no plug_stale_tags (not a CONFIG_PLUGSCHED_DEBUG kernel)\n");
	ksft_set_plan(1);
	if (switch_to("eevdf", NULL))
		ksft_exit_fail_msg("cannot switch to eevdf: %s\n", strerror(errno));
	sleeper = fork_or_fail();
	if (sleeper == 0) {
		pause();
		_exit(0);
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; acts < n; i++) {
		const char *to = argc == 2 && i % 2 ? "eevdf" : argv[1 + i % (argc - 1)];

		if (switch_to(to, NULL))
			failed++;
		else
			acts += strcmp(to, "eevdf") != 0;
		if (failed > 10)
			break;
	}
	failed += !!switch_to("eevdf", NULL);
	stale = read_long("/sys/kernel/debug/sched/plug_stale_tags") - stale0;
	/* SIGUSR1 ends the sleeper once it runs to take it: it must be picked. */
	kill(sleeper, SIGUSR1);
	if (waitpid(sleeper, &status, 0) != sleeper)
		status = -1;
	ksft_test_result(!failed && acts >= n && stale == 0 && WIFSIGNALED(status) &&
			 WTERMSIG(status) == SIGUSR1,
			 "%d activations in %llu ms (tags wrap every 255), %d switches failed; %ld tasks kept a tag past a leave; the sleeper woke (%s)\n",
			 acts, (unsigned long long)((now_ns(CLOCK_MONOTONIC) - t0) / MSEC), failed,
			 stale, WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no");
	return 0;
}

PLUGSCHED_TEST("switch", test_switch, "[CYCLES]",
	       "every available policy switched to CYCLES times under load");
PLUGSCHED_TEST("switchbad", test_switchbad, "",
	       "bad names, unprivileged and concurrent writers to active fail cleanly");
PLUGSCHED_TEST("dlbw", test_dlbw, "POLICY...",
	       "plug servers hold deadline bandwidth only while a policy runs");
PLUGSCHED_TEST("tags", test_tags, "ACTIVATIONS POLICY...",
	       "no task keeps a policy's tag past its leave; tags wrap safely");
