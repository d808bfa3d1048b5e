#!/bin/sh
# hatch.sh: the escape hatch in its worst cases (issue 18), on the debug
# kernel with the test-only policy "starve" (it never picks the task whose
# PID is in starve_pid). In each case the machine must be back on mainline
# within the watchdog limit plus 5 s, and every task of the case finish:
#  (a) the starved task alone on a CPU that is then taken offline (the
#      offline waits for the task, holding the CPU hotplug lock);
#  (b) the starved task is a knob writer, inside the knob's handler (the
#      knob_window break yields there), when the knobs go away;
#  (c) SysRq-P while hackbench and CPU hotplug run;
#  (d) SysRq-P while a switch to the policy is in progress (the
#      switch_window break holds the switch in "enabling" for 1 s);
#  (e) switches under fork and exit churn: every task is tracked.
# Switch, then hotplug, is the eevdf debug boot's (debug.sh). Times are the
# kernel log's: the guest's shell may wait long under load.
# hatch.sh [CASE...]: only those of a b c d e (a hang ends the script).
# shellcheck source=lib.sh
. /guest/lib.sh
LIMIT_MS=3000
BOUND=$((LIMIT_MS / 1000 + 5))
echo $LIMIT_MS > /proc/sys/kernel/plugsched_watchdog_ms
# Relief would run the starved task after plugsched_relief_ms; these cases
# are of the watchdog, the last line, alone.
echo 0 > /proc/sys/kernel/plugsched_relief_ms
CPU1=/sys/devices/system/cpu/cpu1/online

# mark TEXT: TEXT in the kernel log, for its time stamp.
mark() { echo "hatch: $*" > /dev/kmsg; }

# stamp PATTERN: the time stamp of the last kernel log line matching.
stamp() { dmesg | grep -e "$1" | tail -1 | sed 's/^\[ *\([0-9.]*\)\].*/\1/'; }

# gone PID: the process ended (a zombie has ended too).
gone() { [ ! -e "/proc/$1" ] || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]; }

