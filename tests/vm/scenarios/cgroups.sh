#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario cgroups: tasks to memory cgroups on the guest's cgroup v2
# (issue 34). Two workloads in memory cgroups a and b (24 MiB each, under
# mmscope-cg) swapping to zram, one global `mmscope record -g
# reclaim,tasks`; a's workload and a second task ("the mover") run before
# the recorder starts, b's after, and the mover is moved from a to b
# mid-run. Writes to $MMSCOPE_OUT: rec.dat, pids ("WA WB MOVER"),
# setup.txt. tests/vm/check-cgroups.sh checks the file on the host.
# vm-modules: zram zsmalloc
# vm-mem: 512
# vm-timeout: 240
# One vCPU: this scenario starts and stops the recorder while its
# workloads reclaim, and enabling or disabling a tracepoint rewrites the
# kernel's code (jump labels, static calls: int3 first, then the new
# bytes). Under qemu's multi-threaded TCG (7.2 here) another vCPU can
# still run the int3 after the kernel took it away, and the guest dies
# with "Oops: int3" in reclaim (evict_folios). Toggling vmscan and kmem
# beside two reclaiming tasks killed a 2-vCPU 6.12 guest within a second
# in 2 of 2 boots; a 1-vCPU one toggled them 400 times. The matrix's scenarios
# record a command, so nothing runs while their events are switched.
# vm-smp: 1
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

swap_zram 256
thp_off
cg=$(memcg_make mmscope-cg 256)
case $cg in */memory/*) fail "no cgroup v2 memory controller: $cg" ;; esac
echo +memory > "$cg/cgroup.subtree_control" || fail "cannot enable memory below $cg"
mkdir "$cg/a" "$cg/b"
echo $((24 << 20)) > "$cg/a/memory.max"
echo $((24 << 20)) > "$cg/b/memory.max"
start() {
	sh -c "echo \$\$ > $1/cgroup.procs && exec anon-touch -m 40 -p 1000 -q" &
	last=$!
}
start "$cg/a"; WA=$last
start "$cg/a"; MOVER=$last
sleep 1
say "mmscope record -g reclaim,tasks --duration 12"
mmscope record -f -o "$REC" --spool /tmp/rec.spool -g reclaim,tasks --duration 12 \
	> "$OUT/record.log" 2>&1 &
R=$!
sleep 3
start "$cg/b"; WB=$last
sleep 4
echo "$MOVER" > "$cg/b/cgroup.procs" || fail "cannot move $MOVER"
say "moved $MOVER into $cg/b"
rc=0
wait "$R" || rc=$?
say "record exit $rc"
cat "$OUT/record.log"
kill -9 "$WA" "$WB" "$MOVER" 2>/dev/null || true
[ "$rc" -eq 0 ] || fail "mmscope record exited $rc"
echo "$WA $WB $MOVER" > "$OUT/pids"
finish
