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
cpio ccache sparse qemu-system-x86 busybox-static rt-tests rsync git xz-utils
perl python3 kmod"

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
