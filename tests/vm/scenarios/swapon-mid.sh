#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario swapon-mid (not in the matrix): the mthp-frag workload with its
# zram device swapped on DURING the recording (issue 32.17), so that the
# swap probes see the swapon and the device runs out of free clusters
# later. On 7.x the swapon probe (add_to_avail_list) carries no size: the
# device has no clusters until its slots are used or /proc/swaps is
# sampled, and the fewest free clusters must not be 0 at its swapon. The
# 1 MB decoy (zram1) is on before the recording, as in the matrix.
# Needs: mmscope, mthp-frag, swapon-prio (run-vm.sh --binary).
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 240
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh
MB=${MTHP_MB:-96}

zswap_off
if [ -d $THP/hugepages-64kB ]; then
	SIZE=64
	wr never $THP/enabled
	for d in $THP/hugepages-*kB; do wr_opt never "$d/enabled"; done
	wr always $THP/hugepages-64kB/enabled
else
	SIZE=2048
	wr always $THP/enabled
fi
wr madvise $THP/defrag
# the decoy and zram0 as swap_zram makes them, but zram0 is left off
[ -e /sys/block/zram0 ] || fail "no /sys/block/zram0 (zram module not loaded?)"
n=$(cat /sys/class/zram-control/hot_add) || fail "cannot add a zram device"
[ "$n" = 1 ] || fail "hot_add gave zram$n, not zram1"
wr $((1024 * 1024)) /sys/block/zram1/disksize
mkswap /dev/zram1 >/dev/null || fail "mkswap /dev/zram1 failed"
swapon-prio /dev/zram1 1 || fail "swapon of the decoy /dev/zram1 failed"
wr $(((MB + 4) * 1024 * 1024)) /sys/block/zram0/disksize
mkswap /dev/zram0 >/dev/null || fail "mkswap /dev/zram0 failed"
dump_state before
# a second of recording before the swapon, so that samples of the device's
# absence come first
record_run -g swap,reclaim -- sh -c "sleep 1; swapon-prio /dev/zram0 10 && mthp-frag -m $MB -n 8 -r 6 -s $SIZE"
dump_state after
finish
