#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# From 7.2 the kernel counts memcg limit reclaim in pgscan_direct and
# pgsteal_direct. The report's counters rows ("Ops Direct pages scanned")
# follow compare's rule (one function, direct_split): on real recordings
# of one memcg-only workload on 6.12 and 7.3 (no allocstall: none of it
# is direct), of direct and memcg reclaim at once on 7.3 (the memcg
# reclaim events give memcg's part: 174517 = 147521 direct + 26996 memcg)
# and of global pressure on 7.2 without memcg reclaim events (direct+memcg
# rows), the report's rows say what compare's do.
. "$(dirname "$0")/../lib.sh"

data="$top_srcdir/tests/data"

# ROW of the counters section of FILE: its delta
row() {
	"$MMSCOPE" report -s counters "$1" 2>/dev/null |
		sed -n "s/^Ops $2  *\([-0-9]*\)  *[-0-9]*\$/\1/p"
}
# metric NAME of compare's JSON for FILE against itself: its value
crow() {
	"$MMSCOPE" compare -a -f json "$1" "$1" 2>/dev/null |
		awk -v n="\"name\": \"$2\"," 'index($0, n) { getline
			if (match($0, /"values": \[[-0-9.]*\]/))
				print substr($0, RSTART + 11, RLENGTH - 12)
			exit }'
}

check() {	# FILE LABEL COMPARE-LABEL WANT
	got=$(row "$1" "$2")
	c=$(crow "$1" "$3")
	[ "$got" = "$4" ] && [ "$c" = "$4" ] &&
		ok "$(basename "$1"): $2 $got (compare: $3 $c)" ||
		fail "$(basename "$1"): $2 '$got', compare's $3 '$c', want $4"
}

check "$data/compare/memcg-6.12.dat" "Direct pages scanned" direct-scanned 0
check "$data/compare/memcg-7.3.dat" "Direct pages scanned" direct-scanned 0
check "$data/compare/memcg-7.3.dat" "Direct pages reclaimed" direct-reclaimed 0
check "$data/compare/memcg-global-7.3.dat" "Direct pages scanned" direct-scanned 147521
check "$data/compare/memcg-global-7.3.dat" "Direct pages reclaimed" direct-reclaimed 122709
check "$data/report/direct-throttle-6.12.dat" "Direct pages scanned" direct-scanned 1108919
check "$data/report/direct-throttle-6.12.dat" "Direct pages reclaimed" direct-reclaimed 702685
check "$data/report/global-pressure-7.2.dat" "Direct+memcg pages scanned" \
	direct-memcg-scanned 17664
check "$data/report/global-pressure-7.2.dat" "Direct+memcg pages reclaimed" \
	direct-memcg-reclaimed 17036
# issue 32.15: real recordings of throttled direct reclaim
# (throttle_direct_reclaim counts pgscan_direct_throttle: events, not
# pages): memcg-global-7.3 (0 -> 3) and direct-throttle-6.12 (0 -> 4,
# before 7.2: no memcg part). The direct row is pgscan_direct's pages
# alone (the old prefix sum added the throttle: 147524 on the 7.3 one,
# 1108923 on the 6.12 one). Each fixture must keep its throttle, or its
# row tests nothing.
throttled() {	# FILE: pgscan_direct_throttle's delta in its samples
	"$MMSCOPE" report -f json -s counters "$1" |
		awk '/"key": "pgscan_direct_throttle",/ { k = 1; next }
		     k && /"first":/ { gsub(/[^0-9]/, ""); f = $0 }
		     k && /"last":/ { gsub(/[^0-9]/, ""); print $0 - f; exit }'
}
for f in "$data/compare/memcg-global-7.3.dat" "$data/report/direct-throttle-6.12.dat"; do
	thr=$(throttled "$f")
	[ "${thr:-0}" -gt 0 ] &&
		ok "$(basename "$f"): pgscan_direct_throttle +$thr, not in Direct pages scanned" ||
		fail "$(basename "$f"): no pgscan_direct_throttle delta ('$thr'): 32.15 untested"
done
# the 7.2+ rows say why, and the raw counter is what 6.12 would not count
out=$("$MMSCOPE" report -s counters "$data/compare/memcg-7.3.dat" 2>&1)
echo "$out" | tr '\n' ' ' | grep -q 'no allocation stalled, so all 51537/41056 pages were memcg reclaim' &&
	ok "memcg-7.3: the note gives pgscan_direct's 51537 pages as memcg reclaim" ||
	fail "memcg-7.3: no note on the memcg part: $out"
[ -z "$(row "$data/report/global-pressure-7.2.dat" 'Direct pages scanned')" ] &&
	ok "global-pressure-7.2: no 'Direct pages scanned' row that holds memcg reclaim" ||
	fail "global-pressure-7.2: a plain direct row on 7.2 without memcg events"
finish
