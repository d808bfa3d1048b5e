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
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
	pid_t pair[2];		/* the pair's tids, each toggling the other */
	unsigned long pair_toggles[2];
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
 * A CPU hog over [@start, @end) that every @period_us of its own run time
 * toggles the task *@target holds (itself with no @target; none while
 * *@target is still 0). Returns the number of toggles.
 */
static unsigned long toggling_hog(struct hog *out, const pid_t *target, bool affinity,
				  int period_us, uint64_t start, uint64_t end)
{
	uint64_t t, cpu0, next = 0, last, c;
	unsigned long n = 0;
	pid_t tid;

	while (now_ns(CLOCK_MONOTONIC) < start)
		;
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	last = now_ns(CLOCK_MONOTONIC);
	while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
		if (t - last > out->max_gap_ns)
			out->max_gap_ns = t - last;
		last = t;
		c = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		tid = target ? __atomic_load_n(target, __ATOMIC_ACQUIRE) : 0;
		if (c >= next && (!target || tid)) {
			hostile_toggle(tid, affinity, n++);
			next = c + period_us * 1000ULL;
		}
	}
	out->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return n;
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
		h->toggles = toggling_hog(out, NULL, affinity, period_us, start, end);
	} else {
		hog_body(out, start, end);
		__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
		waitpid(sib, NULL, 0);
	}
}

/*
 * One of a pair of hogs that, every @period_us of its own run, flip the
 * other's policy between SCHED_OTHER and SCHED_BATCH, or its affinity.
 * Neither can leave its own expired array or lower level alone, as it
 * runs only from the active one; but while one waits there the other runs
 * and moves it, and with two the policy's active set need never drain for
 * a round robin to reach the plain hog.
 */
static void pair_body(struct hostile *h, struct hog *out, int me, bool affinity,
		      int period_us, uint64_t start, uint64_t end)
{
	__atomic_store_n(&h->pair[me], syscall(SYS_gettid), __ATOMIC_RELEASE);
	h->pair_toggles[me] = toggling_hog(out, &h->pair[!me], affinity, period_us, start, end);
}

/* As nobody: what any local user can do. */
static pid_t fork_nobody(void)
{
	pid_t pid = fork();

	if (pid == 0 && (setgid(65534) || setuid(65534)))
		_exit(4);
	return pid;
}

/* 2 s hold 20 of o1's 100 ms slices: 6 of them make the plain hog's third. */
static void test_pair(struct hostile *h, int secs, int min_pct, bool affinity)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	uint64_t end = start + secs * NSEC;
	struct sched_param sp = { 0 }, rt = { .sched_priority = 1 };
	pid_t plain, bad[2];
	double pct, bound = min_pct * 2.0 / 3;
	int rc = 0, i;

	memset(hogs, 0, 3 * sizeof(struct hog));
	memset(h, 0, sizeof(*h));
	/*
	 * Forked from an RT parent that resets on fork, the three start
	 * with a fresh state under the policy: no sleep credit inherited
	 * from this sleeping process, which would keep them interactive under
	 * o1 for seconds (it drains at 1/bonus of the run time), and o1 puts
	 * interactive tasks back in the active array by design.
	 */
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt))
		ksft_exit_fail_msg("SCHED_FIFO: %s\n", strerror(errno));
	plain = spawn_hog(0, 0, 0, start, end);
	for (i = 0; i < 2; i++) {
		bad[i] = fork_nobody();
		if (bad[i] == 0) {
			pair_body(h, &hogs[1 + i], i, affinity, 2000, start, end);
			_exit(0);
		}
	}
	sched_setscheduler(0, SCHED_OTHER, &sp);
	rc |= reap(plain);
	for (i = 0; i < 2; i++)
		rc |= reap(bad[i]);
	pct = 100.0 * hogs[0].cpu_ns /
	      (hogs[0].cpu_ns + hogs[1].cpu_ns + hogs[2].cpu_ns + 1);
	ksft_print_msg("plain hog %llu ms, the pair %llu + %llu ms (%lu + %lu toggles)\n",
		       (unsigned long long)(hogs[0].cpu_ns / MSEC),
		       (unsigned long long)(hogs[1].cpu_ns / MSEC),
		       (unsigned long long)(hogs[2].cpu_ns / MSEC),
		       h->pair_toggles[0], h->pair_toggles[1]);
	ksft_print_msg("the plain hog's longest stall: %llu ms\n",
		       (unsigned long long)(hogs[0].max_gap_ns / MSEC));
	ksft_test_result(!rc && h->pair_toggles[0] > 10 && h->pair_toggles[1] > 10 &&
			 pct >= bound,
			 "a pair of hogs flipping each other's %s: the plain hog keeps %.1f%% >= %.1f%% of the CPU\n",
			 affinity ? "affinity" : "policy", pct, bound);
}

