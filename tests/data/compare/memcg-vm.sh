#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest scenario for tests/data/compare/memcg-*.dat (README.md there): a
# memory-cgroup-limited anonymous workload swapping to zram, no global
# pressure, recorded with counter samples and the memcg and direct reclaim
# begin/end events only (small files). Run by tests/vm/run-vm.sh with
# mmscope, anon-touch and tests/vm/scenario-lib.sh in the guest.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 240
set -eu

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

swap_zram 256
thp_off
cg=$(memcg_make mmscope-memcg 64)
dump_state before
record_run -g none -e vmscan:mm_vmscan_memcg_reclaim_begin \
	-e vmscan:mm_vmscan_memcg_reclaim_end -e vmscan:mm_vmscan_direct_reclaim_begin \
	-e vmscan:mm_vmscan_direct_reclaim_end --cgroup "$cg" -- \
	sh -c "echo \$\$ > $cg/cgroup.procs && exec anon-touch -m 112 -p 2 -N -q"
dump_state after
finish
