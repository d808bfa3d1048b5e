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
xz-utils perl python3 kmod gnuplot-nox shellcheck"

# ccache shared by every clone of the project on this machine.
export CCACHE_BASEDIR=$TOP
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros
export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Depend mode: a miss costs the compile alone, where by default ccache
# first runs the preprocessor to hash its output. From an empty cache the
# production kernel took 6 min 50 s by default, 5 min 4 s in depend mode
# and 4 min 40 s with no ccache; hits are direct-mode hits as before. The
# kernel's -Wp,-MMD gives ccache the dependency file it needs.
export CCACHE_DEPEND=1
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=plugsched KBUILD_BUILD_HOST=plugsched

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# The host's stolen and total CPU time so far (/proc/stat, in ticks): a
# build machine that is itself a VM loses CPU to its hypervisor in bursts
# (20% seen), which stretches every timing in a TCG guest.
host_cpu_times() { awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat; }
# steal_pct "STEAL0 TOTAL0": percent of the host's CPU time stolen since.
steal_pct() {
	local now
	now=$(host_cpu_times)
	echo "$1 $now" | awk '{ d = $4 - $2; printf "%.1f", (d > 0 ? ($3 - $1) * 100 / d : 0) }'
}

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
		for f in include/linux/plugsched*.h kernel/sched/plugsched*.[ch] \
			 Documentation/scheduler/plugsched.rst \
			 tools/testing/selftests/plugsched/*; do
			[ -f "$f" ] && echo "$f:$f"
		done
	})
}

# The core's files other than plugsched.c, as short names (balance, ui...):
# the Makefile's plugsched-core list, from the patch of the series that adds it.
core_files() {
	sed -n '/^+plugsched-core :=/,/^+[^\t]/p' "$TOP"/patches/*.patch |
		sed -e 's/^+plugsched-core :=//' -e 's/^+//' -e 's/\\$//' | grep -v '^plugsched-' |
		tr ' \t' '\n\n' | sed -n 's/^plugsched_//p'
}

# policy_options VARIANT: every policy Kconfig offers (a bool prompt that
# names its sched=), as CONFIG_PLUGSCHED_<NAME>=y lines, for the prod or
# the debug test kernel; one that depends on DEBUG_KERNEL only for debug.
# A new policy's Kconfig entry is all the test kernels need.
policy_options() {
	awk -v debug="$([ "$1" = debug ] && echo 1 || echo 0)" '
		/^config / { c = $2; next }
		/^\tbool ".*\(sched=/ { p[c] = 1 }
		/^\tdepends on DEBUG_KERNEL/ { d[c] = 1 }
		END { for (c in p) if (debug || !(c in d)) print "CONFIG_" c "=y" }' \
		"$TOP/Kconfig" | sort
}

# available_in LOG: the policies a boot's kernel lists (eevdf apart), from
# the "AVAILABLE ..." line its guest script logged.
available_in() {
	grep -a '^AVAILABLE ' "$1" 2>/dev/null | tail -1 | tr -d '\r' | cut -d' ' -f2- |
		tr ' ' '\n' | grep -v -x -e eevdf -e '' | tr '\n' ' ' | sed 's/ $//'
}

# kernel_policies IMAGE: boot IMAGE (prod or debug) once and list its policies.
kernel_policies() {
	local img=$B/bzImage log=$B/available-$1.log
	[ "$1" = debug ] && img=$B/debug/bzImage
	PLUGSCHED_QUIET=1 "$TOP/tools/testing/plugsched/run.sh" -k "$img" -c 1 -l "$log" \
		"echo AVAILABLE \$(cat /sys/kernel/plugsched/available)" >/dev/null 2>&1 ||
		die "cannot boot $img to list its policies"
	available_in "$log"
}

# Lines a correct kernel never logs.
BAD_PATTERNS='WARNING:|BUG:|Oops|Kernel panic|UBSAN:|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|possible circular locking|possible recursive locking|inconsistent lock state|soft lockup|detected stall|blocked for more than|INFO: task|scheduling while atomic|sleeping function called from invalid context'

# The kernel's words for an ejection (plugsched_watchdog.c).
EJECT_PATTERNS='plugsched: watchdog: .* runnable on CPU [0-9]+ for|plugsched: SysRq: .* ejected'

# Lines of a guest script's shell error: a command not found, a syntax
# error (busybox runs the lines before it), a failed redirection.
GUEST_ERRORS='^/(guest/[^ ]*|cmd): line [0-9]+: |^sh: '

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
