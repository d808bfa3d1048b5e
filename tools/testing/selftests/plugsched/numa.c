// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA placement (sched=numa); the guest has 4 CPUs in 2 nodes.
 *
 * spin and memwork are the exec targets of these tests.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/mempolicy.h>

#include "plugsched.h"

#define NUMA_MAX_TASKS	16

/* The node of @cpu, from sysfs; -1 if unknown. */
static int cpu_node(int cpu)
{
	static int cache[64];
	char path[96];
	int node;

	if (cpu < 0 || cpu >= 64)
		return -1;
	if (cache[cpu])
		return cache[cpu] - 1;
	for (node = 0; node < 16; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", cpu, node);
		if (!access(path, F_OK)) {
			cache[cpu] = node + 1;
			return node;
		}
	}
	return -1;
}

static int nr_nodes(void)
{
	char path[64];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK))
			return n;
		n++;
	}
}

/* Pin @pid to the online CPUs of @node. */
static void pin_node(pid_t pid, int node)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < nr_cpus(); cpu++)
		if (cpu_node(cpu) == node)
			CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		ksft_exit_fail_msg("pin to node %d: %s\n", node, strerror(errno));
}

/*
 * Run the rest of the test as a task whose home is node 0: pinned there,
 * then exec'd (exec chooses the home node among the allowed ones).
 */
static void numa_start_on_node0(int argc, char **argv)
{
	char *args[16];
	int i;

	if (getenv("PLUGSCHED_NODE0"))
		return;
	pin_node(0, 0);
	setenv("PLUGSCHED_NODE0", "1", 1);
	args[0] = "plugsched_test";
	args[1] = "numa";
	for (i = 0; i < argc && i < 13; i++)
		args[i + 2] = argv[i];
	args[i + 2] = NULL;
	execv("/proc/self/exe", args);
	ksft_exit_fail_msg("execv: %s\n", strerror(errno));
}

/* Fork a child that execs plugsched_test with @args, output discarded. */
static pid_t spawn_exec(char *const args[], bool free_cpus)
{
	pid_t pid = fork();

	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (free_cpus)
			unpin(0);
		unsetenv("PLUGSCHED_NODE0");
		execv("/proc/self/exe", args);
		_exit(127);
	}
	return pid;
}

/* spin MS: an exec target burning @ms of CPU time. */
static int test_spin(int argc, char **argv)
{
	burn_cpu(argc ? atoi(argv[0]) : 1000);
	exit(0);
}

/*
 * memwork MB ROUNDS: an exec target like numa_test: touch a buffer of its
 * own, rescan it ROUNDS times, then stop itself (SIGSTOP) so that the
 * parent can read its counters and page placement before it goes.
 */
static int test_memwork(int argc, char **argv)
{
	size_t size = (argc > 0 ? atoi(argv[0]) : 8) << 20, i;
	int rounds = argc > 1 ? atoi(argv[1]) : 100, r;
	unsigned long *buf = malloc(size), sum = 0;

	if (!buf)
		exit(1);
	for (i = 0; i < size / sizeof(*buf); i++)
		buf[i] = i;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < size / sizeof(*buf); i += 8)
			sum += buf[i]++;
		/* Every round counts: nothing reads the buffer afterwards. */
		asm volatile("" : : "r"(buf) : "memory");
	}
	raise(SIGSTOP);
	exit(sum == 42);
}

/* Pages of @pid's anonymous mappings per node (up to 16), from numa_maps. */
static void anon_pages_by_node(pid_t pid, long *pages)
{
	char path[64], *buf, *line, *s;
	int n;

	memset(pages, 0, 16 * sizeof(*pages));
	buf = malloc(1 << 16);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	if (!buf || read_file(path, buf, 1 << 16) <= 0) {
		free(buf);
		return;
	}
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strstr(line, "anon="))
			continue;
		for (s = strstr(line, " N"); s; s = strstr(s + 1, " N")) {
			n = atoi(s + 2);
			if (n >= 0 && n < 16 && strchr(s, '='))
				pages[n] += atol(strchr(s, '=') + 1);
		}
	}
	free(buf);
}

