#!/bin/bash
# make bench [POLICIES="eevdf o1"] [CPUS=2] [NODES=1] [RUNS=3] [QUICK=1]
# Boot the production kernel once per policy with the same CPU and memory
# layout, run the same suite RUNS times in each, and print every figure as
# median [min..max] beside its ratio to eevdf from the same run. Raw
# numbers, tables, plots, the kernel config and every boot's command line
# go to results/<date>/. QUICK=1: a reduced suite of a few minutes, run
# once by make test.
. "$(dirname "$0")/lib.sh"

T=$TOP/tools/testing/plugsched
QUICK=${QUICK:-0}
CPUS=${CPUS:-2} NODES=${NODES:-1}
if [ "$QUICK" = 1 ]; then RUNS=${RUNS:-1}; else RUNS=${RUNS:-3}; fi
"$T/kernel.sh" prod || die "kernel build failed"
"$T/initramfs.sh" || die "initramfs build failed"
OUT=$B/bench
suffix=; [ "$QUICK" = 1 ] && suffix=-quick
RES=${RESULTS:-$TOP/results/$(date +%Y-%m-%d-%H%M%S)$suffix}
mkdir -p "$OUT" "$RES/logs"
if [ -z "${POLICIES:-}" ]; then
	PLUGSCHED_QUIET=1 "$T/run.sh" -c 1 -l "$OUT/available.log" \
		"cat /sys/kernel/plugsched/available | sed 's/^/AVAILABLE /'" ||
		die "cannot boot the kernel to list the policies"
	POLICIES=$(grep -a '^AVAILABLE' "$OUT/available.log" | tr -d '\r' | cut -d' ' -f2-)
fi
# eevdf is the yardstick: always there, and first.
POLICIES="eevdf $(echo " $POLICIES " | sed 's/ eevdf / /g')"
POLICIES=$(echo $POLICIES)
cp "$B/obj/.config" "$RES/kernel.config"

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
cmds="pb=plugsched_bench
echo ACTIVE \$(cat /sys/kernel/plugsched/active)
for r in \$(seq $RUNS); do
  echo BENCH-RUN \$r
  echo \"# run \$r of $RUNS: ping-pong\" >&2
  plugsched_test pingpong 1 $TRIPS | grep ^BENCH
  [ $CPUS -gt 1 ] && plugsched_test pingpong 2 $TRIPS | grep ^BENCH
  for n in $PICK; do \$pb pickcost \$n $PICK_SECS; done
  echo \"# run \$r: hackbench\" >&2
  for g in $GROUPS_; do
    echo BENCH hb_sock_proc_g\$g \$(hackbench -g \$g -l $LOOPS | sed -n 's/^Time: //p')
    echo BENCH hb_pipe_proc_g\$g \$(hackbench -p -g \$g -l $LOOPS | sed -n 's/^Time: //p')
    echo BENCH hb_sock_thread_g\$g \$(hackbench -T -g \$g -l $LOOPS | sed -n 's/^Time: //p')
    echo BENCH hb_pipe_thread_g\$g \$(hackbench -p -T -g \$g -l $LOOPS | sed -n 's/^Time: //p')
  done
  echo \"# run \$r: interbench\" >&2
  for s in $IB_SIMS; do for l in $IB_LOADS; do \$pb interbench \$s \$l $IB_SECS; done; done
  echo \"# run \$r: fairness, contest, cyclictest\" >&2
  \$pb fairness $CPUS $FAIR_SCALE 5500 7560 7600
  for l in $CT_LOADS; do \$pb contest \$l $CT_JOBS $((CPUS * 2)); done
  for c in \$(seq $CPUS); do \$pb burn 3600 & done
  cyclictest -q -t $CPUS --policy=other -i 1000 -l $CYC_LOOPS -h 20000 -m 2>&1 | tr '\\t' ' ' > /tmp/cyc.out
  kill \$(jobs -p) 2>/dev/null; wait 2>/dev/null
  grep -E '^[0-9]+ ' /tmp/cyc.out | sed 's/^/CYCLIC /'
  grep -E '^# Histogram Overflows' /tmp/cyc.out | sed 's/^/CYCLIC /'
  echo ACTIVE \$(cat /sys/kernel/plugsched/active)
done
echo BENCH-END"

start=$(date +%s) n=0 total=$(echo $POLICIES | wc -w) per="" bad=""
for pol in $POLICIES; do
	n=$((n + 1))
	left=""
	[ -n "$per" ] && left=", ~$(( (total - n + 1) * per / 60 + 1 )) min left"
	log "boot $n/$total: sched=$pol, $CPUS CPUs, $NODES node(s), $RUNS run(s)$left"
	t0=$(date +%s)
	echo "# $pol: run.sh -s $pol -c $CPUS -n $NODES (suite below); QEMU:" >> "$RES/cmdlines.txt"
	PLUGSCHED_CMDLINES=$RES/cmdlines.txt PLUGSCHED_QUIET=1 "$T/run.sh" -s "$pol" -c "$CPUS" -n "$NODES" -l "$RES/logs/$pol.log" \
		-t 3600 "$cmds" || log "warning: $pol run did not finish cleanly"
	# Provenance: figures under $pol were measured under $pol, to the
	# end (no fall back to eevdf in between), in a clean boot.
	logf=$RES/logs/$pol.log
	why=
	seen=$(grep -a '^ACTIVE ' "$logf" | tr -d '\r' | cut -d' ' -f2 | sort -u | tr '\n' ' ' || true)
	[ "$seen" = "$pol " ] || why="active policy during the suite: '${seen% }', not $pol"
	grep -a -q '^BENCH-END' "$logf" || why="${why:+$why; }the suite did not run to its end"
	splat=$(grep -a -E "$BAD_PATTERNS" "$logf" | head -3 | tr -d '\r' || true)
	[ -z "$splat" ] || why="${why:+$why; }splat in the log: $(echo "$splat" | head -1)"
	if [ -n "$why" ]; then
		log "error: bench boot $pol: $why"
		echo "$pol: $why" >> "$RES/rejected.txt"
		bad="$bad $pol"
	fi
	per=$(( $(date +%s) - t0 ))
done
case " $bad " in *" eevdf "*) die "the eevdf boot, the yardstick, is rejected: see $RES/rejected.txt" ;; esac
# A rejected boot's figures are never shown, under its name or another.
for pol in $bad; do POLICIES=$(echo " $POLICIES " | sed "s/ $pol / /"); done
POLICIES=$(echo $POLICIES)
echo "# the suite, run in each guest:" >> "$RES/cmdlines.txt"
echo "$cmds" >> "$RES/cmdlines.txt"

rc=0
python3 "$T/bench_report.py" "$RES" $POLICIES | tee "$RES/tables.txt" || rc=$?
if [ -n "$bad" ]; then
	log "rejected bench boots (figures left out):$bad; see ${RES#"$TOP"/}/rejected.txt"
	rc=1
fi
log "results in ${RES#"$TOP"/} ($(( ($(date +%s) - start) / 60 )) min)"
exit "$rc"
