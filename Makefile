# plugsched: pluggable CPU schedulers for Linux 6.12 LTS.
#
#   make bench [QUICK=1] [POLICIES=..] [CPUS=2] [NODES=1] [ROUNDS=3] [RUNS=1]
#                 boot every policy, print comparison tables (main job)
#   make test     check + kernels + boots + selftests + KUnit
#   make kernel [DEBUG=1]   build build/bzImage (build/debug/bzImage)
#   make run SCHED=o1 [CPUS=4] [NODES=2] [CMD="..."]
#   make patches  write out/patches/ and out/plugsched-6.12.patch
#   make apply KSRC=/path/to/linux-6.12
#   make check    checkpatch --strict and sparse on our files
#   make torture [POLICIES="o1 cfs"] [MINUTES=1] [DEFAULTS=1]
#                 debug kernel under stress (DEFAULTS=1: knobs left alone)

T := tools/testing/plugsched
SCHED ?= eevdf
CPUS ?= 2
NODES ?= 1
CMD ?=

.PHONY: all kernel initramfs run patches apply check test bench torture clean help

all: help

help:
	@sed -n '3,12p' Makefile

kernel:
ifeq ($(DEBUG),1)
	@$(T)/kernel.sh debug
else
	@$(T)/kernel.sh prod
endif
	@$(T)/initramfs.sh

initramfs:
	@$(T)/initramfs.sh

run:
	@$(T)/run.sh -k $(if $(filter 1,$(DEBUG)),build/debug/bzImage,build/bzImage) \
		-s $(SCHED) -c $(CPUS) -n $(NODES) $(if $(APPEND),-a "$(APPEND)") \
		$(if $(CMD),'$(subst ','\'',$(CMD))')

patches:
	@$(T)/patches.sh

apply:
	@$(T)/apply.sh "$(KSRC)"

check:
	@$(T)/check.sh

test:
	@$(T)/test.sh

bench:
	@$(T)/bench.sh

torture:
	@POLICIES="$(POLICIES)" MINUTES="$(MINUTES)" DEFAULTS="$(DEFAULTS)" $(T)/torture.sh

clean:
	rm -rf build out
