#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host: the counter view of the swap clusters section on a live recording.
# Swap devices already active (not the test's) are tolerated: the test's
# own device gets a higher priority than any of them.
# Swap on a loop device (a swap file never takes mTHP: no SWP_BLKDEV),
# zswap off, 64K mTHP on (2M off), a cgroup v1 limit of 128 MiB and 192
# MiB of MADV_HUGEPAGE memory written twice: 64K folios swap out. Every
# setting is restored and the swap, loop device and cgroup are removed on
# exit. Then "mmscope report --section swap" must list the device, say in
# one line why cluster detail is missing (this host has no kprobe_events)
# or, on a kernel with kprobes, show the probe table; the 64K rows over
# time must add up to the kernel's swpout/swpout_fallback deltas.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

THP=/sys/kernel/mm/transparent_hugepage
live_require
[ -d $THP/hugepages-64kB ] || skip "no 64K mTHP on this kernel"
MTHP_RESTORE=""
mthp_set() {	# FILE VALUE: remember the old value, then write
	old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$1")
	[ -n "$old" ] || return 1
	MTHP_RESTORE="$MTHP_RESTORE $1=$old"
	echo "$2" >"$1"
}
mthp_restore() {
	for kv in $MTHP_RESTORE; do
		echo "${kv#*=}" >"${kv%%=*}" 2>/dev/null
	done
}
trap 'rc=$?; mthp_restore; (exit $rc); live_cleanup' EXIT

live_swap 512
live_cgroup 128
mthp_set $THP/hugepages-64kB/enabled always || skip "cannot read mTHP settings"
mthp_set $THP/hugepages-2048kB/enabled never

out="$scratch/host.dat"
# the swap group is kprobes only: record refuses it where the kernel has
# none (this host), and its swap samples come with every recording
groups=reclaim
[ -e "$TRACEFS/kprobe_events" ] && groups=swap,reclaim
"$MMSCOPE" record -o "$out" -g "$groups" --interval 200 -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 192 -p 2 -H -q" \
	>"$scratch/stdout" 2>"$scratch/summary"
rc=$?
[ $rc -eq 0 ] || { cat "$scratch/summary" >&2; fail "record exited $rc"; finish; }
"$MMSCOPE" report --section swap "$out" >"$scratch/swap.txt" ||
	{ fail "report failed"; finish; }
cat "$scratch/swap.txt"
awk 'length > 72 { bad = 1 } END { exit bad }' "$scratch/swap.txt" || fail "wider than 72"
grep -q "^device [0-9]*  $LIVE_LOOP\$" "$scratch/swap.txt" &&
	ok "the loop device is listed" || fail "no line for $LIVE_LOOP"
grep -q 'block device: order>0 possible' "$scratch/swap.txt" &&
	ok "a block device can take order>0" || fail "device kind line missing"