/*
 * hostile SECS MIN_PCT: as an unprivileged user, on one CPU (CPU 1 taken
 * offline, so that a mask with it differs from one without), a hog that
 * toggles its own policy (SCHED_OTHER/SCHED_BATCH) or affinity every 2 ms
 * of its run, or has a sibling toggle it every 2 ms, runs beside a plain
 * hog. A re-enqueue after such a change must keep the task's place in the
 * policy: the plain hog keeps MIN_PCT% of the CPU in each of the four
 * runs; then two pairs (test_pair()).
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
	ksft_set_plan(6);
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
		bad = fork_nobody();
		if (bad == 0) {
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
	test_pair(h, secs, min_pct, false);
	test_pair(h, secs, min_pct, true);
	unpin(0);
	if (offline && set_online(1, 1))
		ksft_exit_fail_msg("cannot bring CPU 1 back: %s\n", strerror(errno));
	return 0;
}

PLUGSCHED_TEST("hostile", test_hostile, "SECS MIN_PCT",
	       "a hog toggling its policy or affinity leaves a plain hog its share");

/* What a flood's spinners are: SCHED_IDLE, SCHED_BATCH or nice 19. */
enum flood_kind { FLOOD_IDLE, FLOOD_BATCH, FLOOD_NICE19 };

/* Per spinner of a flood: whether it ran inside the hog's window. */
struct idle_spin {
	int stop;
	enum flood_kind kind;
	uint64_t start, end;
	unsigned char ran[];
};

/*
 * An unprivileged spinner of @f->kind on the caller's CPU until @f->stop;
 * @f->ran[@i] says whether it used CPU time between @f->start and @f->end.
 */
static pid_t idle_spinner(struct idle_spin *f, int i)
{
	struct sched_param sp = { 0 };
	uint64_t t, c, in = 0, last = 0;
	pid_t pid = fork_nobody();
	int rc;

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid)
		return pid;
	switch (f->kind) {
	case FLOOD_IDLE:
		rc = sched_setscheduler(0, SCHED_IDLE, &sp);
		break;
	case FLOOD_BATCH:
		rc = sched_setscheduler(0, SCHED_BATCH, &sp);
		break;
	default:
		rc = setpriority(PRIO_PROCESS, 0, 19);
		break;
	}
	if (rc)
		_exit(5);
	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		t = now_ns(CLOCK_MONOTONIC);
		c = now_ns(CLOCK_THREAD_CPUTIME_ID);
		if (t >= __atomic_load_n(&f->start, __ATOMIC_RELAXED) && !in)
			in = c;
		if (t < __atomic_load_n(&f->end, __ATOMIC_RELAXED))
			last = c;
	}
	f->ran[i] = in && last > in;
	_exit(0);
}

/*
 * Writing /proc/sys/vm/stat_refresh queues a work item on every CPU's
 * kworker and returns when all have run: from a CPU of its own, how long
 * CPU 0's took, at most, over probes 100 ms apart until @end.
 */
static uint64_t work_delay(uint64_t end)
{
	uint64_t t, worst = 0;

	pin(0, 1);
	while (now_ns(CLOCK_MONOTONIC) + 150 * MSEC < end) {
		usleep(100000);
		t = now_ns(CLOCK_MONOTONIC);
		if (write_file("/proc/sys/vm/stat_refresh", "1", 1))
			ksft_exit_fail_msg("cannot write /proc/sys/vm/stat_refresh\n");
		t = now_ns(CLOCK_MONOTONIC) - t;
		if (t > worst)
			worst = t;
	}
	pin(0, 0);
	return worst;
}

