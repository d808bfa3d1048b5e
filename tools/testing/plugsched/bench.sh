#!/bin/bash
# make bench [POLICIES="eevdf o1"] [CPUS=2] [NODES=1] [ROUNDS=3] [RUNS=1] [QUICK=1]
# Boot the production kernel in interleaved pairs, eevdf then a policy
# with the same CPU and memory layout, ROUNDS rounds of every policy, and
# run the same suite RUNS times in each boot. Every figure is printed as
# the median [min..max] of the policy's runs, beside its ratio to eevdf:
# the median over the rounds of the ratio within each pair, so that the
# host's drift over the hour weighs on both sides of a ratio alike. numa
# is benched on 4 CPUs in 2 nodes (NUMA_CPUS, NUMA_NODES), with its own
# eevdf pairs. Raw numbers, tables, plots, the kernel config and every
# boot's command line go to results/<date>/. QUICK=1: a reduced suite and
# one eevdf boot for all policies, in one layout, run by make test so that
# the bench never rots (its ratios are a smoke test, not figures to quote).
. "$(dirname "$0")/lib.sh"

T=$TOP/tools/testing/plugsched
QUICK=${QUICK:-0}
CPUS=${CPUS:-2} NODES=${NODES:-1}
NUMA_CPUS=${NUMA_CPUS:-4} NUMA_NODES=${NUMA_NODES:-2}
RUNS=${RUNS:-1}
if [ "$QUICK" = 1 ]; then ROUNDS=1; else ROUNDS=${ROUNDS:-3}; fi
# (make test has built both, and builds beside its bench: PLUGSCHED_BUILT)
if [ -z "${PLUGSCHED_BUILT:-}" ]; then
	"$T/kernel.sh" prod || die "kernel build failed"
	"$T/initramfs.sh" || die "initramfs build failed"
fi
OUT=$B/bench
suffix=; [ "$QUICK" = 1 ] && suffix=-quick
# Named by date and commit ("-dirty": with changes not committed), so that
# a committed copy (bench/results/) says what it measured.
commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit=$commit-dirty
RES=${RESULTS:-$TOP/results/$(date +%Y-%m-%d-%H%M%S)-$commit$suffix}
mkdir -p "$OUT" "$RES/logs"
echo "$commit" > "$RES/commit.txt"
if [ -z "${POLICIES:-}" ]; then
	PLUGSCHED_QUIET=1 "$T/run.sh" -c 1 -l "$OUT/available.log" \
		"cat /sys/kernel/plugsched/available | sed 's/^/AVAILABLE /'" ||
		die "cannot boot the kernel to list the policies"
	POLICIES=$(grep -a '^AVAILABLE' "$OUT/available.log" | tr -d '\r' | cut -d' ' -f2-)
fi
# eevdf is the yardstick: always there, and first.
POLICIES="eevdf $(echo " $POLICIES " | sed 's/ eevdf / /g')"
POLICIES=$(echo $POLICIES)
cp "$B/linux-6.12/.config" "$RES/kernel.config"

# The suite, in the guest. Sizes: full, or QUICK.
if [ "$QUICK" = 1 ]; then
	GROUPS_="1 4" LOOPS=20 TRIPS=5000 IB_SECS=0.5 IB_SIMS="audio x gaming"
	IB_LOADS="none burn compile" FAIR_SCALE=0.1 CT_JOBS=40 CT_LOADS="none process"
	CYC_LOOPS=500 PICK="10 100 1000" PICK_SECS=0.5
else
	GROUPS_="1 2 4 8 16" LOOPS=50 TRIPS=20000 IB_SECS=1.5 IB_SIMS="audio video x gaming"
	IB_LOADS="none video x burn write read compile memload" FAIR_SCALE=1
	CT_JOBS=200 CT_LOADS="none process write read mem" CYC_LOOPS=5000
	PICK="10 100 1000 10000" PICK_SECS=2
fi
# The suite runs as guest/bench.sh, sized by its environment.
HB_GROUPS=$GROUPS_
sizes=()
for v in RUNS CPUS TRIPS PICK PICK_SECS HB_GROUPS LOOPS IB_SIMS IB_LOADS IB_SECS FAIR_SCALE \
	 CT_LOADS CT_JOBS CYC_LOOPS; do
	sizes+=("$v=$(printf %q "${!v}")")
done
suite() { # CPUS: the guest command of the suite sized for that many CPUs
	local CPUS=$1 v sizes=()
	for v in RUNS CPUS TRIPS PICK PICK_SECS HB_GROUPS LOOPS IB_SIMS IB_LOADS IB_SECS \
		 FAIR_SCALE CT_LOADS CT_JOBS CYC_LOOPS; do
		sizes+=("$v=$(printf %q "${!v}")")
	done
	echo "${sizes[*]} sh /guest/bench.sh"
}
cmds=$(suite "$CPUS")

