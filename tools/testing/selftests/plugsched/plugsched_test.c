// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched selftests: behaviour checks of the active CPU scheduler policy,
 * run inside a booted kernel. Every check asserts on a measured value and
 * prints one TAP line with the figures it measured.
 *
 *   plugsched_test names ACTIVE
 *   plugsched_test knobs NAME:DEF:MIN:MAX ... [-NAME ...]
 *   plugsched_test fair NR_HOGS NR_CPUS MIN_JAIN
 *   plugsched_test nice NICE MIN_RATIO MAX_RATIO [WARM_MS]
 *   plugsched_test starve NR_HOGS MAX_WAIT_MS
 *   plugsched_test interactive
 *   plugsched_test rt MAX_LATENCY_US
 *   plugsched_test affinity
 *   plugsched_test hotplug ROUNDS
 *   plugsched_test fork COUNT
 *   plugsched_test batch
 *   plugsched_test pingpong NR_CPUS ROUND_TRIPS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"

#define MAX_HOGS	32
#define NSEC		1000000000ULL
#define MSEC		1000000ULL

struct hog {
	uint64_t cpu_ns;	/* CPU time used inside the window */
	uint64_t max_gap_ns;	/* longest time off the CPU inside the window */
	uint64_t switches;	/* gaps longer than 200 us */
	int last_cpu;
};

static struct hog *hogs;

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity(%d, cpu %d): %s\n", pid, cpu,
				   strerror(errno));
}

static void unpin(pid_t pid)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

static int nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memset(p, 0, size);
	return p;
}

/*
 * A CPU hog measuring itself from @start to @end (CLOCK_MONOTONIC ns):
 * its CPU time and the longest stretch it did not run.
 */
static void hog_body(struct hog *h, uint64_t start, uint64_t end)
{
	uint64_t t, last, cpu0;

	while (now_ns(CLOCK_MONOTONIC) < start)
		;
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	last = now_ns(CLOCK_MONOTONIC);
	while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
		if (t - last > h->max_gap_ns)
			h->max_gap_ns = t - last;
		if (t - last > 200000)
			h->switches++;
		last = t;
	}
	h->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	h->last_cpu = sched_getcpu();
}

