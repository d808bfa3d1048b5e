// SPDX-License-Identifier: GPL-2.0
/*
 * Coexistence with real-time work and hostile unprivileged tasks (issue
 * 15): the guarantees mainline gives normal tasks hold for plugged ones.
 *
 * Here a hostile unprivileged task: one toggling its policy or affinity.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugsched.h"

static int set_online(int cpu, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0", 1);
}

/* Shared between processes: read and written with __atomic builtins. */
struct hostile {
	int stop;
	pid_t victim;		/* tid of the hog a sibling toggles */
	unsigned long toggles;
};

/* Flip @tid between SCHED_OTHER and SCHED_BATCH, or between two masks. */
static void hostile_toggle(pid_t tid, bool affinity, unsigned long n)
{
	struct sched_param sp = { 0 };
	cpu_set_t set;

	if (!affinity) {
		sched_setscheduler(tid, n & 1 ? SCHED_BATCH : SCHED_OTHER, &sp);
		return;
	}
	/* CPU 1 is offline: the mask changes, the CPU the task may use not. */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (n & 1)
		CPU_SET(1, &set);
	sched_setaffinity(tid, sizeof(set), &set);
}

/*
 * The hostile hog: a CPU hog that every @period_us of its own run time
 * toggles itself (@self), or whose sibling thread wakes every @period_us
 * to toggle it.
 */
static void hostile_body(struct hostile *h, struct hog *out, bool self, bool affinity,
			 int period_us, uint64_t start, uint64_t end)
{
	pid_t sib;

	__atomic_store_n(&h->victim, syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (!self) {
		sib = fork();	/* a sibling process of the same user */
		if (sib == 0) {
			unsigned long n = 0;

			while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE)) {
				usleep(period_us);
				hostile_toggle(__atomic_load_n(&h->victim, __ATOMIC_ACQUIRE),
					       affinity, n++);
			}
			h->toggles = n;
			_exit(0);
		}
	}
	if (self) {
		uint64_t t, cpu0, next = 0, last, c;
		unsigned long n = 0;

		while (now_ns(CLOCK_MONOTONIC) < start)
			;
		cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		last = now_ns(CLOCK_MONOTONIC);
		while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
			if (t - last > out->max_gap_ns)
				out->max_gap_ns = t - last;
			last = t;
			c = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
			if (c >= next) {
				hostile_toggle(0, affinity, n++);
				next = c + period_us * 1000ULL;
			}
		}
		out->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		h->toggles = n;
	} else {
		hog_body(out, start, end);
		__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
		waitpid(sib, NULL, 0);
	}
}

/*
 * hostile SECS MIN_PCT: as an unprivileged user, on one CPU (CPU 1 taken
 * offline), a hog that toggles its own policy (SCHED_OTHER/SCHED_BATCH)
 * or affinity every 2 ms of its run, or has a sibling toggle it every
 * 2 ms, runs beside a plain hog. A re-enqueue after such a change must
 * keep the task's place in the policy: the plain hog keeps MIN_PCT% of
 * the CPU in each of the four runs.
 */
static int test_hostile(int argc, char **argv)
{
	static const char * const names[4] = {
		"toggles its own policy", "has its policy toggled by a sibling",
		"toggles its own affinity", "has its affinity toggled by a sibling",
	};
	struct hostile *h = shared(sizeof(*h));
	int secs, min_pct, mode, offline = 0;

	if (argc < 2)
		ksft_exit_fail_msg("usage: hostile SECS MIN_PCT\n");
	secs = atoi(argv[0]);
	min_pct = atoi(argv[1]);
	ksft_set_plan(4);
	if (nr_cpus() > 1) {
		if (set_online(1, 0))
			ksft_exit_fail_msg("cannot take CPU 1 offline: %s\n", strerror(errno));
		offline = 1;
	}
	pin(0, 0);
	for (mode = 0; mode < 4; mode++) {
		uint64_t start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
		uint64_t end = start + secs * NSEC;
		bool self = !(mode & 1), affinity = mode >= 2;
		pid_t plain, bad;
		int rc1, rc2;
		double pct;

		memset(hogs, 0, 2 * sizeof(struct hog));
		memset(h, 0, sizeof(*h));
		plain = spawn_hog(0, 0, 0, start, end);
		bad = fork();
		if (bad == 0) {
			/* nobody: what any local user can do */
			if (setgid(65534) || setuid(65534))
				_exit(4);
			hostile_body(h, &hogs[1], self, affinity, 2000, start, end);
			_exit(0);
		}
		rc1 = reap(plain);
		rc2 = reap(bad);
		pct = 100.0 * hogs[0].cpu_ns / (hogs[0].cpu_ns + hogs[1].cpu_ns + 1);
		ksft_print_msg("plain hog %llu ms, hostile hog %llu ms (%lu toggles)\n",
			       (unsigned long long)(hogs[0].cpu_ns / MSEC),
			       (unsigned long long)(hogs[1].cpu_ns / MSEC), h->toggles);
		ksft_print_msg("the plain hog's longest stall: %llu ms\n",
			       (unsigned long long)(hogs[0].max_gap_ns / MSEC));
		ksft_test_result(!rc1 && !rc2 && h->toggles > 10 && pct >= min_pct,
				 "a hog that %s: the plain hog keeps %.1f%% >= %d%% of the CPU\n",
				 names[mode], pct, min_pct);
	}
	unpin(0);
	if (offline && set_online(1, 1))
		ksft_exit_fail_msg("cannot bring CPU 1 back: %s\n", strerror(errno));
	return 0;
}

PLUGSCHED_TEST("hostile", test_hostile, "SECS MIN_PCT",
	       "a hog toggling its policy or affinity leaves a plain hog its share");
