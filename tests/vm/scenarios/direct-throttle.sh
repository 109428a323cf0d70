#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario direct-throttle (not in the matrix; issue 32.15): twelve
# allocators at once (pressure -m 80 -p 3, THP off), more than the guest
# has, swapping to zram, so that direct reclaimers find the pfmemalloc
# reserves low and are throttled in throttle_direct_reclaim
# (pgscan_direct_throttle). Recorded with the samples and the direct
# reclaim events only (the reclaim group made 7.5 MB). On 6.1 six
# allocators of 150 MB stalled 5372 times and were never throttled; on
# 6.12 twelve of 80 MB were (made tests/data/report/direct-throttle-6.12.dat).
# Needs: mmscope, pressure, swapon-prio (run-vm.sh --binary).
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 400
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail
OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh
swap_zram 1024
zswap_off
wr never $THP/enabled
export MMSCOPE_SPOOL=/out/rec.spool
dump_state before
record_run -g none -e vmscan:mm_vmscan_direct_reclaim_begin -e vmscan:mm_vmscan_direct_reclaim_end -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do pressure -m 80 -p 3 & done; wait'
dump_state after
grep -E '^(pgscan_direct_throttle|allocstall)' "$OUT/vmstat.before" "$OUT/vmstat.after"
finish