/*
 * @n idle spinners and a nice 0 hog on CPU 0 (this task pinned there):
 * the hog's share of the CPU over @secs, from 1 s after the last spinner
 * started; @starved: spinners that did not run in that time; @work: the
 * longest delay of a work item queued on CPU 0 meanwhile.
 */
static double idleflood_run(struct idle_spin *f, pid_t *pids, int n, int secs,
			    int *starved, int *bad, uint64_t *gap, uint64_t *work)
{
	enum flood_kind kind = f->kind;
	pid_t hog;
	int i;

	memset(f, 0, sizeof(*f) + n);
	f->kind = kind;
	f->start = ~0ULL;
	for (i = 0; i < n; i++)
		pids[i] = idle_spinner(f, i);
	__atomic_store_n(&f->end, now_ns(CLOCK_MONOTONIC) + (1 + secs) * NSEC, __ATOMIC_RELAXED);
	__atomic_store_n(&f->start, f->end - secs * NSEC, __ATOMIC_RELAXED);
	memset(hogs, 0, sizeof(struct hog));
	hog = spawn_hog(0, 0, 0, f->start, f->end);
	*work = work_delay(f->end);
	*bad = !!reap(hog);
	__atomic_store_n(&f->stop, 1, __ATOMIC_RELAXED);
	for (i = 0, *starved = 0; i < n; i++) {
		*bad += !!reap(pids[i]);
		*starved += !f->ran[i];
	}
	*gap = hogs[0].max_gap_ns;
	return (double)hogs[0].cpu_ns / (f->end - f->start);
}

/*
 * idleflood SECONDS N POLICY...: N SCHED_IDLE spinners of an unprivileged
 * user and a nice 0 hog, all on CPU 0, under eevdf first, then under each
 * POLICY in the same boot. SCHED_IDLE tasks run when nothing else wants
 * the CPU, and now and then (a lock holder among them must not stall
 * everybody), however many: the hog keeps at least 0.9 of the share eevdf
 * gives it (about half: the fair class weighs each idle task 3), waits at
 * most twice as long as under eevdf plus 30 ms (a tick in four goes to an
 * idle task at most: one at a time), and no more spinners go without the
 * CPU than under eevdf; a work item queued on CPU 0 meanwhile (a nice 0
 * kworker's wakeup beside the nice 0 hog) runs within twice eevdf's longest
 * delay plus 100 ms: each policy's own wakeup latency applies, up to the
 * longest slice any of them gives a nice 0 task at the defaults (o1, numa
 * and zaphod: 100 ms): o1 and numa preempt no task of the waker's dynamic
 * priority, and the hog, forked by a sleeper, keeps an equal one for its
 * first seconds (0.9-55.6 ms seen); sd none of the waker's level (a quantum,
 * 16 ms here: 17-28.5 ms seen); eevdf 2-3 ms. The flood must add nothing
 * to that: before the core's budget for SCHED_IDLE ticks, per-CPU kworkers
 * waited seconds. The stall bound is the core's idle ticks', which
 * decide for the policies that queue SCHED_IDLE tasks behind all others;
 * cfs weighs them itself (3, as fair does) and is held to the share: its
 * spinners, forked together, share a virtual runtime, a tick of run moves
 * one 341 ms ahead, and those within a granularity of the hog run back to
 * back, a tick each, so its design lets the hog wait up to N ticks.
 */
static const char * const flood_names[] = { "SCHED_IDLE", "batch", "nice19" };

/*
 * A flood of @kind under eevdf, then under each of the @npol policies in
 * @pols, judged as idleflood's and flood's comments say.
 */
