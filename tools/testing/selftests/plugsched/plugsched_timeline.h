/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ideal fair timeline of jobs started together, shared by the
 * selftest's timeline check and make bench's fairness table.
 */
#ifndef PLUGSCHED_TIMELINE_H
#define PLUGSCHED_TIMELINE_H

#define PLUGSCHED_TIMELINE_MAX	32

/**
 * plugsched_fair_timeline() - finish times under ideal processor sharing
 * @n:     number of jobs (at most PLUGSCHED_TIMELINE_MAX)
 * @ncpu:  CPUs they share
 * @work:  CPU time each job needs
 * @ideal: out: when each job finishes, in the unit of @work
 *
 * The k jobs left share the CPUs equally, each getting min(1, @ncpu / k)
 * of a CPU; the shortest job finishes first.
 */
static inline void plugsched_fair_timeline(int n, int ncpu, const double *work,
					   double *ideal)
{
	int order[PLUGSCHED_TIMELINE_MAX], i, j;
	double t = 0, done = 0;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && work[order[j]] < work[order[j - 1]]; j--) {
			int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (i = 0; i < n; i++) {
		int left = n - i;
		double share = left > ncpu ? (double)ncpu / left : 1.0;

		t += (work[order[i]] - done) / share;
		done = work[order[i]];
		ideal[order[i]] = t;
	}
}

#endif /* PLUGSCHED_TIMELINE_H */
