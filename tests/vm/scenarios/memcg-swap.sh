#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario memcg-swap: a memory-cgroup-limited anonymous workload swapping
# to zram, recorded by mmscope. Needs in the guest: mmscope, anon-touch
# (run-vm.sh --binary); with strace there too (check-scenario.sh adds it
# on x86-64) the recorder runs under it, its file opens in record.strace.
# Writes to $MMSCOPE_OUT: rec.dat, vmstat.before/after, swaps, memcg.stat,
# setup.txt, record.strace.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 240
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

swap_zram 256
thp_off
cg=$(memcg_make mmscope-memcg 64)
dump_state before
# how often the recorder lists /proc/kallsyms (issue 44.14)
! command -v strace >/dev/null || export MMSCOPE_RECORD_STRACE="$OUT/record.strace"
# shellcheck disable=SC2046
record_run $(reclaim_args swap,zswap) --cgroup "$cg" -- \
	sh -c "echo \$\$ > $cg/cgroup.procs && exec anon-touch -m 112 -p 2 -N -q"
dump_state after
cat /proc/swaps > "$OUT/swaps"
cat "$cg/memory.stat" > "$OUT/memcg.stat" 2>/dev/null || true
finish
