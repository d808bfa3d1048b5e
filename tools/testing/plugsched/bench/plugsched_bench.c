// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched_bench: the workloads of make bench that no package provides,
 * run inside a booted kernel. Each prints "BENCH <key> <value>" lines; the
 * host collects them per policy and run.
 *
 *   plugsched_bench interbench SIM LOAD SECS
 *	SIM: audio (2.5 ms every 50 ms), video (6.67 ms every 16.67 ms),
 *	x (i ms then 100-i ms asleep, i = 10..90), gaming (all the CPU it
 *	can get, in frames of 16.67 ms); LOAD: none video x burn write read
 *	compile memload. Latency +/- SD, max latency, % desired CPU,
 *	% deadlines met, as interbench reports them.
 *   plugsched_bench fairness NR_CPUS SCALE WORK...
 *	jobs of WORK x SCALE ms of CPU started together on NR_CPUS CPUs:
 *	each job's finish time, its ideal fair finish, the deviation, and the
 *	jobs' user and system time.
 *   plugsched_bench contest LOAD JOBS PAR
 *	a "build" of JOBS short processes, PAR at a time (make -jPAR), under
 *	LOAD: none process write read mem. Time, CPU%, load iterations,
 *	load CPU%.
 *   plugsched_bench pickcost NR SECS
 *	NR threads on CPU 0 that yield in turn: ns between switches.
 *   plugsched_bench burn SECS	a CPU hog (load for cyclictest)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../selftests/plugsched/plugsched_timeline.h"

#define NSEC	1000000000ULL
#define MSEC	1000000ULL
#define USEC	1000ULL

static uint64_t now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void die(const char *msg)
{
	perror(msg);
	exit(2);
}

/* Burn @ns of this thread's CPU time. */
static void burn_ns(uint64_t ns)
{
	uint64_t c0 = now(CLOCK_THREAD_CPUTIME_ID);

	while (now(CLOCK_THREAD_CPUTIME_ID) - c0 < ns)
		;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / NSEC, .tv_nsec = t % NSEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static pid_t spawn(void (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		fn(arg);
		_exit(0);
	}
	return pid;
}

static void stop(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++) {
		char path[64];

		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
		snprintf(path, sizeof(path), "/tmp/bench-write.%d", i);
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/bench-read.%d", i);
		unlink(path);
	}
}

/* Loads: each runs until killed; @arg is its private counter slot. */

static uint64_t *counters;	/* shared: iterations of each load */

static void count(long slot)
{
	__atomic_add_fetch(&counters[slot], 1, __ATOMIC_RELAXED);
}

static void load_burn(long slot)
{
	for (;;) {
		burn_ns(10 * MSEC);
		count(slot);
	}
}

static void load_write(long slot)
{
	static char buf[1 << 16];
	char path[64];
	int fd, i;

	snprintf(path, sizeof(path), "/tmp/bench-write.%ld", slot);
	memset(buf, 'w', sizeof(buf));
	for (;;) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			die("open");
		for (i = 0; i < 256; i++)	/* 16 MB a round */
			if (write(fd, buf, sizeof(buf)) < 0)
				die("write");
		fsync(fd);
		close(fd);
		count(slot);
	}
}

static void load_read(long slot)
{
	static char buf[1 << 16];
	char path[64];
	int fd, i;

	snprintf(path, sizeof(path), "/tmp/bench-read.%ld", slot);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("open");
	for (i = 0; i < 256; i++)
		if (write(fd, buf, sizeof(buf)) < 0)
			die("write");
	close(fd);
	for (;;) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open");
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		count(slot);
	}
}

static void load_mem(long slot)
{
	size_t size = 64 << 20, i;
	char *p = malloc(size);

	if (!p)
		die("malloc");
	for (;;) {
		for (i = 0; i < size; i += 4096)
			p[i]++;
		count(slot);
	}
}

static void load_process(long slot)
{
	for (;;) {
		pid_t kids[4];
		int i;

		for (i = 0; i < 4; i++) {
			kids[i] = fork();
			if (!kids[i]) {
				burn_ns(20 * MSEC);
				_exit(0);
			}
		}
		for (i = 0; i < 4; i++)
			waitpid(kids[i], NULL, 0);
		count(slot);
	}
}

/* interbench's simulated tasks, run as loads (no figures kept). */
static void sim_loop(const char *sim, uint64_t start, uint64_t end, uint64_t *lat,
		     int max, uint64_t *stats);

static void load_video(long slot)
{
	sim_loop("video", now(CLOCK_MONOTONIC), ~0ULL, NULL, 0, NULL);
}

static void load_x(long slot)
{
	sim_loop("x", now(CLOCK_MONOTONIC), ~0ULL, NULL, 0, NULL);
}

