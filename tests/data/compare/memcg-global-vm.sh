#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest scenario for tests/data/compare/memcg-global-7.3.dat (README.md
# there): the memcg workload of memcg-vm.sh beside a global one that
# drives the guest into direct reclaim, recorded with counter samples and
# the memcg and direct reclaim begin/end, lru_isolate and
# lru_shrink_inactive events: what compare needs to take memcg reclaim
# out of a 7.2+ kernel's pgscan_direct when direct reclaim happened too.
# Run by tests/vm/run-vm.sh with mmscope, anon-touch, pressure and
# swapon-prio and tests/vm/scenario-lib.sh in the guest.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 300
set -eu

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

swap_zram 1024
thp_off
cg=$(memcg_make mmscope-memcg 64)
dump_state before
record_run -g none -e vmscan:mm_vmscan_memcg_reclaim_begin \
	-e vmscan:mm_vmscan_memcg_reclaim_end -e vmscan:mm_vmscan_direct_reclaim_begin \
	-e vmscan:mm_vmscan_direct_reclaim_end -e vmscan:mm_vmscan_lru_isolate \
	-e vmscan:mm_vmscan_lru_shrink_inactive --cgroup "$cg" -- \
	sh -c "sh -c 'echo \$\$ > $cg/cgroup.procs && exec anon-touch -m 112 -p 2 -N -q' &
		pressure -m 480 -f 0 -p 1; wait"
dump_state after
finish