if grep -q '^cluster detail missing: no swap kprobes' "$scratch/swap.txt"; then
	ok "one line says why cluster detail is missing"
	# the per-interval 64K rows add up to the first-to-last counter deltas
	set -- $(awk '/^64K swap-out over time/ { on = 1; next }
		on && /until s/ { next }
		on && /^  +[0-9.]+ +[0-9]+ +[0-9]+ / { s += $2; f += $3; next }
		on { on = 0 } END { print s + 0, f + 0 }' "$scratch/swap.txt")
	rows_s=$1 rows_f=$2
	set -- $(awk '$1 == "hugepages-64kB" { s += $3; f += $5 } END { print s + 0, f + 0 }' \
		"$scratch/swap.txt")
	[ "$rows_s" -gt 0 ] && ok "64K swap-outs over time: $rows_s, fallbacks $rows_f" ||
		fail "no 64K swap-out in the counter rows"
	[ "$rows_s $rows_f" = "$1 $2" ] &&
		ok "rows add up to the halves table ($1 swpout, $2 fallback)" ||
		fail "rows $rows_s/$rows_f vs halves $1/$2"
	# issue 17.6: the first empty sample revealed the device free and,
	# with no probe event, it stayed free in the JSON while 192 MiB went
	# out; once used moved, every cluster is unknown and the probe
	# figures are null
	"$MMSCOPE" report --format json --section swap "$out" >"$scratch/swap.json" ||
		fail "json report failed"
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$scratch/swap.json" "$LIVE_LOOP" <<'PY' &&
import json, sys
s = json.load(open(sys.argv[1]))["swap"]
bad = [o["order"] for o in s["orders"] if o["attempts"] is not None]
for d in s["devices"]:
    # the workload swapped out: the detail is lost at some point, and a
    # point from then on has every cluster unknown (at the end the device
    # may be empty again, which the samples do show)
    lost = d["detail_lost_t"]
    if lost is None and len({p["used_slots"] for p in d["series"]}) <= 1:
        continue	# another device of the host's, untouched
    pts = [p for p in d["series"] if lost is not None and p["t"] >= lost]
    if lost is None or d["free_min"] is not None or not pts or \
            pts[0]["unknown"] != d["clusters"] or pts[0]["free"]:
        bad.append("device %d: lost %s, free_min %s, first point after %s" %
                   (d["type"], lost, d["free_min"], pts[:1]))
print(bad, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
		ok "json: swapped out without probes: clusters unknown, attempts null" ||
		fail "json: invented cluster state or probe figures (issue 17.6)"
	fi
else
	grep -q '^order>0 swap-out: probes' "$scratch/swap.txt" &&
		ok "kprobes here: the probe table is shown" || fail "neither counters nor probes"
fi

# The same on a swap file: never order>0 (no SWP_BLKDEV), and it says so.
swapoff "$LIVE_LOOP" && LIVE_SWAP_ON=0 || { fail "swapoff $LIVE_LOOP"; finish; }
HOST_SWAPFILE=/var/tmp/$LIVE_TAG.file
trap 'rc=$?; swapoff "$HOST_SWAPFILE" 2>/dev/null; rm -f "$HOST_SWAPFILE"; mthp_restore;
	(exit $rc); live_cleanup' EXIT
fallocate -l 512M "$HOST_SWAPFILE" && chmod 600 "$HOST_SWAPFILE" &&
	mkswap -q "$HOST_SWAPFILE" >/dev/null && swapon -p "$(live_swap_prio)" "$HOST_SWAPFILE" ||
	{ fail "cannot swapon a file in /var/tmp"; finish; }
out="$scratch/file.dat"
"$MMSCOPE" record -o "$out" -g "$groups" --interval 200 -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 192 -p 2 -H -q" \
	>"$scratch/stdout" 2>"$scratch/summary" || fail "record on a swap file failed"
"$MMSCOPE" report --section swap "$out" >"$scratch/file.txt" || fail "report failed"
cat "$scratch/file.txt"
grep -q '^  swap file: order>0 swap-out is never possible' "$scratch/file.txt" &&
	ok "a swap file: the report says order>0 cannot happen" ||
	fail "no swap-file line"
# Fallbacks are the devices' doing only when no active device can take
# order>0: another swap device on this machine (not ours) may take them.
ndev=$(grep -c '^device ' "$scratch/file.txt")
nno=$(grep -cE '^  (swap file: order>0 swap-out is never|rotational disk:)' "$scratch/file.txt")
if grep -q '^cluster detail missing' "$scratch/file.txt"; then
	if [ "$ndev" -eq "$nno" ]; then
		grep -q '^all [0-9]* order>0 fallbacks are the devices' "$scratch/file.txt" &&
			ok "the fallbacks are put down to the device" ||
			fail "fallbacks not put down to the swap file"
	else
		grep -q '^all [0-9]* order>0 fallbacks are the devices' "$scratch/file.txt" &&
			fail "fallbacks put down to the devices, but $((ndev - nno)) of $ndev can take order>0" ||
			ok "another device can take order>0: fallbacks not put down to the devices"
	fi
fi
swapoff "$HOST_SWAPFILE" && rm -f "$HOST_SWAPFILE"
finish
