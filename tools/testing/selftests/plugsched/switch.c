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

PLUGSCHED_TEST("switch", test_switch, "[CYCLES]",
	       "every available policy switched to CYCLES times under load");
PLUGSCHED_TEST("switchbad", test_switchbad, "",
	       "bad names, unprivileged and concurrent writers to active fail cleanly");
