#!/bin/bash
# make check: checkpatch --strict on the new files and the patches, and
# sparse on our objects (warnings in our files or in lines our patches add).
# Prints one "ok"/"not ok" line per check; exits non-zero on a failure.
. "$(dirname "$0")/lib.sh"

obj=${CHECK_OBJ:-$B/obj}
[ -f "$KSRC/scripts/checkpatch.pl" ] && [ -f "$obj/.config" ] ||
	die "no built tree: run make kernel first"
fails=0
report() { # status description
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fails=$((fails + 1)); fi
}

cd "$TOP"
files=$(overlay_files | cut -d: -f1 | grep -E '\.(c|h)$')
out=$(perl "$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files 2>&1 | grep -E "ERROR|WARNING|CHECK" || true)
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
report "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict on the new files"

# vmlinux.lds.h is a linker script, where checkpatch reads "*(__x)" as C:
# that one CHECK is dropped for lines of that file only.
out=$(for p in $(grep -v '^#' patches/series); do
	# (outside any git work tree: inside one checkpatch misreads patches)
	(cd / && perl "$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse \
		--ignore FILE_PATH_CHANGES,GIT_COMMIT_ID "$TOP/patches/$p" 2>&1) |
		grep -E "ERROR|WARNING|CHECK" || true
done | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"(\S+\.patch):(\d+): CHECK: spaces preferred around that .\*.", line)
    if m:
        cur = None
        for i, l in enumerate(open(m.group(1)), 1):
            if l.startswith("+++ b/"):
                cur = l[6:].strip()
            if i == int(m.group(2)):
                break
        if cur == "include/asm-generic/vmlinux.lds.h":
            continue
    sys.stdout.write(line)
')
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
report "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict on patches/"

# sparse: rebuild our objects and the files our hooks touch with C=2.
log "sparse on kernel/sched"
sparse_out=$(make -s -C "$KSRC" O="$obj" CC="ccache gcc" C=2 \
	kernel/sched/plugsched.o kernel/sched/plugsched_o1.o kernel/sched/plugsched_numa.o \
	kernel/sched/core.o \
	kernel/sched/build_utility.o 2>&1 | grep -E "warning:|error:" || true)
ours=$(python3 - "$sparse_out" <<'PY'
import re, subprocess, sys
added = {}
for p in open("patches/series").read().split():
    if p.startswith("#"):
        continue
    cur = None
    for line in open("patches/" + p):
        m = re.match(r"\+\+\+ b/(.*)", line)
        if m:
            cur = m.group(1); continue
        m = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", line)
        if m:
            n = int(m.group(1)); continue
        if cur is None or line.startswith("---"):
            continue
        if line.startswith("+"):
            added.setdefault(cur, set()).add(n); n += 1
        elif line.startswith(" "):
            n += 1
for w in sys.argv[1].splitlines():
    m = re.match(r"(?:\.\./)*(?:.*/build/src/)?([^:]+):(\d+):", w)
    if not m:
        continue
    f, ln = m.group(1), int(m.group(2))
    if "plugsched" in f or ln in added.get(f, ()):
        print(w)
PY
)
[ -z "$ours" ] || echo "$ours" | sed 's/^/# /'
report "$([ -z "$ours" ] && echo 0 || echo 1)" "sparse: no warning in our files or hunks"
# Compile kernel/sched/ with other configurations: SMP off, and the
# scheduler options of a distribution kernel on top of the test config.
cfg=$TOP/tools/testing/plugsched/configs
for variant in up distro; do
	vobj=$B/compile-$variant
	frags=$cfg/$variant.config
	[ $variant = distro ] && frags="$cfg/base.config $cfg/distro.config"
	log "compiling kernel/sched/ with the $variant config"
	mkdir -p "$vobj"
	ok=1
	{ make -s -C "$KSRC" O="$vobj" CC="ccache gcc" tinyconfig &&
	  KCONFIG_CONFIG=$vobj/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$vobj" \
		"$vobj/.config" $frags &&
	  make -s -C "$KSRC" O="$vobj" CC="ccache gcc" olddefconfig &&
	  grep -q "^CONFIG_PLUGSCHED_O1=y" "$vobj/.config" &&
	  make -s -C "$KSRC" O="$vobj" CC="ccache gcc" -j"$JOBS" prepare &&
	  make -s -C "$KSRC" O="$vobj" CC="ccache gcc" -j"$JOBS" W=1 kernel/sched/ ; } \
		> "$vobj/compile.log" 2>&1 && ok=0
	warn=$(grep -E "plugsched.*(warning|error)" "$vobj/compile.log" | head -5 || true)
	[ -z "$warn" ] || { echo "$warn" | sed 's/^/# /'; ok=1; }
	[ $ok = 0 ] || tail -5 "$vobj/compile.log" | sed 's/^/# /'
	report $ok "kernel/sched/ compiles without warnings in our files with the $variant config"
done

exit $((fails > 0))
