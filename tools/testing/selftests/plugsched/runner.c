// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched selftests: behaviour checks of the active CPU scheduler policy,
 * run inside a booted kernel. Every check asserts on a measured value and
 * prints one TAP line with the figures it measured.
 *
 *   plugsched_test                   the active policy's default suite
 *   plugsched_test TEST [ARGS...]    one test (as the host scripts run it)
 *   plugsched_test -t TEST [ARGS...] the same; without ARGS, each run of
 *                                    TEST in the active policy's suite, or
 *                                    TEST alone if it needs no ARGS
 *   plugsched_test -l                every test: name, ARGS ([] optional),
 *                                    what it checks
 *
 * One test prints the kselftest header, "# plugsched_test TEST", its plan,
 * its results and the totals, and exits with the kselftest status: 0 pass,
 * 1 fail, 4 skip (2: no such test). A suite (suites.c: the policy's boot
 * in make test, with the bounds of its design; the active policy is
 * eevdf without /sys/kernel/plugsched) runs each of its tests in a child
 * of its own, forked, not exec'd (the test runs as plugsched_test), whose
 * output is that of the single test, followed by "# t-end" and its time
 * in seconds; a child killed or exiting otherwise gets a "not ok" line of
 * its own. The suite
 * ends with "# suite POLICY: N tests, N failed" and exits 1 on a failure.
 * A policy without a suite of its own runs the generic one ("*").
 *
 * Each behaviour has a file (names_knobs.c, fairness.c, latency.c, ...)
 * whose tests register themselves with PLUGSCHED_TEST(); the helpers they
 * share are in plugsched_lib.c. The kernel needs the options in config;
 * make test builds the program into its initramfs (initramfs.sh), or:
 * make -C tools/testing/selftests TARGETS=plugsched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugsched.h"

#define MAX_TESTS	64
#define MAX_ARGS	64

static const struct plugsched_test *tests[MAX_TESTS];
static int nr_tests;

static const struct plugsched_test *find_test(const char *name)
{
	int i;

	for (i = 0; i < nr_tests; i++)
		if (!strcmp(tests[i]->name, name))
			return tests[i];
	return NULL;
}

void plugsched_register(const struct plugsched_test *test)
{
	if (nr_tests == MAX_TESTS || find_test(test->name)) {
		fprintf(stderr, "cannot register test %s\n", test->name);
		exit(2);
	}
	tests[nr_tests++] = test;
}

/* A test needs arguments unless its usage has none or only optional ones. */
static bool needs_args(const struct plugsched_test *t)
{
	return t->usage[0] && t->usage[0] != '[';
}

/* Run @t with the arguments after its name; exits with the test's status. */
static __noreturn void run_test(const struct plugsched_test *t, int argc, char **argv)
{
	hogs = shared(sizeof(struct hog) * MAX_HOGS);
	ksft_print_header();
	ksft_print_msg("plugsched_test %s\n", t->name);
	t->fn(argc, argv);
	ksft_finished();
}

static int cmp_test(const void *a, const void *b)
{
	const struct plugsched_test *x = *(const struct plugsched_test **)a;
	const struct plugsched_test *y = *(const struct plugsched_test **)b;

	return strcmp(x->name, y->name);
}

static void list_tests(void)
{
	int i;

	qsort(tests, nr_tests, sizeof(tests[0]), cmp_test);
	for (i = 0; i < nr_tests; i++)
		printf("%-11s %-36s %s\n", tests[i]->name, tests[i]->usage, tests[i]->desc);
}

static void print_usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [-l | -t TEST [ARGS...] | TEST [ARGS...]]\n", prog);
}

struct tally {
	int tests, failed, skipped;
};

/* Split @cmd at its spaces into @argv, NULL-terminated; the word count. */
static int split_cmd(char *cmd, char **argv, int max)
{
	int n = 0;
	char *tok;

	for (tok = strtok(cmd, " "); tok && n < max - 1; tok = strtok(NULL, " "))
		argv[n++] = tok;
	argv[n] = NULL;
	return n;
}

/*
 * Set /proc/sys/kernel/NAME as @knob ("NAME=VALUE") says, its old value
 * into @old for knob_restore(); 0 or -errno.
 */
static int knob_apply(const char *knob, char *path, size_t size, char *old, size_t old_size)
{
	const char *val = strchr(knob, '=');
	int err;

	if (!val)
		return -EINVAL;
	snprintf(path, size, "/proc/sys/kernel/%.*s", (int)(val - knob), knob);
	err = read_file(path, old, old_size);
	if (err < 0)
		return err;
	val++;
	return write_file(path, val, strlen(val));
}

