#!/bin/bash
# make check: checkpatch --strict on the new files and the patches, sparse
# on our objects (warnings in our files or in lines our patches add), and
# compiles of the patched tree in every configuration a user may pick.
# Prints one "ok"/"not ok" line per check; exits non-zero on a failure.
. "$(dirname "$0")/lib.sh"

# The production kernel, built in its own tree by README's steps.
obj=${CHECK_OBJ:-$B/linux-6.12}
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

# Every patch of the series as make patches writes it (out/patches, made
# by make kernel), with its commit message, and the cover letter with
# the series' shortlog and diffstat (out/0000-cover-letter.patch).
# vmlinux.lds.h is a linker script, where checkpatch reads "*(__x)" as
# C: that one CHECK is dropped for lines of that file only.
pdir=$TOP/out/patches
npatch=$(ls "$pdir"/0*.patch 2>/dev/null | wc -l)
cover=$TOP/out/0000-cover-letter.patch
out=$(for p in "$pdir"/0*.patch "$cover"; do
	# (outside any git work tree: inside one checkpatch misreads patches)
	(cd / && perl "$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse \
		--ignore FILE_PATH_CHANGES,GIT_COMMIT_ID "$p" 2>&1) |
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
report "$([ -z "$out" ] && [ "$npatch" -gt 0 ] && [ -s "$cover" ] && echo 0 || echo 1)" \
	"checkpatch --strict on the $npatch patches of out/patches and the cover letter"

# The series must add every file of the overlay: one left out of
# patches/series fails make patches, with its name (negative control).
bad=$B/series-dropped
grep -v -x -F "$(printf '\tkernel/sched/plugsched_group.c')" patches/series > "$bad"
rc=0
out=$(PLUGSCHED_SERIES=$bad "$TOP/tools/testing/plugsched/patches.sh" --check 2>&1) || rc=$?
echo "$out" | head -3 | sed 's/^/# /'
report "$([ $rc != 0 ] && echo "$out" | grep -q 'plugsched_group.c is in no entry' && echo 0 || echo 1)" \
	"make patches fails, naming the file, when patches/series leaves one out"
rc=0
out=$("$TOP/tools/testing/plugsched/patches.sh" --check 2>&1) || rc=$?
[ $rc = 0 ] || echo "$out" | sed 's/^/# /'
report $rc "patches/series adds every file of the overlay exactly once"

# The core names no policy (issue 17): policies are the files that are not
# the core's, and the core's files neither call one by its symbols nor by
# its name ("o1", sched=o1).
# The core's files are the Makefile's plugsched-core list (core patch).
core_names=$(core_files | tr "\n" " ")
core="kernel/sched/plugsched.c kernel/sched/plugsched_internal.h"
for n in $core_names; do
	[ "$n" = homenode ] || core+=" kernel/sched/plugsched_$n.c"
done
out=
for f in kernel/sched/plugsched_*.c; do
	n=${f#kernel/sched/plugsched_} n=${n%.c}
	case " $core_names kunit " in *" $n "*) continue ;; esac
	case $n in *_kunit) continue ;; esac
	# shellcheck disable=SC2086 # one word per file
	out+=$(grep -n -E "plugsched_${n}_|\"$n\"|sched=$n\b" $core || true)
done
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
report "$([ -z "$out" ] && echo 0 || echo 1)" "no policy is named in the core's files"

# README's Layout names every file of the kernel side (kernel/sched/,
# include/linux/) and no file that is gone.
out=$(cd "$TOP" && {
	for f in include/linux/plugsched*.h kernel/sched/plugsched*.[ch]; do
		case $f in *_kunit.c) continue ;; esac
		grep -q "^    $f " README || echo "README's Layout lacks $f"
	done
	sed -n '/^Layout$/,/^[A-Z][a-z].*$/p' README | grep -o -E '(include|kernel)/[a-z/_]+\.[ch]' |
		while read -r f; do [ -f "$f" ] || echo "README's Layout names $f, which is gone"; done
})
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
report "$([ -z "$out" ] && echo 0 || echo 1)" "README's Layout matches the files"