# The plan: LABEL POLICY CPUS NODES per boot, and the pairs the report
# takes its ratios from: ROUND POLICY EEVDF-LABEL LABEL LAYOUT.
plan=() : > "$RES/pairs.txt"
if [ "$QUICK" = 1 ]; then
	plan+=("eevdf eevdf $CPUS $NODES")
	for pol in ${POLICIES#eevdf}; do
		plan+=("$pol $pol $CPUS $NODES")
		echo "1 $pol eevdf $pol ${CPUS}x$NODES" >> "$RES/pairs.txt"
	done
else
	for r in $(seq "$ROUNDS"); do
		for pol in ${POLICIES#eevdf}; do
			c=$CPUS n=$NODES
			[ "$pol" = numa ] && c=$NUMA_CPUS n=$NUMA_NODES
			plan+=("r$r-$pol-eevdf eevdf $c $n" "r$r-$pol $pol $c $n")
			echo "$r $pol r$r-$pol-eevdf r$r-$pol ${c}x$n" >> "$RES/pairs.txt"
		done
	done
fi

# bench_boot LABEL POLICY CPUS NODES: one boot of the suite, its QEMU
# command line in logs/LABEL.cmdline.
bench_boot() {
	echo "# $1: run.sh -s $2 -c $3 -n $4 (suite below); QEMU:" > "$RES/logs/$1.cmdline"
	PLUGSCHED_CMDLINES=$RES/logs/$1.cmdline PLUGSCHED_QUIET=1 "$T/run.sh" -s "$2" -c "$3" \
		-n "$4" -l "$RES/logs/$1.log" -t 3600 "$(suite "$3")" ||
		log "warning: $1 run did not finish cleanly"
}
# bench_judge LABEL POLICY: provenance: figures under POLICY were measured
# under it, to the end (no fall back to eevdf in between), in a clean boot.
bench_judge() {
	local logf=$RES/logs/$1.log why= seen splat
	cat "$RES/logs/$1.cmdline" >> "$RES/cmdlines.txt"
	seen=$(grep -a '^ACTIVE ' "$logf" | tr -d '\r' | cut -d' ' -f2 | sort -u | tr '\n' ' ' || true)
	[ "$seen" = "$2 " ] || why="active policy during the suite: '${seen% }', not $2"
	grep -a -q '^BENCH-END' "$logf" || why="${why:+$why; }the suite did not run to its end"
	splat=$(grep -a -E "$BAD_PATTERNS" "$logf" | head -3 | tr -d '\r' || true)
	[ -z "$splat" ] || why="${why:+$why; }splat in the log: $(echo "$splat" | head -1)"
	if [ -n "$why" ]; then
		log "error: bench boot $1: $why"
		echo "$1: $why" >> "$RES/rejected.txt"
		bad="$bad $1"
	fi
}
# QUICK=1 boots two at a time: its figures are a smoke test, and make test
# waits for it. The real bench boots one at a time (the guests would share
# the host's CPUs).
width=1; [ "$QUICK" = 1 ] && width=2
start=$(date +%s) i=0 total=${#plan[@]} bad=""
while [ $i -lt "$total" ]; do
	batch=("${plan[@]:i:width}")
	left=""
	[ $i -gt 0 ] && left=", ~$(( ($(date +%s) - start) * (total - i) / i / 60 + 1 )) min left"
	for b in "${batch[@]}"; do
		read -r label pol c n <<< "$b"
		i=$((i + 1))
		log "boot $i/$total ($label): sched=$pol, $c CPUs, $n node(s), $RUNS run(s)$left"
		bench_boot "$label" "$pol" "$c" "$n" &
	done
	wait
	for b in "${batch[@]}"; do
		read -r label pol _ <<< "$b"
		bench_judge "$label" "$pol"
	done
done
# A rejected boot's figures are never shown, under its name or another:
# its pairs go, and a policy left without a pair is not in the tables.
for label in $bad; do
	awk -v l="$label" '$3 != l && $4 != l' "$RES/pairs.txt" > "$RES/pairs.tmp"
	mv "$RES/pairs.tmp" "$RES/pairs.txt"
done
kept=eevdf
for pol in ${POLICIES#eevdf}; do
	awk -v p="$pol" '$2 == p { f = 1 } END { exit !f }' "$RES/pairs.txt" && kept="$kept $pol"
done
[ "$kept" = eevdf ] && die "no pair of boots left to compare: see $RES/rejected.txt"
POLICIES=$kept
echo "# the suite, run in each guest ($CPUS CPUs): $cmds, where /guest/bench.sh is:" >> "$RES/cmdlines.txt"
cat "$T/guest/bench.sh" >> "$RES/cmdlines.txt"

rc=0
python3 "$T/bench_report.py" "$RES" $POLICIES | tee "$RES/tables.txt" || rc=$?
if [ -n "$bad" ]; then
	log "rejected bench boots (figures left out):$bad; see ${RES#"$TOP"/}/rejected.txt"
	rc=1
fi
log "results in ${RES#"$TOP"/} ($(( ($(date +%s) - start) / 60 )) min)"
exit "$rc"
