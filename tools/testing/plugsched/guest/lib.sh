# shellcheck shell=sh
# Helpers of make test's guest scripts, sourced by each (busybox sh). Every
# check prints one TAP line, "ok 1 ..." or "not ok 1 ...", which the host
# counts; a script ends with finish, whose end marker the host requires, so
# that a script dying half way is a failure.
PS=/sys/kernel/plugsched
BREAK=/sys/kernel/debug/sched/plug_break

uptime_s() { cut -d' ' -f1 /proc/uptime; }

# t CMD...: run a selftest, print its output and "# t-end" with its time.
# An exit status other than pass, fail or skip (a crash) without a "not ok"
# line of its own is a failure.
t() {
	t0=$(uptime_s)
	out=$("$@" 2>&1)
	rc=$?
	echo "$out"
	echo "# t-end $(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.1f s", b - a }')"
	case $rc in
	0 | 4) ;;
	*) echo "$out" | grep -q '^not ok' || echo "not ok 1 $* exited $rc" ;;
	esac
}

# suite: the active policy's suite of selftests (suites.c), its output as
# it comes (the runner marks each test's end and a crash); a policy without
# a suite is a failure here.
suite() {
	t0=$(uptime_s)
	plugsched_test
	rc=$?
	echo "# suite took $(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.1f s", b - a }')"
	case $rc in
	0 | 1) ;;
	*) echo "not ok 1 the suite of $(cat "$PS/active") exited $rc" ;;
	esac
}

# check DESCRIPTION CMD...: CMD's exit status is the result.
check() {
	d=$1
	shift
	if "$@"; then echo "ok 1 $d"; else echo "not ok 1 $d"; fi
}

# logged PATTERN: the kernel log has a line matching the basic regex.
logged() { dmesg | grep -q -e "$1"; }

# knob_is NAME VALUE: /proc/sys/kernel/NAME reads VALUE.
knob_is() { [ "$(cat "/proc/sys/kernel/$1")" = "$2" ]; }

# tc DESCRIPTION CMD...: CMD's exit status is the result; its output is
# shown on failure only.
tc() {
	d=$1
	shift
	if "$@" > /tmp/tc.out 2>&1; then
		echo "ok 1 $d"
	else
		echo "not ok 1 $d"
		sed 's/^/# /' /tmp/tc.out | tail -20
	fi
}

hb() { tc "hackbench $*" hackbench "$@"; }

# Hackbench over sockets and pipes, processes and threads.
hb_all() {
	hb -g 4 -l 50
	hb -g 4 -l 50 -p
	hb -g 4 -l 50 -T
	hb -g 4 -l 50 -p -T
}

# Both ways of waking (sockets, pipes) and of starting tasks (fork,
# clone), where make bench or another boot times all four.
hb_pair() {
	hb -g 4 -l 50
	hb -g 4 -l 50 -p -T
}

# xfail BREAK CMD...: a negative control. With one guarantee broken on
# purpose (CONFIG_PLUGSCHED_DEBUG's plug_break), the check guarding it must
# fail; its own lines are kept as comments.
xfail() {
	b=$1
	shift
	if ! echo "$b" > "$BREAK"; then
		echo "not ok 1 negative control: cannot break $b"
		return
	fi
	out=$("$@" 2>&1)
	echo none > "$BREAK"
	echo "$out" | sed 's/^/# | /'
	if echo "$out" | grep -q '^not ok'; then
		echo "ok 1 negative control: $b broken, $* fails as it must"
	else
		echo "not ok 1 negative control: $b broken, yet $* passes"
	fi
}

# switch_to POLICY: make POLICY the active one at run time.
switch_to() {
	echo "$1" > "$PS/active" || echo "not ok 1 switch to $1"
}

# policies: every policy of the running kernel; plugged: all but eevdf.
policies() { cat "$PS/available"; }
plugged() { policies | tr ' ' '\n' | grep -v -x eevdf; }

# finish: the watchdog never fired, then the end marker; finish_fallback:
# the end marker only, in the boots that make the watchdog fire or eject
# with SysRq (the host judges every other boot's log by its ejections).
finish() {
	s=$(cat "$PS/state")
	case $s in
	fallback*) echo "not ok 1 the watchdog never fired: $s" ;;
	*) echo "ok 1 the watchdog never fired (state: $s)" ;;
	esac
	echo PLUGSCHED-END
}
finish_fallback() { echo PLUGSCHED-EJECTS-EXPECTED; echo PLUGSCHED-END; }
