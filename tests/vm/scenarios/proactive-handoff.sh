#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario proactive-handoff (not in the matrix; issue 32.14): free memory
# left in order-0 holes (pressure -f), then a write of
# vm.compaction_proactiveness (pressure -P; 100 here) makes kcompactd run
# proactive compaction at once, which emits no kcompactd_wake and starts
# only while kswapd sleeps; THP faults paced 2 MiB at a time (-s) then
# wake kswapd at order 9 in short episodes meanwhile. A kswapd that goes
# to sleep during the proactive run leaves its request without a wakeup
# event (kcompactd is not waiting on its queue); kcompactd's next
# kcompactd_sleep is followed at once by a kcompactd_wake of that order:
# a pickup of a request made before that sleep event. It is a race:
# each recording has ROUNDS rounds, and RUNS recordings are made
# (rec-1.dat ...); on 7.2 the first recording of the first try had one
# (tests/data/report/proactive-handoff-7.2.dat). On 5.10 (no sysctl
# trigger: proactive compaction only at kcompactd's 500 ms timeout) six
# recordings with other paces had none.
# Needs: mmscope, pressure (run-vm.sh --binary), guest of 512 MB.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 600
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh
MB=${PRESSURE_MB:-150}
FRAG_MB=${FRAG_MB:-300}
RUNS=${RUNS:-2}
ROUNDS=${ROUNDS:-5}

swap_zram 1024
zswap_off
wr always $THP/enabled
wr defer $THP/defrag
for d in $THP/hugepages-*kB; do
	case $d in *-2048kB) wr inherit "$d/enabled" ;; *) wr_opt never "$d/enabled" ;; esac
done
[ -e /proc/sys/vm/compaction_proactiveness ] || fail "no vm.compaction_proactiveness (before 5.9)"
wr 100 /proc/sys/vm/compaction_proactiveness
export MMSCOPE_SPOOL=/out/rec.spool
i=1
while [ $i -le "$RUNS" ]; do
	REC=$OUT/rec-$i.dat
	dump_state before-$i
	record_run -g kswapd,compaction -- sh -c "for r in \$(seq $ROUNDS); do pressure -f $FRAG_MB -P -m $MB -s 5 -p 0 || exit; sleep 1; done"
	dump_state after-$i
	i=$((i + 1))
done
finish
