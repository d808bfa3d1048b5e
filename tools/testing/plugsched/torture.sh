#!/bin/bash
# make torture [POLICIES="o1 cfs"] [MINUTES=n] [DEFAULTS=1]: boot the debug
# kernel (lockdep, DEBUG_ATOMIC_SLEEP, UBSAN, plugsched invariants) per
# policy with 4 CPUs in 2 nodes and torture it for MINUTES (default 1):
# stress-ng's scheduler stressors, sched_setattr churn, random knob writes
# (none with DEFAULTS=1: every knob at its default) and CPU hotplug at once.
# Fails on any failed check, any splat in the log, or a watchdog fall back.
# Last line: "N passed, N failed".
. "$(dirname "$0")/lib.sh"
set +e

T=$TOP/tools/testing/plugsched
MINUTES=${MINUTES:-1}
OUT=$TOP/out/torture
mkdir -p "$OUT"

"$T/kernel.sh" debug || die "debug kernel build failed"
"$T/initramfs.sh" || die "initramfs build failed"
# Every policy the debug kernel lists, but the one built to starve a task.
[ -n "${POLICIES:-}" ] ||
	POLICIES=$(kernel_policies debug | tr ' ' '\n' | grep -v -x starve | tr '\n' ' ')

pass=0 fail=0 start=$(date +%s) n=0 total=$(echo $POLICIES | wc -w)
for p in $POLICIES; do
	n=$((n + 1))
	secs=$((MINUTES * 60))
	left=$(( (total - n + 1) * (secs + 120) / 60 ))
	knobs=$(torture_knobs "$p")
	[ "${DEFAULTS:-0}" = 1 ] && knobs=
	log "torture $n/$total: sched=$p, $MINUTES min, 4 CPUs in 2 nodes, knobs:" \
		"${knobs:-defaults} (~$left min left)"
	logf=$OUT/$p.log
	PLUGSCHED_QUIET=1 "$T/run.sh" -k "$B/debug/bzImage" -s "$p" -c 4 -n 2 -l "$logf" \
		-t $((secs + 900)) "sh /guest/torture.sh $secs $(torture_watchdog_ms "$p") $knobs"
	rc=$?
	res=$(sed -n '/PLUGSCHED-BEGIN/,$p' "$logf" | tr -d '\r' | grep -a -E '^(ok|not ok) [0-9]|^# ')
	echo "$res" | sed "s/^/[$p] /"
	okn=$(echo "$res" | grep -c '^ok ' || true)
	bad=$(echo "$res" | grep -c '^not ok ' || true)
	# A guest command missing from the initramfs would void its check.
	splat=$( (grep -a -E "$BAD_PATTERNS" "$logf"; sed -n '/PLUGSCHED-BEGIN/,$p' "$logf" |
		grep -a -E "$GUEST_ERRORS") | head -5 || true)
	[ -z "$splat" ] || { echo "$splat" | sed "s/^/[$p] # /"; bad=$((bad + 1)); }
	[ "$rc" = 124 ] && { echo "[$p] not ok - the guest did not finish"; bad=$((bad + 1)); }
	# A guest script that died half way, or a helper that lost results.
	if grep -a -q PLUGSCHED-END "$logf"; then
		echo "ok - $p torture: the guest ran its commands to the end"
	else
		echo "not ok - $p torture: the guest never reached its end marker"
		bad=$((bad + 1))
	fi
	short=$(short_plans "$logf")
	if [ -z "$short" ]; then
		echo "ok - $p torture: every helper printed all the results it planned"
	else
		echo "$short" | sed "s/^/[$p] # short: test, planned, got: /"
		echo "not ok - $p torture: a helper printed fewer results than planned"
		bad=$((bad + 1))
	fi
	if [ "$bad" = 0 ] && [ "$okn" -gt 0 ]; then
		pass=$((pass + 1))
		echo "ok - $p survived $MINUTES min of torture ($okn checks; log $logf)"
	else
		fail=$((fail + 1))
		echo "not ok - $p torture: $bad failures (log $logf)"
	fi
done
log "done in $(( ($(date +%s) - start) / 60 )) min"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