/*
 * numa exec NR: a parent on node 0 forks NR children that exec a CPU hog;
 * a second later they must sit NR/2 per node in 8 of 10 samples.
 */
static int numa_exec(int nr)
{
	char ms[16], *args[] = { "plugsched_test", "spin", ms, NULL };
	int i, k, even = 0, per_node[2];
	pid_t pids[NUMA_MAX_TASKS];

	snprintf(ms, sizeof(ms), "%d", 3000);
	for (i = 0; i < nr; i++)
		pids[i] = spawn_exec(args, true);
	usleep(1000000);
	for (k = 0; k < 10; k++) {
		memset(per_node, 0, sizeof(per_node));
		for (i = 0; i < nr; i++) {
			int node = cpu_node(task_cpu_of(pids[i]));

			if (node == 0 || node == 1)
				per_node[node]++;
		}
		even += per_node[0] == nr / 2 && per_node[1] == nr - nr / 2;
		usleep(50000);
	}
	for (i = 0; i < nr; i++) {
		ksft_print_msg("child %d: CPU %d, home node %lld\n", i, task_cpu_of(pids[i]),
			       sched_field(pids[i], "numa.home_node"));
		kill(pids[i], SIGKILL);
		reap(pids[i]);
	}
	ksft_test_result(even >= 8,
			 "%d children exec'd from node 0 sit %d per node in %d of 10 samples (>= 8)\n",
			 nr, nr / 2, even);
	return 0;
}

/*
 * numa imbalance NR MAX_MS: NR hogs started on node 0 are let loose; the
 * nodes must hold NR/2 each within MAX_MS, and keep that for 90% of the
 * next second.
 */
static int numa_imbalance(int nr, int max_ms)
{
	pid_t pids[NUMA_MAX_TASKS];
	uint64_t start, t0, fixed = 0, t;
	int i, k, kept = 0, samples = 0;

	start = now_ns(CLOCK_MONOTONIC) + 50 * MSEC;
	for (i = 0; i < nr; i++)
		pids[i] = spawn_hog(i, -1, 0, start, start + (max_ms + 2500) * MSEC);
	usleep(500000);
	for (i = 0; i < nr; i++)
		unpin(pids[i]);
	t0 = now_ns(CLOCK_MONOTONIC);
	while ((t = now_ns(CLOCK_MONOTONIC)) < t0 + (max_ms + 1000) * MSEC) {
		int on1 = 0;

		for (i = 0; i < nr; i++)
			on1 += cpu_node(task_cpu_of(pids[i])) == 1;
		if (!fixed && on1 == nr / 2)
			fixed = t;
		if (fixed && t < fixed + 1000 * MSEC) {
			samples++;
			kept += on1 == nr / 2;
		}
		if (fixed && t >= fixed + 1000 * MSEC)
			break;
		usleep(20000);
	}
	for (i = 0; i < nr; i++) {
		kill(pids[i], SIGKILL);
		reap(pids[i]);
	}
	k = fixed ? (int)((fixed - t0) / MSEC) : -1;
	ksft_test_result(fixed && k <= max_ms && kept * 10 >= samples * 9,
			 "%d hogs from node 0: %d per node after %d ms (<= %d), kept in %d of %d samples\n",
			 nr, nr / 2, k, max_ms, kept, samples);
	return 0;
}

#define NUMA_MAX_RUNS		9
#define NUMA_MAX_POLICIES	4

/*
 * @loaded, @loaded_home: the samples taken while all tasks still ran, and
 * those on the home node. Once the first finish, a node left with idle
 * CPUs rightly pulls from the other (work conservation), and when that
 * starts depends on how fast the host ran each node's vCPUs: seen to put
 * 5-15% of all samples away from home, in a run whose loaded phase was
 * at home throughout.
 */
struct numa_run {
	uint64_t elapsed_ms;
	long samples, on_home, loaded, loaded_home, pages, pages_home, migrations;
};

