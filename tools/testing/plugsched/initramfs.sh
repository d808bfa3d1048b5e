#!/bin/bash
# Build the guest initramfs: busybox-static, rt-tests' hackbench and
# cyclictest, stress-ng, with their libraries, the plugsched selftests and
# make bench's workloads.
# Output: build/initramfs.cpio.gz
. "$(dirname "$0")/lib.sh"

ensure_packages
out=$B/initramfs.cpio.gz
root=$B/initramfs
kst=$KSRC/tools/testing/selftests
st=$kst/plugsched

[ -f "$kst/kselftest.h" ] || die "no patched tree in $KSRC: run make kernel first"
newest=$(ls -t "$st"/* "$TOP"/tools/testing/plugsched/init "$TOP"/tools/testing/plugsched/bench/* \
	"$TOP"/tools/testing/plugsched/guest/* "$0" | head -1)
[ -f "$out" ] && [ "$out" -nt "$newest" ] && exit 0

log "building initramfs"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,etc,root}
cp /bin/busybox "$root/bin/busybox"
for app in $("$root/bin/busybox" --list); do
	[ "$app" = busybox ] || ln -sf busybox "$root/bin/$app"
done

# The selftests, static so that they need nothing in the guest: built from
# the patched tree (what the series adds), beside kselftest.h.
# (A fresh copy: a file gone from $st must not stay in the build.)
rm -rf "$B/selftests/plugsched"
mkdir -p "$B/selftests/plugsched"
cp "$kst/kselftest.h" "$B/selftests/"
cp "$st"/*.c "$st"/*.h "$B/selftests/plugsched/"
gcc -O2 -Wall -Werror -static -o "$root/usr/bin/plugsched_test" \
	"$B/selftests/plugsched/"*.c -lpthread
# make bench's own workloads (interbench-, contest-like, fairness, pick cost).
gcc -O2 -Wall -Werror -static -o "$root/usr/bin/plugsched_bench" \
	"$TOP/tools/testing/plugsched/bench/plugsched_bench.c" -lpthread -lm

# rt-tests binaries with the shared libraries they load.
for bin in /usr/bin/hackbench /usr/bin/cyclictest /usr/bin/stress-ng; do
	cp "$bin" "$root/usr/bin/"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done

# The boots' guest scripts (make test, make torture, make bench).
mkdir -p "$root/guest"
cp "$TOP"/tools/testing/plugsched/guest/*.sh "$root/guest/"
cp "$TOP/tools/testing/plugsched/init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
log "initramfs: $(du -h "$out" | cut -f1)"
