// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel reports and takes: the names of the running policy, and
 * the policy's knobs in /proc/sys/kernel (defaults, bounds, bad writes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugsched.h"

/*
 * names [ACTIVE]: sysfs and /proc/scheduler report the running policy
 * (without ACTIVE: whatever sysfs says, checked against the rest).
 */
static int test_names(int argc, char **argv)
{
	char buf[256], active[64];
	const char *want = active;

	if (argc < 1)
		read_line("/sys/kernel/plugsched/active", active, sizeof(active));
	else
		want = argv[0];
	ksft_set_plan(3);

	read_file("/sys/kernel/plugsched/active", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strcmp(buf, want), "active is \"%s\" (want \"%s\")\n",
			 buf, want);

	read_file("/proc/scheduler", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strcmp(buf, want), "/proc/scheduler is \"%s\"\n", buf);

	read_file("/sys/kernel/plugsched/available", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	ksft_test_result(!strncmp(buf, "eevdf ", 6) && strstr(buf, want),
			 "available \"%s\" lists eevdf and %s\n", buf, want);
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
/*
 * The knobs /sys/kernel/plugsched/knobs declares, as specs: one line a
 * knob, "NAME VALUE MIN..MAX DEFAULT UNIT" (a choice knob has its choices
 * in place of MIN..MAX, and is left out).
 */
static int knobs_declared(char ***specs)
{
	static char buf[4096], *list[64];
	char *line, *save = NULL;
	int n = 0;

	if (read_file("/sys/kernel/plugsched/knobs", buf, sizeof(buf)) <= 0)
		ksft_exit_fail_msg("cannot read /sys/kernel/plugsched/knobs\n");
	for (line = strtok_r(buf, "\n", &save); line && n < 64;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64], val[32], zero[4] = "";
		long min, max, def;

		/* "0|MIN..MAX": 0 (off) as well as the range. */
		if (sscanf(line, "%63s %31s %3[0|]%ld..%ld %ld", name, val, zero, &min, &max,
			   &def) != 6 || strcmp(zero, "0|")) {
			zero[0] = '\0';
			if (sscanf(line, "%63s %31s %ld..%ld %ld", name, val, &min, &max,
				   &def) != 5)
				continue;
		}
		if (asprintf(&list[n], "%s:%ld:%s%ld:%ld", name, def, zero, min, max) < 0)
			ksft_exit_fail_msg("out of memory\n");
		ksft_print_msg("declared: %s\n", list[n]);
		n++;
	}
	*specs = list;
	return n;
}

static int test_knobs(int argc, char **argv)
{
	static const char * const junk[] = {
		"abc", "", " ", "\n", "1 2", "12abc", "0x10", "--1",
		"18446744073709551616", "99999999999999999999999", "1.5",
	};
	int i, j, plan = 0;

	static const char * const edges[] = {
		"0", "-0", "+1", "-1", "2147483647", "2147483648", "-2147483648",
		"-2147483649", "4294967296", "9223372036854775807",
		"-9223372036854775808", "0000000042",
	};

	/* Without specs: every number knob the kernel declares, as declared. */
	if (!argc)
		argc = knobs_declared(&argv);
	for (i = 0; i < argc; i++)
		plan += argv[i][0] == '-' ? 1 : 4;
	ksft_set_plan(plan);

	for (i = 0; i < argc; i++) {
		char path[128], val[64], zero[4] = "";
		long def, min, max, v;
		bool ok, all = true, off;
		int err;

		if (argv[i][0] == '-') {
			snprintf(path, sizeof(path), "/proc/sys/kernel/%s", argv[i] + 1);
			ksft_test_result(access(path, F_OK) != 0,
					 "%s absent while another policy is active\n",
					 argv[i] + 1);
			continue;
		}
		/* NAME:DEF:[0|]MIN:MAX, "0|": 0 (off) is taken too. */
		if (sscanf(argv[i], "%63[^:]:%ld:%3[0|]%ld:%ld", val, &def, zero, &min,
			   &max) != 5 || strcmp(zero, "0|")) {
			zero[0] = '\0';
			if (sscanf(argv[i], "%63[^:]:%ld:%ld:%ld", val, &def, &min, &max) != 4)
				ksft_exit_fail_msg("bad knob spec %s\n", argv[i]);
		}
		off = zero[0];
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

		/* Numbers at the edges of int: taken exactly when in range. */
		all = true;
		for (j = 0; j < (int)ARRAY_SIZE(edges); j++) {
			long keep = (min + max) / 2;
			long long want;
			bool valid;

			errno = 0;
			want = strtoll(edges[j], NULL, 10);
			valid = errno != ERANGE && ((want >= min && want <= max) || (off && !want));
			err = write_file(path, edges[j], strlen(edges[j]));
			v = knob_read(path, &ok);
			if (valid ? err || v != want : err != -EINVAL || v != keep) {
				ksft_print_msg("%s: write \"%s\": err %d, reads %ld (%s)\n",
					       path, edges[j], err, v,
					       valid ? "valid" : "out of range");
				all = false;
			}
			snprintf(val, sizeof(val), "%ld", keep);
			write_file(path, val, strlen(val));
		}
		ksft_test_result(all, "%s takes int edge values only within %s%ld..%ld\n",
				 path, zero, min, max);

		snprintf(val, sizeof(val), "%ld", def);
		write_file(path, val, strlen(val));
	}
	return 0;
}

PLUGSCHED_TEST("names", test_names, "[ACTIVE]",
	       "sysfs and /proc/scheduler report the running policy");
PLUGSCHED_TEST("knobs", test_knobs, "[NAME:DEF:MIN:MAX ... -NAME ...]",
	       "knobs (without specs: as /sys/kernel/plugsched/knobs declares them): defaults, bounds, bad writes refused (EINVAL); each -NAME absent");
