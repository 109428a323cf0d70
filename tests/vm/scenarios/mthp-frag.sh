#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario mthp-frag: large-folio swap-out to a nearly full zram device,
# holes punched into the swapped-out folios, more swap-out, until order>0
# swap-outs fall back to order 0 (swpout_fallback). 64 kB mTHP where the
# kernel has per-size THP (6.12+), else 2 MB THP (6.1). zswap off.
# Needs: mmscope, mthp-frag (run-vm.sh --binary).
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
swap_zram $((MB + 4))
dump_state before
record_run -g swap,reclaim -- mthp-frag -m "$MB" -n 8 -r 6 -s "$SIZE"
dump_state after
finish
