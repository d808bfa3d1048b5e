#!/bin/bash
# Every patch of the series builds, so that git bisect may land anywhere:
# each commit of out/patches in turn (git am onto pristine, the branch
# "applied" of build/pristine-git that make kernel leaves), in a work tree
# of its own, with the test config; the objects each commit's diff touches
# are compiled (a header: kernel/sched/core.o, one of its users; Kconfig or
# a Makefile: kernel/sched/ whole, which must then leave no plugsched
# symbol undefined). The last commit is make kernel's bzImage. Prints one "ok"/"not ok" line per patch; exits non-zero on a
# failure.
. "$(dirname "$0")/lib.sh"

[ -d "$B/pristine-git/.git" ] || die "no series applied: run make kernel first"
cfg=$TOP/tools/testing/plugsched/configs
fails=0
report() { # status description
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fails=$((fails + 1)); fi
}

PG=$B/pristine-git
wt=$B/bisect-src
bobj=$B/bisect-obj
git -C "$PG" worktree prune
[ -d "$wt/.git" ] || [ -f "$wt/.git" ] || git -C "$PG" worktree add -q -f --detach "$wt" pristine
mkdir -p "$bobj"
# Host programs through ccache too: each work tree builds them again.
bmake() { make -s -C "$wt" O="$bobj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
if [ ! -f "$bobj/tiny.config" ]; then
	bmake tinyconfig > "$bobj/tinyconfig.log" 2>&1 &&
		cp "$bobj/.config" "$bobj/tiny.config"
fi
n=0 reconfig=1
for c in $(git -C "$PG" rev-list --reverse pristine..applied); do
	n=$((n + 1))
	subj=$(git -C "$PG" log -1 --format=%s "$c")
	git -C "$wt" checkout -q -f --detach "$c"
	! git -C "$PG" diff --name-only "$c~1" "$c" | grep -q Kconfig || reconfig=1
	targets=
	for f in $(git -C "$PG" diff --name-only "$c~1" "$c"); do
		case $f in
		kernel/sched/*.c)
			b=$(basename "$f")
			u=$(grep -l "^#include \"$b\"" "$wt"/kernel/sched/build_*.c 2>/dev/null | head -1 || true)
			if [ -n "$u" ]; then
				targets+=" kernel/sched/$(basename "${u%.c}").o"
			elif grep -q "${b%.c}" "$wt/kernel/sched/Makefile"; then
				targets+=" kernel/sched/${b%.c}.o"
			else
				targets+=" kernel/sched/"
			fi ;;
		include/*.h | kernel/*.h) targets+=" kernel/sched/core.o" ;;
		kernel/Kconfig* | init/Kconfig | kernel/sched/Makefile) targets+=" kernel/sched/" ;;
		esac
	done
	# shellcheck disable=SC2086 # one word per target
	targets=$(printf '%s\n' $targets | sort -u | tr '\n' ' ' | sed 's/ *$//')
	if [ -z "$targets" ]; then
		report 0 "patch $n builds: nothing to compile ($subj)"
		continue
	fi
	log "patch $n: $subj: make $targets"
	rc=0
	# The config follows from the Kconfig files alone: made again only
	# after a patch changed one (and the first time).
	if [ "$reconfig" = 1 ]; then
		{ cp "$bobj/tiny.config" "$bobj/.config" &&
		  KCONFIG_CONFIG=$bobj/.config "$wt/scripts/kconfig/merge_config.sh" -m -O "$bobj" \
			"$bobj/.config" "$cfg/base.config" &&
		  bmake olddefconfig; } > "$bobj/patch-$n.log" 2>&1 || rc=$?
		reconfig=0
	else
		: > "$bobj/patch-$n.log"
	fi
	# shellcheck disable=SC2086 # one word per target
	[ $rc != 0 ] || bmake -j"$JOBS" W=1 $targets >> "$bobj/patch-$n.log" 2>&1 || rc=$?
	warn=$(grep -E "plugsched.*(warning|error)" "$bobj/patch-$n.log" | head -5 || true)
	[ -z "$warn" ] || { echo "$warn" | sed 's/^/# /'; rc=1; }
	# kernel/sched/ built whole: it would link, every plugsched symbol
	# one of its objects uses is defined by another (or, a section's
	# bounds, by the linker script).
	case " $targets " in *" kernel/sched/ "*)
		undef=$(nm "$bobj/kernel/sched/built-in.a" 2>/dev/null | awk '
			$1 == "U" && $2 ~ /plug/ && $2 !~ /^__.*_(start|end)$/ { u[$2] = 1 }
			NF == 3 && $3 ~ /plug/ { d[$3] = 1 }
			END { for (s in u) if (!(s in d)) print s }' | tr '\n' ' ')
		[ -z "$undef" ] || { echo "# undefined in kernel/sched/: $undef"; rc=1; } ;;
	esac
	[ $rc = 0 ] || tail -5 "$bobj/patch-$n.log" | sed 's/^/# /'
	report $rc "patch $n builds: $targets ($subj)"
done


exit $((fails > 0))