/* Fork a hog on @cpu (-1: any) at @nice, measuring the given window. */
static pid_t spawn_hog(int idx, int cpu, int nice, uint64_t start, uint64_t end)
{
	pid_t pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		if (cpu >= 0)
			pin(0, cpu);
		if (nice && setpriority(PRIO_PROCESS, 0, nice))
			_exit(2);
		hog_body(&hogs[idx], start, end);
		_exit(0);
	}
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static double jain(const double *x, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq ? sum * sum / (n * sq) : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/* Write @val to @path in one write(); return 0 or -errno. */
static int write_file(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* names ACTIVE: sysfs and /proc/scheduler report the running policy. */
static int test_names(int argc, char **argv)
{
	char buf[256];

	if (argc < 1)
		ksft_exit_fail_msg("usage: names ACTIVE\n");
	ksft_set_plan(3);

	read_file("/sys/kernel/plugsched/active", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strcmp(buf, argv[0]), "active is \"%s\" (want \"%s\")\n",
			 buf, argv[0]);

	read_file("/proc/scheduler", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strcmp(buf, argv[0]), "/proc/scheduler is \"%s\"\n", buf);

	read_file("/sys/kernel/plugsched/available", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strncmp(buf, "eevdf ", 6) && strstr(buf, argv[0]),
			 "available \"%s\" lists eevdf and %s\n", buf, argv[0]);
	return 0;
}

static long knob_read(const char *path, bool *ok)
{
	char buf[64], *end;
	long v;

	*ok = read_file(path, buf, sizeof(buf)) > 0;
	v = strtol(buf, &end, 10);
	*ok = *ok && end != buf && *end == '\n';
	return v;
}

/*
 * knobs NAME:DEF:MIN:MAX ... -NAME ...: each knob exists with its default,
 * takes its bounds, and rejects every malformed or out-of-range write with
 * EINVAL while keeping its value; each -NAME does not exist.
 */
static int test_knobs(int argc, char **argv)
{
	static const char * const junk[] = {
		"abc", "", " ", "\n", "1 2", "12abc", "0x10", "--1",
		"18446744073709551616", "99999999999999999999999", "1.5",
	};
	int i, j, plan = 0;

	for (i = 0; i < argc; i++)
		plan += argv[i][0] == '-' ? 1 : 3;
	ksft_set_plan(plan);

	for (i = 0; i < argc; i++) {
		char path[128], val[64];
		long def, min, max, v;
		bool ok, all = true;
		int err;

		if (argv[i][0] == '-') {
			snprintf(path, sizeof(path), "/proc/sys/kernel/%s", argv[i] + 1);
			ksft_test_result(access(path, F_OK) != 0,
					 "%s absent while another policy is active\n",
					 argv[i] + 1);
			continue;
		}
		if (sscanf(argv[i], "%63[^:]:%ld:%ld:%ld", val, &def, &min, &max) != 4)
			ksft_exit_fail_msg("bad knob spec %s\n", argv[i]);
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", val);

		v = knob_read(path, &ok);
		ksft_test_result(ok && v == def, "%s reads default %ld (got %ld)\n",
				 val, def, v);

		/* Valid values take, including both bounds and padding. */
		for (j = 0; j < 3; j++) {
			long want = j == 0 ? min : j == 1 ? max : (min + max) / 2;

			/* the last one padded with white space */
			snprintf(val, sizeof(val), "%s%ld%s\n", j == 2 ? "  " : "", want,
				 j == 2 ? "\t" : "");
			err = write_file(path, val, strlen(val));
			v = knob_read(path, &ok);
			if (err || v != want) {
				ksft_print_msg("%s: write %ld: err %d, reads %ld\n",
					       path, want, err, v);
				all = false;
			}
		}
		ksft_test_result(all, "%s accepts %ld, %ld and %ld\n", path, min, max,
				 (min + max) / 2);

		/* Bad values: EINVAL, value kept. */
		all = true;
		for (j = 0; j < (int)ARRAY_SIZE(junk) + 3; j++) {
			long keep = (min + max) / 2;

			if (j < (int)ARRAY_SIZE(junk))
				snprintf(val, sizeof(val), "%s", junk[j]);
			else
				snprintf(val, sizeof(val), "%ld",
					 j == (int)ARRAY_SIZE(junk) ?
					 min - 1 : j == (int)ARRAY_SIZE(junk) + 1 ?
					 max + 1 : -1 - max);
			err = write_file(path, val, strlen(val));
			v = knob_read(path, &ok);
			if ((err != -EINVAL && !(!*val && err == 0)) || v != keep) {
				ksft_print_msg("%s: write \"%s\": err %d, reads %ld\n",
					       path, val, err, v);
				all = false;
			}
		}
		ksft_test_result(all, "%s rejects bad writes with EINVAL, value kept\n",
				 path);

		snprintf(val, sizeof(val), "%ld", def);
		write_file(path, val, strlen(val));
	}
	return 0;
}

/*
 * Run @n hogs for @ms on CPUs 0..@ncpu-1 (round robin) at the given nices,
 * measuring after @warm_ms of running (steady state).
 */
static void run_hogs_warm(int n, int ncpu, const int *nice, int ms, int pinned,
			  int warm_ms)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + (300 + warm_ms) * MSEC;
	pid_t pids[MAX_HOGS];
	int i;

	for (i = 0; i < n; i++)
		pids[i] = spawn_hog(i, pinned ? i % ncpu : -1, nice ? nice[i] : 0,
				    start, start + ms * MSEC);
	for (i = 0; i < n; i++)
		if (reap(pids[i]))
			ksft_exit_fail_msg("hog %d failed\n", i);
}

static void run_hogs(int n, int ncpu, const int *nice, int ms, int pinned)
{
	run_hogs_warm(n, ncpu, nice, ms, pinned, 0);
}

/* fair N CPUS MIN_JAIN: N equal hogs on CPUS CPUs share them evenly. */
static int test_fair(int argc, char **argv)
{
	int n, ncpu, i;
	double x[MAX_HOGS], j, min_jain;

	if (argc < 3)
		ksft_exit_fail_msg("usage: fair N CPUS MIN_JAIN\n");
	n = atoi(argv[0]);
	ncpu = atoi(argv[1]);
	min_jain = atof(argv[2]);
	if (ncpu > nr_cpus() || n > MAX_HOGS)
		ksft_exit_skip("needs %d CPUs\n", ncpu);
	ksft_set_plan(1);

	/* Hogs are unpinned but confined to the first ncpu CPUs. */
	{
		cpu_set_t set;

		CPU_ZERO(&set);
		for (i = 0; i < ncpu; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	run_hogs(n, ncpu, NULL, 3000, 0);
	unpin(0);
	for (i = 0; i < n; i++) {
		x[i] = hogs[i].cpu_ns / 1e6;
		ksft_print_msg("hog %d: %.0f ms CPU\n", i, x[i]);
	}
	j = jain(x, n);
	ksft_test_result(j >= min_jain, "%d hogs on %d CPUs: Jain index %.4f >= %.2f\n",
			 n, ncpu, j, min_jain);
	return 0;
}

/*
 * nice N MIN MAX [WARM_MS]: nice 0 vs nice N on one CPU, CPU ratio in
 * [MIN, MAX], measured after WARM_MS of running (a policy with a sleep
 * bonus first has to learn that the hogs are hogs).
 */
static int test_nice(int argc, char **argv)
{
	int nice[2] = { 0, 0 };
	double ratio, lo, hi;

	if (argc < 3)
		ksft_exit_fail_msg("usage: nice N MIN MAX\n");
	nice[1] = atoi(argv[0]);
	lo = atof(argv[1]);
	hi = atof(argv[2]);
	ksft_set_plan(1);

	run_hogs_warm(2, 1, nice, 4000, 1, argc > 3 ? atoi(argv[3]) : 0);
	ratio = (double)hogs[0].cpu_ns / (hogs[1].cpu_ns ? hogs[1].cpu_ns : 1);
	ksft_test_result(ratio >= lo && ratio <= hi,
			 "nice 0 / nice %d CPU ratio %.2f in [%.2f, %.2f] (%llu / %llu ms)\n",
			 nice[1], ratio, lo, hi,
			 (unsigned long long)(hogs[0].cpu_ns / MSEC),
			 (unsigned long long)(hogs[1].cpu_ns / MSEC));
	return 0;
}

/* starve N MAX_MS: N hogs on one CPU, none waits longer than MAX_MS. */
static int test_starve(int argc, char **argv)
{
	uint64_t worst = 0;
	int n, i, max_ms;

	if (argc < 2)
		ksft_exit_fail_msg("usage: starve N MAX_MS\n");
	n = atoi(argv[0]);
	max_ms = atoi(argv[1]);
	ksft_set_plan(1);

	run_hogs(n, 1, NULL, 4000, 1);
	for (i = 0; i < n; i++) {
		if (hogs[i].max_gap_ns > worst)
			worst = hogs[i].max_gap_ns;
		ksft_print_msg("hog %d: %llu ms CPU, longest wait %llu ms\n", i,
			       (unsigned long long)(hogs[i].cpu_ns / MSEC),
			       (unsigned long long)(hogs[i].max_gap_ns / MSEC));
	}
	ksft_test_result(worst <= max_ms * MSEC && worst > 0,
			 "%d hogs on one CPU: longest wait %llu ms <= %d ms\n", n,
			 (unsigned long long)(worst / MSEC), max_ms);
	return 0;
}

/*
 * A periodic task: runs @run_us then sleeps until the next @period_us,
 * recording its wakeup latencies (ns) after @warm_ms into @lat.
 */
static int periodic(int cpu, int policy, int run_us, int period_us, int warm_ms,
		    int ms, uint64_t *lat, int max)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), next = start, t;
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO ? 50 : 0 };
	int n = 0;

	pin(0, cpu);
	if (sched_setscheduler(0, policy, &sp))
		ksft_exit_fail_msg("sched_setscheduler: %s\n", strerror(errno));
	while ((t = now_ns(CLOCK_MONOTONIC)) < start + ms * MSEC) {
		uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		struct timespec ts;

		while (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0 < run_us * 1000ULL)
			;
		next += period_us * 1000ULL;
		ts.tv_sec = next / NSEC;
		ts.tv_nsec = next % NSEC;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = now_ns(CLOCK_MONOTONIC);
		if (t > next && t - start > warm_ms * MSEC && n < max)
			lat[n++] = t - next;
		if (t > next + period_us * 1000ULL)
			next = t;	/* overran: start a new period */
	}
	return n;
}

