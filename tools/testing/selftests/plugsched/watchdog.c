// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog and SysRq-P: a task the policy never picks (sched=starve),
 * or the operator, sends every task back to mainline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugsched.h"

/* Tasks still shown in the plug class by /proc/PID/task/TID/sched. */
static int plugged_tasks(void)
{
	static const char cmd[] =
		"grep -l plugsched.policy /proc/[0-9]*/task/[0-9]*/sched 2>/dev/null | wc -l";
	FILE *f = popen(cmd, "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

/*
 * stall WATCHDOG_MS (sched=starve): a task the policy never picks makes the
 * watchdog move every task back to mainline; the task then finishes.
 */
static int test_stall(int argc, char **argv)
{
	int wd_ms = argc ? atoi(argv[0]) : 2000, status = -1, ticks;
	uint64_t t0, waited_ms = 0;
	char buf[256], want[64], pid_s[16], old_wd[32];
	int *beats = shared(sizeof(int));
	pid_t victim, bystander;

	read_line(PS_SYSFS "active", buf, sizeof(buf));
	if (strcmp(buf, "starve"))
		ksft_exit_skip("needs sched=starve, running %s\n", buf);
	ksft_set_plan(7);
	read_line("/proc/sys/kernel/plugsched_watchdog_ms", old_wd, sizeof(old_wd));
	snprintf(buf, sizeof(buf), "%d", wd_ms);
	if (write_file("/proc/sys/kernel/plugsched_watchdog_ms", buf, strlen(buf)))
		ksft_exit_fail_msg("cannot set plugsched_watchdog_ms\n");

	bystander = fork();
	if (bystander == 0) {
		for (;;) {
			usleep(10000);
			__atomic_add_fetch(beats, 1, __ATOMIC_RELAXED);
		}
	}
	victim = fork();
	if (victim == 0) {
		burn_cpu(300);
		_exit(0);
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	snprintf(pid_s, sizeof(pid_s), "%d", victim);
	if (write_file("/proc/sys/kernel/starve_pid", pid_s, strlen(pid_s)))
		ksft_exit_fail_msg("cannot set starve_pid\n");

	/* Up to the limit plus 10 s for the watchdog and the victim. */
	for (ticks = 0; ticks < (wd_ms + 10000) / 10; ticks++) {
		if (waitpid(victim, &status, WNOHANG) == victim) {
			waited_ms = (now_ns(CLOCK_MONOTONIC) - t0) / MSEC;
			break;
		}
		usleep(10000);
	}
	kill(bystander, SIGKILL);
	reap(bystander);
	write_file("/proc/sys/kernel/plugsched_watchdog_ms", old_wd, strlen(old_wd));

	ksft_test_result(waited_ms && WIFEXITED(status) && !WEXITSTATUS(status),
			 "starved task finished after %llu ms\n",
			 (unsigned long long)waited_ms);
	ksft_test_result(waited_ms >= wd_ms * 9 / 10 && waited_ms < wd_ms + 5000,
			 "it was starved for the watchdog limit: %llu ms, limit %d ms\n",
			 (unsigned long long)waited_ms, wd_ms);
	ksft_test_result(__atomic_load_n(beats, __ATOMIC_RELAXED) >= wd_ms / 20,
			 "the machine kept running: a sleeper woke %d times meanwhile\n",
			 __atomic_load_n(beats, __ATOMIC_RELAXED));
	read_line(PS_SYSFS "state", buf, sizeof(buf));
	snprintf(want, sizeof(want), "fallback (starve: watchdog: plugsched_test/%d ", victim);
	ksft_test_result(!strncmp(buf, want, strlen(want)), "state: \"%s\"\n", buf);
	read_line(PS_SYSFS "active", buf, sizeof(buf));
	ksft_test_result(!strcmp(buf, "eevdf"), "active is \"%s\" after the fall back\n", buf);
	ksft_test_result(plugged_tasks() == 0, "no task left in the plug class (%d)\n",
			 plugged_tasks());
	/* The policy's knobs went with it. */
	ksft_test_result(access("/proc/sys/kernel/starve_pid", F_OK) && errno == ENOENT,
			 "starve_pid is gone from /proc/sys/kernel\n");
	return 0;
}

/*
 * sysrq: SysRq-P ejects the active policy like the watchdog does; writing
 * its name to active brings it back.
 */
static int test_sysrq(int argc, char **argv)
{
	char policy[64], buf[256], want[96];
	int i;

	read_line(PS_SYSFS "active", policy, sizeof(policy));
	if (!strcmp(policy, "eevdf"))
		ksft_exit_skip("needs a plugsched policy\n");
	ksft_set_plan(4);
	if (write_file("/proc/sysrq-trigger", "P", 1))
		ksft_exit_fail_msg("cannot write /proc/sysrq-trigger\n");
	snprintf(want, sizeof(want), "fallback (%s: sysrq)", policy);
	for (i = 0; i < 500; i++) {
		read_line(PS_SYSFS "state", buf, sizeof(buf));
		if (!strcmp(buf, want))
			break;
		usleep(10000);
	}
	ksft_test_result(!strcmp(buf, want), "SysRq-P: state \"%s\" after %d ms\n", buf, i * 10);
	read_line(PS_SYSFS "active", buf, sizeof(buf));
	ksft_test_result(!strcmp(buf, "eevdf") && plugged_tasks() == 0,
			 "active is \"%s\", %d tasks left in the plug class\n", buf,
			 plugged_tasks());
	ksft_test_result(!switch_to(policy, NULL), "switching back to %s works\n", policy);
	read_line(PS_SYSFS "state", buf, sizeof(buf));
	ksft_test_result(!strcmp(buf, "enabled"), "state \"%s\" again\n", buf);
	return 0;
}

PLUGSCHED_TEST("stall", test_stall, "[WATCHDOG_MS]",
	       "sched=starve: the watchdog hands a starved task back to mainline");
PLUGSCHED_TEST("sysrq", test_sysrq, "",
	       "SysRq-P ejects the policy; writing its name to active brings it back");
