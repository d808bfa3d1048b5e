/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugsched selftests: the registry of tests (runner.c), the policies'
 * default suites (suites.c) and the helpers the tests share
 * (plugsched_lib.c).
 */
#ifndef PLUGSCHED_H
#define PLUGSCHED_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/*
 * kselftest.h counts results in static variables, a set in every object
 * file that includes it: here each file's ksft_cnt and ksft_plan stand for
 * the one set in plugsched_lib.c, so that a test's results, a helper's
 * "Bail out!" and the totals of ksft_finished() all count the same.
 */
#define ksft_cnt	(*plugsched_ksft_cnt)
#define ksft_plan	(*plugsched_ksft_plan)
#include "../kselftest.h"

extern struct ksft_count plugsched_ksft_counts;
extern unsigned int plugsched_ksft_planned;
static struct ksft_count *plugsched_ksft_cnt = &plugsched_ksft_counts;
static unsigned int *plugsched_ksft_plan = &plugsched_ksft_planned;

/**
 * struct plugsched_test - a test of the registry
 * @name:  the name it is run by: plugsched_test NAME [ARGS...]
 * @fn:    the test, given the arguments after the name; it plans and
 *         prints TAP lines with kselftest.h, the runner prints the totals
 * @usage: its arguments, "" for none, optional ones in []
 * @desc:  what it checks, in a line
 */
struct plugsched_test {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *desc;
};

/* Add @test to the registry (from the constructor of PLUGSCHED_TEST()). */
void plugsched_register(const struct plugsched_test *test);

/*
 * PLUGSCHED_TEST(name, fn, usage, desc); registers @fn as the test @name
 * before main() runs: one file per behaviour, no central list.
 */
#define PLUGSCHED_TEST(__name, __fn, __usage, __desc)			\
	static const struct plugsched_test __fn##_entry;		\
	__attribute__((constructor)) static void __fn##_register(void)	\
	{								\
		plugsched_register(&__fn##_entry);			\
	}								\
	static const struct plugsched_test __fn##_entry = {		\
		.name = __name,						\
		.fn = __fn,						\
		.usage = __usage,					\
		.desc = __desc,						\
	}

/**
 * struct plugsched_suite_entry - one run of a policy's default suite
 * @knob: "NAME=VALUE" written to /proc/sys/kernel/NAME for the run and
 *        restored after it, or NULL
 * @cmd:  the test and its arguments, as after plugsched_test
 */
struct plugsched_suite_entry {
	const char *knob;
	const char *cmd;
};

/**
 * struct plugsched_suite - the default suite of a policy
 * @policy:  the name /sys/kernel/plugsched/active shows
 * @entries: its runs, in order
 * @nr:      how many
 */
struct plugsched_suite {
	const char *policy;
	const struct plugsched_suite_entry *entries;
	size_t nr;
};

extern const struct plugsched_suite plugsched_suites[];
extern const size_t plugsched_nr_suites;

#define MAX_HOGS	32
#define NSEC		1000000000ULL
#define MSEC		1000000ULL

#define PS_SYSFS	"/sys/kernel/plugsched/"

struct hog {
	uint64_t cpu_ns;	/* CPU time used inside the window */
	uint64_t max_gap_ns;	/* longest time off the CPU inside the window */
	uint64_t switches;	/* gaps longer than 200 us */
	uint64_t nvcsw;		/* involuntary context switches in the window */
	uint64_t finish_ns;	/* timeline: when the work was done */
	uint64_t edge_gap_ns;	/* off the CPU from the start, or until the end */
	uint64_t frozen_ns;	/* timeline: charged stretches it did not run (see gap_log) */
	int last_cpu;
};

/* MAX_HOGS hogs' figures, shared with the hogs (set up before each test). */
extern struct hog *hogs;

/*
 * Off-CPU stretches of hogs, when a test asks for them (gap_log set): a
 * stretch the hog's own CPU time grew through was no wait but its vCPU
 * held by the host while the guest had the hog running (TCG charges that
 * time to whatever runs); such freezes are logged apart, so that the
 * waits of the other hogs can be told without them.
 */
#define GAP_LOG_MAX	4096
struct gap {
	uint64_t from, to;
	int hog;
};

struct gap_log {
	int nr_waits, nr_freezes;
	struct gap waits[GAP_LOG_MAX], freezes[GAP_LOG_MAX];
};

