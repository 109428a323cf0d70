#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario zswap: zswap on with a tiny pool (max_pool_percent=1) in front of
# a zram swap device, a memory cgroup of 32 MB and 80 MB of half
# compressible pages: zswap stores, hits its limit, rejects and writes back.
# THP and mTHP off (6.1/6.12 zswap refuses large folios).
# Needs: mmscope, zswap-fill (run-vm.sh --binary).
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
Z=/sys/module/zswap/parameters
[ -d $Z ] || fail "no $Z (kernel without zswap)"
wr 1 $Z/max_pool_percent
wr_opt Y $Z/shrinker_enabled
if echo Y > $Z/enabled 2>/dev/null && [ "$(cat $Z/enabled)" = Y ]; then
	echo "$Z/enabled=Y" >> "$OUT/setup.txt"
else	# 5.10: its default zpool (zbud) is a module nobody loaded
	wr_opt zsmalloc $Z/zpool
	wr_opt lzo-rle $Z/compressor
	wr Y $Z/enabled
fi
[ "$(cat $Z/enabled)" = Y ] || fail "zswap did not turn on"
cg=$(memcg_make mmscope-zswap 32)
dump_state before
# shellcheck disable=SC2046
record_run $(reclaim_args swap,zswap) --cgroup "$cg" -- \
	sh -c "echo \$\$ > $cg/cgroup.procs && exec zswap-fill -m 80 -p 1"
dump_state after
wr N $Z/enabled
finish