struct lat_result {
	int n;
	uint64_t lat[4096];
};

static int run_periodic_under_hogs(int nr_hogs, int policy, int run_us, int period_us,
				   struct lat_result *res)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 200 * MSEC;
	pid_t pids[MAX_HOGS], p;
	int i;

	for (i = 0; i < nr_hogs; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + 5000 * MSEC);
	p = fork();
	if (p == 0) {
		res->n = periodic(0, policy, run_us, period_us, 2000, 5000, res->lat, 4096);
		_exit(0);
	}
	reap(p);
	for (i = 0; i < nr_hogs; i++)
		reap(pids[i]);
	qsort(res->lat, res->n, sizeof(uint64_t), cmp_u64);
	return res->n;
}

static uint64_t pct(const struct lat_result *r, int pc)
{
	return r->n ? r->lat[(r->n - 1) * pc / 100] : ~0ULL;
}

/* interactive: a task sleeping 90% of the time waits far less than hogs. */
static int test_interactive(int argc, char **argv)
{
	struct lat_result *res = shared(sizeof(*res));
	uint64_t gaps[4];
	int i;

	ksft_set_plan(1);
	run_periodic_under_hogs(4, SCHED_OTHER, 1000, 10000, res);
	for (i = 0; i < 4; i++)
		gaps[i] = hogs[i].max_gap_ns;
	qsort(gaps, 4, sizeof(uint64_t), cmp_u64);
	ksft_print_msg("sleeper: %d wakeups, p50 %llu us, p95 %llu us\n",
		       res->n, (unsigned long long)pct(res, 50) / 1000,
		       (unsigned long long)pct(res, 95) / 1000);
	ksft_print_msg("hogs' median longest wait %llu us\n",
		       (unsigned long long)gaps[1] / 1000);
	ksft_test_result(res->n > 50 && pct(res, 95) * 10 < gaps[1],
			 "interactive task's p95 wakeup latency %llu us < 1/10 of hogs' wait %llu us\n",
			 (unsigned long long)pct(res, 95) / 1000,
			 (unsigned long long)gaps[1] / 1000);
	return 0;
}