static void flood_policies(enum flood_kind kind, int secs, int n, int npol, char **pols)
{
	int k, bad, starved, base_starved = 0;
	double base = 0, share, floor = 0.5 / (n + 1);
	uint64_t gap, base_gap = 0, work, base_work = 0;
	struct idle_spin *f = shared(sizeof(*f) + n);
	pid_t *pids = calloc(n, sizeof(*pids));
	char orig[64];

	if (!pids)
		ksft_exit_fail_msg("out of memory\n");
	snprintf(orig, sizeof(orig), "%s", active_policy());
	ksft_set_plan(npol);
	pin(0, 0);
	for (k = -1; k < npol; k++) {
		const char *pol = k < 0 ? "eevdf" : pols[k];
		bool idle = kind == FLOOD_IDLE, cfs = !strcmp(pol, "cfs");

		if (switch_to(pol, NULL))
			ksft_exit_fail_msg("cannot switch to %s: %s\n", pol, strerror(errno));
		f->kind = kind;
		share = idleflood_run(f, pids, n, secs, &starved, &bad, &gap, &work);
		ksft_print_msg("%s: the hog had %.3f, stall %llu ms, %d starved, work %.1f ms\n",
			       pol, share, (unsigned long long)(gap / MSEC), starved,
			       (double)work / MSEC);
		if (k < 0) {
			base = share;
			base_starved = starved;
			base_gap = gap;
			base_work = work;
			continue;
		}
		if (!idle) {
			ksft_test_result(!bad && share >= floor &&
					 work <= 2 * base_work + 100 * MSEC,
					 "a nice 0 hog beside %d unprivileged %s spinners on one CPU, under %s: %.3f of it (>= %.3f; eevdf %.3f), work item on CPU 0 within %.1f ms (<= 2 x eevdf's %.1f + 100), %d failed\n",
					 n, flood_names[kind], pol, share, floor, base,
					 (double)work / MSEC, (double)base_work / MSEC, bad);
			continue;
		}
		ksft_test_result(!bad && share >= 0.9 * base && starved <= base_starved &&
				 (gap <= 2 * base_gap + 30 * MSEC || cfs) &&
				 work <= 2 * base_work + 100 * MSEC,
				 "a nice 0 hog beside %d unprivileged SCHED_IDLE spinners on one CPU, under %s: %.3f of it (>= 0.9 x eevdf's %.3f), longest stall %llu ms (%s), %d spinners never ran (eevdf: %d), work item on CPU 0 within %.1f ms (<= 2 x eevdf's %.1f + 100), %d failed\n",
				 n, pol, share, base, (unsigned long long)(gap / MSEC),
				 cfs ? "cfs: up to N ticks" : "<= 2 x eevdf's + 30",
				 starved, base_starved, (double)work / MSEC,
				 (double)base_work / MSEC, bad);
	}
	unpin(0);
	switch_to(orig, NULL);
	free(pids);
}

static int test_idleflood(int argc, char **argv)
{
	if (argc < 3)
		ksft_exit_fail_msg("usage: idleflood SECONDS N POLICY...\n");
	if (atoi(argv[0]) < 1 || atoi(argv[1]) < 1)
		ksft_exit_fail_msg("idleflood: SECONDS and N are at least 1\n");
	flood_policies(FLOOD_IDLE, atoi(argv[0]), atoi(argv[1]), argc - 2, argv + 2);
	return 0;
}

PLUGSCHED_TEST("idleflood", test_idleflood, "SECONDS N POLICY...",
	       "SCHED_IDLE tasks by the hundred leave a normal task its share");

/*
 * flood batch|nice19 SECONDS N POLICY...: N SCHED_BATCH (nice 0) or nice
 * 19 spinners of an unprivileged user and a nice 0 hog, all on CPU 0,
 * under eevdf first, then under each POLICY in the same boot. Each policy
 * weighs nice 19 its own way (o1: a 5 ms slice to the hog's 100; eevdf: 15
 * to 1024), so no share of eevdf's is the bound: the hog gets at least
 * half of what one of N + 1 equal tasks would (a nice 19 or SCHED_BATCH
 * task counts no more than a nice 0 one; half: the window holds few of
 * the slowest policy's slices), and a work item queued on CPU 0 meanwhile
 * runs within twice eevdf's longest delay plus 100 ms, as in idleflood: a
 * flood of any kind adds nothing to a kworker's wait.
 */