static void numa_print_task(int i, long home, const long *samples, const long *pages,
			    long moves, uint64_t ms)
{
	ksft_print_msg("task %d: home %ld, on nodes %ld/%ld, pages %ld/%ld, %ld moves, %llu ms\n",
		       i, home, samples[0], samples[1], pages[0], pages[1], moves,
		       (unsigned long long)ms);
}

/* One locality run: NR memwork tasks, sampled every 10 ms until done. */
static void numa_locality_run(int nr, const char *mb, const char *rounds,
			      struct numa_run *run, bool verbose)
{
	char *const args[] = { "plugsched_test", "memwork", (char *)mb, (char *)rounds, NULL };
	long samples[NUMA_MAX_TASKS][2] = { { 0 } }, loaded[NUMA_MAX_TASKS][2] = { { 0 } };
	long pages[16];
	bool done[NUMA_MAX_TASKS] = { false };
	pid_t pids[NUMA_MAX_TASKS];
	int i, left = nr, status;
	uint64_t t0;

	memset(run, 0, sizeof(*run));
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < nr; i++)
		pids[i] = spawn_exec(args, false);
	while (left) {
		usleep(10000);
		for (i = 0; i < nr; i++) {
			int node;

			if (done[i])
				continue;
			if (waitpid(pids[i], &status, WNOHANG | WUNTRACED) == pids[i]) {
				long home = sched_field(pids[i], "numa.home_node");
				long n, best = 0;

				done[i] = true;
				left--;
				run->elapsed_ms = (now_ns(CLOCK_MONOTONIC) - t0) / MSEC;
				anon_pages_by_node(pids[i], pages);
				/* No home node outside sched=numa: where its pages are. */
				for (n = 0; n < 16; n++) {
					if (pages[n] > pages[best])
						best = n;
					run->pages += pages[n];
				}
				if (home < 0 || home > 1)
					home = best;
				run->pages_home += pages[home];
				run->on_home += samples[i][home];
				run->samples += samples[i][0] + samples[i][1];
				run->loaded_home += loaded[i][home];
				run->loaded += loaded[i][0] + loaded[i][1];
				n = sched_field(pids[i], "plugsched.nr_node_migrations");
				if (verbose)
					numa_print_task(i, home, samples[i], pages, n,
							run->elapsed_ms);
				run->migrations = n < 0 || run->migrations < 0 ? -1 :
						  run->migrations + n;
				kill(pids[i], SIGKILL);
				reap(pids[i]);
				continue;
			}
			node = cpu_node(task_cpu_of(pids[i]));
			if (node == 0 || node == 1) {
				samples[i][node]++;
				loaded[i][node] += left == nr;
			}
		}
	}
}

static int cmp_run(const void *a, const void *b)
{
	const struct numa_run *x = a, *y = b;

	return x->elapsed_ms < y->elapsed_ms ? -1 : x->elapsed_ms > y->elapsed_ms;
}

/*
 * The figures of the median of @repeat runs (by elapsed time): share of
 * samples on the home node, share of pages on it, cross-node migrations;
 * one line for the host to compare policies by, and one result. With
 * @min_pct both shares must reach it.
 */
