#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario kills: every kill, whoever the killer (issue 41). One
# `mmscope record -g oom,reclaim,compaction,kswapd,tasks --cgroups /`
# around a command that makes, in this order:
#   a) a memcg OOM kill: anon-touch -m 64 in a cgroup v2 memcg with
#      memory.max 24 MB and no swap -> killer memcg-oom;
#   b) a kill -9 from the shell of a sleeping process -> other:sh;
#   c) earlyoom (Debian bookworm's, check-kills.sh adds it) with
#      -m 10,10 -s 100,100: SIGKILL as soon as MemAvailable < 10 % (no
#      swap: SwapFree counts as 0 %), while anon-touch takes 5 MB/s
#      beside a holder of all but 36 MB -> killer earlyoom;
#   d) a global kernel OOM: anon-touch -m 400 -H (MADV_HUGEPAGE, THP
#      madvise with direct compaction; overcommit 1, no swap, no memcg
#      limit) -> kernel-oom.
# The recorder, the shells and earlyoom run with oom_score_adj -1000,
# each victim with 1000. Writes to $MMSCOPE_OUT: rec.dat, kills.txt (one
# line per expected kill: "CASE VICTIM_PID VICTIM_COMM KILLER_PID RC",
# KILLER_PID "-" for the kernel's: whichever task ran out invokes it),
# setup.txt, earlyoom.log. tests/vm/check-kills.sh checks on the host.
# vm-mem: 256
# vm-timeout: 200
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

command -v earlyoom >/dev/null || fail "no earlyoom in the guest (check-kills.sh adds it)"
command -v anon-touch >/dev/null || fail "no anon-touch"
swapoff -a 2>/dev/null || true
[ "$(awk 'NR > 1' /proc/swaps | wc -l)" -eq 0 ] || fail "a swap device is still on"
wr 1 /proc/sys/vm/overcommit_memory
# THP for MADV_HUGEPAGE only, with direct compaction (d's workload): the
# global OOM then comes with compaction runs and order-9 kswapd work
wr madvise $THP/enabled
wr madvise $THP/defrag
cg=$(memcg_make mmscope-kills 24)
case $cg in */memory/*) fail "no cgroup v2 memory controller: $cg" ;; esac
[ ! -e "$cg/memory.swap.max" ] || echo 0 > "$cg/memory.swap.max"
# the recorder, this shell and what it starts: never a victim
echo -1000 > /proc/self/oom_score_adj
: > "$OUT/kills.txt"

cat > /tmp/kills-run.sh <<EOF
set -u
step() { echo "kills: [\$(cut -d' ' -f1 /proc/uptime)] \$*"; }
# a) memcg OOM
step "a) anon-touch -m 64 in $cg (memory.max 24 MB)"
sh -c 'echo \$\$ > $cg/cgroup.procs && echo 1000 > /proc/self/oom_score_adj && exec anon-touch -m 64 -N -q' &
v=\$!
rc=0; wait \$v || rc=\$?
step "a) exit \$rc"
echo "memcg \$v anon-touch - \$rc" >> $OUT/kills.txt
sleep 1
# b) kill -9 from this shell (busybox ash's builtin kill)
sleep 600 &
v=\$!
sleep 0.5
step "b) kill -9 \$v"
kill -9 \$v
rc=0; wait \$v || rc=\$?
echo "shell \$v sleep \$\$ \$rc" >> $OUT/kills.txt
sleep 1
# c) earlyoom: SIGKILL below 10 % MemAvailable. A holder (oom_score_adj
# 0) takes all but 36 MB of MemAvailable at once, then the victim (1000)
# takes 5 MB/s: earlyoom's threshold (10 % of MemTotal, ~21 MB) comes
# ~3 s later and the kernel's OOM ~4 s after that, room enough for a
# 100 ms poll on a loaded host (at 40 MB/s from the start the kernel's
# OOM killer came first in 1 of 2 runs)
earlyoom -m 10,10 -s 100,100 -r 0 > $OUT/earlyoom.log 2>&1 &
e=\$!
avail=\$(awk '\$1 == "MemAvailable:" { print int(\$2 / 1024) }' /proc/meminfo)
step "c) MemAvailable \$avail MB: holder anon-touch -m \$((avail - 36)) -s 600"
sh -c "echo 0 > /proc/self/oom_score_adj && exec anon-touch -m \$((avail - 36)) -N -q -s 600" &
h=\$!
sleep 2
step "c) anon-touch -m 200 -r 1280 beside earlyoom (\$e)"
sh -c 'echo 1000 > /proc/self/oom_score_adj && exec anon-touch -m 200 -r 1280 -N -q' &
v=\$!
rc=0; wait \$v || rc=\$?
step "c) exit \$rc"
echo "earlyoom \$v anon-touch \$e \$rc" >> $OUT/kills.txt
kill -TERM \$e \$h
wait \$e || true
wait \$h || true
sleep 1
# d) global kernel OOM
step "d) anon-touch -m 400 -H, no limit"
sh -c 'echo 1000 > /proc/self/oom_score_adj && exec anon-touch -m 400 -H -q' &
v=\$!
rc=0; wait \$v || rc=\$?
step "d) exit \$rc"
echo "kernel \$v anon-touch - \$rc" >> $OUT/kills.txt
sleep 1
EOF

dump_state before
record_run -g oom,reclaim,compaction,kswapd,tasks --cgroups / --buffer-kb 4096 -- sh /tmp/kills-run.sh
dump_state after
cat "$OUT/kills.txt"
grep -i kill "$OUT/earlyoom.log" || true
finish
