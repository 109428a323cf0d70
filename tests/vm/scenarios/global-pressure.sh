#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario global-pressure: more anonymous memory (THP, MADV_HUGEPAGE) than
# the guest has, over fragmented free memory, swapping to zram, so that
# kswapd and kcompactd run and hand off. THP defrag "defer": faults wake
# kswapd/kcompactd instead of compacting directly. Where the kernel has
# /proc/sys/vm/defrag_mode the run is repeated with it set (rec-defrag.dat).
# The recording goes on 3 s after the workload: kswapd may still be
# balancing when it exits, and hands off to kcompactd only when it sleeps
# (seen on 6.1: the only kcompactd wake came after the workload).
# Needs: mmscope, pressure (run-vm.sh --binary), guest of 512 MB.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 420
# (7.x records twice; on the lab machine at a load average of 12 the first
# recording alone took 95 s of guest time and 240 s was not enough)
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh
MB=${PRESSURE_MB:-560}

swap_zram 1024
zswap_off
wr always $THP/enabled
wr defer $THP/defrag
# PMD-sized THP only: 2 MB with 4 KB pages, 32 MB with 16 KB pages
pmd_kb=$(( $(cat $THP/hpage_pmd_size) / 1024 ))
for d in $THP/hugepages-*kB; do
	case $d in *-${pmd_kb}kB) wr inherit "$d/enabled" ;; *) wr_opt never "$d/enabled" ;; esac
done
# the spool goes to /out (9p): a tmpfs spool would take guest memory
export MMSCOPE_SPOOL=/out/rec.spool
# kcompactd does not wake in every run (6.1 under TCG: once in about ten
# CI runs the kernel's own compact_daemon_wake stayed 0): the workload is
# run again, up to 3 times, until the kernel says kcompactd woke; the
# check then holds the events of the last run against its counters.
kc_wakes() { awk '$1 == "compact_daemon_wake" { print $2 }' /proc/vmstat; }
try=1
while :; do
	dump_state before
	w0=$(kc_wakes)
	# shellcheck disable=SC2046
	record_run $(reclaim_args kswapd,compaction,swap) -- sh -c "pressure -m $MB -f 64 -p 0 && sleep 3"
	dump_state after
	[ "$(kc_wakes)" != "$w0" ] && break
	[ $try -ge 3 ] && break
	say "kcompactd did not wake (compact_daemon_wake stayed $w0): run $((try + 1)) of 3"
	try=$((try + 1))
done

if [ -e /proc/sys/vm/defrag_mode ]; then
	swapoff /dev/zram0
	echo 1 > /sys/block/zram0/reset
	echo 3 > /proc/sys/vm/drop_caches
	swap_zram 1024
	wr 1 /proc/sys/vm/defrag_mode
	MMSCOPE_REC=$OUT/rec-defrag.dat
	REC=$MMSCOPE_REC
	# shellcheck disable=SC2046
	record_run $(reclaim_args kswapd,compaction,swap) -- sh -c "pressure -m $MB -f 64 -p 0 && sleep 3"
	dump_state after-defrag
	wr 0 /proc/sys/vm/defrag_mode
fi
finish