/* Run one entry of a suite in a child; count it in @n. */
static void run_entry(const struct plugsched_suite_entry *e, struct tally *n)
{
	char cmd[512], *argv[MAX_ARGS], path[128], old[64];
	uint64_t t0 = now_ns(CLOCK_MONOTONIC);
	bool failed = false;
	int argc, status, err;
	pid_t pid;

	n->tests++;
	if (e->knob) {
		err = knob_apply(e->knob, path, sizeof(path), old, sizeof(old));
		if (err) {
			printf("not ok 1 %s: cannot set %s: %s\n", e->cmd, e->knob, strerror(-err));
			n->failed++;
			return;
		}
		printf("# %s for %s\n", e->knob, e->cmd);
	}
	snprintf(cmd, sizeof(cmd), "%s", e->cmd);
	argc = split_cmd(cmd, argv, MAX_ARGS);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		const struct plugsched_test *t = argc ? find_test(argv[0]) : NULL;

		if (!t) {
			fprintf(stderr, "unknown test %s\n", argc ? argv[0] : "");
			exit(2);
		}
		run_test(t, argc - 1, argv + 1);
	}
	if (pid < 0) {
		printf("not ok 1 %s: fork: %s\n", e->cmd, strerror(errno));
		failed = true;
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		/* The end of the test's output, and how long it took. */
		printf("# t-end %.1f s\n", (now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
		if (WIFSIGNALED(status)) {
			printf("not ok 1 %s: killed by signal %d\n", e->cmd, WTERMSIG(status));
			failed = true;
		} else if (WEXITSTATUS(status) == KSFT_SKIP) {
			n->skipped++;
		} else if (WEXITSTATUS(status) == KSFT_FAIL) {
			failed = true;
		} else if (WEXITSTATUS(status) != KSFT_PASS) {
			printf("not ok 1 %s: exited with status %d\n", e->cmd,
			       WEXITSTATUS(status));
			failed = true;
		}
	}
	if (e->knob) {
		err = write_file(path, old, strlen(old));
		if (err) {
			old[strcspn(old, "\n")] = '\0';
			printf("not ok 1 %s: cannot restore %.*s to %s: %s\n", e->cmd,
			       (int)strcspn(e->knob, "="), e->knob, old, strerror(-err));
			failed = true;
		}
	}
	n->failed += failed;
}

static const struct plugsched_suite *find_suite(const char *policy)
{
	size_t i;

	for (i = 0; i < plugsched_nr_suites; i++)
		if (!strcmp(plugsched_suites[i].policy, policy))
			return &plugsched_suites[i];
	/* A policy without a suite of its own gets the generic one. */
	for (i = 0; i < plugsched_nr_suites; i++)
		if (!strcmp(plugsched_suites[i].policy, "*"))
			return &plugsched_suites[i];
	return NULL;
}

/* Whether the first word of @cmd is @name. */
static bool runs_test(const char *cmd, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(cmd, name, len) && (cmd[len] == ' ' || !cmd[len]);
}

/*
 * The active policy's suite, or with @only the runs of that test in it
 * (the test without arguments if there are none and it needs none).
 */
static int run_suite(const struct plugsched_test *only)
{
	const struct plugsched_suite *suite;
	struct tally n = { 0 };
	char policy[64];
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	read_line(PS_SYSFS "active", policy, sizeof(policy));
	if (!policy[0])
		snprintf(policy, sizeof(policy), "eevdf");
	suite = find_suite(policy);
	if (!suite && !only) {
		printf("# no suite for %s\n", policy);
		return KSFT_SKIP;
	}
	for (i = 0; suite && i < suite->nr; i++)
		if (!only || runs_test(suite->entries[i].cmd, only->name))
			run_entry(&suite->entries[i], &n);
	if (!only) {
		printf("# suite %s: %d tests, %d failed\n", policy, n.tests, n.failed);
		return n.failed ? KSFT_FAIL : KSFT_PASS;
	}
	if (!n.tests) {
		const struct plugsched_suite_entry bare = { NULL, only->name };

		if (needs_args(only)) {
			printf("# SKIP %s: no thresholds for %s\n", only->name, policy);
			return KSFT_SKIP;
		}
		run_entry(&bare, &n);
	}
	printf("# %s under %s: %d tests, %d failed, %d skipped\n", only->name, policy,
	       n.tests, n.failed, n.skipped);
	return n.failed ? KSFT_FAIL : n.skipped == n.tests ? KSFT_SKIP : KSFT_PASS;
}

int main(int argc, char **argv)
{
	const struct plugsched_test *t;
	bool dash_t = false;

	if (argc < 2)
		return run_suite(NULL);
	if (!strcmp(argv[1], "-l")) {
		list_tests();
		return 0;
	}
	if (!strcmp(argv[1], "-h")) {
		print_usage(stdout, argv[0]);
		return 0;
	}
	if (!strcmp(argv[1], "-t")) {
		if (argc < 3) {
			print_usage(stderr, argv[0]);
			return 2;
		}
		dash_t = true;
		argv++;
		argc--;
	} else if (argv[1][0] == '-') {
		print_usage(stderr, argv[0]);
		return 2;
	}
	t = find_test(argv[1]);
	if (!t) {
		fprintf(stderr, "unknown test %s\n", argv[1]);
		return 2;
	}
	if (dash_t && argc == 2)
		return run_suite(t);
	run_test(t, argc - 2, argv + 2);
}
