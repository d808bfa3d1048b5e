# Shared settings of the plugsched build and test scripts (sourced).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
B=$TOP/build
SRC_TAR=/usr/src/linux-source-6.12.tar.xz
PRISTINE=$B/pristine
KSRC=$B/src
JOBS=$(nproc)

# Packages every script here may need; installed on demand.
PACKAGES="linux-source-6.12 build-essential flex bison bc libelf-dev libssl-dev
cpio ccache sparse qemu-system-x86 busybox-static rt-tests stress-ng rsync git
xz-utils perl python3 kmod gnuplot-nox"

# ccache shared by every clone of the project on this machine.
export CCACHE_BASEDIR=$TOP
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros
export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=plugsched KBUILD_BUILD_HOST=plugsched

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

ensure_packages() {
	local missing=()
	for p in $PACKAGES; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing: ${missing[*]}"
	[ "$(id -u)" = 0 ] || die "need root (or sudo) to install: ${missing[*]}"
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Unpack a pristine linux-source-6.12 tree into $1.
unpack_pristine() {
	local dst=$1
	rm -rf "$dst.tmp" && mkdir -p "$dst.tmp"
	tar -xf "$SRC_TAR" -C "$dst.tmp" --strip-components=1
	rm -rf "$dst" && mv "$dst.tmp" "$dst"
}

# The new files of the patchset: "repo path:kernel path" pairs.
overlay_files() {
	(cd "$TOP" && {
		echo "Kconfig:kernel/Kconfig.plugsched"
		for f in include/linux/plugsched*.h kernel/sched/plugsched*.c \
			 Documentation/scheduler/plugsched.rst \
			 tools/testing/selftests/plugsched/*; do
			[ -f "$f" ] && echo "$f:$f"
		done
	})
}

# Overlay the new files and apply patches/series to the tree in $1.
apply_project() {
	local dst=$1 pair p
	for pair in $(overlay_files); do
		mkdir -p "$(dirname "$dst/${pair#*:}")"
		cp "$TOP/${pair%%:*}" "$dst/${pair#*:}"
	done
	while read -r p; do
		[ -n "$p" ] && [ "${p#\#}" = "$p" ] || continue
		patch -s -p1 -d "$dst" --no-backup-if-mismatch < "$TOP/patches/$p" \
			|| die "patches/$p does not apply"
	done < "$TOP/patches/series"
}

# The policies every boot-per-policy script covers (eevdf apart).
PLUGSCHED_POLICIES="o1 cfs sd zaphod numa"

# Lines a correct kernel never logs.
BAD_PATTERNS='WARNING:|BUG:|Oops|Kernel panic|UBSAN:|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|possible circular locking|possible recursive locking|inconsistent lock state|soft lockup|detected stall|blocked for more than|INFO: task|scheduling while atomic|sleeping function called from invalid context'

# Knobs the torture writes at random, in ranges where a correct policy
# keeps every wait under the watchdog's default limit (o1 lets an expired
# task wait o1_starvation_limit_ms x the CPU's runnable tasks, and not at
# all with 0: the watchdog rightly fires then). Zaphod lifts a waiting task
# one slot every base_promotion_interval x (runnable - 1), relative to the
# tasks that requeue: a task up to 58 slots behind, with the torture's ~37
# tasks per CPU, waits 58 x 36 x base_promotion_interval. At the default
# 255 ms that is 9 s a slot (seen: a task 4 slots behind waited 30.7 s);
# at 20 ms it is 42 s, and a starved fork child holding a file's
# i_mmap_rwsem hung mprotect() callers for 32 s, new kthreads waited ~13 s
# each and a CPU online took 39 s. At 4 ms it is 8.4 s: the torture keeps
# the interval at 1..4 ms and slices at 1..100 ms. SD lets a task that
# has used its levels wait one major rotation: every runnable task's
# quota on each of its 20 - nice levels, up to 40 x rr_interval a task.
# With ~27 tasks per CPU (twice that while CPU 1 is offline) at 50 ms a
# task waited 31.4 s; at 8 ms the bound is 54 x 40 x 8 ms = 17 s.
torture_knobs() {
	case $1 in
	o1) echo "o1_def_timeslice_ms:5:100 o1_starvation_limit_ms:100:250" ;;
	cfs) echo "sched_granularity_ns:100000:20000000 sched_wakeup_granularity_ns:0:10000000" \
		  "sched_latency_ns:100000:40000000 sched_child_runs_first:0:1" ;;
	sd) echo "rr_interval:1:8 interactive:0:1" ;;
	numa) echo "node_balance_ratio:1:50 node_threshold:100:400" \
		   "o1_def_timeslice_ms:5:100 o1_starvation_limit_ms:100:250" ;;
	zaphod) echo "time_slice:1:100 base_promotion_interval:1:4 max_ia_bonus:0:10" \
		     "initial_ia_bonus:0:10 ia_threshold:1:1000 cpu_hog_threshold:1:1000" \
		     "max_tpt_bonus:0:9" ;;
	esac
}

# The watchdog limit of a torture run. The O(1) policy bounds the wait of
# an expired task only: a task in the active array waits behind tasks of
# better priority for as long as they keep waking, which the torture's
# ~27 runnable tasks per CPU did once for 31 s. For o1 the torture only
# catches tasks lost for good (a limit past the run's length).
torture_watchdog_ms() {
	case $1 in
	o1|numa) echo 120000 ;;
	*) echo 30000 ;;
	esac
}

# torture_cmds POLICY SECONDS: the guest commands of a torture run. At once:
# stress-ng's scheduler stressors (exec as an unprivileged user: stress-ng
# skips it as root), sched_setattr/affinity churn, random knob writes and
# hotplug cycling of every CPU but 0. Prints TAP lines.
torture_cmds() {
	local policy=$1 secs=$2
	cat <<EOT
echo $(torture_watchdog_ms "$policy") > /proc/sys/kernel/plugsched_watchdog_ms
chmod 1777 /tmp
sng="stress-ng --temp-path /tmp --timeout ${secs}s --metrics-brief"
\$sng --cpu 2 --switch 2 --yield 2 --fork 2 --schedpolicy 2 --affinity 2 --nice 2 \
	--pipe 2 --futex 2 --hrtimers 2 > /tmp/sng.out 2>&1 &
s1=\$!
grep -q ^nobody: /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534::/tmp:/bin/sh' >> /etc/passwd
su -s /bin/sh nobody -c "\$sng --exec 2" > /tmp/sng-exec.out 2>&1 &
s2=\$!
plugsched_test churn $secs > /tmp/churn.out 2>&1 &
c=\$!
plugsched_test knobfuzz $secs $(torture_knobs "$policy") > /tmp/knob.out 2>&1 &
k=\$!
ncpu=\$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
# (Offlining fails with EBUSY while SCHED_DEADLINE tasks of the
# schedpolicy stressor need the CPU's bandwidth: counted apart.)
hp=0 hpbusy=0 hpfail=0 end=\$(( \$(date +%s) + $secs - 2 ))
while [ \$(date +%s) -lt \$end ]; do
	for cpu in \$(seq 1 \$((ncpu - 1))); do
		f=/sys/devices/system/cpu/cpu\$cpu/online
		if echo 0 2>/tmp/hp.err > \$f; then
			hp=\$((hp + 1))
		elif grep -q busy /tmp/hp.err; then
			hpbusy=\$((hpbusy + 1))
		else
			hpfail=\$((hpfail + 1))
		fi
		sleep 0.2
		[ \$(cat \$f) = 1 ] || echo 1 > \$f || hpfail=\$((hpfail + 1))
	done
done
wait \$s1; r1=\$?
wait \$s2; r2=\$?
# Each helper's whole output (its plan included, for short_plans) and its
# exit status: one that died half way must not pass for one that passed.
wait \$c; rc=\$?; cat /tmp/churn.out; echo '# t-end'
[ \$rc = 0 ] && echo 'ok 1 churn exited 0' || echo "not ok 1 churn exited \$rc"
wait \$k; rc=\$?; cat /tmp/knob.out; echo '# t-end'
[ \$rc = 0 ] && echo 'ok 1 knobfuzz exited 0' || echo "not ok 1 knobfuzz exited \$rc"
grep -q 'successful run completed' /tmp/sng.out && [ \$r1 = 0 ] && echo "ok 1 stress-ng scheduler stressors completed (${secs}s)" || { echo "not ok 1 stress-ng scheduler stressors: exit \$r1"; tail -5 /tmp/sng.out | sed 's/^/# /'; }
grep -q 'successful run completed' /tmp/sng-exec.out && [ \$r2 = 0 ] && echo 'ok 1 stress-ng exec stressor completed' || { echo "not ok 1 stress-ng exec stressor: exit \$r2"; tail -5 /tmp/sng-exec.out | sed 's/^/# /'; }
missing=
for s in cpu switch yield fork schedpolicy affinity nice pipe futex hrtimers; do
	grep -q "metrc: .* \$s  *[1-9][0-9]* " /tmp/sng.out || missing="\$missing \$s"
done
grep -q "metrc: .* exec  *[1-9][0-9]* " /tmp/sng-exec.out || missing="\$missing exec"
[ -z "\$missing" ] && echo 'ok 1 every stressor reported work done' || echo "not ok 1 stressors without work:\$missing"
[ \$hp -gt 0 ] && [ \$hpfail = 0 ] && echo "ok 1 \$hp CPU offline/online cycles (\$hpbusy offlines refused: deadline bandwidth)" || echo "not ok 1 \$hp CPU offline/online cycles, \$hpfail failed writes"
sleep 1
left=\$(grep -l -E '^(stress-ng|plugsched_test)' /proc/[0-9]*/comm 2>/dev/null | wc -l)
zombies=\$(grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l)
[ "\$left" = 0 ] && [ "\$zombies" = 0 ] && echo 'ok 1 every process started was reaped' || echo "not ok 1 \$left stress processes left, \$zombies zombies"
EOT
}

# short_plans LOG: selftests in a boot log that printed fewer results than
# their plan ("1..N") before their totals, the next plan, the end of their
# output (t's "# t-end") or of the log, each as "test planned got". A line
# lost on the way, or a test that died half way, shows here. Tests skip
# before they plan; a skip after it would add a line, so only a short
# count is wrong.
short_plans() {
	sed -n '/PLUGSCHED-BEGIN/,$p' "$1" | tr -d '\r' | awk '
	function check() { if (plan >= 0 && got < plan) print name, plan, got; plan = -1 }
	BEGIN { plan = -1 }
	/^# plugsched_test / { name = $3 }
	/^1\.\.[0-9]+/ { check(); plan = substr($1, 4) + 0; got = 0; next }
	/^(ok|not ok) [0-9]/ { if (plan >= 0) got++ }
	/^# Totals/ || /^# t-end/ { check() }
	END { check() }'
}