static void numa_report(const char *policy, int nr, struct numa_run *runs, int repeat,
			int min_pct, bool remote)
{
	double home_pct, loaded_pct, pages_pct;
	struct numa_run *m;
	long total = 0;
	const char *where = strcmp(policy, "numa") ? "the node of most pages" : "the home node";
	int r;

	for (r = 0; r < repeat; r++)
		total = total < 0 || runs[r].migrations < 0 ? -1 : total + runs[r].migrations;
	qsort(runs, repeat, sizeof(runs[0]), cmp_run);
	m = &runs[repeat / 2];
	home_pct = m->samples ? 100.0 * m->on_home / m->samples : 0;
	loaded_pct = m->loaded ? 100.0 * m->loaded_home / m->loaded : 0;
	pages_pct = m->pages ? 100.0 * m->pages_home / m->pages : 0;
	ksft_print_msg("numa-locality policy=%s tasks=%d elapsed_ms=%llu ", policy, nr,
		       (unsigned long long)m->elapsed_ms);
	printf("elapsed_range=%llu..%llu ", (unsigned long long)runs[0].elapsed_ms,
	       (unsigned long long)runs[repeat - 1].elapsed_ms);
	printf("home_pct=%.1f loaded_home_pct=%.1f ", home_pct, loaded_pct);
	printf("pages_pct=%.1f migrations=%ld migrations_all_runs=%ld\n",
	       pages_pct, m->migrations, total);
	if (min_pct && remote)
		ksft_test_result(loaded_pct < min_pct || pages_pct < min_pct,
				 "control: %d memory tasks kept on node 1, their memory bound to node 0, fail the check: %.1f%% of the time all ran and %.1f%% of pages at home (< %d%% either)\n",
				 nr, loaded_pct, pages_pct, min_pct);
	else if (min_pct)
		ksft_test_result(loaded_pct >= min_pct && pages_pct >= min_pct,
				 "%d memory tasks: %.1f%% of the time all ran and %.1f%% of pages on the home node (>= %d%%; %.1f%% of all the time), %ld cross-node migrations, %llu ms (median of %d)\n",
				 nr, loaded_pct, pages_pct, min_pct, home_pct, m->migrations,
				 (unsigned long long)m->elapsed_ms, repeat);
	else
		ksft_test_result(m->samples > 0,
				 "%s: %d memory tasks: %.1f%% of the time all ran (%.1f%% of all) and %.1f%% of pages on %s, %ld cross-node migrations, %llu ms (median of %d)\n",
				 policy, nr, loaded_pct, home_pct, pages_pct,
				 where, m->migrations,
				 (unsigned long long)m->elapsed_ms, repeat);
}

/* Bind the memory of this task and its children to @node; -1: undo. */
static void numa_bind_memory(int node)
{
	unsigned long mask = node < 0 ? 0 : 1UL << node;

	if (syscall(SYS_set_mempolicy, node < 0 ? MPOL_DEFAULT : MPOL_BIND,
		    node < 0 ? NULL : &mask, node < 0 ? 0 : 8 * sizeof(mask)))
		ksft_exit_fail_msg("set_mempolicy: %s\n", strerror(errno));
}

/*
 * numa locality NR MB ROUNDS REPEAT [MIN_PCT [remote]]: NR memory-intensive
 * tasks (numa_test style), REPEAT times, under the active policy. With
 * "remote" the negative control: the tasks may run on node 1 only and
 * their memory is bound to node 0, so whatever home a policy picks, the
 * check must fail (the result says whether it did). o1, node-blind, once
 * served as the control, but kept 97% at home in one run: its flat
 * balancing leaves 2:1 queue splits alone, so where a task first touched
 * its memory is luck, not a property the check can rely on.
 */
static int numa_locality(int argc, char **argv)
{
	int nr = atoi(argv[0]), repeat = atoi(argv[3]), r;
	bool remote = argc > 5 && !strcmp(argv[5], "remote");
	struct numa_run runs[NUMA_MAX_RUNS];

	if (repeat < 1 || repeat > NUMA_MAX_RUNS)
		repeat = 3;
	if (remote) {
		pin_node(0, 1);
		numa_bind_memory(0);
	}
	for (r = 0; r < repeat; r++)
		numa_locality_run(nr, argv[1], argv[2], &runs[r], getenv("PLUGSCHED_VERBOSE"));
	if (remote) {
		numa_bind_memory(-1);
		unpin(0);
	}
	numa_report(active_policy(), nr, runs, repeat, argc > 4 ? atoi(argv[4]) : 0, remote);
	return 0;
}

/*
 * numa compare NR MB ROUNDS REPEAT POLICY...: the locality runs under
 * each policy in turn, switched to at run time, REPEAT rounds with the
 * order rotated each round: load on the host that comes and goes (the
 * guest is emulated) then weighs on every policy alike, not on whichever
 * ran while it lasted. Ends on the first policy.
 */
