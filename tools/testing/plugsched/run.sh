#!/bin/bash
# Boot a kernel under QEMU (TCG) with the plugsched initramfs.
# run.sh [-k IMAGE] [-s SCHED] [-c CPUS] [-n NODES] [-T THREADS_PER_CORE]
#        [-a "EXTRA CMDLINE"] [-l LOG] [-t TIMEOUT_S] [CMD...]
# Runs CMD in the guest and exits with its status; without CMD, a shell.
. "$(dirname "$0")/lib.sh"

img=$B/bzImage sched=eevdf cpus=2 nodes=1 threads=1 extra= logf= tmo=900
while getopts k:s:c:n:T:a:l:t: o; do
	case $o in
	k) img=$OPTARG ;; s) sched=$OPTARG ;; c) cpus=$OPTARG ;;
	n) nodes=$OPTARG ;; T) threads=$OPTARG ;; a) extra=$OPTARG ;; l) logf=$OPTARG ;;
	t) tmo=$OPTARG ;; *) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -f "$img" ] || die "no kernel image $img: run make kernel"
[ -f "$B/initramfs.cpio.gz" ] || die "no initramfs: run make kernel"

mem=1024
numa=()
smp=$cpus
if [ "$nodes" -gt 1 ]; then
	# a socket per node, so that no cache is shared across nodes
	smp="$cpus,sockets=$nodes,cores=$((cpus / nodes)),threads=1"
	per=$((cpus / nodes)) permem=$((mem / nodes))
	for ((i = 0; i < nodes; i++)); do
		numa+=(-object "memory-backend-ram,id=m$i,size=${permem}M"
		       -numa "node,nodeid=$i,cpus=$((i * per))-$((i * per + per - 1)),memdev=m$i")
	done
elif [ "$threads" -gt 1 ]; then
	# SMT siblings (core scheduling): one socket of CPUS / THREADS cores
	smp="$cpus,sockets=1,cores=$((cpus / threads)),threads=$threads"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
initrd=$B/initramfs.cpio.gz
if [ $# -gt 0 ]; then
	mkdir "$tmp/root"
	printf '%s\n' "$*" > "$tmp/root/cmd"
	(cd "$tmp/root" && echo cmd | cpio -o -H newc --quiet) > "$tmp/cmd.cpio"
	# The kernel finds a second archive only at a 4-byte aligned offset.
	cp "$B/initramfs.cpio.gz" "$tmp/initrd"
	truncate -s %4 "$tmp/initrd"
	cat "$tmp/cmd.cpio" >> "$tmp/initrd"
	initrd=$tmp/initrd
	extra="$extra plugsched_cmd=1"
fi

# tsc=reliable: under TCG the clocksource watchdog sees the host deschedule
# a vCPU as TSC skew and switches to the HPET mid-test; every clock read is
# then a trap, which skews the timing checks.
# no_timer_check: the IO-APIC timer test at boot counts ticks over a
# short busy wait; a vCPU the host descheduled there misses them, and the
# kernel panics ("IO-APIC + timer doesn't work!") before any test runs.
# PLUGSCHED_ACCEL=tcg,thread=single runs every vCPU in one host thread.
qemu=(qemu-system-x86_64 -accel "${PLUGSCHED_ACCEL:-tcg}" -cpu max -m "$mem" -smp "$smp" "${numa[@]}"
      -kernel "$img" -initrd "$initrd" -nographic -no-reboot
      -append "console=ttyS0 panic=-1 tsc=reliable no_timer_check sched=$sched $extra")
if [ $# -eq 0 ]; then
	exec "${qemu[@]}"
fi
logf=${logf:-$tmp/console.log}
# make bench keeps the exact command line of every boot.
[ -n "${PLUGSCHED_CMDLINES:-}" ] && echo "${qemu[*]}" >> "$PLUGSCHED_CMDLINES"
qrc=0
timeout "$tmo" "${qemu[@]}" < /dev/null > "$logf" 2>&1 || qrc=$?
# QEMU's own failure (or the timeout's) in the log, for whoever reads it.
[ "$qrc" = 0 ] || echo "run.sh: qemu exited with status $qrc" >> "$logf"
rc=$(grep -a -o 'PLUGSCHED-EXIT=[0-9]*' "$logf" | tail -1 | cut -d= -f2 || true)
[ -z "${PLUGSCHED_QUIET:-}" ] && [ "$logf" = "$tmp/console.log" ] && cat "$logf"
[ -n "$rc" ] || { log "guest did not finish (timeout ${tmo}s or crash)"; exit 124; }
exit "$rc"
