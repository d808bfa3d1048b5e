#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: read results/<date>/logs/<boot>.log and pairs.txt
(ROUND POLICY EEVDF-BOOT BOOT LAYOUT a line), write raw.csv (every figure
of every run), print the tables and plot with gnuplot when it is there.
A policy's figure is the median [min..max] of its runs; its ratio to
eevdf is the median over its pairs of the ratio of the two boots' medians
(in a pair the policy's boot follows eevdf's, in the same layout). A
layout other than the first pair's shows its eevdf row apart (eevdf/4x2).
Exit status 1 when a boot produced no figures.

usage: bench_report.py RESULTS_DIR POLICY...
"""
import os
import re
import shutil
import statistics
import subprocess
import sys

res, pols_arg = sys.argv[1], sys.argv[2:]
pairs = []     # (round, policy, eevdf boot, policy boot, layout)
for line in open(f"{res}/pairs.txt") if os.path.exists(f"{res}/pairs.txt") else []:
    f = line.split()
    if len(f) == 5 and f[1] in pols_arg:
        pairs.append((int(f[0]), f[1], f[2], f[3], f[4]))
main_layout = pairs[0][4] if pairs else None


def eevdf_row(layout):
    return "eevdf" if layout == main_layout else f"eevdf/{layout}"


# Rows of the tables: eevdf of each layout, then the policies, in order.
series = {}    # boot -> row
for _, p, eb, pb, lay in pairs:
    series.setdefault(eb, eevdf_row(lay))
    series.setdefault(pb, p)
pols = []
for _, p, _, _, lay in pairs:
    for row in (eevdf_row(lay), p):
        if row not in pols:
            pols.append(row)

boot_data = {}  # boot -> key -> [values, one per run]
data = {}       # key -> row -> [(boot, run, value)]
hist = {}       # row -> {latency_us: count} (cyclictest, all runs)
boot_hist = {}  # boot -> {latency_us: count}
overflow = {}   # row -> count
missing = []

for boot, row in series.items():
    path = f"{res}/logs/{boot}.log"
    run, seen = 0, 0
    for line in open(path, errors="replace") if os.path.exists(path) else []:
        line = line.strip().replace("\r", "")
        m = re.match(r"BENCH-RUN (\d+)$", line)
        if m:
            run = int(m.group(1))
            continue
        m = re.match(r"BENCH (\S+) (-?[0-9.]+)$", line)
        if m:
            k, v = m.group(1), float(m.group(2))
            data.setdefault(k, {}).setdefault(row, []).append((boot, run, v))
            boot_data.setdefault(boot, {}).setdefault(k, []).append(v)
            seen += 1
            continue
        m = re.match(r"CYCLIC (\d+)((?: \d+)+)$", line)
        if m:
            n = sum(map(int, m.group(2).split()))
            for h in (hist.setdefault(row, {}), boot_hist.setdefault(boot, {})):
                h[int(m.group(1))] = h.get(int(m.group(1)), 0) + n
            continue
        m = re.match(r"CYCLIC # Histogram Overflows:((?: \d+)+)", line)
        if m:
            overflow[row] = overflow.get(row, 0) + sum(map(int, m.group(1).split()))
    if not seen:
        missing.append(boot)

with open(f"{res}/raw.csv", "w") as f:
    f.write("row,boot,run,key,value\n")
    for k in sorted(data):
        for p in pols:
            for boot, run, v in data[k].get(p, []):
                f.write(f"{p},{boot},{run},{k},{v}\n")


def vals(k, p):
    return [v for _, _, v in data.get(k, {}).get(p, [])]


def med(k, p):
    v = vals(k, p)
    return statistics.median(v) if v else None


def pair_ratio(k, p):
    """The median over p's pairs of median(p's boot) / median(eevdf's boot)."""
    r = []
    for _, q, eb, pb, _ in pairs:
        a, b = boot_data.get(pb, {}).get(k), boot_data.get(eb, {}).get(k)
        if q == p and a and b and statistics.median(b):
            r.append(statistics.median(a) / statistics.median(b))
    return statistics.median(r) if r else None


def cell(k, p, fmt="%.2f", ratio=True):
    v = vals(k, p)
    if not v:
        return "-"
    m = statistics.median(v)
    s = fmt % m
    if len(v) > 1:
        s += (" [" + fmt + ".." + fmt + "]") % (min(v), max(v))
    r = pair_ratio(k, p) if ratio and not p.startswith("eevdf") else None
    if r:
        s += " %.2fx" % r
    return s


def table(title, cols, keys, rows=None, fmt="%.2f", ratio=True):
    rows = rows or pols
    if not any(k in data for k in keys):
        return
    print(f"\n{title}")
    w = [max(len(c), 8) for c in cols]
    cells = [[cell(k, p, fmt, ratio) for k in keys] for p in rows]
    for i in range(len(cols)):
        w[i] = max([w[i]] + [len(r[i]) for r in cells])
    print("%-10s" % "policy" + "".join("  %*s" % (w[i], c) for i, c in enumerate(cols)))
    for p, r in zip(rows, cells):
        print("%-10s" % p + "".join("  %*s" % (w[i], c) for i, c in enumerate(r)))


rounds = max([r for r, *_ in pairs] or [0])
runs = max([run for k in data for p in data[k] for _, run, _ in data[k][p]] or [0])
print(f"make bench: {', '.join(pols)}; median [min..max] of the runs ({runs} a boot, "
      f"{rounds} pair(s) of boots a policy), ratio to eevdf: median of the per-pair "
      "ratios (lower is better unless said)")

table("Scheduler overhead: pipe ping-pong round trip (us)",
      ["1 CPU", "2 CPUs"], ["pingpong_1cpu_us", "pingpong_2cpu_us"])
picks = sorted({int(m.group(1)) for k in data for m in [re.match(r"pick_(\d+)_ns$", k)] if m})
table("Scheduler overhead: time between switches of one CPU with N runnable tasks, all yielding (ns)",
      [f"N={n}" for n in picks], [f"pick_{n}_ns" for n in picks], fmt="%.0f")

groups = sorted({int(m.group(1)) for k in data for m in [re.match(r"hb_\w+_g(\d+)$", k)] if m})
for mode, name in (("sock_proc", "sockets, processes"), ("pipe_proc", "pipes, processes"),
                   ("sock_thread", "sockets, threads"), ("pipe_thread", "pipes, threads")):
    table(f"hackbench, {name} (s) by groups of 40 tasks", [f"{g}" for g in groups],
          [f"hb_{mode}_g{g}" for g in groups])

sims = ["audio", "video", "x", "gaming"]
loads = ["none", "video", "x", "burn", "write", "read", "compile", "memload"]
for p in pols:
    rows = [(s, l) for s in sims for l in loads if f"ib_{s}_{l}_lat_ms" in data]
    if not rows:
        continue
    print(f"\ninterbench-like latency under {p} (ms; %; median of runs)")
    print("%-8s %-8s %20s %12s %14s %16s" % ("sim", "load", "Latency +/- SD (ms)",
                                             "Max Latency", "% Desired CPU", "% Deadlines Met"))
    for s, l in rows:
        k = f"ib_{s}_{l}"
        print("%-8s %-8s %20s %12s %14s %16s" % (
            s, l, "%.3f +/- %.3f" % (med(k + "_lat_ms", p) or 0, med(k + "_sd_ms", p) or 0),
            "%.2f" % (med(k + "_max_ms", p) or 0), "%.1f" % (med(k + "_desired_pct", p) or 0),
            "%.1f" % (med(k + "_met_pct", p) or 0)))

if "fair_job1_s" in data:
    print("\nThree jobs of 5500:7560:7600 units of CPU started together (s; ideal fair "
          "finish in the header; deviation from it; combined user and system time)")
    ideal = " / ".join("%.2f" % (med(f"fair_job{i}_ideal_s", pols[0]) or 0) for i in (1, 2, 3))
    print("%-10s %30s %18s %10s %10s" % ("policy", f"finish ({ideal})", "worst deviation",
                                        "user", "system"))
    for p in pols:
        fin = " / ".join("%.2f" % (med(f"fair_job{i}_s", p) or 0) for i in (1, 2, 3))
        print("%-10s %30s %17s%% %10.2f %10.2f" % (
            p, fin, "%+.1f" % (med("fair_worst_dev_pct", p) or 0),
            med("fair_user_s", p) or 0, med("fair_sys_s", p) or 0))

ctl = [l for l in ["none", "process", "write", "read", "mem"] if f"contest_{l}_time_s" in data]
for p in pols:
    if not ctl:
        break
    base = med("contest_none_time_s", p)
    print(f"\ncontest-like: a build of short processes under {p}")
    print("%-13s %8s %6s %8s %7s %7s" % ("load", "Time", "CPU%", "Loads", "LCPU%", "Ratio"))
    for l in ctl:
        t = med(f"contest_{l}_time_s", p)
        print("%-13s %8.2f %6.1f %8.0f %7.1f %7.2f" % (
            l + "_load", t or 0, med(f"contest_{l}_cpu_pct", p) or 0,
            med(f"contest_{l}_loads", p) or 0, med(f"contest_{l}_lcpu_pct", p) or 0,
            (t / base) if t and base else 0))


def pctl(h, q):
    total = sum(h.values())
    acc = 0
    for us in sorted(h):
        acc += h[us]
        if acc >= q * total:
            return us
    return None


if hist:
    print("\nWakeup latency: cyclictest, SCHED_OTHER threads, 1 ms interval, under a CPU "
          "hog per CPU (us; all runs pooled; ratio to eevdf: median of the pairs')")
    print("%-10s %14s %14s %14s %10s" % ("policy", "p50", "p99", "max", "samples"))
    for p in pols:
        h = hist.get(p)
        if not h:
            continue
        row = []
        for q in (0.5, 0.99, 1.0):
            v = pctl(h, q)
            rs = [pctl(boot_hist[pb], q) / pctl(boot_hist[eb], q)
                  for _, x, eb, pb, _ in pairs
                  if x == p and pb in boot_hist and eb in boot_hist and pctl(boot_hist[eb], q)]
            r = statistics.median(rs) if rs else None
            row.append("%d%s" % (v, " %.2fx" % r if r else ""))
        extra = ""
        if overflow.get(p):
            row[2] = ">20000"
            extra = " (%d over 20 ms)" % overflow[p]
        print("%-10s %14s %14s %14s %10d%s" % (p, row[0], row[1], row[2], sum(h.values()), extra))

# Plots: hackbench by groups, wakeup latency distributions.
if shutil.which("gnuplot") and groups:
    with open(f"{res}/hackbench.dat", "w") as f:
        f.write("# groups " + " ".join(pols) + "\n")
        for g in groups:
            f.write(f"{g} " + " ".join("%s" % (med(f"hb_sock_proc_g{g}", p) or "NaN")
                                      for p in pols) + "\n")
    plot = ", ".join(f"'{res}/hackbench.dat' using 1:{i + 2} with linespoints title '{p}'"
                     for i, p in enumerate(pols))
    script = (f"set terminal svg size 800,500; set output '{res}/hackbench.svg';"
              "set title 'hackbench, sockets, processes (median of runs)';"
              "set xlabel 'groups'; set ylabel 'seconds'; set key left top;"
              f"set logscale x 2; plot {plot}")
    subprocess.run(["gnuplot", "-e", script], check=False)
if shutil.which("gnuplot") and hist:
    for p, h in hist.items():
        total = sum(h.values())
        acc = 0
        with open(f"{res}/latency-{p.replace('/', '-')}.dat", "w") as f:
            for us in sorted(h):
                acc += h[us]
                f.write(f"{max(us, 1)} {acc / total}\n")
    plot = ", ".join(f"'{res}/latency-{p.replace('/', '-')}.dat' using 1:2 with lines title '{p}'"
                     for p in pols if p in hist)
    script = (f"set terminal svg size 800,500; set output '{res}/latency.svg';"
              "set title 'cyclictest wakeup latency, SCHED_OTHER under CPU hogs (CDF)';"
              "set xlabel 'latency (us)'; set ylabel 'fraction of wakeups';"
              f"set logscale x 10; set key right bottom; plot {plot}")
    subprocess.run(["gnuplot", "-e", script], check=False)

if missing:
    print(f"\nno figures from the boots: {' '.join(missing)} (see {res}/logs/)")
    sys.exit(1)
