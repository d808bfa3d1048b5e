// SPDX-License-Identifier: GPL-2.0
/*
 * isolcpus: only tasks bound to an isolated CPU run there.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugsched.h"

/*
 * Tasks found on @cpu whose affinity allows other CPUs too; their names
 * are added to @who.
 */
static int isolated_offenders(int cpu, char *who, size_t size)
{
	FILE *f = popen("ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null", "r");
	char dir[160], comm[64], path[200];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(dir, sizeof(dir), f)) {
		uint64_t allowed;

		dir[strcspn(dir, "\n")] = '\0';
		if (task_last_cpu(dir) != cpu)
			continue;
		allowed = task_allowed(dir);
		if (!allowed || allowed == 1ULL << cpu)
			continue;
		snprintf(path, sizeof(path), "%s/comm", dir);
		if (read_file(path, comm, sizeof(comm)) <= 0)
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if (!strstr(who, comm) && strlen(who) + strlen(comm) + 2 < size) {
			strcat(who, " ");
			strcat(who, comm);
		}
		n++;
	}
	pclose(f);
	return n;
}

/*
 * isolated CPU SECS: with isolcpus=CPU, under load (hogs, forks, wakeups
 * of kernel threads) for SECS, no task whose affinity allows another CPU
 * ever shows CPU as the CPU it ran on; only tasks bound to it run there.
 */
static int test_isolated(int argc, char **argv)
{
	int cpu = argc ? atoi(argv[0]) : 1, secs = argc > 1 ? atoi(argv[1]) : 3;
	uint64_t start = now_ns(CLOCK_MONOTONIC) + 100 * MSEC, end = start + secs * NSEC;
	int i, found = 0, samples = 0, before;
	char who[512] = "";
	pid_t pids[4], forker;

	ksft_set_plan(1);
	before = isolated_offenders(cpu, who, sizeof(who));
	for (i = 0; i < 4; i++)
		pids[i] = spawn_hog(i, -1, 0, start, end);
	forker = fork();
	if (forker == 0) {
		while (now_ns(CLOCK_MONOTONIC) < end) {
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			if (p > 0)
				waitpid(p, NULL, 0);
			usleep(2000);
		}
		_exit(0);
	}
	while (now_ns(CLOCK_MONOTONIC) < end) {
		int n = isolated_offenders(cpu, who, sizeof(who));

		if (n > 0)
			found += n;
		samples++;
		usleep(100000);
	}
	for (i = 0; i < 4; i++)
		reap(pids[i]);
	reap(forker);
	ksft_test_result(before == 0 && found == 0,
			 "isolcpus=%d: no task free to run elsewhere ran on CPU %d (%d before, %d in %d samples:%s)\n",
			 cpu, cpu, before, found, samples, who);
	return 0;
}

PLUGSCHED_TEST("isolated", test_isolated, "[CPU [SECS]]",
	       "with isolcpus=CPU no task free to run elsewhere runs on CPU");