/* rt MAX_US: a SCHED_FIFO task preempts plugged hogs at once. */
static int test_rt(int argc, char **argv)
{
	struct lat_result *res = shared(sizeof(*res));
	uint64_t max_us = argc ? atoll(argv[0]) : 5000;

	ksft_set_plan(1);
	run_periodic_under_hogs(3, SCHED_FIFO, 200, 5000, res);
	ksft_print_msg("SCHED_FIFO: %d wakeups, p50 %llu us, p99 %llu us, max %llu us\n",
		       res->n, (unsigned long long)pct(res, 50) / 1000,
		       (unsigned long long)pct(res, 99) / 1000,
		       (unsigned long long)pct(res, 100) / 1000);
	ksft_test_result(res->n > 100 && pct(res, 99) / 1000 <= max_us,
			 "SCHED_FIFO p99 wakeup latency %llu us <= %llu us under 3 hogs\n",
			 (unsigned long long)pct(res, 99) / 1000,
			 (unsigned long long)max_us);
	return 0;
}

static int task_cpu_of(pid_t pid)
{
	char path[64], buf[1024], *s;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	s = strrchr(buf, ')');
	/* field 39 "processor"; s points at the end of field 2 */
	for (i = 2; s && i < 39; i++)
		s = strchr(s + 1, ' ');
	return s ? atoi(s + 1) : -1;
}

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
	ksft_test_result(!bad && samples > 100, "%d samples, %d outside the mask\n",
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

/* Burn @ms of CPU time, then exit. */
static void burn_cpu(int ms)
{
	uint64_t c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);

	while (now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0 < ms * MSEC)
		;
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

/* fork COUNT: COUNT fork/exit cycles from 4 forkers, all reaped. */
static int test_fork(int argc, char **argv)
{
	int count = argc ? atoi(argv[0]) : 10000, i;
	int *reaped = shared(sizeof(int) * 4);
	pid_t forkers[4];
	int total = 0, fails = 0;

	ksft_set_plan(1);
	for (i = 0; i < 4; i++) {
		forkers[i] = fork();
		if (forkers[i] == 0) {
			int k;

			for (k = 0; k < count / 4; k++) {
				pid_t p = fork();

				if (p == 0)
					_exit(7);
				if (p < 0)
					_exit(1);
				if (reap(p) == 7)
					reaped[i]++;
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++) {
		if (reap(forkers[i]))
			fails++;
		total += reaped[i];
	}
	ksft_test_result(!fails && total == count / 4 * 4, "%d of %d children reaped\n",
			 total, count / 4 * 4);
	return 0;
}

/*
 * batch: SCHED_IDLE runs only when nothing else wants the CPU; a
 * SCHED_BATCH hog still gets its share.
 */
static int test_batch(int argc, char **argv)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 300 * MSEC;
	struct sched_param sp = { 0 };
	pid_t pids[3];
	int i;

	ksft_set_plan(2);
	for (i = 0; i < 3; i++)
		pids[i] = spawn_hog(i, 0, 0, start, start + 3000 * MSEC);
	sched_setscheduler(pids[1], SCHED_BATCH, &sp);
	sched_setscheduler(pids[2], SCHED_IDLE, &sp);
	for (i = 0; i < 3; i++)
		reap(pids[i]);
	ksft_print_msg("normal %llu ms, batch %llu ms, idle %llu ms\n",
		       (unsigned long long)(hogs[0].cpu_ns / MSEC),
		       (unsigned long long)(hogs[1].cpu_ns / MSEC),
		       (unsigned long long)(hogs[2].cpu_ns / MSEC));
	ksft_test_result(hogs[2].cpu_ns * 20 < hogs[0].cpu_ns + hogs[1].cpu_ns,
			 "SCHED_IDLE hog got %llu ms, under 5%% of the CPU\n",
			 (unsigned long long)(hogs[2].cpu_ns / MSEC));
	ksft_test_result(hogs[1].cpu_ns * 3 > hogs[0].cpu_ns,
			 "SCHED_BATCH hog got %llu ms, over 1/3 of the normal hog's %llu ms\n",
			 (unsigned long long)(hogs[1].cpu_ns / MSEC),
			 (unsigned long long)(hogs[0].cpu_ns / MSEC));
	return 0;
}

/*
 * pingpong NR_CPUS ROUND_TRIPS: two tasks bounce a byte over two pipes, on
 * one CPU or on two; prints "BENCH pingpong_<n>cpu_us <us per round trip>".
 */
static int test_pingpong(int argc, char **argv)
{
	int ncpu = argc > 0 ? atoi(argv[0]) : 1, loops = argc > 1 ? atoi(argv[1]) : 20000;
	int a[2], b[2], i, ok = 1;
	uint64_t t0, t;
	char c = 0;
	pid_t pid;

	if (ncpu > nr_cpus())
		ksft_exit_skip("needs %d CPUs\n", ncpu);
	ksft_set_plan(1);
	if (pipe(a) || pipe(b))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid == 0) {
		pin(0, ncpu > 1 ? 1 : 0);
		for (i = 0; i < loops; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(0, 0);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < loops && ok; i++)
		ok = write(a[1], &c, 1) == 1 && read(b[0], &c, 1) == 1;
	t = now_ns(CLOCK_MONOTONIC) - t0;
	ok = ok && reap(pid) == 0;
	unpin(0);
	printf("BENCH pingpong_%dcpu_us %.3f\n", ncpu, t / 1000.0 / loops);
	ksft_test_result(ok, "%d round trips on %d CPU(s): %.2f us each\n", loops, ncpu,
			 t / 1000.0 / loops);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} tests[] = {
	{ "names", test_names },
	{ "knobs", test_knobs },
	{ "fair", test_fair },
	{ "nice", test_nice },
	{ "starve", test_starve },
	{ "interactive", test_interactive },
	{ "rt", test_rt },
	{ "affinity", test_affinity },
	{ "hotplug", test_hotplug },
	{ "fork", test_fork },
	{ "batch", test_batch },
	{ "pingpong", test_pingpong },
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TEST [ARGS...]\n", argv[0]);
		return 2;
	}
	hogs = shared(sizeof(struct hog) * MAX_HOGS);
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (!strcmp(argv[1], tests[i].name)) {
			ksft_print_header();
			ksft_print_msg("plugsched_test %s\n", argv[1]);
			tests[i].fn(argc - 2, argv + 2);
			ksft_finished();
		}
	}
	fprintf(stderr, "unknown test %s\n", argv[1]);
	return 2;
}