# The guest scripts, run by busybox sh: POSIX sh, shellcheck clean.
out=$(cd "$TOP/tools/testing/plugsched/guest" && shellcheck -s sh -x --source-path=SCRIPTDIR ./*.sh 2>&1)
report $? "shellcheck on the guest scripts (tools/testing/plugsched/guest)"
[ -z "$out" ] || echo "$out" | head -20 | sed 's/^/# /'

# sparse: rebuild every object we add and the files our hooks touch with
# C=2, in the production tree and in the debug one (CONFIG_PLUGSCHED_DEBUG
# code, the test-only policy). A build error is a failure of its own.
ours_objs() { # tree: the kernel/sched/plugsched*.o its config built
	(cd "$1" && ls kernel/sched/plugsched*.o 2>/dev/null) | tr '\n' ' '
}
sparse_out=
for tree in "$obj" "$B/debug"; do
	[ -f "$tree/.config" ] || { report 1 "sparse: no built tree $tree"; continue; }
	log "sparse on kernel/sched in ${tree#"$TOP"/}"
	# As each was built: in its tree with gcc (README's steps, ccache by
	# PATH), or out of the tree of git am with ccache gcc.
	where=(-C "$KSRC" O="$tree" CC="ccache gcc" HOSTCC="ccache gcc")
	[ "$tree" = "$B/linux-6.12" ] && where=(-C "$tree")
	# shellcheck disable=SC2046 # one word per object
	out=$(PATH=/usr/lib/ccache:$PATH make -s "${where[@]}" C=2 $(ours_objs "$tree") \
		kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o \
		kernel/sched/build_utility.o 2>&1)
	report $? "sparse build of our objects in ${tree#"$TOP"/} ($(ours_objs "$tree" | wc -w) objects)"
	sparse_out+=$(echo "$out" | grep -E "warning:|error:" || true)$'\n'
done
ours=$(python3 - "$sparse_out" <<'PY'
import re, subprocess, sys
added = {}
# the series as one diff: line numbers of the final tree
for p in ["out/plugsched-6.12.patch"]:
    cur = None
    for line in open(p):
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
# The core's files call only the files before them, in the order of the
# Makefile's plugsched-core list (plugsched_internal.h says why each is
# where it is), so no two call each other: nm on the production tree's
# objects; two files made to call each other must fail (negative control).
core_objs=$obj/kernel/sched/plugsched.o
for n in $(core_files); do
	[ -f "$obj/kernel/sched/plugsched_$n.o" ] && core_objs+=" $obj/kernel/sched/plugsched_$n.o"
done
rc=0
# shellcheck disable=SC2086 # one word per object
out=$("$TOP/tools/testing/plugsched/callorder.sh" $core_objs 2>&1) || rc=$?
report $rc "the core's files call one way only ($(echo "$core_objs" | wc -w) objects)"
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
neg=$B/callorder-neg && mkdir -p "$neg"
echo 'void b(void); void a(void) { b(); }' | gcc -x c -c -o "$neg/a.o" -
echo 'void a(void); void b(void) { a(); }' | gcc -x c -c -o "$neg/b.o" -
rc=0
"$TOP/tools/testing/plugsched/callorder.sh" "$neg/a.o" "$neg/b.o" > /dev/null || rc=$?
report "$([ $rc = 1 ] && echo 0 || echo 1)" "the call-order check fails on two files calling each other"

# Compile kernel/sched/ with other configurations: SMP off, and the
# scheduler options of a distribution kernel on top of the test config.
cfg=$TOP/tools/testing/plugsched/configs
# (host programs through ccache too: each tree builds them again)
vmake() { make -s -C "$KSRC" O="$vobj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
for variant in up distro; do
	vobj=$B/compile-$variant
	frags=$cfg/$variant.config
	[ $variant = distro ] && frags="$cfg/base.config $cfg/distro.config"
	log "compiling kernel/sched/ with the $variant config"
	mkdir -p "$vobj"
	ok=1
	{ vmake tinyconfig &&
	  KCONFIG_CONFIG=$vobj/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$vobj" \
		"$vobj/.config" $frags &&
	  vmake olddefconfig &&
	  grep -q "^CONFIG_PLUGSCHED_O1=y" "$vobj/.config" &&
	  vmake -j"$JOBS" prepare &&
	  vmake -j"$JOBS" W=1 kernel/sched/ ; } \
		> "$vobj/compile.log" 2>&1 && ok=0
	warn=$(grep -E "plugsched.*(warning|error)" "$vobj/compile.log" | head -5 || true)
	[ -z "$warn" ] || { echo "$warn" | sed 's/^/# /'; ok=1; }
	[ $ok = 0 ] || tail -5 "$vobj/compile.log" | sed 's/^/# /'
	report $ok "kernel/sched/ compiles without warnings in our files with the $variant config"
done

# Every subset a user may pick, in one tree reconfigured in turn (kbuild
# recompiles only what depends on a changed option): the option off, each
# policy alone (numa selects o1), NUMA off on SMP. Each compiles the files
# the patches touch (kernel/sched/, users of sched.h's new member, the
# linker script) and leaves no plugsched_* symbol undefined in
# kernel/sched/built-in.a: a policy that needs another must select it.
vobj=$B/compile-subsets
mkdir -p "$vobj"
vmake tinyconfig > "$vobj/tinyconfig.log" 2>&1 &&
	cp "$vobj/.config" "$vobj/tiny.config"
subset() { # name fragment-lines...
	local name=$1 ok=1 undef vlog
	shift
	vlog=$vobj/$(echo "$name" | tr -c 'A-Za-z0-9_=\n' _).log
	printf '%s\n' "$@" > "$vobj/subset.config"
	log "compiling with $name"
	{ cp "$vobj/tiny.config" "$vobj/.config" &&
	  KCONFIG_CONFIG=$vobj/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$vobj" \
		"$vobj/.config" "$cfg/base.config" "$vobj/subset.config" &&
	  vmake olddefconfig &&
	  vmake -j"$JOBS" W=1 kernel/sched/ \
		kernel/fork.o kernel/exit.o init/init_task.o arch/x86/kernel/vmlinux.lds; } \
		> "$vlog" 2>&1 && ok=0
	# each line of the fragment holds after olddefconfig, or the subset
	# is not what its name says
	for l in "$@"; do
		sym=${l#\# } sym=${sym%% *} sym=${sym%%=*}
		case $l in
		"# "*) grep -q "^$sym=" "$vobj/.config" && { echo "# $sym is set"; ok=1; } ;;
		*) grep -qx "$l" "$vobj/.config" || { echo "# $l did not hold"; ok=1; } ;;
		esac
	done
	warn=$(grep -E "plugsched.*(warning|error)" "$vlog" | head -5 || true)
	[ -z "$warn" ] || { echo "$warn" | sed 's/^/# /'; ok=1; }
	undef=$(nm "$vobj/kernel/sched/built-in.a" 2>/dev/null | awk '
		$1 == "U" && $2 ~ /^plugsched_/ { u[$2] = 1 }
		NF == 3 && $3 ~ /^plugsched_/ { d[$3] = 1 }
		END { for (s in u) if (!(s in d)) print s }')
	[ -z "$undef" ] || { echo "# undefined: $undef"; ok=1; }
	[ $ok = 0 ] || tail -5 "$vlog" | sed 's/^/# /'
	report $ok "the patched tree compiles with $name, no plugsched symbol left undefined"
}
subset "CONFIG_PLUGSCHED=n" "# CONFIG_PLUGSCHED is not set"
# The policies a user may build, as Kconfig offers them (a bool prompt
# naming sched=, not a test kernel's); each alone, and the default.
policies=$(policy_options prod | sed -e 's/^CONFIG_PLUGSCHED_//' -e 's/=y$//')
selects() { # POLICY: the PLUGSCHED_* options its Kconfig entry selects
	awk -v c="config PLUGSCHED_$1" '$0 == c { f = 1; next } /^(config|choice|endchoice)/ { f = 0 }
		f && $1 == "select" { print substr($2, 11) }' "$TOP/Kconfig"
}
for p in $policies; do
	frag=()
	for q in $policies; do
		[ $q = $p ] || selects $p | grep -q -x "$q" || frag+=("# CONFIG_PLUGSCHED_$q is not set")
	done
	lower=$(echo "$p" | tr 'A-Z' 'a-z')
	subset "only CONFIG_PLUGSCHED_$p" "${frag[@]}" "CONFIG_PLUGSCHED_DEFAULT_NAME=\"$lower\""
done
subset "CONFIG_NUMA=n on SMP" "# CONFIG_NUMA is not set" "# CONFIG_PLUGSCHED_NUMA is not set"

# Adding a policy is its file, its Kconfig entry and its series entry
# (Documentation's "Adding a policy"), nothing else: in a copy of the
# project, rr is taken out, then put back by those three steps only. Both
# states pass the series check, and the test kernels' policies follow
# (policy_options), without rr and with it.
drill=$B/policy-drill
rm -rf "$drill" && mkdir -p "$drill"
(cd "$TOP" && git ls-files -co --exclude-standard -z |
	rsync -a --from0 --files-from=- . "$drill/")
rr_kconfig=$(awk '/^config PLUGSCHED_RR$/ { f = 1 } f && /^(config|endif|endmenu)/ && !/RR$/ { f = 0 }
	f' "$TOP/Kconfig")
rr_series=$(awk '/^sched-plugsched-rr.patch$/ { f = 1; print; next } f && /^\t/ { print; next } { f = 0 }' \
	"$TOP/patches/series")
drill_state() { # what: the series check and the debug kernel's policies in the copy
	local rc=0
	"$drill/tools/testing/plugsched/patches.sh" --check > "$drill/check.log" 2>&1 || rc=$?
	echo "series=$rc $(TOP=$drill; policy_options debug | grep -c RR)"
}
rm "$drill/kernel/sched/plugsched_rr.c" "$drill/patches/sched-plugsched-rr.patch"
awk '/^config PLUGSCHED_RR$/ { f = 1 } f && /^(config|endif|endmenu)/ && !/RR$/ { f = 0 } !f' \
	"$TOP/Kconfig" > "$drill/Kconfig"
awk '/^sched-plugsched-rr.patch$/ { f = 1; next } f && /^\t/ { next } { f = 0; print }' \
	"$TOP/patches/series" > "$drill/patches/series"
out=$(drill_state)
# step 1: the file; step 3: the Kconfig entry (before "endif # PLUGSCHED");
# step 6: the series entry, a message-only patch and the file
cp "$TOP/kernel/sched/plugsched_rr.c" "$drill/kernel/sched/"
awk -v entry="$rr_kconfig" '/^endif # PLUGSCHED$/ { print entry; print "" } { print }' \
	"$drill/Kconfig" > "$drill/Kconfig.new" && mv "$drill/Kconfig.new" "$drill/Kconfig"
cp "$TOP/patches/sched-plugsched-rr.patch" "$drill/patches/"
printf '%s\n' "$rr_series" >> "$drill/patches/series"
out+=" / $(drill_state)"
[ "$out" = "series=0 0 / series=0 1" ] || echo "# drill: $out (want series=0 0 / series=0 1)"
report "$([ "$out" = "series=0 0 / series=0 1" ] && echo 0 || echo 1)" \
	"a policy taken out and added back by Adding a policy's steps: series and test kernels follow"

# Every patch of the series builds (make test runs this beside the bench).
if [ -z "${PLUGSCHED_NO_BISECT:-}" ]; then
	"$TOP/tools/testing/plugsched/bisect.sh" || fails=$((fails + 1))
fi

exit $((fails > 0))
