#!/bin/bash
# make patches: write the whole patchset as a git format-patch series in
# out/patches/ (with a series file) and as out/plugsched-6.12.patch.
# --verify: also apply both to pristine trees, with git am and patch -p1.
# --check: only check that patches/series adds every file of the overlay
# exactly once (PLUGSCHED_SERIES names another series file to check).
. "$(dirname "$0")/lib.sh"

# The series as data (patches/series), checked before anything is built.
SERIES=${PLUGSCHED_SERIES:-$TOP/patches/series}
overlay_files | python3 "$TOP/tools/testing/plugsched/series.py" check "$SERIES" ||
	die "patches/series does not add every file of the overlay exactly once (above)"
[ "${1:-}" = --check ] && exit 0

ensure_packages
OUTD=$TOP/out
PG=$B/pristine-git
export GIT_AUTHOR_NAME="plugsched developers" GIT_AUTHOR_EMAIL=plugsched@localhost
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# A git repository of the pristine tree, made once (Debian's .gitignore
# ignores everything at the top level, hence add -f).
if [ ! -f "$PG/.git/.plugsched-ready" ]; then
	log "making a git repository of the pristine tree (once)"
	unpack_pristine "$PG"	# (the tarball again: quicker than a copy)
	git -C "$PG" init -q
	# No automatic gc: after 90,000 loose objects the first commit starts
	# one in the background that packs them, a core for minutes while the
	# kernel compiles; the repository stays on this machine.
	git -C "$PG" config gc.auto 0
	git -C "$PG" add -A -f
	git -C "$PG" commit -q -m "linux-source-6.12 (pristine)"
	git -C "$PG" tag -f pristine >/dev/null
	touch "$PG/.git/.plugsched-ready"
fi

g() { git -C "$PG" "$@"; }
g am --abort >/dev/null 2>&1 || true
g checkout -q -f -B plugsched pristine
g clean -q -f -d -x

# Each entry of the series committed in turn: its diff applied, its files
# added, its message kept.
tmp=$B/series-tmp
rm -rf "$tmp" && mkdir -p "$tmp"
n=0
while IFS=$'\t' read -r patch files; do
	n=$((n + 1))
	g mailinfo "$tmp/msg" "$tmp/diff" < "$TOP/patches/$patch" > "$tmp/info" ||
		die "patches/$patch: not a patch in mail form"
	subject=$(sed -n 's/^Subject: //p' "$tmp/info")
	[ -n "$subject" ] || die "patches/$patch has no subject"
	if [ -s "$tmp/diff" ]; then
		g apply --index --whitespace=nowarn "$tmp/diff" ||
			die "patches/$patch does not apply after the entries before it"
	fi
	for f in $files; do
		[ "$f" = Kconfig ] && continue
		mkdir -p "$PG/$(dirname "$f")"
		cp "$TOP/$f" "$PG/$f"
		g add -f "$f"
	done
	# Kconfig grows with the policies: each one's entries come with its file.
	if [ -f "$PG/kernel/Kconfig.plugsched" ] || echo " $files " | grep -q " Kconfig "; then
		python3 "$TOP/tools/testing/plugsched/series.py" kconfig "$SERIES" "$n" \
			> "$PG/kernel/Kconfig.plugsched"
		g add -f kernel/Kconfig.plugsched
	fi
	{ echo "$subject"; echo; cat "$tmp/msg"; } > "$tmp/message"
	g commit -q --allow-empty -F "$tmp/message" ||
		die "patches/$patch: nothing to commit"
	[ -n "$(g diff HEAD~1 HEAD --stat)" ] || die "patches/$patch changes nothing"
done < <(python3 "$TOP/tools/testing/plugsched/series.py" plan "$SERIES")
# The last entry leaves the whole overlay in the tree, as it is here.
for pair in $(overlay_files); do
	cmp -s "$TOP/${pair%%:*}" "$PG/${pair#*:}" ||
		die "${pair#*:} after the series differs from ${pair%%:*}"
done

rm -rf "$OUTD/patches" && mkdir -p "$OUTD/patches"
g format-patch -q -o "$OUTD/patches" pristine..plugsched
(cd "$OUTD/patches" && ls 0*.patch > series)
# The cover letter (patches/cover-letter, with the series' shortlog and
# diffstat) beside out/patches, so that git am out/patches/*.patch stays
# the series alone.
rm -rf "$tmp/cover" && g format-patch -q --cover-letter -o "$tmp/cover" pristine..plugsched
nr=$(wc -l < "$OUTD/patches/series")
python3 - "$TOP/patches/cover-letter" "$tmp/cover/0000-cover-letter.patch" "$nr" \
	> "$OUTD/0000-cover-letter.patch" <<'PY' || die "patches/cover-letter: cannot make the cover letter"