# recovered CASE DESC PID...: the state becomes fallback and every PID ends,
# and by the kernel's clock (the guest's shell may wait long under load)
# the switch back and the PIDs' "hatch: CASE done" marks, one each, come
# within BOUND s of "hatch: CASE start". A case that is not over in 120 s hung: the
# blocked tasks are dumped and the script ends, the machine is lost.
recovered() {
	rc_c=$1 rc_d=$2
	shift 2
	n=0
	while :; do
		ok=1
		read -r st < "$PS/state"
		case $st in fallback*) ;; *) ok=0 ;; esac
		for p in "$@"; do gone "$p" || ok=0; done
		[ $ok = 1 ] && break
		n=$((n + 1))
		if [ $n -ge 600 ]; then
			echo "not ok 1 $rc_d: hung (state: $st)"
			for p in "$@"; do
				gone "$p" || echo "# $p: $(cat "/proc/$p/stat")"
			done
			echo w > /proc/sysrq-trigger
			sleep 5
			echo PLUGSCHED-END
			exit 0
		fi
		sleep 0.2
	done
	t0=$(stamp "hatch: $rc_c start")
	t1=$(stamp "plugsched: switched from starve to eevdf")
	if [ $# -gt 0 ]; then
		check "($rc_c) each of its $# tasks marked its end" \
			[ "$(dmesg | grep -c "hatch: $rc_c done")" = $# ]
		t=$(stamp "hatch: $rc_c done")
		t1=$(awk -v a="$t1" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
	fi
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	check "$rc_d: recovered in $s s (bound $BOUND s)" \
		awk -v s="$s" -v b=$BOUND 'BEGIN { exit !(s >= 0 && s <= b) }'
}

# starved CASE PID: PID is runnable and stays so (the policy never picks it).
starved() {
	sleep 1
	check "($1)'s victim $2 is starved: runnable, not done" \
		[ "$(cut -d' ' -f3 "/proc/$2/stat" 2>/dev/null)" = R ]
}

# victim CASE CMD: a shell that makes itself the victim, so that it is
# starved inside the knob's handler, then runs CMD and marks its end. Run
# in the background, it is the background job itself ($!).
victim() {
	exec sh -c "echo \$\$ > /proc/sys/kernel/starve_pid; $2; echo 'hatch: $1 done victim' > /dev/kmsg"
}

# (a) The watchdog is off until the offline waits for the victim: the
# offline takes the CPU hotplug lock only after an RCU grace period, and a
# fall back before that (as in a first version of this test) does not show
# the case. The script names the victim: one that names itself may be
# caught inside the knob's handler, holding the lock the knob write that
# turns the watchdog on needs (seen once; case b is that case).
case_a() {
	echo 0 > /proc/sys/kernel/plugsched_watchdog_ms
	switch_to starve
	# shellcheck disable=SC2016 # the victim's shell expands it
	(exec taskset -c 1 sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done
		echo "hatch: a done victim" > /dev/kmsg') &
	v=$!
	# Once it runs its loop on CPU 1: starved before, it would never get there.
	n=0
	until grep -q '^Cpus_allowed_list:[[:space:]]*1$' "/proc/$v/status" 2>/dev/null &&
		[ "$(cat "/proc/$v/comm")" = sh ] || [ $n -ge 100 ]; do
		n=$((n + 1))
		sleep 0.05
	done
	echo $v > /proc/sys/kernel/starve_pid
	starved a $v
	(echo 0 > $CPU1; mark "a done offline") &
	o=$!
	waitempty=$(grep sched:waitempty /sys/devices/system/cpu/hotplug/states | cut -d: -f1)
	n=0
	while [ "$(cat /sys/devices/system/cpu/cpu1/hotplug/state)" -ge "$waitempty" ] && [ $n -lt 300 ]; do
		n=$((n + 1))
		sleep 0.2
	done
	sleep 1
	check "(a) the offline waits for the victim (hotplug state $(cat /sys/devices/system/cpu/cpu1/hotplug/state), sched:waitempty $waitempty)" \
		[ "$(cat /sys/devices/system/cpu/cpu1/hotplug/state)" -lt "$waitempty" ]
	mark a start
	echo $LIMIT_MS > /proc/sys/kernel/plugsched_watchdog_ms
	recovered a "(a) the starved task alone on CPU 1, CPU 1 taken offline" $v $o
	check "(a) CPU 1 went offline" [ "$(cat $CPU1)" = 0 ]
	echo 1 > $CPU1
	check "(a) the log names the stall" \
		logged 'plugsched: watchdog: sh/[0-9]* runnable on CPU 1 for [0-9]* ms under starve'
}

# (b) The starved task is a knob writer, inside the handler.
case_b() {
	switch_to starve
	echo knob_window > "$BREAK"
	mark b start
	victim b 'echo written > /tmp/b.out' &
	v=$!
	starved b $v
	recovered b "(b) the starved task writes a knob, held inside its handler" $v
	echo none > "$BREAK"
	check "(b) the writer's write completed" grep -q written /tmp/b.out
}

# (c) SysRq-P under hackbench and CPU hotplug.
case_c() {
	switch_to starve
	hackbench -g 4 -l 400 > /tmp/c-hb.out 2>&1 &
	h=$!
	(
		for i in 1 2; do
			echo 0 > $CPU1 || echo "offline $i failed"
			echo 1 > $CPU1 || echo "online $i failed"
		done
	) > /tmp/c-hp.out 2>&1 &
	hp=$!
	sleep 1
	mark c start
	echo P > /proc/sysrq-trigger
	recovered c "(c) SysRq-P under hackbench and CPU hotplug"
	wait $h
	check "(c) hackbench finished ($?)" [ $? = 0 ]
	wait $hp
	check "(c) every offline and online succeeded" [ ! -s /tmp/c-hp.out ]
	check "(c) the log records the SysRq fall back" logged 'plugsched: SysRq: starve ejected'
}

# (d) SysRq-P during a switch.
case_d() {
	hackbench -g 4 -l 200 > /tmp/d-hb.out 2>&1 &
	h=$!
	echo switch_window > "$BREAK"
	(echo starve > "$PS/active"; mark "d done switch") &
	s=$!
	sleep 0.3
	read -r st < "$PS/state"
	check "(d) the switch is in progress" [ "$st" = enabling ]
	mark d start
	echo P > /proc/sysrq-trigger
	recovered d "(d) SysRq-P during a switch" $s
	echo none > "$BREAK"
	wait $h
	check "(d) hackbench finished ($?)" [ $? = 0 ]
	check "(d) mainline runs" [ "$(cat /proc/scheduler)" = eevdf ]
}

# tracked_at_rest WHEN: the tracked tasks are the threads /proc shows (but
# zombies, past their last schedule) and the idle tasks, one per possible
# CPU. One awk reads both, so that the same tasks (awk too) are alive for
# each; counted again while tasks come and go (up to 10 times).
tracked_at_rest() {
	w=$1
	idle=$(awk -F- '{ print ($2 == "" ? 1 : $2 + 1) }' /sys/devices/system/cpu/possible)
	n=0
	while :; do
		# shellcheck disable=SC2046 # two numbers
		set -- $(awk 'FNR == 1 && NR == 1 { tr = $1; next }
			{ sub(/^.*\) /, ""); if ($1 != "Z" && $1 != "X") th++ }
			END { print tr, th }' /sys/kernel/debug/sched/plug_tracked \
			/proc/[0-9]*/task/[0-9]*/stat 2>/dev/null)
		[ "$1" = $(($2 + idle)) ] || [ $n -ge 10 ] && break
		n=$((n + 1))
		sleep 0.3
	done
	check "(e) $w: $1 tasks tracked, $2 threads alive + $idle idle tasks" \
		[ "$1" = $(($2 + idle)) ]
}

# (e) Every task is tracked from fork to its last schedule: switches to
# every policy and back while threads and processes fork and exit
# (hackbench -T's threads reap themselves: unhashed before their last
# schedule). The drain after each switch's walk WARNs for a task the walk
# missed; the log check fails the boot on it.
case_e() {
	tracked_at_rest "at rest before"
	rm -f /tmp/e.stop
	(while [ ! -e /tmp/e.stop ]; do
		hackbench -T -g 2 -l 50 > /dev/null 2>&1 || echo "hackbench -T failed"
	done) > /tmp/e-hb.out 2>&1 &
	h=$!
	(while [ ! -e /tmp/e.stop ]; do /bin/true || echo "true failed"; done) > /tmp/e-fork.out 2>&1 &
	f=$!
	sleep 1
	n=0
	for _ in 1 2; do
		for p in $(plugged) eevdf; do
			echo "$p" > "$PS/active" && n=$((n + 1))
		done
	done
	touch /tmp/e.stop
	wait $h $f
	want=$((2 * ($(plugged | wc -l) + 1)))
	check "(e) $n of $want switches under fork and exit churn succeeded" [ $n = "$want" ]
	check "(e) the churn ran without a failure" [ ! -s /tmp/e-hb.out ] && [ ! -s /tmp/e-fork.out ]
	check "(e) no switch found a task on no tracked list" \
		sh -c "! dmesg | grep -q 'on no tracked list'"
	sleep 1
	tracked_at_rest "at rest after"
}

# (make test passes one empty argument: all of them)
cases=${*:-a b c d e}
# shellcheck disable=SC2086 # one word per case
for c in $cases; do
	"case_$c"
done
finish_fallback