static int test_flood(int argc, char **argv)
{
	enum flood_kind kind;

	if (argc < 4)
		ksft_exit_fail_msg("usage: flood batch|nice19 SECONDS N POLICY...\n");
	if (!strcmp(argv[0], "batch"))
		kind = FLOOD_BATCH;
	else if (!strcmp(argv[0], "nice19"))
		kind = FLOOD_NICE19;
	else
		ksft_exit_fail_msg("flood: batch or nice19, not %s\n", argv[0]);
	if (atoi(argv[1]) < 1 || atoi(argv[2]) < 1)
		ksft_exit_fail_msg("flood: SECONDS and N are at least 1\n");
	flood_policies(kind, atoi(argv[1]), atoi(argv[2]), argc - 3, argv + 3);
	return 0;
}

PLUGSCHED_TEST("flood", test_flood, "batch|nice19 SECONDS N POLICY...",
	       "SCHED_BATCH or nice 19 floods leave a normal task and a kworker their turn");

/*
 * A CPU hog over [@start, @end) that moves itself to the other of CPUs 0
 * and 1 whenever @period_ns of wall time have passed since its last move
 * (the next time it runs after that). Returns the number of moves.
 */
static unsigned long flipping_hog(struct hog *out, uint64_t period_ns,
				  uint64_t start, uint64_t end)
{
	uint64_t t, cpu0, next, last;
	unsigned long n = 0;

	while (now_ns(CLOCK_MONOTONIC) < start)
		;
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	last = now_ns(CLOCK_MONOTONIC);
	next = last + period_ns;
	while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
		if (t - last > out->max_gap_ns)
			out->max_gap_ns = t - last;
		last = t;
		if (t >= next) {
			pin(0, ++n & 1);
			next = now_ns(CLOCK_MONOTONIC) + period_ns;
		}
	}
	out->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return n;
}

/*
 * A hog pinned to each of CPUs 0 and 1 and an unprivileged one flipping
 * between them every @period_us, for @secs: the pinned hogs' mean share
 * of their CPUs; the flipper's share in *@flip, its moves in *@moves
 * (shared memory).
 */
static double flipper_run(int secs, int period_us, double *flip, unsigned long *moves)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	uint64_t end = start + secs * NSEC;
	struct sched_param sp = { 0 }, rt = { .sched_priority = 1 };
	pid_t pids[3];
	int i, rc = 0;

	memset(hogs, 0, 3 * sizeof(struct hog));
	/* Forked fresh, as in test_pair(): no sleep credit from this task. */
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt))
		ksft_exit_fail_msg("SCHED_FIFO: %s\n", strerror(errno));
	for (i = 0; i < 2; i++)
		pids[i] = spawn_hog(i, i, 0, start, end);
	pids[2] = fork_nobody();
	if (pids[2] < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pids[2] == 0) {
		pin(0, 0);
		*moves = flipping_hog(&hogs[2], period_us * 1000ULL, start, end);
		_exit(0);
	}
	sched_setscheduler(0, SCHED_OTHER, &sp);
	for (i = 0; i < 3; i++)
		rc |= reap(pids[i]);
	if (rc)
		ksft_exit_fail_msg("a hog failed: %d\n", rc);
	*flip = (double)hogs[2].cpu_ns / (end - start);
	return (double)(hogs[0].cpu_ns + hogs[1].cpu_ns) / 2 / (end - start);
}

/*
 * flipper SECS POLICY...: on CPUs 0 and 1, a hog pinned to each and, as
 * an unprivileged user, a third hog that moves itself to the other CPU
 * every 0.1, 1 and 10 ms; under eevdf first, then under each POLICY in
 * the same boot. Moving is no lever: the pinned hogs keep 0.9 of their
 * share under eevdf or of their fair share (two thirds of a CPU), the
 * smaller: eevdf gives the flipper less than its third (its lag decays
 * while it is dequeued for the move), which a policy need not copy. A
 * policy that put a moved task first, or gave it a fresh slice or level
 * on the new CPU, gave the flipper most of both CPUs (cfs: 0.94, sd at
 * 10 ms: 0.94, the pinned hogs 0.50).
 */
