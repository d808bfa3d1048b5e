#!/bin/sh
# bad-sched.sh WARNING: a malformed sched= boots the default, eevdf, with
# no policy's knobs, and a warning that lists the choices.
# shellcheck source=lib.sh
. /guest/lib.sh
t plugsched_test names eevdf
t plugsched_test knobs -o1_def_timeslice_ms -sched_granularity_ns -rr_interval -time_slice -node_balance_ratio
check "warned: $1" logged "$1"
# Every policy available lists in the warning.
choices=$(dmesg | sed -n 's/.*plugsched: choices: //p' | head -1)
missing=
for q in $(policies); do
	case " $choices " in *" $q "*) ;; *) missing="$missing $q" ;; esac
done
[ -n "$choices" ] || missing=" (no warning)"
check "warning lists the choices: $choices" [ -z "$missing" ]
finish
