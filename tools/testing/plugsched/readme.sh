#!/bin/bash
# README's "Using it on your own kernel", run as written.
#   readme.sh build CONFIG  make apply to a pristine tree (build/linux-6.12),
#                           CONFIG as the user's config, make olddefconfig,
#                           make: the production test kernel (kernel.sh)
#   readme.sh unpack        the pristine tree build starts from, ahead
#   readme.sh boot          README's claim of olddefconfig's defaults; its
#                           sched= line booted, its checks run
# Prints "ok"/"not ok" lines. README's "make modules_install install" is
# left out: it would write the build machine's /boot; a boot under QEMU
# stands for it. A tree already applied by this script is taken back to
# pristine first (patch -R of what it applied), so that rebuilds only
# recompile what the patchset's change touches.
. "$(dirname "$0")/lib.sh"
set +e

TREE=$B/linux-6.12
OUT=$B/test

ok() { # status description
	if [ "$1" = 0 ]; then echo "ok - README: $2"; else echo "not ok - README: $2"; fi
}

# block N: the Nth indented block of README's section, comments kept.
block() {
	awk -v want="$1" '
		/^Using it on your own kernel$/ { on = 1; getline; next }
		on && /^-+$/ { exit }
		on && /^    / { if (!inb) { n++; inb = 1 } if (n == want) print substr($0, 5); next }
		on { inb = 0 }' "$TOP/README"
}
nocomment() { sed -e 's/ \+# .*$//'; }

