#!/bin/sh
# policy.sh POLICY: the boot of a policy chosen with sched=POLICY. The
# selftest's suite for the active policy (its checks with the bounds of its
# design, see tools/testing/selftests/plugsched/suites.c), the policy's own
# fields and knobs, hackbench. The host checks the KUnit results.
# shellcheck source=lib.sh
. /guest/lib.sh
p=$1
echo "AVAILABLE $(policies)"
# The knobs as the kernel declares them, for the host to hold the README to.
sed 's/^/KNOB /' "$PS/knobs"

if [ "$p" != eevdf ]; then
	check "boot log names $p" logged "plugsched: CPU scheduler: $p"
fi
case $p in
o1) fields=o1.sleep_avg_ns ;;
cfs) fields=cfs.vruntime ;;
sd) fields="sd.level sd.quota" ;;
zaphod) fields="zaphod.ia_bonus zaphod.avg_delay_ns" ;;
numa) fields="numa.home_node o1.sleep_avg_ns" ;;
*) fields= ;;
esac
for f in $fields; do
	check "/proc/PID/sched shows $f" grep -q "$f" /proc/self/sched
done

if [ "$p" = zaphod ]; then
	zm=/proc/sys/kernel/zaphod_mode
	check "zaphod_mode is pb by default" knob_is zaphod_mode pb
	bad=0
	for v in bogus PB 'pb eb' '' 0 1 pbx e; do
		echo "$v" > $zm 2>/dev/null && bad=$((bad + 1))
		[ "$(cat $zm)" = pb ] || bad=$((bad + 1))
	done
	check "malformed zaphod_mode values are rejected and change nothing" [ $bad = 0 ]
	ok=0
	echo eb > $zm && knob_is zaphod_mode eb && echo " pb " > $zm && knob_is zaphod_mode pb && ok=1
	check "zaphod_mode takes eb and pb" [ $ok = 1 ]
fi

# Every check of the policy's suite, one selftest process each.
suite
# make bench times all four hackbench variants under each policy; here,
# both ways of waking (sockets, pipes) and of starting (fork, clone).
hb_pair
finish
