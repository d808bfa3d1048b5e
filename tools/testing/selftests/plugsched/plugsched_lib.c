// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers the plugsched selftests share: time, pinning, hogs that
 * measure themselves, /proc and sysfs files, knobs and policy switches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugsched.h"

/* The counters of kselftest.h, one set for every file (see plugsched.h). */
struct ksft_count plugsched_ksft_counts;
unsigned int plugsched_ksft_planned;

struct hog *hogs;
struct gap_log *gap_log;

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity(%d, cpu %d): %s\n", pid, cpu,
				   strerror(errno));
}

void unpin(pid_t pid)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

int nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memset(p, 0, size);
	return p;
}

/* Involuntary switches so far: getrusage() is one short system call. */
static uint64_t nvcsw_self(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return ru.ru_nivcsw;
}

/* Log the stretch @from..@to: a wait, or a freeze if @h was charged for it. */
static void gap_log_add(struct hog *h, uint64_t from, uint64_t to, uint64_t *t0, uint64_t *c0)
{
	uint64_t c = now_ns(CLOCK_THREAD_CPUTIME_ID);
	/* Since the last stretch: wall time the hog was not charged for. */
	uint64_t uncharged = (to - *t0) - (c - *c0 < to - *t0 ? c - *c0 : to - *t0);
	int idx = h - hogs, i;

	if (uncharged < (to - from) / 2) {
		i = __atomic_fetch_add(&gap_log->nr_freezes, 1, __ATOMIC_RELAXED);
		if (i < GAP_LOG_MAX)
			gap_log->freezes[i] = (struct gap){ from, to, idx };
	} else {
		i = __atomic_fetch_add(&gap_log->nr_waits, 1, __ATOMIC_RELAXED);
		if (i < GAP_LOG_MAX)
			gap_log->waits[i] = (struct gap){ from, to, idx };
	}
	*t0 = to;
	*c0 = c;
}

uint64_t gap_log_max_wait(int idx, uint64_t *frozen)
{
	uint64_t worst = 0, off, a, b;
	int i, j, nw = gap_log->nr_waits, nf = gap_log->nr_freezes;

	nw = nw < GAP_LOG_MAX ? nw : GAP_LOG_MAX;
	nf = nf < GAP_LOG_MAX ? nf : GAP_LOG_MAX;
	*frozen = 0;
	for (i = 0; i < nw; i++) {
		struct gap *w = &gap_log->waits[i];

		if (w->hog != idx)
			continue;
		/* Freezes logged by the others while this one waited. */
		for (off = 0, j = 0; j < nf; j++) {
			a = gap_log->freezes[j].from > w->from ? gap_log->freezes[j].from : w->from;
			b = gap_log->freezes[j].to < w->to ? gap_log->freezes[j].to : w->to;
			if (gap_log->freezes[j].hog != idx && b > a)
				off += b - a;
		}
		if (w->to - w->from - off > worst) {
			worst = w->to - w->from - off;
			*frozen = off;
		}
	}
	return worst;
}

/*
 * A CPU hog measuring itself from @start to @end (CLOCK_MONOTONIC ns):
 * its CPU time, the longest stretch it did not run, and how often it was
 * preempted.
 */
void hog_body(struct hog *h, uint64_t start, uint64_t end)
{
	uint64_t t, last, cpu0, t0, c0;

	while ((last = now_ns(CLOCK_MONOTONIC)) < start)
		;
	/*
	 * The window opens for this hog when it first runs in it. A
	 * preemption in the baselines' system calls below is a gap from
	 * here: a hog preempted there once ran in the window unseen, and its
	 * next run looked like the end of a wait from @start.
	 */
	h->edge_gap_ns = last - start;
	t0 = last;
	h->nvcsw = nvcsw_self();
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	c0 = cpu0;
	while ((t = now_ns(CLOCK_MONOTONIC)) < end) {
		if (t - last > h->max_gap_ns)
			h->max_gap_ns = t - last;
		if (t - last > 200000) {
			h->switches++;
			if (gap_log && t - last > 2000000)
				gap_log_add(h, last, t, &t0, &c0);
		}
		last = t;
	}
	if (t - last > h->edge_gap_ns)
		h->edge_gap_ns = t - last;
	h->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	h->nvcsw = nvcsw_self() - h->nvcsw;
	h->last_cpu = sched_getcpu();
}

/* Fork a hog on @cpu (-1: any) at @nice, measuring the given window. */
pid_t spawn_hog(int idx, int cpu, int nice, uint64_t start, uint64_t end)
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

int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int read_file(const char *path, char *buf, size_t size)
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

/* fork(), or the test fails: the child gets 0, the caller its pid. */
pid_t fork_or_fail(void)
{
	pid_t pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	return pid;
}

/* Write @val to @path in one write(); return 0 or -errno. */
int write_file(const char *path, const char *val, size_t len)
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

/*
 * Run @n hogs for @ms on CPUs 0..@ncpu-1 (round robin) at the given nices,
 * measuring after @warm_ms of running (steady state).
 */
