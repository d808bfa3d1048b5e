// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups: cgroup v2 cpu.weight, nested groups, a task moved between
 * groups while it runs, cpu.max bandwidth, and autogroup. Every policy must
 * share the CPU by the groups' weights and hold their limits as mainline
 * does (see plugsched_group.c). Each test takes SECONDS to measure and
 * WARM_MS of running before (o1's sleep bonus first has to learn that a
 * hog forked by a sleeper is a hog: one with an eighth of a CPU takes 5 s
 * to run off a full sleep average).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugsched.h"

#define CG_ROOT	"/sys/fs/cgroup"

/* cgroup v2 with the cpu controller for the root's children. */
static void cg_setup(void)
{
	mkdir(CG_ROOT, 0755);
	if (mount("none", CG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		ksft_exit_fail_msg("mount cgroup2: %s\n", strerror(errno));
	if (write_file(CG_ROOT "/cgroup.subtree_control", "+cpu", 4))
		ksft_exit_fail_msg("enable the cpu controller: %s\n", strerror(errno));
}

/* Make the group @path (under CG_ROOT) with @weight; its children get cpu. */
static void cg_make(const char *path, int weight, int parent)
{
	char dir[256], file[300], val[16];

	snprintf(dir, sizeof(dir), CG_ROOT "/%s", path);
	if (mkdir(dir, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", dir, strerror(errno));
	snprintf(file, sizeof(file), "%s/cpu.weight", dir);
	snprintf(val, sizeof(val), "%d", weight);
	if (write_file(file, val, strlen(val)))
		ksft_exit_fail_msg("%s = %s: %s\n", file, val, strerror(errno));
	snprintf(file, sizeof(file), "%s/cgroup.subtree_control", dir);
	if (parent && write_file(file, "+cpu", 4))
		ksft_exit_fail_msg("%s: %s\n", file, strerror(errno));
}

static void cg_move(const char *path, pid_t pid)
{
	char file[300], val[16];

	snprintf(file, sizeof(file), CG_ROOT "/%s/cgroup.procs", path);
	snprintf(val, sizeof(val), "%d", pid);
	if (write_file(file, val, strlen(val)))
		ksft_exit_fail_msg("move %d to %s: %s\n", pid, path, strerror(errno));
}

/* Groups are removed leaves first; their tasks have exited. */
static void cg_remove(const char *const *paths, int n)
{
	char dir[256];

	while (n--) {
		snprintf(dir, sizeof(dir), CG_ROOT "/%s", paths[n]);
		rmdir(dir);
	}
}

/* Hogs @from..@to-1 spin from now; they measure from @start to @end. */
static void spawn_group(pid_t *pids, int from, int to, const char *path,
			uint64_t start, uint64_t end)
{
	int i;

	for (i = from; i < to; i++) {
		pids[i] = spawn_hog(i, -1, 0, start, end);
		if (path)
			cg_move(path, pids[i]);
	}
}

static uint64_t cpu_sum(int from, int to)
{
	uint64_t sum = 0;
	int i;

	for (i = from; i < to; i++)
		sum += hogs[i].cpu_ns;
	return sum;
}

static int reap_all(pid_t *pids, int n)
{
	int i, bad = 0;

	for (i = 0; i < n; i++)
		bad += !!reap(pids[i]);
	return bad;
}

/* @got / @want within @tol (0.10: 10%). */
static int ratio_ok(double got, double want, double tol)
{
	return got >= want * (1 - tol) && got <= want * (1 + tol);
}

/*
 * cpuweight SECONDS [WARM_MS [MIN_RATIO [MAX_RATIO]]]: groups a (cpu.weight
 * 100) and b (400), each with 2 x CPUs hogs, none pinned; b's hogs start in
 * a and are moved to b while they spin. In the window after the move, b : a
 * is from 3.6 to 4.63 (from MIN_RATIO to MAX_RATIO if given), and every hog
 * finishes.
 *
 * 4 within 10% on balanced CPUs, but the core's balancer leaves two CPUs
 * alone while one's load is within imbalance_pct (125 for every policy) of
 * the other's. On 2 CPUs an a hog weighs 256, a b hog 1024: b b a a a |
 * b b a, 2816 : 2304 (1.22), is left as it is, and there b gets
 * 2048 / 2816 + 2048 / 2304 = 1.616 CPUs and a 0.384: 4.21. Measured under
 * numa, 10 runs: 3.97 .. 3.99 and 4.07 .. 4.27, with the distribution sampled
 * (4.43 once in make test). So 4.21 + 10% = 4.63 above. Mainline balances
 * at 117 (sched=eevdf passes 4.4).
 */
static int test_cpuweight(int argc, char **argv)
{
	static const char *const groups[] = { "ps_a", "ps_b" };
	int secs = argc ? atoi(argv[0]) : 4, ncpu = nr_cpus(), n = 2 * ncpu, bad, i;
	int warm = argc > 1 ? atoi(argv[1]) : 0;
	double min_ratio = argc > 2 ? atof(argv[2]) : 4 * 0.9;
	double max_ratio = argc > 3 ? atof(argv[3]) : 4.21 * 1.1;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), start, a, b;
	pid_t pids[MAX_HOGS];
	double ratio;

	ksft_set_plan(2);
	if (2 * n > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	cg_setup();
	cg_make("ps_a", 100, 0);
	cg_make("ps_b", 400, 0);
	start = t0 + (2000 + warm) * MSEC;
	spawn_group(pids, 0, 2 * n, "ps_a", start, start + secs * 1000 * MSEC);
	usleep(700000);
	for (i = n; i < 2 * n; i++)
		cg_move("ps_b", pids[i]);
	bad = reap_all(pids, 2 * n);
	cg_remove(groups, 2);
	a = cpu_sum(0, n);
	b = cpu_sum(n, 2 * n);
	ratio = a ? (double)b / a : 0;
	ksft_test_result(ratio >= min_ratio && ratio <= max_ratio,
			 "cpu.weight 400 : 100 with %d hogs each on %d CPUs: CPU time %.2f s : %.2f s = %.3f (%.2f .. %.2f)\n",
			 n, ncpu, b / 1e9, a / 1e9, ratio, min_ratio, max_ratio);
	ksft_test_result(!bad && a + b > (uint64_t)secs * ncpu * 1000 * MSEC * 8 / 10,
			 "every hog finished (%d failed), the CPUs were used (%.2f of %d CPU s)\n",
			 bad, (a + b) / 1e9, secs * ncpu);
	return 0;
}

/*
 * cpunested SECONDS [WARM_MS]: p (100) holds c1 (100) and c2 (300), beside q (100);
 * 2 x CPUs hogs in q, CPUs hogs in c1 and in c2. q : p is 1 within 10%,
 * c2 : c1 is 3 within the balancer's tolerance: the core leaves two CPUs
 * with up to imbalance_pct (125 for every policy) of the other's load, so
 * c1's hogs on the lighter CPU and c2's on the heavier see 3 x 0.8 = 2.4
 * (3.75 the other way round); a c1 hog, the smallest, is the one the
 * balancer moves to even out the rest. Measured in make test: eevdf 3.009,
 * cfs 2.999, sd 2.969, numa 2.983, o1 2.896, rr 2.844, zaphod 2.721 (and
 * 2.763, 2.872 in boots of their own).
 */
static int test_cpunested(int argc, char **argv)
{
	static const char *const groups[] = { "ps_p", "ps_p/c1", "ps_p/c2", "ps_q" };
	int secs = argc ? atoi(argv[0]) : 4, ncpu = nr_cpus(), bad;
	int warm = argc > 1 ? atoi(argv[1]) : 0;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + (1500 + warm) * MSEC, end, q, c1, c2;
	pid_t pids[MAX_HOGS];
	double qp, c21;

	ksft_set_plan(2);
	if (4 * ncpu > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	cg_setup();
	cg_make("ps_p", 100, 1);
	cg_make("ps_p/c1", 100, 0);
	cg_make("ps_p/c2", 300, 0);
	cg_make("ps_q", 100, 0);
	end = start + secs * 1000 * MSEC;
	spawn_group(pids, 0, 2 * ncpu, "ps_q", start, end);
	spawn_group(pids, 2 * ncpu, 3 * ncpu, "ps_p/c1", start, end);
	spawn_group(pids, 3 * ncpu, 4 * ncpu, "ps_p/c2", start, end);
	bad = reap_all(pids, 4 * ncpu);
	cg_remove(groups, 4);
	q = cpu_sum(0, 2 * ncpu);
	c1 = cpu_sum(2 * ncpu, 3 * ncpu);
	c2 = cpu_sum(3 * ncpu, 4 * ncpu);
	qp = c1 + c2 ? (double)q / (c1 + c2) : 0;
	c21 = c1 ? (double)c2 / c1 : 0;
	ksft_test_result(ratio_ok(qp, 1, 0.10) && c21 >= 3 * 0.8 && c21 <= 3 * 1.25,
			 "q : p = %.3f (1 +- 10%%), in p c2 (300) : c1 (100) = %.3f (2.4 .. 3.75); %.2f s, %.2f s, %.2f s\n",
			 qp, c21, q / 1e9, c1 / 1e9, c2 / 1e9);
	ksft_test_result(!bad, "every hog finished (%d failed)\n", bad);
	return 0;
}

/*
 * autogroup SECONDS [WARM_MS]: with autogroup on, a session running 4 hogs (a
 * make -j) and another running one, all on CPU 0: the lone hog gets half
 * the CPU as under mainline (45..55%), not a fifth.
 */
static int test_autogroup(int argc, char **argv)
{
	int secs = argc ? atoi(argv[0]) : 4, warm = argc > 1 ? atoi(argv[1]) : 0, i, bad = 0;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + (1000 + warm) * MSEC;
	uint64_t end = start + secs * 1000 * MSEC;
	pid_t sess[2];
	double share;
	char buf[16];

	ksft_set_plan(1);
	if (read_file("/proc/sys/kernel/sched_autogroup_enabled", buf, sizeof(buf)) <= 0 ||
	    atoi(buf) != 1)
		ksft_exit_fail_msg("autogroup is off (sched_autogroup_enabled: %s)\n", buf);
	for (i = 0; i < 2; i++) {
		sess[i] = fork();
		if (sess[i] == 0) {
			int from = i ? 4 : 0, to = i ? 5 : 4, j, err = 0;
			pid_t p[4];

			if (setsid() < 0)
				_exit(3);
			for (j = from; j < to; j++)
				p[j - from] = spawn_hog(j, 0, 0, start, end);
			for (j = from; j < to; j++)
				err |= reap(p[j - from]);
			_exit(err ? 1 : 0);
		}
	}
	for (i = 0; i < 2; i++)
		bad += !!reap(sess[i]);
	share = (double)hogs[4].cpu_ns / (cpu_sum(0, 5) ?: 1);
	ksft_test_result(!bad && share >= 0.45 && share <= 0.55,
			 "one hog in its session beside a session of 4 on one CPU: %.1f%% of it (45..55%%, 20%% without autogroup)%s\n",
			 share * 100, bad ? "; a session failed" : "");
	return 0;
}

/* A number of @path's cpu.stat ("usage_usec", "nr_throttled", ...). */
static long long cg_stat(const char *path, const char *key)
{
	char file[300];
	long long v;

	snprintf(file, sizeof(file), CG_ROOT "/%s/cpu.stat", path);
	v = file_key(file, key);
	if (v < 0)
		ksft_exit_fail_msg("no %s in %s\n", key, file);
	return v;
}

static void cg_set_max(const char *path, const char *val)
{
	char file[300];

	snprintf(file, sizeof(file), CG_ROOT "/%s/cpu.max", path);
	if (write_file(file, val, strlen(val)))
		ksft_exit_fail_msg("%s = %s: %s (CONFIG_CFS_BANDWIDTH?)\n", file, val,
				   strerror(errno));
}

static void sleep_until(uint64_t t)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC);

	if (t > now)
		usleep((t - now) / 1000);
}

/* The CPU time @pid has had, in ns (/proc/PID/schedstat), or -1. */
static long long task_cpu_ns(pid_t pid)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoll(buf);
}

/*
 * cpumax SECONDS [QUOTA_US [PERIOD_US [HOGS]]]: a group with cpu.max QUOTA_US
 * PERIOD_US (20000 100000) runs HOGS (max(4, CPUs)) hogs, none pinned. Over
 * SECONDS its usage (cpu.stat) is QUOTA / PERIOD of one CPU within 2
 * percentage points, and most periods throttled. Then one hog is moved out
 * to the root group, throttled or not: 0.3 s after, 1 s of it runs 0.7 of
 * a CPU or more (the group's 0.2 may share its CPU). Then "max" releases
 * the group at once: 0.3 s after the write, 1 s of it uses 80% of
 * min(hogs left, CPUs - 1) CPUs (the moved hog keeps one: in the root
 * group it weighs 1024 against the group's 100); every hog finishes. The error budget of the
 * first: each CPU may hold a bandwidth slice (5 ms) and overrun by a tick
 * (4 ms at HZ=250) when the window opens, (4 x 9 ms) / 10 s = 0.36 pp.
 *
 * The window opens 3.5 s after the hogs start. They spin from their fork,
 * and while they are forked and moved into the group every vCPU is busy:
 * with more vCPUs than host cores (make test's 4-CPU guests on 2 cores),
 * the host holds a vCPU for tens of ms while the guest clock runs, and a
 * hog whose runtime runs out in such a hold is charged all of it. That
 * debt (up to 0.3 s of the group's, seen) is repaid at the quota's 20 ms
 * a period: with the window 1.5 s after the start, it opened on up to
 * 1.5 s of repayment, and 4 s read 0.124 .. 0.276 of a CPU under eevdf,
 * cfs, o1 and sd (two guests at once); 3.5 s after, 0.186 .. 0.214.
 */
static int test_cpumax(int argc, char **argv)
{
	static const char *const groups[] = { "ps_max" };
	int secs = argc ? atoi(argv[0]) : 10, ncpu = nr_cpus(), bad;
	long quota = argc > 1 ? atol(argv[1]) : 20000, period = argc > 2 ? atol(argv[2]) : 100000;
	int n = argc > 3 ? atoi(argv[3]) : ncpu > 4 ? ncpu : 4;
	int busy = n - 1 < ncpu - 1 ? n - 1 : ncpu - 1;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 3500 * MSEC, mid, end;
	long long u0, u1, u2, u3, p0, p1, t0, t1, th_us, m0, m1;
	double share, want = (double)quota / period, released, moved;
	char val[64], where[8 * MAX_HOGS] = "";
	pid_t pids[MAX_HOGS];
	int i, len;

	ksft_set_plan(4);
	if (n < 2 || n > MAX_HOGS)
		ksft_exit_fail_msg("HOGS %d: 2 to %d\n", n, MAX_HOGS);
	mid = start + secs * 1000 * MSEC;
	end = mid + 2800 * MSEC;
	cg_setup();
	cg_make("ps_max", 100, 0);
	snprintf(val, sizeof(val), "%ld %ld", quota, period);
	cg_set_max("ps_max", val);
	spawn_group(pids, 0, n, "ps_max", start, end);
	sleep_until(start);
	u0 = cg_stat("ps_max", "usage_usec");
	p0 = cg_stat("ps_max", "nr_periods");
	t0 = cg_stat("ps_max", "nr_throttled");
	th_us = cg_stat("ps_max", "throttled_usec");
	sleep_until(mid);
	u1 = cg_stat("ps_max", "usage_usec");
	p1 = cg_stat("ps_max", "nr_periods");
	t1 = cg_stat("ps_max", "nr_throttled");
	th_us = cg_stat("ps_max", "throttled_usec") - th_us;
	cg_move(".", pids[0]);
	sleep_until(mid + 300 * MSEC);
	m0 = task_cpu_ns(pids[0]);
	sleep_until(mid + 1300 * MSEC);
	m1 = task_cpu_ns(pids[0]);
	cg_set_max("ps_max", "max");
	sleep_until(mid + 1600 * MSEC);
	u2 = cg_stat("ps_max", "usage_usec");
	/* Where they are half way: the moved hog first. */
	sleep_until(mid + 2100 * MSEC);
	for (i = 0, len = 0; i < n && len < (int)sizeof(where) - 8; i++)
		len += snprintf(where + len, sizeof(where) - len, " %d", task_cpu_of(pids[i]));
	sleep_until(mid + 2600 * MSEC);
	u3 = cg_stat("ps_max", "usage_usec");
	bad = reap_all(pids, n);
	cg_remove(groups, 1);

	share = (double)(u1 - u0) / (secs * 1e6);
	moved = (m0 < 0 || m1 < 0) ? 0 : (double)(m1 - m0) / 1e9;
	released = (double)(u3 - u2) / 1e6;
	ksft_test_result(share >= want - 0.02 && share <= want + 0.02 && t1 - t0 >= (p1 - p0) / 2 &&
			 th_us > 0,
			 "cpu.max %s with %d hogs on %d CPUs under %s: %.3f of a CPU (%.2f +- 0.02), throttled in %lld of %lld periods, %.2f s\n",
			 val, n, ncpu, active_policy(), share, want, t1 - t0, p1 - p0, th_us / 1e6);
	ksft_test_result(moved >= 0.7,
			 "cpu.max: a hog moved out of the limited group ran %.2f of a CPU in 1 s (>= 0.7)\n",
			 moved);
	ksft_test_result(released >= 0.8 * busy,
			 "cpu.max max: 0.3 s later the group used %.2f of %d CPUs in 1 s (>= 80%%); CPUs:%s\n",
			 released, busy, where);
	ksft_test_result(!bad, "every hog finished (%d failed)\n", bad);
	return 0;
}

/*
 * cpumaxnested SECONDS: hierarchical limits. ps_nest has cpu.max 20000
 * 100000 and two children: a, unlimited, and b, with 5000 100000, each
 * with max(2, CPUs / 2) hogs. Over SECONDS the parent uses 0.20 of a CPU
 * within 2 pp (the children's runtime comes out of its own), b at most
 * 0.05 + 0.01 and some (>= 0.01: the parent's limit starves neither
 * child); every hog finishes.
 */
static int test_cpumaxnested(int argc, char **argv)
{
	static const char *const groups[] = { "ps_nest", "ps_nest/a", "ps_nest/b" };
	int secs = argc ? atoi(argv[0]) : 10, ncpu = nr_cpus(), half = ncpu > 4 ? ncpu / 2 : 2;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 1500 * MSEC, end;
	long long u0, u1, b0, b1;
	double share, bshare;
	pid_t pids[MAX_HOGS];
	int bad;

	ksft_set_plan(3);
	if (2 * half > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	end = start + secs * 1000 * MSEC + 200 * MSEC;
	cg_setup();
	cg_make("ps_nest", 100, 1);
	cg_make("ps_nest/a", 100, 0);
	cg_make("ps_nest/b", 100, 0);
	cg_set_max("ps_nest", "20000 100000");
	cg_set_max("ps_nest/b", "5000 100000");
	spawn_group(pids, 0, half, "ps_nest/a", start, end);
	spawn_group(pids, half, 2 * half, "ps_nest/b", start, end);
	sleep_until(start);
	u0 = cg_stat("ps_nest", "usage_usec");
	b0 = cg_stat("ps_nest/b", "usage_usec");
	sleep_until(start + secs * 1000 * MSEC);
	u1 = cg_stat("ps_nest", "usage_usec");
	b1 = cg_stat("ps_nest/b", "usage_usec");
	bad = reap_all(pids, 2 * half);
	cg_remove(groups, 3);

	share = (double)(u1 - u0) / (secs * 1e6);
	bshare = (double)(b1 - b0) / (secs * 1e6);
	ksft_test_result(share >= 0.18 && share <= 0.22,
			 "nested cpu.max under %s: the parent used %.3f of a CPU (0.20 +- 0.02)\n",
			 active_policy(), share);
	ksft_test_result(bshare >= 0.01 && bshare <= 0.06,
			 "nested cpu.max: the child limited to 0.05 used %.3f (0.01 .. 0.06)\n",
			 bshare);
	ksft_test_result(!bad, "every hog finished (%d failed)\n", bad);
	return 0;
}

static void cg_set_idle(const char *path, int idle)
{
	char file[300];

	snprintf(file, sizeof(file), CG_ROOT "/%s/cpu.idle", path);
	if (write_file(file, idle ? "1" : "0", 1))
		ksft_exit_fail_msg("%s = %d: %s\n", file, idle, strerror(errno));
}

/* The part of ps_norm's and ps_idle's usage between two reads that is ps_idle's. */
static double idle_part(long long n0, long long i0, long long n1, long long i1)
{
	long long all = (n1 - n0) + (i1 - i0);

	return all > 0 ? (double)(i1 - i0) / all : 0;
}

/*
 * cpuidle SECONDS: groups ps_norm and ps_idle (both cpu.weight 100), each
 * with a hog pinned to each CPU (no migration queues them again). For
 * 2 s ps_idle gets 0.3 of their usage or more (about half); then
 * cpu.idle = 1 while the hogs run: 0.5 s later, over SECONDS, it gets at
 * most 2% (mainline: WEIGHT_IDLEPRIO against 1024, 0.3%; a plugged
 * SCHED_IDLE task runs a tick after waiting 1 s, 0.4%); then cpu.idle =
 * 0: over the next second, 0.4 or more again, at once: a hog's lead, run
 * at the idle weight, must not be kept at the normal one (under cfs it
 * was: 0.28 of the usage 0.5 to 2.5 s after, on 4 CPUs). Measured: 0.47
 * .. 0.52 (eevdf 0.50), zaphod 0.68 .. 0.75: its entitlement weighs
 * recent use, and the idle group's hogs used little. Every hog finishes.
 * With NCPUS, the hogs use CPUs 0..NCPUS-1 only.
 */
static int test_cpuidle(int argc, char **argv)
{
	static const char *const groups[] = { "ps_norm", "ps_idle" };
	int secs = argc ? atoi(argv[0]) : 4, ncpu = nr_cpus(), bad, i;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 1500 * MSEC, t, end;
	long long n[6], id[6];
	double a, b, c;
	pid_t pids[MAX_HOGS];

	ksft_set_plan(4);
	if (argc > 1 && atoi(argv[1]) > 0 && atoi(argv[1]) < ncpu)
		ncpu = atoi(argv[1]);
	if (2 * ncpu > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	end = start + (3500 + secs * 1000 + 200) * MSEC;
	cg_setup();
	cg_make("ps_norm", 100, 0);
	cg_make("ps_idle", 100, 0);
	for (i = 0; i < 2 * ncpu; i++) {
		pids[i] = spawn_hog(i, i % ncpu, 0, start, end);
		cg_move(i < ncpu ? "ps_norm" : "ps_idle", pids[i]);
	}
	t = start;
	sleep_until(t);
	n[0] = cg_stat("ps_norm", "usage_usec");
	id[0] = cg_stat("ps_idle", "usage_usec");
	sleep_until(t += 2000 * MSEC);
	n[1] = cg_stat("ps_norm", "usage_usec");
	id[1] = cg_stat("ps_idle", "usage_usec");
	cg_set_idle("ps_idle", 1);
	sleep_until(t += 500 * MSEC);
	n[2] = cg_stat("ps_norm", "usage_usec");
	id[2] = cg_stat("ps_idle", "usage_usec");
	sleep_until(t += secs * 1000 * MSEC);
	n[3] = cg_stat("ps_norm", "usage_usec");
	id[3] = cg_stat("ps_idle", "usage_usec");
	cg_set_idle("ps_idle", 0);
	n[4] = cg_stat("ps_norm", "usage_usec");
	id[4] = cg_stat("ps_idle", "usage_usec");
	sleep_until(t += 1000 * MSEC);
	n[5] = cg_stat("ps_norm", "usage_usec");
	id[5] = cg_stat("ps_idle", "usage_usec");
	bad = reap_all(pids, 2 * ncpu);
	cg_remove(groups, 2);

	a = idle_part(n[0], id[0], n[1], id[1]);
	b = idle_part(n[2], id[2], n[3], id[3]);
	c = idle_part(n[4], id[4], n[5], id[5]);
	ksft_test_result(a >= 0.3, "cpu.idle 0 under %s: ps_idle had %.3f of the usage (>= 0.3)\n",
			 active_policy(), a);
	ksft_test_result(b <= 0.02, "cpu.idle 1, written while its %d hogs ran: %.4f (<= 0.02)\n",
			 ncpu, b);
	ksft_test_result(c >= 0.4, "cpu.idle 0 again: %.3f in the next second (>= 0.4)\n", c);
	ksft_test_result(!bad, "every hog finished (%d failed)\n", bad);
	return 0;
}

/* Spin 1 ms, sleep 1 ms, until @end: a short sleeper, queued again often. */
static pid_t spawn_sleeper(uint64_t end)
{
	pid_t pid = fork_or_fail();

	if (pid)
		return pid;
	while (now_ns(CLOCK_MONOTONIC) < end) {
		burn_cpu(1);
		usleep(1000);
	}
	_exit(0);
}

/*
 * idlewrite SECONDS [MIN_PER_S]: a group throttled by cpu.max (20000
 * 100000) holding 2 hogs and a short sleeper per CPU, its cpu.idle
 * written 1 and 0 in turn from the root group for SECONDS. Each write
 * queues the group's queued tasks again, and queueing one can throttle
 * the group and park the others while the write walks them; the walk
 * must still end. The writer, beside a group held to 0.2 of a CPU, makes
 * MIN_PER_S writes a second or more (default 5: a writer starved or a
 * walk that loops makes none; eevdf made 16..262 a second in 12 s runs
 * on 2- and 4-CPU guests), none takes over 500 ms, and every task of the
 * group finishes.
 */
static int test_idlewrite(int argc, char **argv)
{
	static const char *const groups[] = { "ps_iw" };
	int secs = argc ? atoi(argv[0]) : 4, ncpu = nr_cpus(), n = 3 * ncpu, bad, i;
	double min_rate = argc > 1 ? atof(argv[1]) : 5;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 500 * MSEC, end, t, w0, worst = 0;
	long writes = 0, failed = 0;
	pid_t pids[MAX_HOGS];
	double rate;

	ksft_set_plan(3);
	if (n > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	end = start + (secs * 1000 + 300) * MSEC;
	cg_setup();
	cg_make("ps_iw", 100, 0);
	cg_set_max("ps_iw", "20000 100000");
	for (i = 0; i < n; i++) {
		pids[i] = i < 2 * ncpu ? spawn_hog(i, -1, 0, start, end) : spawn_sleeper(end);
		cg_move("ps_iw", pids[i]);
	}
	sleep_until(start);
	for (t = now_ns(CLOCK_MONOTONIC); t < start + secs * 1000 * MSEC;) {
		w0 = t;
		if (write_file(CG_ROOT "/ps_iw/cpu.idle", writes & 1 ? "0" : "1", 1))
			failed++;
		writes++;
		t = now_ns(CLOCK_MONOTONIC);
		if (t - w0 > worst)
			worst = t - w0;
	}
	if (writes & 1)
		cg_set_idle("ps_iw", 0);
	bad = reap_all(pids, n);
	cg_remove(groups, 1);

	rate = (double)writes / secs;
	ksft_test_result(rate >= min_rate && !failed,
			 "cpu.idle written %ld times in %d s under %s beside a throttled group: %.0f a second (>= %.0f), %ld failed\n",
			 writes, secs, active_policy(), rate, min_rate, failed);
	ksft_test_result(worst <= 500 * MSEC, "the longest cpu.idle write took %.1f ms (<= 500)\n",
			 worst / 1e6);
	ksft_test_result(!bad, "every task of the group finished (%d failed)\n", bad);
	return 0;
}

/* Spin on CPU 0 until *@stop: one of many, measured by its group's usage. */
static pid_t spawn_spinner(const int *stop)
{
	pid_t pid = fork_or_fail();

	if (pid)
		return pid;
	pin(0, 0);
	while (!__atomic_load_n(stop, __ATOMIC_RELAXED))
		;
	_exit(0);
}

/*
 * ps_one with one hog beside ps_many with @n, equal cpu.weight, all on
 * CPU 0; the writer keeps off it. From 1 s after the last hog joined,
 * over @secs: ps_one's part of the two groups' usage.
 */
static double grouplone_run(int secs, int n, int *stop, pid_t *pids, int *bad)
{
	static const char *const groups[] = { "ps_one", "ps_many" };
	long long o0, m0, o1, m1;
	int i;

	cg_make("ps_one", 100, 0);
	cg_make("ps_many", 100, 0);
	*stop = 0;
	for (i = 0; i <= n; i++) {
		pids[i] = spawn_spinner(stop);
		cg_move(i ? "ps_many" : "ps_one", pids[i]);
	}
	usleep(1000000);
	o0 = cg_stat("ps_one", "usage_usec");
	m0 = cg_stat("ps_many", "usage_usec");
	usleep(secs * 1000000);
	o1 = cg_stat("ps_one", "usage_usec");
	m1 = cg_stat("ps_many", "usage_usec");
	__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
	for (i = 0, *bad = 0; i <= n; i++)
		*bad += !!reap(pids[i]);
	cg_remove(groups, 2);
	return o1 - o0 + m1 - m0 > 0 ? (double)(o1 - o0) / (o1 - o0 + m1 - m0) : 0;
}

/*
 * grouplone SECONDS N POLICY...: a group of one hog beside a group of N
 * hogs at the same cpu.weight, every hog on CPU 0, the lone group gets
 * half the CPU under eevdf, measured first in the same boot. Under each
 * POLICY it gets at least 0.9 of eevdf's share: the groups' weights, not
 * how many tasks each has, divide the CPU; every hog finishes.
 */
static int test_grouplone(int argc, char **argv)
{
	int secs, n, k, bad, *stop = shared(sizeof(int));
	char orig[64];
	double base = 0, share;
	pid_t *pids;

	if (argc < 3)
		ksft_exit_fail_msg("usage: grouplone SECONDS N POLICY...\n");
	secs = atoi(argv[0]);
	n = atoi(argv[1]);
	if (nr_cpus() < 2 || n < 1)
		ksft_exit_skip("needs 2 CPUs and N >= 1\n");
	pids = calloc(n + 1, sizeof(*pids));
	if (!pids)
		ksft_exit_fail_msg("out of memory\n");
	snprintf(orig, sizeof(orig), "%s", active_policy());
	ksft_set_plan(argc - 2);
	cg_setup();
	pin(0, 1);
	for (k = -1; k < argc - 2; k++) {
		const char *pol = k < 0 ? "eevdf" : argv[2 + k];

		if (switch_to(pol, NULL))
			ksft_exit_fail_msg("cannot switch to %s: %s\n", pol, strerror(errno));
		share = grouplone_run(secs, n, stop, pids, &bad);
		if (k < 0) {
			base = share;
			ksft_print_msg("eevdf: the lone group had %.3f of CPU 0\n", share);
			continue;
		}
		ksft_test_result(!bad && share >= 0.9 * base,
				 "a group of one beside a group of %d, equal cpu.weight, one CPU, under %s: %.3f of it (>= 0.9 x eevdf's %.3f), %d failed\n",
				 n, pol, share, base, bad);
	}
	unpin(0);
	switch_to(orig, NULL);
	free(pids);
	return 0;
}

/*
 * The hammer's groups, parents first; its writes, in turn. No weight goes
 * to a group that cpu.idle may have made idle: mainline refuses those.
 * The extreme weights stay inside ps_h: the writer, in the root group,
 * beside a group of weight 10000 would get a hundredth of a CPU by
 * design, and each write a few hundred ms, under eevdf as well. Periods
 * stay at 100 ms: with 10 ms ones the fair class's period timer overran
 * on the debug kernel and printed "period too short, scaling up" under
 * cfs_b->lock, which lockdep reports as a circular dependency through the
 * console (mainline's, under any policy).
 */
static const char *const hammer_groups[] = { "ps_h", "ps_h/a", "ps_h/b", "ps_c" };

static const struct hammer_write {
	const char *file;
	const char *const vals[4];
} hammer_writes[] = {
	{ "ps_h/a/cpu.weight", { "1", "10000", "100", "50" } },
	{ "ps_c/cpu.weight.nice", { "-3", "3", "0", "1" } },
	{ "ps_h/cpu.idle", { "1", "0", "1", "0" } },
	{ "ps_h/a/cpu.max", { "5000 100000", "max", "20000 100000", "max" } },
	{ "ps_h/cpu.max", { "10000 100000", "max", "3000 100000", "max" } },
	{ "ps_h/b/cpu.idle", { "1", "0", "1", "0" } },
	{ "ps_c/cpu.weight", { "400", "50", "100", "200" } },
};

/* CPU 1 off and on every 200 ms until @end, where the kernel allows it. */
static pid_t spawn_hotplug(uint64_t end)
{
	const char *file = "/sys/devices/system/cpu/cpu1/online";
	pid_t pid = fork_or_fail();

	if (pid)
		return pid;
	while (now_ns(CLOCK_MONOTONIC) < end) {
		write_file(file, "0", 1);
		usleep(100000);
		write_file(file, "1", 1);
		usleep(100000);
	}
	write_file(file, "1", 1);
	_exit(0);
}

/*
 * One hammer run of @secs: a hog and a short sleeper per CPU in each of
 * ps_h/a, ps_h/b and ps_c, CPU 1 going off and on, and from the root
 * group writes in turn to the groups' cpu.weight, cpu.weight.nice,
 * cpu.idle and cpu.max (nested limits, idle parents) and a task moved to
 * the next group at every eighth write. Returns writes a second; @worst:
 * the longest write; @failed: writes that failed; @bad: tasks that did
 * not finish; @cpu: the share of the time the writer ran; @preempted: how
 * often it was switched out while runnable.
 */
static double hammer_run(int secs, uint64_t *worst, long *failed, int *bad, double *cpu,
			 long *preempted)
{
	static const char *const dests[] = { "ps_h/a", "ps_h/b", "ps_c" };
	int ncpu = nr_cpus(), n = 6 * ncpu, i, g;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC, end, t, w0, c0;
	char file[300], val[16];
	pid_t pids[MAX_HOGS], hp;
	struct rusage r0, r1;
	long writes = 0;

	if (n > MAX_HOGS)
		ksft_exit_fail_msg("too many CPUs for MAX_HOGS\n");
	end = start + (secs * 1000 + 300) * MSEC;
	cg_make("ps_h", 100, 1);
	cg_make("ps_h/a", 100, 0);
	cg_make("ps_h/b", 100, 0);
	cg_make("ps_c", 100, 0);
	for (i = 0; i < n; i++) {
		pids[i] = i & 1 ? spawn_sleeper(end) : spawn_hog(i / 2, -1, 0, start, end);
		cg_move(dests[i % 3], pids[i]);
	}
	hp = spawn_hotplug(end);
	sleep_until(start);
	*worst = 0;
	*failed = 0;
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	getrusage(RUSAGE_THREAD, &r0);
	for (t = now_ns(CLOCK_MONOTONIC); t < start + secs * 1000 * MSEC; writes++) {
		const struct hammer_write *w =
			&hammer_writes[writes % ARRAY_SIZE(hammer_writes)];
		const char *v = w->vals[writes / ARRAY_SIZE(hammer_writes) % 4];

		w0 = t;
		snprintf(file, sizeof(file), CG_ROOT "/%s", w->file);
		if (write_file(file, v, strlen(v)))
			(*failed)++;
		if (writes % 8 == 7) {
			i = writes / 8 % n;
			g = writes / 8 / n % 3;
			snprintf(file, sizeof(file), CG_ROOT "/%s/cgroup.procs", dests[g]);
			snprintf(val, sizeof(val), "%d", pids[i]);
			if (write_file(file, val, strlen(val)))
				(*failed)++;
		}
		t = now_ns(CLOCK_MONOTONIC);
		if (t - w0 > *worst)
			*worst = t - w0;
	}
	*cpu = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (t - start);
	getrusage(RUSAGE_THREAD, &r1);
	*preempted = r1.ru_nivcsw - r0.ru_nivcsw;
	/* Everything runs again, so that every task can finish. */
	cg_set_max("ps_h", "max");
	cg_set_max("ps_h/a", "max");
	cg_set_idle("ps_h", 0);
	cg_set_idle("ps_h/b", 0);
	*bad = reap_all(pids, n) + !!reap(hp);
	cg_remove(hammer_groups, ARRAY_SIZE(hammer_groups));
	return (double)writes / secs;
}

#define HAMMER_MAX_POLICIES	8

/*
 * cghammer SECONDS MIN_RATIO POLICY...: cgroup writes at any moment
 * (hammer_run()) under eevdf and each POLICY in turn, eevdf before each
 * POLICY and once more at the end, in the same boot. Every write returns
 * within 5 s (a write waits for CPU hotplug, and the writer shares the
 * CPUs with the groups: eevdf's longest, 180-220 ms), none fails, every
 * task finishes, and the writer makes at least MIN_RATIO (0.5 in the
 * 2-CPU boots) times as many writes a second as under eevdf (each
 * requeues, throttles, parks or moves tasks while groups are idle,
 * throttled and nested and CPU 1 comes and goes; a walk that loops or a
 * writer starved would make none).
 *
 * A policy's eevdf is the mean of the eevdf runs just before and after
 * it: one run alone swung from 2139 to 7774 writes a second between boots
 * (122 to 228 us of the writer's CPU time a write, as CPU 1's hotplug
 * falls in the run, and as the host runs the other boot of the pair:
 * TCG's guest counts the host's stalls as the writer's CPU time). Judged
 * against eevdf's runs at the two ends alone, zaphod's, fourth of five,
 * read 0.41-0.44 in 2 make tests of 5 (170-259 us a write, eevdf's
 * 122-143), where a quiet boot gives it 0.67-0.74 at 112-121 us (eevdf
 * 96-106, cfs 0.69-0.76, o1 0.74-0.85), preempted 390-410 times a second
 * as under cfs, o1 and eevdf (sd 150). With MIN_RATIO 0 no rate is judged
 * and eevdf runs once, first.
 */
static int test_cghammer(int argc, char **argv)
{
	double rate[HAMMER_MAX_POLICIES], ev[HAMMER_MAX_POLICIES + 1], min_ratio, cpu;
	int secs, k, np = argc - 2, bad[HAMMER_MAX_POLICIES];
	uint64_t worst[HAMMER_MAX_POLICIES];
	long failed[HAMMER_MAX_POLICIES];
	char orig[64];

	if (argc < 3 || np > HAMMER_MAX_POLICIES)
		ksft_exit_fail_msg("usage: cghammer SECONDS MIN_RATIO POLICY... (at most %d)\n",
				   HAMMER_MAX_POLICIES);
	secs = atoi(argv[0]);
	min_ratio = atof(argv[1]);
	if (secs < 1 || nr_cpus() < 2)
		ksft_exit_skip("needs 2 CPUs and SECONDS >= 1\n");
	snprintf(orig, sizeof(orig), "%s", active_policy());
	ksft_set_plan(np);
	cg_setup();
	/* Step 2k is eevdf's run ev[k], step 2k + 1 the policy argv[2 + k]'s. */
	for (k = 0; k <= 2 * np; k++) {
		const char *pol = k & 1 ? argv[2 + k / 2] : "eevdf";
		uint64_t w;
		long f, preempted;
		double r;
		int b;

		if (!(k & 1) && k && min_ratio <= 0) {
			ev[k / 2] = ev[0];
			continue;
		}
		if (switch_to(pol, NULL))
			ksft_exit_fail_msg("cannot switch to %s: %s\n", pol, strerror(errno));
		r = hammer_run(secs, &w, &f, &b, &cpu, &preempted);
		ksft_print_msg("%s: %.0f writes/s, longest %.1f ms, %ld failed, %d unfinished, ",
			       pol, r, w / 1e6, f, b);
		printf("the writer ran %.3f of the time, %.1f us a write, ",
		       cpu, r > 0 ? cpu * 1e6 / r : 0);
		printf("preempted %ld times a second\n", preempted / secs);
		if (!(k & 1)) {
			if (f || b || w > 5000 * MSEC)
				ksft_exit_fail_msg("eevdf itself failed the hammer\n");
			ev[k / 2] = r;
			continue;
		}
		rate[k / 2] = r;
		worst[k / 2] = w;
		failed[k / 2] = f;
		bad[k / 2] = b;
	}
	for (k = 0; k < np; k++) {
		double base = (ev[k] + ev[k + 1]) / 2;

		ksft_test_result(rate[k] >= min_ratio * base && !failed[k] && !bad[k] &&
				 worst[k] <= 5000 * MSEC,
				 "cgroup writes beside idle, throttled, nested groups and hotplug under %s: %.0f a second (>= %.2f x eevdf's %.0f, %s), the longest %.1f ms (<= 5000), %ld failed, %d tasks did not finish\n",
				 argv[2 + k], rate[k], min_ratio, base,
				 min_ratio > 0 ? "the runs before and after" : "one run",
				 worst[k] / 1e6, failed[k], bad[k]);
	}
	switch_to(orig, NULL);
	return 0;
}

PLUGSCHED_TEST("cpuweight", test_cpuweight, "[SECONDS [WARM_MS [MIN_RATIO [MAX_RATIO]]]]",
	       "cgroup cpu.weight 400 : 100, hogs moved between groups: CPU time 4 : 1");
PLUGSCHED_TEST("cpunested", test_cpunested, "[SECONDS [WARM_MS]]",
	       "nested cgroups share by their weights at each level");
PLUGSCHED_TEST("cpumax", test_cpumax, "[SECONDS [QUOTA_US [PERIOD_US [HOGS]]]]",
	       "cgroup cpu.max: a limited group's hogs get its quota, \"max\" frees them");
PLUGSCHED_TEST("cpumaxnested", test_cpumaxnested, "[SECONDS]",
	       "nested cgroup cpu.max: a parent's limit holds its children, a child's its own");
PLUGSCHED_TEST("cpuidle", test_cpuidle, "[SECONDS [NCPUS]]",
	       "cgroup cpu.idle: an idle group's tasks run when nothing else wants the CPU");
PLUGSCHED_TEST("idlewrite", test_idlewrite, "[SECONDS [MIN_PER_S]]",
	       "cpu.idle written in a loop beside a throttled group: every write returns");
PLUGSCHED_TEST("grouplone", test_grouplone, "SECONDS N POLICY...",
	       "a group of one beside a group of N at equal weight: the weights divide the CPU");
PLUGSCHED_TEST("autogroup", test_autogroup, "[SECONDS [WARM_MS]]",
	       "autogroup: a session's one hog gets half a CPU beside a session of 4");
PLUGSCHED_TEST("cghammer", test_cghammer, "SECONDS MIN_RATIO POLICY...",
	       "cgroup writes of every kind at any moment: each returns, the writer keeps its rate");
