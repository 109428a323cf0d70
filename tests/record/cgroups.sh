#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tasks to memory cgroups, live (issue 34): two workloads in two memory
# cgroups (a and b, under the test's own) under small limits stall in
# memcg reclaim; one global `mmscope record` (no --cgroup) records them.
# A third task starts in a and is moved to b mid-run. One workload and the
# mover are already running when the recorder starts (the recorder's list
# places them), the other is started after it (its shell's move and its
# exec are followed). trace-cmd is the oracle: from `trace-cmd report` of
# the same file, the memcg stalls (begin then end of one pid) of the pids
# known to be in each cgroup, the mover's by the time of its
# cgroup_attach_task; the report's cgroups section (text and JSON), and
# report, dump and export under --cgroup, must give the same counts.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require python3 trace-cmd
live_swap 512
live_cgroup 2048

A=$LIVE_CG/a
B=$LIVE_CG/b
CG_PIDS=""
cg_cleanup() {
	rc=$?
	set +e
	for p in $CG_PIDS; do
		kill -KILL "$p" 2>/dev/null
	done
	for d in "$A" "$B"; do
		[ -d "$d" ] || continue
		for i in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(cat "$d/cgroup.procs" 2>/dev/null)
			[ -z "$pids" ] && break
			kill -KILL $pids 2>/dev/null
			sleep 0.3
		done
		for i in 1 2 3 4 5 6 7 8 9 10; do
			rmdir "$d" 2>/dev/null && break
			sleep 0.3
		done
	done
	(exit $rc)
	live_cleanup
}
trap cg_cleanup EXIT

if [ "$LIVE_CG_V2" -eq 1 ]; then
	echo +memory >"$LIVE_CG/cgroup.subtree_control" || skip "cannot enable memory below $LIVE_CG"
	MAXF=memory.max
else
	MAXF=memory.limit_in_bytes
fi
mkdir "$A" "$B" || fail "cannot make $A and $B"
echo $((24 << 20)) >"$A/$MAXF" && echo $((24 << 20)) >"$B/$MAXF" || fail "cannot set limits"
# the cgroups' paths as /proc/PID/cgroup gives them
rel=$(printf '%s' "$LIVE_CG" | sed -e 's|^/sys/fs/cgroup/memory||' -e 's|^/sys/fs/cgroup/unified||' \
	-e 's|^/sys/fs/cgroup||')
RA="$rel/a"
RB="$rel/b"

# start DIR: an anon-touch inside DIR, as a shell that moves itself there
# and execs it (same pid)
start() {
	sh -c "echo \$\$ >$1/cgroup.procs && exec $ANON_TOUCH -m 40 -p 1000 -q" &
	CG_PIDS="$CG_PIDS $!"
	last=$!
}
# in_cg DIR PID: PID moved itself into DIR and runs anon-touch
in_cg() { grep -qx "$2" "$1/cgroup.procs" 2>/dev/null && [ "$(cat /proc/"$2"/comm 2>/dev/null)" = anon-touch ]; }
# faults PID: the page faults of PID so far (minor and major). Past its
# cgroup's limit each fault charges a page there again: a memcg reclaim
# stall every charge batch (64 pages) or so
faults() { awk '{ print $10 + $12 }' /proc/"$1"/stat 2>/dev/null; }
start "$A"
WA=$last
start "$A"
MOVER=$last
live_wait 30 "a's workload in a" in_cg "$A" "$WA"
live_wait 30 "the mover in a" in_cg "$A" "$MOVER"
live_wait 60 "a at its limit" above 0 cg_limit_hits "$A"

# stopped by SIGINT once the mover stalled on both sides of its move and
# b's workload in b (the duration is a bound)
"$MMSCOPE" record -g reclaim,tasks --duration 120 -o "$scratch/cg.dat" >"$scratch/rec.out" 2>&1 &
REC=$!
LIVE_PIDS="$LIVE_PIDS $REC"
live_wait 60 "the recorder's start" recording "$scratch/cg.dat"
f=$(faults "$MOVER")
start "$B"
WB=$last
live_wait 30 "b's workload in b" in_cg "$B" "$WB"
live_wait 60 "the mover's faults in a" above $((f + 1000)) faults "$MOVER"
live_wait 60 "b at its limit" above 0 cg_limit_hits "$B"
echo "$MOVER" >"$B/cgroup.procs" || fail "cannot move $MOVER into $B"
f=$(faults "$MOVER")
live_wait 60 "the mover's faults in b" above $((f + 1000)) faults "$MOVER"
kill -INT "$REC"
wait "$REC" || fail "record failed: $(tail -3 "$scratch/rec.out")"
for p in $CG_PIDS; do
	kill -KILL "$p" 2>/dev/null
done
[ -s "$scratch/cg.dat" ] || finish

. "$top_srcdir/tests/record/lib-cgroups.sh"
cg_check "$scratch/cg.dat" "$WA" "$WB" "$MOVER" "$RA" "$RB" "$LIVE_CG"
finish