extern struct gap_log *gap_log;
/* The longest wait of hog @idx, freezes of the guest taken out (ns). */
uint64_t gap_log_max_wait(int idx, uint64_t *frozen);

/* Wakeup latencies (ns) of a periodic task, see periodic(). */
struct lat_result {
	int n;
	uint64_t lat[4096];
};

/* The design bounds of a policy, see policy_bounds in plugsched_lib.c. */
struct policy_bounds {
	const char *policy;
	double batch_share;
};

/* struct sched_attr, SCHED_ATTR_SIZE_VER1 (56 bytes). */
struct ps_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

/* Time */

/* The time of clock @clk in ns. */
uint64_t now_ns(clockid_t clk);
/* Burn @ms of CPU time. */
void burn_cpu(int ms);

/* CPUs and tasks */

/* fork(), or the test fails: the child gets 0, the caller its pid. */
pid_t fork_or_fail(void);

/* The number of online CPUs. */
int nr_cpus(void);
/* Pin @pid (0: this task) to @cpu, or fail the test. */
void pin(pid_t pid, int cpu);
/* Let @pid run on every CPU again. */
void unpin(pid_t pid);
/* Wait for @pid: its exit status, 128 + the signal that killed it, or -1. */
int reap(pid_t pid);
/* The CPU a task last ran on, from @dir/stat (/proc/PID[/task/TID]). */
int task_last_cpu(const char *dir);
/* The CPU @pid last ran on. */
int task_cpu_of(pid_t pid);
/* Cpus_allowed of the task of @dir, the first 64 CPUs as a mask. */
uint64_t task_allowed(const char *dir);
/* A number from /proc/@pid/sched ("name : value"), or -1. */
long long sched_field(pid_t pid, const char *name);

/* Hogs */

/* @size bytes of zeroed memory shared with the children forked after. */
void *shared(size_t size);
/* Spin from @start to @end (CLOCK_MONOTONIC ns), measuring into @h. */
void hog_body(struct hog *h, uint64_t start, uint64_t end);
/* Fork hogs[@idx] on @cpu (-1: any) at @nice for the window given. */
pid_t spawn_hog(int idx, int cpu, int nice, uint64_t start, uint64_t end);
/* @n hogs for @ms, after @warm_ms, on CPUs 0..@ncpu-1 if @pinned. */
void run_hogs_warm(int n, int ncpu, const int *nice, int ms, int pinned, int warm_ms);
/* run_hogs_warm() without the warm up. */
void run_hogs(int n, int ncpu, const int *nice, int ms, int pinned);
/* A periodic task on @cpu under @policy; its latencies after @warm_ms. */
int periodic(int cpu, int policy, int run_us, int period_us, int warm_ms,
	     int ms, uint64_t *lat, int max);
/* The @pc percentile of the sorted latencies of @r (~0 if none). */
uint64_t pct(const struct lat_result *r, int pc);
/* qsort() order of uint64_t. */
int cmp_u64(const void *a, const void *b);

/* Files, knobs and the policy */

/* Read @path into @buf, NUL-terminated: the length, or -errno. */
int read_file(const char *path, char *buf, size_t size);
/* Write @val to @path in one write(): 0 or -errno. */
int write_file(const char *path, const char *val, size_t len);
/* The first line of @path into @buf, "" if unreadable. */
void read_line(const char *path, char *buf, size_t size);
/* The number in @path, or -1. */
long read_long(const char *path);
/* The value of /proc/sys/kernel/@name, or fail the test. */
int knob_int(const char *name);
/* Set /proc/sys/kernel/@name to @val, or fail the test. */
void set_knob(const char *name, int val);
/* Relief off around a design-bound check; resume: reliefs given meanwhile. */
long nr_plug_reliefs(void);
/* The number after KEY on its line of a "KEY VALUE" file, -1 if none. */
long long file_key(const char *path, const char *key);
int relief_suspend(void);
long relief_resume(int old);
/* The name of the active policy, "unknown" without plugsched. */
const char *active_policy(void);
/* The active policy's bounds (the first row's for one without a row). */
const struct policy_bounds *bounds(void);
/* Make @name the active policy: 0 or -errno, and the time it took in @ns. */
int switch_to(const char *name, uint64_t *ns);

#endif /* PLUGSCHED_H */
