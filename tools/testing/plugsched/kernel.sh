#!/bin/bash
# Build the plugsched test kernel: kernel.sh [prod|debug]
# prod lands at build/bzImage, debug at build/debug/bzImage. The production
# kernel is built as README's "Using it on your own kernel" says, in a tree
# of its own (readme.sh build); the debug one out of the tree of git am.
. "$(dirname "$0")/lib.sh"

variant=${1:-prod}
ensure_packages

# 1. README's tree for the production kernel, unpacked on a cold machine
#    beside the making of the series (tar and git add take a core each).
ahead=
if [ "$variant" = prod ]; then
	"$TOP/tools/testing/plugsched/readme.sh" unpack &
	ahead=$!
fi

# 2. Patched tree: the series as a user gets it (make patches, then git am
#    of out/patches onto the pristine tree: patches.sh leaves it checked
#    out in build/pristine-git), redone when the project's kernel files
#    change. Files are synced by content so that make only rebuilds what
#    really changed.
inputs=$( (cd "$TOP" && cat patches/series patches/*.patch tools/testing/plugsched/series.py \
	$(overlay_files | cut -d: -f1)) | sha1sum | cut -d' ' -f1)
if [ "$(cat "$KSRC/.plugsched-inputs" 2>/dev/null)" != "$inputs" ]; then
	"$TOP/tools/testing/plugsched/patches.sh" || die "make patches failed"
	log "syncing the tree of out/patches (git am onto pristine) to $KSRC"
	mkdir -p "$KSRC"
	rsync -rlp --checksum --delete --exclude=/.git --exclude=.plugsched-inputs \
		"$B/pristine-git/" "$KSRC/"
	echo "$inputs" > "$KSRC/.plugsched-inputs"
fi

# 3. Configure: tinyconfig + our fragments, redone when a fragment changes.
cfgdir=$TOP/tools/testing/plugsched/configs
frags="$cfgdir/base.config"
# (the production kernel's config is the one README's steps take as the
# user's, built in build/linux-6.12; here it is only made)
obj=$B/prod-config
if [ "$variant" = debug ]; then
	frags="$frags $cfgdir/debug.config"
	obj=$B/debug
fi
mkdir -p "$obj"
# and every policy of Kconfig that this kernel can have (lib.sh)
policy_options "$variant" > "$obj/policies.config"
frags="$frags $obj/policies.config"
cfgsum=$(cat $frags | sha1sum | cut -d' ' -f1)
kmake() { make -s -C "$KSRC" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
# kbuild's syncconfig drops an option whose Kconfig entry went missing for
# a moment (a tree synced under a running build): configure again then.
if [ "$(cat "$obj/.plugsched-config" 2>/dev/null)" != "$cfgsum" ] || [ ! -f "$obj/.config" ] ||
   grep -q -v -x -F -f "$obj/.config" "$obj/policies.config"; then
	log "configuring $variant kernel"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	# Every option asked for (the last fragment wins) must have survived.
	declare -A want=()
	for f in $frags; do
		while IFS= read -r line; do
			case "$line" in
			"# CONFIG_"*" is not set") o=${line#\# }; want[${o%% *}]=n ;;
			CONFIG_*=*) want[${line%%=*}]=${line#*=} ;;
			esac
		done < "$f"
	done
	bad=0
	for o in "${!want[@]}"; do
		if [ "${want[$o]}" = n ]; then
			grep -q "^$o=" "$obj/.config" && { log "not off: $o"; bad=1; }
		else
			grep -qx "$o=${want[$o]}" "$obj/.config" || { log "not set: $o=${want[$o]}"; bad=1; }
		fi
	done
	[ $bad = 0 ] || die "configuration of the $variant kernel is incomplete"
	echo "$cfgsum" > "$obj/.plugsched-config"
fi

# 4. Build.
[ -z "$ahead" ] || wait "$ahead" || die "cannot unpack $SRC_TAR for README's tree"
log "building $variant kernel ($JOBS jobs)"
start=$(date +%s)
if [ "$variant" = prod ]; then
	"$TOP/tools/testing/plugsched/readme.sh" build "$obj/.config" > "$obj/build.log" 2>&1 || {
		grep -E "error|Error|^not ok" "$obj/build.log" | head -40 >&2
		die "prod kernel build (README's steps) failed, see $obj/build.log"
	}
	grep -E "warning:" "$obj/build.log" >&2 || true
	cp "$B/linux-6.12/arch/x86/boot/bzImage" "$B/bzImage"
	log "prod kernel built in $(( $(date +%s) - start ))s (README's steps, in build/linux-6.12)"
	exit 0
fi
if ! kmake -j"$JOBS" bzImage > "$obj/build.log" 2>&1; then
	grep -E "error|Error" "$obj/build.log" | head -40 >&2
	die "$variant kernel build failed, see $obj/build.log"
fi
grep -E "warning:" "$obj/build.log" >&2 || true
cp "$obj/arch/x86/boot/bzImage" "$obj/bzImage"
log "$variant kernel built in $(( $(date +%s) - start ))s"