static int numa_compare(int argc, char **argv)
{
	static struct numa_run runs[NUMA_MAX_POLICIES][NUMA_MAX_RUNS];
	int nr = atoi(argv[0]), repeat = atoi(argv[3]), np = argc - 4, r, i;

	if (repeat < 1 || repeat > NUMA_MAX_RUNS)
		repeat = 3;
	for (r = 0; r < repeat; r++) {
		for (i = 0; i < np; i++) {
			const char *policy = argv[4 + (r + i) % np];

			if (switch_to(policy, NULL))
				ksft_exit_fail_msg("cannot switch to %s\n", policy);
			numa_locality_run(nr, argv[1], argv[2], &runs[(r + i) % np][r],
					  getenv("PLUGSCHED_VERBOSE"));
		}
	}
	/*
	 * The first policy against the second, round by round: a round runs
	 * them back to back, so host load that drifts over the minute (the
	 * other guest of make test) cancels out; the median of the ratios.
	 */
	if (np >= 2) {
		double ratio[NUMA_MAX_RUNS], t;
		int j;

		for (r = 0; r < repeat; r++)
			ratio[r] = runs[1][r].elapsed_ms ?
				   (double)runs[0][r].elapsed_ms / runs[1][r].elapsed_ms : 99;
		for (r = 1; r < repeat; r++)
			for (j = r; j > 0 && ratio[j - 1] > ratio[j]; j--) {
				t = ratio[j];
				ratio[j] = ratio[j - 1];
				ratio[j - 1] = t;
			}
		ksft_print_msg("numa-ratio policy=%s vs=%s median_ratio=%.3f range=%.3f..%.3f\n",
			       argv[4], argv[5], ratio[repeat / 2], ratio[0], ratio[repeat - 1]);
	}
	for (i = 0; i < np; i++)
		numa_report(argv[4 + i], nr, runs[i], repeat, 0, false);
	if (switch_to(argv[4], NULL))
		ksft_exit_fail_msg("cannot switch back to %s\n", argv[4]);
	return 0;
}

/*
 * A task asleep on CPU 0 whose affinity moves to the other node's CPUs
 * under o1 (no home nodes), then numa again: the task met numa at a switch
 * without waking, as a per-CPU kworker rebound after hotplug does, and
 * must be at home where it may run (CI once saw kworker/3:1H homed on
 * node 0, where it last ran while CPU 3 was offline). Returns its PID.
 */
static pid_t numa_moved_sleeper(const char *policy)
{
	cpu_set_t set;
	pid_t pid;
	int cpu;

	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		pin(0, 0);
		for (;;)
			pause();
	}
	usleep(200000);
	if (switch_to("o1", NULL))
		ksft_exit_fail_msg("cannot switch to o1\n");
	CPU_ZERO(&set);
	for (cpu = 0; cpu < nr_cpus(); cpu++)
		if (cpu_node(cpu) != cpu_node(0))
			CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
	if (switch_to(policy, NULL))
		ksft_exit_fail_msg("cannot switch back to %s\n", policy);
	return pid;
}

/*
 * numa homes: every task whose CPUs all lie in one node (per-CPU kernel
 * threads, pinned tasks, the sleeper above) is at home there, and each
 * node is home to some task: kernel threads (which never exec) and tasks
 * that met the policy at a run-time switch do not inherit node 0.
 */