build() {
	local script user=$1 bad=0 applied=$TREE/.plugsched-applied.patch patch=$TOP/out/plugsched-6.12.patch
	[ -f "$user" ] || { ok 1 "no config to build with ($user)"; return 1; }
	script=$(block 1 | nocomment)
	# The README's paths and its install step, each of which must be there.
	# shellcheck disable=SC2016 # the lines as README has them, unexpanded
	for want in 'make apply KSRC=/usr/src/linux-6.12' 'cd /usr/src/linux-6.12' \
		    'cp /boot/config-$(uname -r) .config' 'make olddefconfig' \
		    'make -j$(nproc) && make modules_install install'; do
		grep -q -x -F -- "$want" <<< "$script" || { echo "# README has no line: $want"; bad=1; }
	done
	ok $bad "its build steps are the ones this script runs"
	[ $bad = 0 ] || return 1
	script=${script//\/usr\/src\/linux-6.12/$TREE}
	script=${script//\/boot\/config-\$(uname -r)/$user}
	script=${script// && make modules_install install/}
	# (kernel.sh made out/ fresh; make apply would regenerate a stale one)
	if [ -f "$applied" ] && cmp -s "$applied" "$patch"; then
		log "README: $TREE has the patchset applied already"
		script=$(grep -v '^make apply ' <<< "$script")
	elif [ -f "$applied" ] && patch -R -s -p1 -d "$TREE" < "$applied" > /dev/null 2>&1; then
		log "README: took $TREE back to pristine"
		rm -f "$applied"
	elif [ -f "$TREE/.plugsched-pristine" ]; then
		log "README: a pristine tree in $TREE (unpacked ahead)"
	else
		log "README: a pristine tree in $TREE"
		unpack_pristine "$TREE"
	fi
	rm -f "$TREE/.plugsched-pristine"
	printf '%s\n' "$script" | sed 's/^/# $ /'
	# ccache by PATH, as a user may have it: the commands stay as written.
	(cd "$TOP" && PATH=/usr/lib/ccache:$PATH bash -e -c "$script")
	bad=$?
	[ -f "$applied" ] || [ ! -f "$TREE/kernel/sched/plugsched.c" ] || cp "$patch" "$applied"
	ok $bad "make apply, make olddefconfig and make build the production kernel"
	# kernel.sh goes on to boot what this built: a failed build must stop it.
	return $bad
}

# unpack: the pristine tree build starts from, unpacked ahead of it (by
# kernel.sh, beside the making of the series) unless the tree is there.
unpack() {
	[ -f "$TREE/.plugsched-applied.patch" ] || [ -f "$TREE/.plugsched-pristine" ] && return 0
	unpack_pristine "$TREE" && touch "$TREE/.plugsched-pristine"
}

# "make olddefconfig  # CONFIG_PLUGSCHED and every policy: y": the
# production config without its plugsched lines, as a config from before
# the patchset is, through olddefconfig of the patched tree.
defaults() {
	local d=$B/readme-defaults bad=0 o
	rm -rf "$d" && mkdir -p "$d"
	grep -v PLUGSCHED "$TREE/.config" > "$d/.config"
	make -s -C "$KSRC" O="$d" olddefconfig > "$d/log" 2>&1 || bad=1
	for o in CONFIG_PLUGSCHED $(policy_options prod | cut -d= -f1); do
		grep -q -x "$o=y" "$d/.config" || { echo "# not y: $o"; bad=1; }
	done
	ok $bad "make olddefconfig turns CONFIG_PLUGSCHED and every policy on"
}

boot() {
	local cmdline sched extra checks names n=0 cmd want guest='' got flat rc
	mkdir -p "$OUT"
	[ -f "$TREE/arch/x86/boot/bzImage" ] || { ok 1 "no image to boot (the build failed)"; return 1; }
	defaults
	cmdline=$(block 2 | nocomment | head -1)
	sched=$(sed -n 's/.*\bsched=\([^ ]*\).*/\1/p' <<< "$cmdline")
	extra=" $cmdline "
	extra=${extra/ sched=$sched / }
	checks=$(block 3)
	names=$(printf 'eevdf\n'; policy_options prod | sed 's/^CONFIG_PLUGSCHED_\(.*\)=y$/\1/' | tr '[:upper:]' '[:lower:]')
	while IFS= read -r line; do
		n=$((n + 1))
		cmd=$(nocomment <<< "$line")
		guest+="echo README-CHECK $n; $cmd; echo README-RC $n \$?; "
	done <<< "$checks"
	PLUGSCHED_QUIET=1 "$TOP/tools/testing/plugsched/run.sh" -k "$TREE/arch/x86/boot/bzImage" \
		-s "$sched" -a "$extra" -l "$OUT/readme.log" -t 300 "$guest"
	ok $? "the image boots with: $cmdline"
	tr -d '\r' < "$OUT/readme.log" > "$OUT/readme.log.txt"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		cmd=$(nocomment <<< "$line")
		want=$(sed -n 's/.* # //p' <<< "$line")
		# (a kernel message on the console may land in the middle of
		# the output: "o1 [    2.484679] hrtimer: interrupt took ...")
		got=$(sed -n "/^README-CHECK $n\$/,/^README-RC $n /p" "$OUT/readme.log.txt" | sed '1d;$d' |
			sed -E 's/\[ *[0-9]+\.[0-9]+\] .*$//' | sed '/^ *$/d')
		rc=$(sed -n "s/^README-RC $n //p" "$OUT/readme.log.txt")
		# A comment of policy names is the output itself; any other
		# describes it: then the command only has to say something.
		flat=$(tr '\n' ' ' <<< "$got" | sed 's/ *$//')
		if [ -n "$want" ] && ! tr ' ' '\n' <<< "$want" | grep -q -v -x -F "$names"; then
			[ "$rc" = 0 ] && [ "$flat" = "$want" ]
		else
			[ "$rc" = 0 ] && [ -n "$got" ]
		fi
		ok $? "$cmd: $(cut -c1-60 <<< "$flat")${want:+ (README: $want)}"
	done <<< "$checks"
	# Knobs set on the command line show in the knobs file.
	grep -o 'sysctl\.kernel\.[a-z0-9_]*=[^ ]*' <<< "$cmdline" | while IFS= read -r kv; do
		kv=${kv#sysctl.kernel.}
		grep -q -E "^${kv%%=*} +${kv#*=} " "$OUT/readme.log.txt"
		ok $? "${kv%%=*} is ${kv#*=} in /sys/kernel/plugsched/knobs, as the command line set it"
	done
	! grep -a -q -E "$BAD_PATTERNS" "$OUT/readme.log"
	ok $? "no WARN, BUG, lockdep, UBSAN or hung task in the log"
}

case ${1:-} in
build) build "${2:-}" ;;
unpack) unpack ;;
boot) boot ;;
*) die "usage: readme.sh build|boot|unpack" ;;
esac
