#!/bin/sh
# bench.sh: make bench's suite in the guest, RUNS times over. The host sets
# the sizes in the environment: RUNS CPUS TRIPS PICK PICK_SECS HB_GROUPS LOOPS
# IB_SIMS IB_LOADS IB_SECS FAIR_SCALE CT_LOADS CT_JOBS CYC_LOOPS. Prints
# "BENCH key value..." lines, and "ACTIVE policy" before and after each
# run (a fall back to eevdf must never be measured under another name).
pb=plugsched_bench
echo "ACTIVE $(cat /sys/kernel/plugsched/active)"
for r in $(seq "$RUNS"); do
	echo "BENCH-RUN $r"
	echo "# run $r of $RUNS: ping-pong" >&2
	plugsched_test pingpong 1 "$TRIPS" | grep ^BENCH
	[ "$CPUS" -gt 1 ] && plugsched_test pingpong 2 "$TRIPS" | grep ^BENCH
	for n in $PICK; do $pb pickcost "$n" "$PICK_SECS"; done
	echo "# run $r: hackbench" >&2
	for g in $HB_GROUPS; do
		echo "BENCH hb_sock_proc_g$g $(hackbench -g "$g" -l "$LOOPS" | sed -n 's/^Time: //p')"
		echo "BENCH hb_pipe_proc_g$g $(hackbench -p -g "$g" -l "$LOOPS" | sed -n 's/^Time: //p')"
		echo "BENCH hb_sock_thread_g$g $(hackbench -T -g "$g" -l "$LOOPS" | sed -n 's/^Time: //p')"
		echo "BENCH hb_pipe_thread_g$g $(hackbench -p -T -g "$g" -l "$LOOPS" | sed -n 's/^Time: //p')"
	done
	echo "# run $r: interbench" >&2
	for s in $IB_SIMS; do
		for l in $IB_LOADS; do $pb interbench "$s" "$l" "$IB_SECS"; done
	done
	echo "# run $r: fairness, contest, cyclictest" >&2
	$pb fairness "$CPUS" "$FAIR_SCALE" 5500 7560 7600
	for l in $CT_LOADS; do $pb contest "$l" "$CT_JOBS" $((CPUS * 2)); done
	burners=
	for _ in $(seq "$CPUS"); do
		$pb burn 3600 &
		burners="$burners $!"
	done
	cyclictest -q -t "$CPUS" --policy=other -i 1000 -l "$CYC_LOOPS" -h 20000 -m 2>&1 |
		tr '\t' ' ' > /tmp/cyc.out
	# shellcheck disable=SC2086 # one PID a word
	kill $burners 2>/dev/null
	wait 2>/dev/null
	grep -E '^[0-9]+ ' /tmp/cyc.out | sed 's/^/CYCLIC /'
	grep -E '^# Histogram Overflows' /tmp/cyc.out | sed 's/^/CYCLIC /'
	echo "ACTIVE $(cat /sys/kernel/plugsched/active)"
done
echo BENCH-END
