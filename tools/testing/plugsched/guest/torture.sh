#!/bin/sh
# torture.sh SECONDS WATCHDOG_MS KNOB:MIN:MAX...: at once, stress-ng's
# scheduler stressors (exec as an unprivileged user: stress-ng skips it as
# root), sched_setattr/affinity churn, random knob writes in the given
# ranges and hotplug cycling of every CPU but 0. The churn runs in a
# cgroup whose cpu.max changes every 0.3 s (none to 2% of a CPU), so its
# tasks are parked and unparked through the class, affinity and hotplug
# changes (issue 19). The host picks the ranges and the watchdog limit per
# policy (lib.sh: torture_knobs).
# shellcheck source=lib.sh
. /guest/lib.sh
secs=$1
echo "$2" > /proc/sys/kernel/plugsched_watchdog_ms
shift 2
chmod 1777 /tmp
sng="stress-ng --temp-path /tmp --timeout ${secs}s --metrics-brief"
# shellcheck disable=SC2086 # $sng is a command line
$sng --cpu 2 --switch 2 --yield 2 --fork 2 --schedpolicy 2 --affinity 2 --nice 2 \
	--pipe 2 --futex 2 --hrtimers 2 > /tmp/sng.out 2>&1 &
s1=$!
grep -q ^nobody: /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534::/tmp:/bin/sh' >> /etc/passwd
su -s /bin/sh nobody -c "$sng --exec 2" > /tmp/sng-exec.out 2>&1 &
s2=$!
cg=/sys/fs/cgroup
mount -t cgroup2 none $cg 2>/dev/null
echo +cpu > $cg/cgroup.subtree_control
mkdir -p $cg/ps_torture
# shellcheck disable=SC2016 # $$ is the child shell's
sh -c 'echo $$ > /sys/fs/cgroup/ps_torture/cgroup.procs && exec plugsched_test churn "$1"' \
	sh "$secs" > /tmp/churn.out 2>&1 &
c=$!
(
	end=$(($(date +%s) + secs - 1))
	n=0 bad=0
	while [ "$(date +%s)" -lt $end ]; do
		# Periods of 100 ms and more: at 10 ms the debug kernel's period
		# timer overran thrice in a row under TCG and printed "period too
		# short" holding cfs_b->lock, which lockdep reports (printk to the
		# serial console wakes the tty's reader: rq lock; mainline's own).
		for v in "5000 100000" max "10000 200000" "30000 100000" "2000 100000" max; do
			echo "$v" > $cg/ps_torture/cpu.max && n=$((n + 1)) || bad=$((bad + 1))
			sleep 0.3
		done
	done
	echo max > $cg/ps_torture/cpu.max
	echo "$n $bad" > /tmp/cpumax.out
) &
cm=$!
plugsched_test knobfuzz "$secs" "$@" > /tmp/knob.out 2>&1 &
k=$!
ncpu=$(find /sys/devices/system/cpu -maxdepth 1 -name 'cpu[0-9]*' | wc -l)
# (Offlining fails with EBUSY while SCHED_DEADLINE tasks of the
# schedpolicy stressor need the CPU's bandwidth: counted apart.)
hp=0 hpbusy=0 hpfail=0 end=$(($(date +%s) + secs - 2))
while [ "$(date +%s)" -lt $end ]; do
	for cpu in $(seq 1 $((ncpu - 1))); do
		f=/sys/devices/system/cpu/cpu$cpu/online
		if echo 0 2>/tmp/hp.err > "$f"; then
			hp=$((hp + 1))
		elif grep -q busy /tmp/hp.err; then
			hpbusy=$((hpbusy + 1))
		else
			hpfail=$((hpfail + 1))
		fi
		sleep 0.2
		[ "$(cat "$f")" = 1 ] || echo 1 > "$f" || hpfail=$((hpfail + 1))
	done
done
wait $s1
r1=$?
wait $s2
r2=$?
# Each helper's whole output (its plan included, for the host's count) and
# its exit status: one that died half way must not pass for one that passed.
wait $c
rc=$?
cat /tmp/churn.out
echo '# t-end'
check "churn exited 0 ($rc)" [ $rc = 0 ]
wait $cm
read -r cmn cmbad < /tmp/cpumax.out
ok=0
[ "$cmn" -gt 0 ] && [ "$cmbad" = 0 ] && ok=1
check "churn's cpu.max written $cmn times ($cmbad failed writes)" [ $ok = 1 ]
rmdir $cg/ps_torture
wait $k
rc=$?
cat /tmp/knob.out
echo '# t-end'
# (With no knob ranges, knobs at their defaults, it skips: 4.)
if [ $# = 0 ]; then
	check "knobfuzz skipped, every knob at its default ($rc)" [ $rc = 4 ]
else
	check "knobfuzz exited 0 ($rc)" [ $rc = 0 ]
fi
if grep -q 'successful run completed' /tmp/sng.out && [ $r1 = 0 ]; then
	echo "ok 1 stress-ng scheduler stressors completed (${secs}s)"
else
	echo "not ok 1 stress-ng scheduler stressors: exit $r1"
	tail -5 /tmp/sng.out | sed 's/^/# /'
fi
if grep -q 'successful run completed' /tmp/sng-exec.out && [ $r2 = 0 ]; then
	echo 'ok 1 stress-ng exec stressor completed'
else
	echo "not ok 1 stress-ng exec stressor: exit $r2"
	tail -5 /tmp/sng-exec.out | sed 's/^/# /'
fi
lazy=
for s in cpu switch yield fork schedpolicy affinity nice pipe futex hrtimers; do
	grep -q "metrc: .* $s  *[1-9][0-9]* " /tmp/sng.out || lazy="$lazy $s"
done
grep -q "metrc: .* exec  *[1-9][0-9]* " /tmp/sng-exec.out || lazy="$lazy exec"
check "every stressor reported work done${lazy:+ (none:$lazy)}" [ -z "$lazy" ]
ok=0
[ $hp -gt 0 ] && [ $hpfail = 0 ] && ok=1
check "$hp CPU offline/online cycles ($hpbusy offlines refused: deadline bandwidth, $hpfail failed writes)" \
	[ $ok = 1 ]
sleep 1
left=$(grep -l -E '^(stress-ng|plugsched_test)' /proc/[0-9]*/comm 2>/dev/null | wc -l)
zombies=$(grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l)
check "every process started was reaped ($left left, $zombies zombies)" \
	[ "$left$zombies" = 00 ]
finish
