#!/bin/bash
# make apply KSRC=<path>: apply the patchset to a user's Linux 6.12 tree,
# all or nothing.
. "$(dirname "$0")/lib.sh"

ksrc=${1:-}
[ -n "$ksrc" ] && [ -f "$ksrc/Makefile" ] || die "usage: make apply KSRC=/path/to/linux-6.12"
patch=$TOP/out/plugsched-6.12.patch
# Regenerate the patchset unless it is newer than everything it is made of.
if [ ! -f "$patch" ] || [ -n "$(cd "$TOP" && find Kconfig patches include kernel \
	Documentation tools/testing/selftests -newer "$patch" -type f | head -1)" ]; then
	"$(dirname "$0")/patches.sh"
fi
if ! out=$(patch -p1 -d "$ksrc" --dry-run -f < "$patch" 2>&1); then
	echo "$out" | grep -E "^(checking|patching) file|FAILED|Hunk|Reversed|can't find" >&2
	die "the patchset does not apply to $ksrc (see the files and hunks above); nothing was changed"
fi
patch -s -p1 -d "$ksrc" < "$patch"
log "applied out/plugsched-6.12.patch to $ksrc"