import sys
text, cover, nr = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
subject, _, blurb = text.partition("\n\n")
subject = subject.removeprefix("Subject: ").replace("NN", nr)
assert "*** SUBJECT HERE ***" in cover and "*** BLURB HERE ***" in cover
cover = cover.replace("[PATCH 00/%s] *** SUBJECT HERE ***" % nr, subject)
sys.stdout.write(cover.replace("*** BLURB HERE ***", blurb.rstrip("\n")))
PY
g diff pristine plugsched > "$OUTD/plugsched-6.12.patch"
# One line per patch: its size, for review (a patch over ~1,500 added
# lines is hard to review in one sitting).
g log --reverse --format='%h %s' --shortstat pristine..plugsched | awk '
	/^[0-9a-f]+ / { s = $0; sub(/^[0-9a-f]+ /, "", s); next }
	/changed/ { ins = 0; del = 0
		for (i = 1; i <= NF; i++) { if ($(i) ~ /^insertion/) ins = $(i-1); if ($(i) ~ /^deletion/) del = $(i-1) }
		printf "%04d %-66.66s %3d files +%-5d -%d%s\n", ++k, s, $1, ins, del, (ins > 1500 ? "  (over 1500)" : "") }' >&2
log "wrote $(wc -l < "$OUTD/patches/series") patches to out/patches and out/plugsched-6.12.patch"

# What a user gets: git am of out/patches onto the pristine tree, in the
# branch "applied" that make kernel, make check and make test build.
g checkout -q -f -B applied pristine
g am -q "$OUTD"/patches/0*.patch || { g am --abort; die "git am of out/patches onto pristine failed"; }
[ -z "$(g diff plugsched applied)" ] || die "git am of out/patches differs from the series"

[ "${1:-}" = --verify ] || exit 0
echo "ok: git am of out/patches onto pristine"

# A pristine tree to apply to, unpacked once (only --verify needs it).
if [ ! -f "$PRISTINE/.plugsched-pristine" ]; then
	unpack_pristine "$PRISTINE" && touch "$PRISTINE/.plugsched-pristine"
fi

# patch -p1 of the series, then of the combined patch, onto pristine copies.
# Copies of hard links: patch(1) writes each file it changes anew, so the
# pristine tree stays as it is, and a copy is seconds, not a minute of I/O.
for mode in series combined; do
	rm -rf "$B/verify" && cp -al "$PRISTINE" "$B/verify"
	if [ $mode = series ]; then
		for p in $(cat "$OUTD/patches/series"); do
			patch -s -p1 -d "$B/verify" < "$OUTD/patches/$p" || die "patch -p1 $p failed"
		done
	else
		patch -s -p1 -d "$B/verify" < "$OUTD/plugsched-6.12.patch" || die "patch -p1 combined failed"
	fi
	diff -r -q "$B/verify/kernel" "$PG/kernel" >/dev/null || die "$mode: kernel/ differs from the patchset"
	echo "ok: patch -p1 of the $mode patch onto pristine"
done
# make apply: applies once; a second time it fails and changes nothing.
rm -rf "$B/verify" && cp -al "$PRISTINE" "$B/verify"
"$(dirname "$0")/apply.sh" "$B/verify" >/dev/null 2>&1 || die "make apply to a pristine tree failed"
diff -r -q "$B/verify/kernel" "$PG/kernel" >/dev/null || die "make apply: kernel/ differs from the patchset"
before=$(find "$B/verify" -printf '%p %s %T@\n' | sort | sha1sum)
if "$(dirname "$0")/apply.sh" "$B/verify" > "$B/apply-again.log" 2>&1; then
	die "make apply onto an already patched tree did not fail"
fi
grep -q "FAILED\|Reversed" "$B/apply-again.log" || die "make apply did not name the failing hunks"
[ "$before" = "$(find "$B/verify" -printf '%p %s %T@\n' | sort | sha1sum)" ] ||
	die "a failed make apply changed the tree"
echo "ok: make apply applies, and a failing one names the hunks and changes nothing"
rm -rf "$B/verify"
# (the hard links above shared no change with the pristine tree)
if [ -e "$PRISTINE/kernel/sched/plugsched.c" ] ||
   ! cmp -s "$PRISTINE/kernel/sched/core.c" <(g show pristine:kernel/sched/core.c); then
	die "the pristine tree in $PRISTINE was changed: remove it, make test unpacks it again"
fi
g checkout -q -f applied