static int test_flipper(int argc, char **argv)
{
	static const int period_us[] = { 100, 1000, 10000 };
	unsigned long *moves = shared(sizeof(*moves));
	double base[3], share, flip;
	char orig[64];
	int secs, k, j;

	if (argc < 2)
		ksft_exit_fail_msg("usage: flipper SECS POLICY...\n");
	secs = atoi(argv[0]);
	if (secs < 1)
		ksft_exit_fail_msg("flipper: SECS is at least 1\n");
	if (nr_cpus() < 2)
		ksft_exit_fail_msg("flipper: needs CPUs 0 and 1 online\n");
	snprintf(orig, sizeof(orig), "%s", active_policy());
	ksft_set_plan(3 * (argc - 1));
	for (k = -1; k < argc - 1; k++) {
		const char *pol = k < 0 ? "eevdf" : argv[1 + k];

		if (switch_to(pol, NULL))
			ksft_exit_fail_msg("cannot switch to %s: %s\n", pol, strerror(errno));
		for (j = 0; j < 3; j++) {
			share = flipper_run(secs, period_us[j], &flip, moves);
			ksft_print_msg("%s, a move every %.1f ms: %.3f, flipper %.3f, %lu moves\n",
				       pol, period_us[j] / 1000.0, share, flip, *moves);
			if (k < 0) {
				base[j] = share < 2.0 / 3 ? share : 2.0 / 3;
				continue;
			}
			ksft_test_result(share >= 0.9 * base[j] && *moves >= 5,
					 "an unprivileged hog moving between CPUs 0 and 1 every %.1f ms, under %s: the pinned hogs keep %.3f of a CPU (>= 0.9 x %.3f), the flipper %.3f, %lu moves (>= 5)\n",
					 period_us[j] / 1000.0, pol, share, base[j], flip, *moves);
		}
	}
	switch_to(orig, NULL);
	return 0;
}

PLUGSCHED_TEST("flipper", test_flipper, "SECS POLICY...",
	       "a hog moving itself between CPUs leaves the hogs there their share");

/* A lever's tasks: they stop when told. */
struct lever {
	int stop;
};

/*
 * One of lever's unprivileged tasks on the caller's CPU: a yielder calls
 * sched_yield() in a loop; a forker forks a child that burns 2 ms of CPU
 * and exits, waits for it, and forks again.
 */
static pid_t lever_task(struct lever *l, bool fork_loop)
{
	pid_t pid = fork_nobody();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid)
		return pid;
	while (!__atomic_load_n(&l->stop, __ATOMIC_RELAXED)) {
		pid_t child;

		if (!fork_loop) {
			sched_yield();
			continue;
		}
		child = fork();
		if (child == 0) {
			burn_cpu(2);
			_exit(0);
		}
		if (child < 0 || waitpid(child, NULL, 0) != child)
			_exit(3);
	}
	_exit(0);
}

/*
 * @n lever tasks and a nice 0 hog on CPU 0 for @secs, from 0.5 s after
 * they started: the hog's share; its longest stall in *@gap; the longest
 * delay of a work item on CPU 0 in *@work.
 */
static double lever_run(struct lever *l, bool fork_loop, int n, int secs, int *bad,
			uint64_t *gap, uint64_t *work)
{
	uint64_t start, end;
	pid_t hog, pids[64];
	int i;

	l->stop = 0;
	for (i = 0; i < n; i++)
		pids[i] = lever_task(l, fork_loop);
	start = now_ns(CLOCK_MONOTONIC) + 500 * MSEC;
	end = start + secs * NSEC;
	memset(hogs, 0, sizeof(struct hog));
	hog = spawn_hog(0, 0, 0, start, end);
	*work = work_delay(end);
	*bad = !!reap(hog);
	__atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		*bad += !!reap(pids[i]);
	*gap = hogs[0].max_gap_ns;
	return (double)hogs[0].cpu_ns / (end - start);
}

