#!/bin/sh
# watchdog.sh: the test-only policy "starve" starves a task; the watchdog
# hands every task back to mainline and the task finishes. SysRq-P does the
# same on demand. Booted on the debug kernel: the fall back runs under
# lockdep.
# shellcheck source=lib.sh
. /guest/lib.sh
t plugsched_test names starve
# The core's knobs are 0 (off) or MIN..MAX: 1 ms, 42 ms and MIN - 1 fail.
t plugsched_test knobs starve_pid:0:0:4194304 'plugsched_watchdog_ms:30000:0|1000:600000' \
	'plugsched_relief_ms:1000:0|100:600000'
# Relief would run the starved task a base slice a second: the watchdog,
# the last line, is tested alone.
echo 0 > /proc/sys/kernel/plugsched_relief_ms
t plugsched_test stall 2000
check "the log names the stalled task" \
	logged 'plugsched: watchdog: plugsched_test/[0-9]* runnable on CPU [0-9]* for [0-9]* ms under starve'
check "/proc/scheduler says eevdf after the fall back" [ "$(cat /proc/scheduler)" = eevdf ]
t plugsched_test switch 10
switch_to o1
t plugsched_test sysrq
check "the log records the SysRq fall back" logged 'plugsched: SysRq: o1 ejected'
t plugsched_test fork 1000
hb_pair
finish_fallback
