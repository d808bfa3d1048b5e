#!/bin/sh
# isolcpus.sh: with isolcpus=1 from the host, no task free to run
# elsewhere ever runs on CPU 1, under any policy (balancing, kicks and idle
# selection honour the housekeeping mask), nor under eevdf.
# shellcheck source=lib.sh
. /guest/lib.sh
for p in $(policies); do
	switch_to "$p"
	t plugsched_test isolated 1 3
done
switch_to eevdf
finish
