#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make.sh MMSCOPE ANON_TOUCH OUTDIR: the recordings of tests/data/compare
# (see README.md). Root; holds /tmp/mmscope-global.lock; adds a swap file
# (priority above any other device) and a cgroup v1 memcg, and removes both
# on exit.
set -euo pipefail
MMSCOPE=$1 TOUCH=$2 OUT=$3
CG=/sys/fs/cgroup/memory/mmscope-cmp
SWAP=/var/tmp/mmscope-cmp.swap
exec 9<>/tmp/mmscope-global.lock
flock -w 1800 9
cleanup() {
	set +e
	[ -d $CG ] && { for p in $(cat $CG/cgroup.procs); do kill -9 $p; done; sleep 1; rmdir $CG; }
	swapoff $SWAP 2>/dev/null
	rm -f $SWAP
}
trap cleanup EXIT INT TERM
fallocate -l 1G $SWAP && chmod 600 $SWAP && mkswap -q $SWAP && swapon -p 32767 $SWAP
mkdir -p $CG
# run NAME LIMIT_MB [ARGS]: one recording of anon-touch -m 192 -p 2 [ARGS]
# in the memcg
run() {
	echo 0 >$CG/memory.force_empty 2>/dev/null || true
	echo -1 >$CG/memory.limit_in_bytes
	echo "$2M" >$CG/memory.limit_in_bytes
	"$MMSCOPE" record -q -f -g none --interval 200 --cgroup $CG \
		-e vmscan:mm_vmscan_memcg_reclaim_begin -e vmscan:mm_vmscan_memcg_reclaim_end \
		-e vmscan:mm_vmscan_direct_reclaim_begin -e vmscan:mm_vmscan_direct_reclaim_end \
		-o "$OUT/$1.dat" -- sh -c "echo \$\$ > $CG/cgroup.procs; exec $TOUCH -m 192 -p 2 -q ${3:-}"
}
[ -n "${PHASES_ONLY:-}" ] ||
for i in 1 2 3 4 5; do
	run limit176-$i 176
	run limit40-$i 40
done
# with phase markers (anon-touch writes pass-1, pass-2, pageout)
for i in 1 2; do
	run phases176-$i 176 "-o 50"
	run phases40-$i 40 "-o 50"
done