static int numa_homes(void)
{
	FILE *f;
	int per_node[2] = { 0, 0 }, wrong = 0, seen = 0, cpu, last;
	char dir[160], path[200], buf[8192], who[256] = "", *s, policy[32];
	pid_t sleeper;

	snprintf(policy, sizeof(policy), "%s", active_policy());
	sleeper = numa_moved_sleeper(policy);
	last = task_cpu_of(sleeper);
	f = popen("ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null", "r");
	if (!f)
		ksft_exit_fail_msg("popen: %s\n", strerror(errno));
	while (fgets(dir, sizeof(dir), f)) {
		uint64_t allowed;
		int home, node = -1;

		dir[strcspn(dir, "\n")] = '\0';
		snprintf(path, sizeof(path), "%s/sched", dir);
		if (read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		s = strstr(buf, "numa.home_node");
		if (s)
			s = strchr(s, ':');
		if (!s)
			continue;
		home = atoi(s + 1);
		seen++;
		if (home >= 0 && home < 2)
			per_node[home]++;
		allowed = task_allowed(dir);
		for (cpu = 0; cpu < 4 && node != -2; cpu++) {
			if (!(allowed & (1ULL << cpu)))
				continue;
			if (node == -1)
				node = cpu_node(cpu);
			else if (node != cpu_node(cpu))
				node = -2;	/* spans both nodes */
		}
		if (node >= 0 && home != node) {
			wrong++;
			s = strchr(buf, ' ');
			if (s && strlen(who) + 20 < sizeof(who))
				snprintf(who + strlen(who), sizeof(who) - strlen(who), " %.*s",
					 (int)(s - buf < 16 ? s - buf : 16), buf);
		}
	}
	pclose(f);
	kill(sleeper, SIGKILL);
	reap(sleeper);
	ksft_test_result(seen > 10 && !wrong && per_node[0] && per_node[1],
			 "homes: %d tasks, %d/%d on node 0/1, %d bound to a node homed elsewhere%s (one moved to node %d asleep on CPU %d under o1)\n",
			 seen, per_node[0], per_node[1], wrong, who, !cpu_node(0), last);
	return 0;
}

/*
 * Automatic NUMA balancing, off unless a test turns it on (the test
 * kernels build it default off); on, it scans at once and every 100 ms to
 * 1 s, so that a few seconds of TCG show it.
 */
static void set_numa_balancing(int on)
{
	static const char *const knobs[][2] = {
		{ "scan_delay_ms", "0" }, { "scan_period_min_ms", "100" },
		{ "scan_period_max_ms", "1000" },
	};
	char path[128];
	size_t i;

	if (write_file("/proc/sys/kernel/numa_balancing", on ? "1" : "0", 1))
		ksft_exit_fail_msg("kernel.numa_balancing: not built in (CONFIG_NUMA_BALANCING)\n");
	for (i = 0; on && i < ARRAY_SIZE(knobs); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/numa_balancing/%s",
			 knobs[i][0]);
		if (write_file(path, knobs[i][1], strlen(knobs[i][1])))
			ksft_exit_fail_msg("cannot write %s\n", path);
	}
}

/* The part of @pid's anonymous pages on @node, in percent. */
static int numa_pct_on(pid_t pid, int node, long *total)
{
	long pages[16];
	int n;

	anon_pages_by_node(pid, pages);
	for (*total = 0, n = 0; n < 16; n++)
		*total += pages[n];
	return *total ? (int)(pages[node] * 100 / *total) : 0;
}

/*
 * numa follow SECS MIN_PCT: a task that wrote 32 MB on node 0 keeps
 * reading it; moved to node 1's CPUs, its pages stay on node 0 for 3 s with
 * automatic NUMA balancing off (the control: nothing else moves them), and
 * with it on MIN_PCT% of them are on node 1 within SECS, and the kernel's
 * preferred node for the task (numa_preferred_nid) is node 1, numa's home
 * node too. Under a plugged policy only the class's tick starts the scan
 * that makes the faults.
 */
