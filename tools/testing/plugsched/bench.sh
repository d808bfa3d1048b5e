#!/bin/bash
# make bench [POLICIES="eevdf o1"] [CPUS=2] [NODES=1] [RUNS=5]
# Boot the production kernel once per policy with the same CPU and memory
# layout, run the same benchmarks RUNS times in each, and print every
# figure as median [min..max] beside its ratio to eevdf from the same run.
. "$(dirname "$0")/lib.sh"

T=$TOP/tools/testing/plugsched
CPUS=${CPUS:-2} NODES=${NODES:-1} RUNS=${RUNS:-5}
"$T/kernel.sh" prod
"$T/initramfs.sh"
OUT=$B/bench
mkdir -p "$OUT"
if [ -z "${POLICIES:-}" ]; then
	PLUGSCHED_QUIET=1 "$T/run.sh" -c 1 -l "$OUT/available.log" \
		"cat /sys/kernel/plugsched/available | sed 's/^/AVAILABLE /'" ||
		die "cannot boot the kernel to list the policies"
	POLICIES=$(grep -a '^AVAILABLE' "$OUT/available.log" | tr -d '\r' | cut -d' ' -f2-)
fi
log "policies: $POLICIES; $CPUS CPUs, $NODES node(s), $RUNS runs"

cmds="for r in \$(seq $RUNS); do
  plugsched_test pingpong 1 20000 | grep ^BENCH
  [ $CPUS -gt 1 ] && plugsched_test pingpong 2 20000 | grep ^BENCH
  for g in 1 2 4 8; do
    echo BENCH hackbench_sock_g\$g \$(hackbench -g \$g -l 100 | sed -n 's/^Time: //p')
    echo BENCH hackbench_pipe_g\$g \$(hackbench -p -g \$g -l 100 | sed -n 's/^Time: //p')
  done
done"

n=0
for pol in $POLICIES; do
	n=$((n + 1))
	log "boot $n/$(echo $POLICIES | wc -w): sched=$pol"
	PLUGSCHED_QUIET=1 "$T/run.sh" -s "$pol" -c "$CPUS" -n "$NODES" -l "$OUT/$pol.log" \
		-t 3600 "$cmds" || log "warning: $pol run did not finish cleanly"
	grep -a -q "plugsched: CPU scheduler: $pol" "$OUT/$pol.log" ||
		log "warning: the kernel did not report $pol as active"
done

python3 - "$OUT" $POLICIES <<'PY'
import statistics, sys, re
out, pols = sys.argv[1], sys.argv[2:]
data = {}
for p in pols:
    for line in open(f"{out}/{p}.log", errors="replace"):
        m = re.match(r"BENCH (\S+) ([0-9.]+)\s*$", line.strip())
        if m:
            data.setdefault(m.group(1), {}).setdefault(p, []).append(float(m.group(2)))
def table(title, keys, unit):
    keys = [k for k in keys if k in data]
    if not keys:
        return
    print(f"\n{title} ({unit}; median [min..max] of runs; ratio to eevdf, lower is better)")
    print("%-8s" % "policy" + "".join("  %28s" % k for k in keys))
    for p in pols:
        row = "%-8s" % p
        for k in keys:
            v = data[k].get(p)
            if not v:
                row += "  %28s" % "-"; continue
            med = statistics.median(v)
            base = data[k].get("eevdf")
            ratio = " %.2fx" % (med / statistics.median(base)) if base else ""
            row += "  %28s" % ("%.2f [%.2f..%.2f]%s" % (med, min(v), max(v), ratio))
        print(row)
table("Pipe ping-pong round trip", ["pingpong_1cpu_us", "pingpong_2cpu_us"], "us")
table("hackbench, sockets, 100 loops, by groups", [f"hackbench_sock_g{g}" for g in (1, 2, 4, 8)], "s")
table("hackbench, pipes, 100 loops, by groups", [f"hackbench_pipe_g{g}" for g in (1, 2, 4, 8)], "s")
PY