/* Start @load's processes into @pids; return how many. */
static int start_load(const char *load, pid_t *pids)
{
	bool compile = !strcmp(load, "compile");
	int n = 0, i;

	if (!strcmp(load, "none"))
		return 0;
	if (!strcmp(load, "burn") || compile) {
		for (i = 0; i < 4; i++, n++)
			pids[n] = spawn(load_burn, n);
	}
	if (!strcmp(load, "write") || compile) {
		pids[n] = spawn(load_write, n);
		n++;
	}
	if (!strcmp(load, "read") || compile) {
		pids[n] = spawn(load_read, n);
		n++;
	}
	if (!strcmp(load, "memload") || !strcmp(load, "mem")) {
		pids[n] = spawn(load_mem, n);
		n++;
	}
	if (!strcmp(load, "process")) {
		pids[n] = spawn(load_process, n);
		n++;
	}
	if (!strcmp(load, "video")) {
		pids[n] = spawn(load_video, n);
		n++;
	}
	if (!strcmp(load, "x")) {
		pids[n] = spawn(load_x, n);
		n++;
	}
	if (!n) {
		fprintf(stderr, "unknown load %s\n", load);
		exit(2);
	}
	return n;
}

/*
 * A simulated interactive task from @start (when it was forked) until @end.
 * Periodic ones wake at each period's start (latency: how late), run their
 * share of CPU, and meet the deadline when the work is done before the
 * next period. Gaming runs frames of 16.67 ms of CPU back to back; a
 * frame's latency is how much longer than its CPU time it took, and it
 * meets its deadline when that is under one frame. A task that first runs
 * late has its first period (or frame) start at @start, and one that
 * first runs after @end still runs that one: the wait counts. @stats:
 * periods, met, CPU got (ns), CPU wanted (ns), latencies recorded.
 */
static void sim_loop(const char *sim, uint64_t start, uint64_t end, uint64_t *lat,
		     int max, uint64_t *stats)
{
	uint64_t period, run, due = start, t, c0, c1;
	bool gaming = !strcmp(sim, "gaming"), x = !strcmp(sim, "x");
	uint64_t periods = 0, met = 0, got = 0, want = 0;
	int n = 0, i = 1;

	if (!strcmp(sim, "audio")) {
		run = 2500 * USEC;
		period = 50 * MSEC;
	} else if (!strcmp(sim, "video") || gaming) {
		run = 6670 * USEC;
		period = 16670 * USEC;
		if (gaming)
			run = period;
	} else if (x) {
		period = 100 * MSEC;
		run = 10 * MSEC;
	} else {
		fprintf(stderr, "unknown simulation %s\n", sim);
		exit(2);
	}

	while ((t = now(CLOCK_MONOTONIC)) < end || !periods) {
		if (gaming && !periods)
			t = start;
		if (x) {
			/* X: i ms of work then 100 - i ms asleep, i = 10, 20 .. 90. */
			run = i * 10 * MSEC;
			i = i % 9 + 1;
		}
		if (!gaming) {
			sleep_until(due);
			t = now(CLOCK_MONOTONIC);
		}
		if (lat && n < max)
			lat[n++] = gaming ? 0 : t - due;
		c0 = now(CLOCK_THREAD_CPUTIME_ID);
		burn_ns(run);
		c1 = now(CLOCK_THREAD_CPUTIME_ID);
		got += c1 - c0;
		periods++;
		if (gaming) {
			/* It wants the whole CPU: all the time the frame took. */
			uint64_t wall = now(CLOCK_MONOTONIC) - t;

			want += wall;
			if (lat && n)
				lat[n - 1] = wall > run ? wall - run : 0;
			met += wall - run < period;
			continue;
		}
		want += run;
		if (now(CLOCK_MONOTONIC) <= due + period)
			met++;
		due += period;
		/* Overran: the periods missed are missed deadlines, and CPU wanted. */
		while (due + period < now(CLOCK_MONOTONIC)) {
			due += period;
			periods++;
			want += run;
		}
	}
	if (stats) {
		stats[0] = periods;
		stats[1] = met;
		stats[2] = got;
		stats[3] = want;
		stats[4] = n;
	}
}