void run_hogs_warm(int n, int ncpu, const int *nice, int ms, int pinned,
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

void run_hogs(int n, int ncpu, const int *nice, int ms, int pinned)
{
	run_hogs_warm(n, ncpu, nice, ms, pinned, 0);
}

/*
 * A periodic task: runs @run_us then sleeps until the next @period_us,
 * recording its wakeup latencies (ns) after @warm_ms into @lat.
 */
int periodic(int cpu, int policy, int run_us, int period_us, int warm_ms,
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

uint64_t pct(const struct lat_result *r, int pc)
{
	return r->n ? r->lat[(r->n - 1) * pc / 100] : ~0ULL;
}

/* A number from /proc/@pid/sched ("name : value"), or -1. */
long long sched_field(pid_t pid, const char *name)
{
	char path[64], buf[8192], *s;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	s = strstr(buf, name);
	if (s)
		s = strchr(s, ':');
	return s ? strtoll(s + 1, NULL, 10) : -1;
}

int knob_int(const char *name)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		ksft_exit_fail_msg("cannot read %s\n", path);
	return atoi(buf);
}

void set_knob(const char *name, int val)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	snprintf(buf, sizeof(buf), "%d", val);
	if (write_file(path, buf, strlen(buf)))
		ksft_exit_fail_msg("cannot set %s to %d\n", name, val);
}

/* Reliefs given so far (debugfs), -1 if unreadable. */
long nr_plug_reliefs(void)
{
	return read_long("/sys/kernel/debug/sched/plug_reliefs");
}

/*
 * The number after @key on its line of @path ("KEY VALUE ...", as cgroup's
 * cpu.stat and debugfs plug_balance have them); -1 if none.
 */
long long file_key(const char *path, const char *key)
{
	char buf[4096], *s;
	size_t len = strlen(key);

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (s = buf; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, key, len) && s[len] == ' ')
			return atoll(s + len + 1);
	return -1;
}

static long relief_suspended_at;

/*
 * A check of a policy's design bound (a starvation limit, a promotion, a
 * level's wait) runs with relief off: a wait that relief ended shows
 * nothing of the design. relief_suspend() returns what relief_resume()
 * restores (-1: no relief here, as under eevdf); relief_resume() returns
 * the reliefs given meanwhile, which the check must count as a failure.
 */
int relief_suspend(void)
{
	int old;

	if (access("/proc/sys/kernel/plugsched_relief_ms", F_OK))
		return -1;
	old = knob_int("plugsched_relief_ms");
	set_knob("plugsched_relief_ms", 0);
	relief_suspended_at = nr_plug_reliefs();
	return old;
}

long relief_resume(int old)
{
	long now;

	if (old < 0)
		return 0;
	now = nr_plug_reliefs();
	set_knob("plugsched_relief_ms", old);
	return now < 0 || relief_suspended_at < 0 ? 0 : now - relief_suspended_at;
}

/* The CPU a task last ran on, from DIR/stat (DIR: /proc/PID[/task/TID]). */
int task_last_cpu(const char *dir)
{
	char path[200], buf[1024], *s;
	int i;

	snprintf(path, sizeof(path), "%s/stat", dir);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	s = strrchr(buf, ')');
	/* field 39 "processor"; s points at the end of field 2 */
	for (i = 2; s && i < 39; i++)
		s = strchr(s + 1, ' ');
	return s ? atoi(s + 1) : -1;
}

int task_cpu_of(pid_t pid)
{
	char dir[32];

	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	return task_last_cpu(dir);
}

/* "Cpus_allowed:" of a task's status as a bit mask of the first 64 CPUs. */
uint64_t task_allowed(const char *dir)
{
	char path[200], buf[4096], *s, *e;
	uint64_t mask = 0;

	snprintf(path, sizeof(path), "%s/status", dir);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	s = strstr(buf, "Cpus_allowed:");
	if (!s)
		return 0;
	s += strlen("Cpus_allowed:");
	e = strchr(s, '\n');
	if (e)
		*e = '\0';
	/* the last 64 bits: up to 16 hex digits after the last comma */
	e = strrchr(s, ',');
	mask = strtoull(e ? e + 1 : s, NULL, 16);
	return mask;
}

/* Burn @ms of CPU time, then exit. */
void burn_cpu(int ms)
{
	uint64_t c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);

	while (now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0 < ms * MSEC)
		;
}

const char *active_policy(void)
{
	static char name[32];

	if (read_file("/sys/kernel/plugsched/active", name, sizeof(name)) <= 0)
		return "unknown";
	name[strcspn(name, "\n")] = '\0';
	return name;
}

/*
 * Bounds that follow from each policy's design, keyed by
 * /sys/kernel/plugsched/active; the first row is the default.
 *
 * @batch_share: SCHED_BATCH hog's CPU / the normal hog's, on one CPU. A
 * batch task weighs as nice 0 and differs only in never preempting on
 * wakeup, which hogs never do: 1:1 by design, 0.8 for the start of the
 * window (seen 0.94-1.12). o1 and numa: the normal hog starts with the
 * credit of its sleep before the window, which the interactivity
 * estimator lets it spend first, up to about a second of its three
 * (seen 0.28-0.43).
 */
static const struct policy_bounds policy_bounds[] = {
	{ "eevdf",	0.8 },
	{ "o1",		0.25 },
	{ "numa",	0.25 },
};

const struct policy_bounds *bounds(void)
{
	const char *name = active_policy();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policy_bounds); i++)
		if (!strcmp(policy_bounds[i].policy, name))
			return &policy_bounds[i];
	return &policy_bounds[0];
}

void read_line(const char *path, char *buf, size_t size)
{
	if (read_file(path, buf, size) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

long read_long(const char *path)
{
	char buf[64];

	read_line(path, buf, sizeof(buf));
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

/* Write @name to active; return 0 or -errno, and the time it took. */
int switch_to(const char *name, uint64_t *ns)
{
	uint64_t t0 = now_ns(CLOCK_MONOTONIC);
	int err = write_file(PS_SYSFS "active", name, strlen(name));

	if (ns)
		*ns = now_ns(CLOCK_MONOTONIC) - t0;
	return err;
}