static int numa_follow(int secs, int min_pct)
{
	const size_t size = 32 << 20;
	int fds[2], stay, moved = 0, ms = 0, first, i;
	long long nid = -1, home = -1;
	long total;
	pid_t pid;
	char c;

	if (pipe(fds))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	set_numa_balancing(0);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		char *buf;
		size_t i;

		pin_node(0, 0);
		buf = malloc(size);
		if (!buf)
			_exit(2);
		memset(buf, 1, size);
		if (write(fds[1], "r", 1) != 1)
			_exit(2);
		/* Reads make NUMA hinting faults as writes do. */
		for (;;) {
			for (i = 0; i < size; i += 4096)
				asm volatile("" : : "r"(buf[i]));
		}
	}
	if (read(fds[0], &c, 1) != 1)
		ksft_exit_fail_msg("the worker did not start\n");
	first = numa_pct_on(pid, 0, &total);
	pin_node(pid, 1);
	sleep(3);
	stay = numa_pct_on(pid, 0, &total);
	set_numa_balancing(1);
	while (ms < secs * 1000) {
		usleep(250000);
		ms += 250;
		moved = numa_pct_on(pid, 1, &total);
		if (moved >= min_pct)
			break;
	}
	/*
	 * The kernel's preferred node follows the faults (and numa's home it),
	 * set by task_numa_placement() at a hinting fault once the mm's scan
	 * sequence moved on. With the pages local the scan slows down from
	 * numa_balancing_scan_period_min_ms (1 s) on, so that may come
	 * seconds after the pages moved: up to 10 s are given.
	 */
	for (i = 0; i < 100; i++) {
		nid = sched_field(pid, "numa_preferred_nid");
		home = sched_field(pid, "numa.home_node");
		if (nid == 1 && (home == -1 || home == 1))
			break;
		usleep(100000);
	}
	set_numa_balancing(0);
	kill(pid, SIGKILL);
	reap(pid);
	ksft_test_result(first >= 90 && stay >= 90,
			 "NUMA balancing off: %d%% of %ld pages on node 0 after the write, %d%% 3 s after the move to node 1 (>= 90)\n",
			 first, total, stay);
	ksft_test_result(moved >= min_pct,
			 "NUMA balancing on under %s: %d%% of the pages on node 1 after %d ms (>= %d%% within %d s)\n",
			 active_policy(), moved, ms, min_pct, secs);
	/* home -1: no home nodes (only numa has them, /proc/PID/sched says). */
	ksft_test_result(nid == 1 && (home == -1 || home == nid),
			 "the kernel's preferred node %lld, the policy's home node %lld (1, or none), %d ms after the pages moved\n",
			 nid, home, i * 100);
	return 0;
}

static int test_numa(int argc, char **argv)
{
	if (argc < 1)
		ksft_exit_fail_msg("usage: numa TEST ARGS (plugsched_test -l)\n");
	if (nr_nodes() != 2 || nr_cpus() != 4)
		ksft_exit_skip("needs 4 CPUs in 2 nodes\n");
	if (!strcmp(argv[0], "compare") && argc >= 6 && argc <= 5 + NUMA_MAX_POLICIES &&
	    atoi(argv[1]) <= NUMA_MAX_TASKS) {
		ksft_set_plan(argc - 5);
		return numa_compare(argc - 1, argv + 1);
	}
	/* The plan after the re-exec on node 0: the new image prints its own. */
	if (!strcmp(argv[0], "exec") && argc == 2) {
		numa_start_on_node0(argc, argv);
		ksft_set_plan(1);
		return numa_exec(atoi(argv[1]) > NUMA_MAX_TASKS ? NUMA_MAX_TASKS : atoi(argv[1]));
	}
	if (!strcmp(argv[0], "imbalance") && argc == 3) {
		numa_start_on_node0(argc, argv);
		ksft_set_plan(1);
		return numa_imbalance(atoi(argv[1]) > MAX_HOGS ? MAX_HOGS : atoi(argv[1]),
				      atoi(argv[2]));
	}
	if (!strcmp(argv[0], "follow") && argc == 3) {
		ksft_set_plan(3);
		return numa_follow(atoi(argv[1]), atoi(argv[2]));
	}
	ksft_set_plan(1);
	if (!strcmp(argv[0], "locality") && argc >= 5 && argc <= 7 &&
	    atoi(argv[1]) <= NUMA_MAX_TASKS)
		return numa_locality(argc - 1, argv + 1);
	if (!strcmp(argv[0], "homes") && argc == 1)
		return numa_homes();
	ksft_exit_fail_msg("bad arguments\n");
	return 1;
}

PLUGSCHED_TEST("numa", test_numa,
	       "exec NR | imbalance NR MAX_MS | locality NR MB ROUNDS REPEAT [MIN_PCT [remote]] | compare NR MB ROUNDS REPEAT POLICY... | homes | follow SECS MIN_PCT",
	       "placement on 2 nodes: exec, imbalance, locality, policies compared, homes, pages following a task");
PLUGSCHED_TEST("spin", test_spin, "[MS]",
	       "exec target: burn MS of CPU time");
PLUGSCHED_TEST("memwork", test_memwork, "[MB [ROUNDS]]",
	       "exec target: rescan a buffer ROUNDS times, then stop itself");