static int interbench(int argc, char **argv)
{
	const char *sim = argv[0], *load = argv[1];
	double secs = atof(argv[2]), sum = 0, sq = 0, mean, sd;
	uint64_t *lat, *stats, max = 0, start, end;
	pid_t pids[8];
	int n, i, nl, max_lat = 100000;
	char key[64];
	pid_t p;

	lat = mmap(NULL, max_lat * sizeof(*lat) + 64, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (lat == MAP_FAILED)
		die("mmap");
	stats = lat + max_lat;	/* periods, met, CPU got, CPU wanted, latencies */
	nl = start_load(load, pids);
	usleep(200000);
	start = now(CLOCK_MONOTONIC);
	end = start + secs * NSEC;
	p = fork();
	if (!p) {
		sim_loop(sim, start, end, lat, max_lat, stats);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	stop(pids, nl);
	n = stats[4];
	for (i = 0; i < n; i++) {
		double l = lat[i] / 1e6;

		sum += l;
		sq += l * l;
		if (lat[i] > max)
			max = lat[i];
	}
	mean = n ? sum / n : 0;
	sd = n > 1 ? sqrt(fmax(sq - n * mean * mean, 0) / (n - 1)) : 0;
	snprintf(key, sizeof(key), "ib_%s_%s", sim, load);
	printf("BENCH %s_lat_ms %.3f\n", key, mean);
	printf("BENCH %s_sd_ms %.3f\n", key, sd);
	printf("BENCH %s_max_ms %.3f\n", key, max / 1e6);
	/* A task that ran a little longer than it asked got what it wanted. */
	printf("BENCH %s_desired_pct %.1f\n", key,
	       stats[3] ? fmin(100.0, 100.0 * stats[2] / stats[3]) : 0);
	printf("BENCH %s_met_pct %.1f\n", key, stats[0] ? 100.0 * stats[1] / stats[0] : 0);
	return 0;
}

static int fairness(int argc, char **argv)
{
	int ncpu = atoi(argv[0]), n = argc - 2, i;
	double scale = atof(argv[1]), work[32], ideal[32], worst = 0;
	uint64_t *fin, start;
	struct rusage ru;
	pid_t pids[32];
	cpu_set_t set;

	if (n < 1 || n > PLUGSCHED_TIMELINE_MAX)
		return 2;
	fin = mmap(NULL, 32 * sizeof(*fin), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fin == MAP_FAILED)
		die("mmap");
	for (i = 0; i < n; i++)
		work[i] = atof(argv[2 + i]) * scale;
	plugsched_fair_timeline(n, ncpu, work, ideal);
	CPU_ZERO(&set);
	for (i = 0; i < ncpu; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
	start = now(CLOCK_MONOTONIC) + 200 * MSEC;
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			sleep_until(start);
			burn_ns(work[i] * MSEC);
			fin[i] = now(CLOCK_MONOTONIC) - start;
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	getrusage(RUSAGE_CHILDREN, &ru);
	for (i = 0; i < n; i++) {
		double got = fin[i] / 1e6, dev = (got - ideal[i]) / ideal[i] * 100;

		printf("BENCH fair_job%d_s %.3f\n", i + 1, got / 1000);
		printf("BENCH fair_job%d_ideal_s %.3f\n", i + 1, ideal[i] / 1000);
		printf("BENCH fair_job%d_dev_pct %.2f\n", i + 1, dev);
		if (fabs(dev) > fabs(worst))
			worst = dev;
	}
	printf("BENCH fair_worst_dev_pct %.2f\n", worst);
	printf("BENCH fair_user_s %.3f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
	printf("BENCH fair_sys_s %.3f\n", ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}

/* One "compile" job: a short-lived process doing a little CPU and I/O. */
static void build_job(long id)
{
	char path[64], buf[4096];
	int fd;

	burn_ns(8 * MSEC);
	snprintf(path, sizeof(path), "/tmp/bench-obj.%ld", id);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		memset(buf, 'o', sizeof(buf));
		if (write(fd, buf, sizeof(buf)) < 0)
			_exit(1);
		close(fd);
	}
	unlink(path);
}

static double cpu_s(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* CPU time of @pid and its reaped children, in seconds, from /proc. */
static double proc_cpu_s(pid_t pid)
{
	unsigned long long v[4];
	char path[64], buf[1024], *s;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	s = strrchr(buf, ')');
	/* fields 14..17: utime stime cutime cstime; s is at the end of field 2 */
	for (i = 2; s && i < 13; i++)
		s = strchr(s + 1, ' ');
	if (!s || sscanf(s + 1, "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != 4)
		return 0;
	return (double)(v[0] + v[1] + v[2] + v[3]) / sysconf(_SC_CLK_TCK);
}

static uint64_t load_iterations(int nl)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < nl; i++)
		sum += __atomic_load_n(&counters[i], __ATOMIC_RELAXED);
	return sum;
}

static double load_cpu_s(const pid_t *pids, int nl)
{
	double sum = 0;
	int i;

	for (i = 0; i < nl; i++)
		sum += proc_cpu_s(pids[i]);
	return sum;
}

static int contest(int argc, char **argv)
{
	const char *load = argv[0];
	int jobs = atoi(argv[1]), par = atoi(argv[2]), started = 0, running = 0, nl;
	double lcpu0, lcpu1, secs;
	uint64_t t0, t1, it0, it1;
	struct rusage ru;
	pid_t pids[8], b;
	int status;

	nl = strcmp(load, "none") ? start_load(load, pids) : 0;
	usleep(300000);
	it0 = load_iterations(nl);
	lcpu0 = load_cpu_s(pids, nl);
	t0 = now(CLOCK_MONOTONIC);
	/* The build runs in a child, so that its CPU time is its own. */
	b = fork();
	if (!b) {
		while (started < jobs || running) {
			while (running < par && started < jobs) {
				spawn(build_job, started++);
				running++;
			}
			if (wait(&status) > 0)
				running--;
		}
		_exit(0);
	}
	if (waitpid(b, &status, 0) != b)
		die("waitpid");
	t1 = now(CLOCK_MONOTONIC);
	it1 = load_iterations(nl);
	lcpu1 = load_cpu_s(pids, nl);
	getrusage(RUSAGE_CHILDREN, &ru);
	stop(pids, nl);
	secs = (t1 - t0) / 1e9;
	printf("BENCH contest_%s_time_s %.3f\n", load, secs);
	printf("BENCH contest_%s_cpu_pct %.1f\n", load, cpu_s(&ru) / secs * 100);
	printf("BENCH contest_%s_loads %llu\n", load, (unsigned long long)(it1 - it0));
	printf("BENCH contest_%s_lcpu_pct %.1f\n", load, (lcpu1 - lcpu0) / secs * 100);
	return 0;
}

/*
 * pickcost: NR threads on CPU 0 that yield in turn. The figure is the
 * time between two context switches of CPU 0 (all switches of the
 * threads, from their rusage): the cost of a switch with NR runnable
 * tasks to choose from. A policy whose sched_yield() does not give up the
 * CPU shows its slice here instead.
 */
static int pick_stop;
static uint64_t pick_switches;
static pthread_barrier_t pick_go;

static void *pick_thread(void *arg)
{
	struct rusage r0, r1;

	pthread_barrier_wait(&pick_go);
	getrusage(RUSAGE_THREAD, &r0);
	while (!__atomic_load_n(&pick_stop, __ATOMIC_RELAXED))
		sched_yield();
	getrusage(RUSAGE_THREAD, &r1);
	__atomic_add_fetch(&pick_switches, (r1.ru_nvcsw - r0.ru_nvcsw) +
			   (r1.ru_nivcsw - r0.ru_nivcsw), __ATOMIC_RELAXED);
	return arg;
}

static int pickcost(int argc, char **argv)
{
	int nr = atoi(argv[0]), i;
	double secs = atof(argv[1]);
	pthread_t *th = calloc(nr, sizeof(*th));
	pthread_attr_t attr;
	cpu_set_t set;
	uint64_t t0, t1;

	if (!th || pthread_barrier_init(&pick_go, NULL, nr + 1))
		die("calloc or pthread_barrier_init");
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 32 << 10);
	for (i = 0; i < nr; i++)
		if (pthread_create(&th[i], &attr, pick_thread, NULL))
			die("pthread_create");
	/* The threads inherited CPU 0; the timekeeper runs elsewhere. */
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	pthread_barrier_wait(&pick_go);
	t0 = now(CLOCK_MONOTONIC);
	usleep(secs * 1e6);
	__atomic_store_n(&pick_stop, 1, __ATOMIC_RELAXED);
	t1 = now(CLOCK_MONOTONIC);
	for (i = 0; i < nr; i++)
		pthread_join(th[i], NULL);
	printf("BENCH pick_%d_ns %.1f\n", nr,
	       pick_switches ? (double)(t1 - t0) / pick_switches : 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s interbench|fairness|contest|pickcost|burn ARGS\n",
			argv[0]);
		return 2;
	}
	counters = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED)
		die("mmap");
	if (!strcmp(argv[1], "interbench") && argc == 5)
		return interbench(argc - 2, argv + 2);
	if (!strcmp(argv[1], "fairness") && argc >= 5)
		return fairness(argc - 2, argv + 2);
	if (!strcmp(argv[1], "contest") && argc == 5)
		return contest(argc - 2, argv + 2);
	if (!strcmp(argv[1], "pickcost") && argc == 4)
		return pickcost(argc - 2, argv + 2);
	if (!strcmp(argv[1], "burn") && argc == 3) {
		burn_ns(atof(argv[2]) * NSEC);
		return 0;
	}
	fprintf(stderr, "bad arguments\n");
	return 2;
}
