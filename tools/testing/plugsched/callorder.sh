#!/bin/bash
# callorder.sh OBJ...: the objects, in the order they may call (each only
# those before it). Prints each reference to a symbol of a later object,
# "a -> b: symbols", and exits 1 if there is any; so no two of them call
# each other. The plug class's own symbol, declared in sched.h for every
# file to compare a task's class with, is no call and is ignored.
set -euo pipefail
declare -A def rank
i=0
for o in "$@"; do
	rank[$o]=$i
	i=$((i + 1))
	for s in $(nm --defined-only "$o" | awk '$2 ~ /^[TDBRV]$/ {print $3}'); do
		def[$s]=$o
	done
done
rc=0
for o in "$@"; do
	up=
	for s in $(nm -u "$o" | awk '{print $2}'); do
		[ "$s" = plug_sched_class ] && continue
		d=${def[$s]:-}
		[ -n "$d" ] && [ "${rank[$d]}" -gt "${rank[$o]}" ] && up+=" $(basename "$d" .o):$s"
	done
	[ -z "$up" ] && continue
	echo "$(basename "$o" .o) calls files after it:$up"
	rc=1
done
exit $rc