/*
 * lever yield|fork SECONDS N [RATIO [ALLOW_MS]] POLICY...: N tasks of an unprivileged
 * user pull a lever on CPU 0 beside a nice 0 hog, under eevdf first, then
 * under each POLICY in the same boot: yield, a sched_yield() storm; fork,
 * each forking a child that burns 2 ms and exits, again and again (a
 * policy that gave each child a fresh slice or credit would hand the
 * family more than its share). The hog keeps at least RATIO (0.9 unless
 * given) of the share eevdf gives it, and a work item queued on CPU 0
 * meanwhile runs within twice eevdf's longest delay plus ALLOW_MS (100
 * unless given: the longest slice any policy gives a nice 0 task, as in
 * idleflood).
 */
static int test_lever(int argc, char **argv)
{
	struct lever *l = shared(sizeof(*l));
	uint64_t gap, work, base_work = 0, allow = 100 * MSEC;
	double base = 0, share, ratio = 0.9;
	int secs, n, k, bad, first = 3;
	bool fork_loop;
	char orig[64];

	if (argc < 4)
		ksft_exit_fail_msg("usage: lever yield|fork SECONDS N [RATIO [ALLOW_MS]] %s\n",
				   "POLICY...");
	fork_loop = !strcmp(argv[0], "fork");
	if (!fork_loop && strcmp(argv[0], "yield"))
		ksft_exit_fail_msg("lever: yield or fork, not %s\n", argv[0]);
	secs = atoi(argv[1]);
	n = atoi(argv[2]);
	if (secs < 1 || n < 1 || n > 64)
		ksft_exit_fail_msg("lever: SECONDS at least 1, N 1..64\n");
	/* A policy's name never starts with a digit. */
	if (argv[3][0] >= '0' && argv[3][0] <= '9') {
		ratio = atof(argv[3]);
		if (argc < 5 || ratio <= 0 || ratio > 1)
			ksft_exit_fail_msg("lever: RATIO in (0, 1], then a POLICY\n");
		first = 4;
		if (argv[4][0] >= '0' && argv[4][0] <= '9') {
			allow = atoi(argv[4]) * MSEC;
			if (argc < 6)
				ksft_exit_fail_msg("lever: ALLOW_MS, then a POLICY\n");
			first = 5;
		}
	}
	snprintf(orig, sizeof(orig), "%s", active_policy());
	ksft_set_plan(argc - first);
	pin(0, 0);
	for (k = -1; k < argc - first; k++) {
		const char *pol = k < 0 ? "eevdf" : argv[first + k];

		if (switch_to(pol, NULL))
			ksft_exit_fail_msg("cannot switch to %s: %s\n", pol, strerror(errno));
		share = lever_run(l, fork_loop, n, secs, &bad, &gap, &work);
		ksft_print_msg("%s: the hog had %.3f of CPU 0, stall %llu ms, work item %.1f ms\n",
			       pol, share, (unsigned long long)(gap / MSEC), (double)work / MSEC);
		if (k < 0) {
			base = share;
			base_work = work;
			continue;
		}
		ksft_test_result(!bad && share >= ratio * base &&
				 work <= 2 * base_work + allow,
				 "a nice 0 hog beside %d unprivileged %s on one CPU, under %s: %.3f of it (>= %.2f x eevdf's %.3f), work item on CPU 0 within %.1f ms (<= 2 x eevdf's %.1f + %llu), %d failed\n",
				 n, fork_loop ? "fork loops" : "yielders", pol, share, ratio,
				 base, (double)work / MSEC, (double)base_work / MSEC,
				 (unsigned long long)(allow / MSEC), bad);
	}
	unpin(0);
	switch_to(orig, NULL);
	return 0;
}

PLUGSCHED_TEST("lever", test_lever, "yield|fork SECONDS N [RATIO [ALLOW_MS]] POLICY...",
	       "a sched_yield() storm or a fork loop leaves a normal task its share");
