#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recorded, not recorded or cannot tell (analysis_event_state): a figure
# of events that were enabled and never fired is 0, one whose events the
# file cannot vouch for is '-' / null.
# - samples/ are trace-cmd extract files: every format of the kernel, so
#   an event with no record may never have been enabled. compaction-6.18
#   has no memcg, direct or kswapd reclaim record: those figures are null
#   (they printed 0), the kcompactd sleeps it holds stay counted.
# - memcg-swap-6.18 (the same writer) holds 2180 memcg reclaims: counted.
# - quiet-6.18 is mmscope's own: its events= list names the reclaim
#   events, none fired, and its figures stay 0.
. "$(dirname "$0")/../lib.sh"

samples="$top_srcdir/samples"
data="$top_srcdir/tests/data/report"

# json PATH FILE: one value of the report's JSON ("None" for null)
json() {
	"$MMSCOPE" report -f json "$2" | python3 -c "
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split('.'):
    v = v[int(k)] if k.isdigit() else v[k]
print(v)" "$1"
}
check() {	# FILE PATH WANT WHY
	got=$(json "$2" "$1")
	[ "$got" = "$3" ] && ok "$(basename "$1"): $2 $3 ($4)" ||
		fail "$(basename "$1"): $2 is '$got', want $3 ($4)"
}

f="$samples/compaction-6.18.dat"
check "$f" stalls.memcg.passes.count None "no memcg reclaim record, every format"
check "$f" stalls.memcg.count None "no memcg reclaim record"
check "$f" stalls.memcg.recorded None "cannot tell"
check "$f" stalls.direct.count None "no direct reclaim record"
check "$f" handoff.0.episodes None "no kswapd record"
check "$f" handoff.0.kcompactd_sleeps 20 "its 20 mm_compaction_kcompactd_sleep"
check "$f" compaction.recorded True "3 compaction runs"
out=$("$MMSCOPE" report -s summary -s stalls "$f")
echo "$out" | grep -q '^kswapd  *not known' &&
	ok "compaction-6.18: kswapd not known, not 0 episodes" ||
	fail "compaction-6.18: kswapd line: $(echo "$out" | grep '^kswapd')"
echo "$out" | grep -q '^kcompactd   wakes not known, 20 sleeps' &&
	ok "compaction-6.18: the 20 sleeps kept" ||
	fail "compaction-6.18: kcompactd line: $(echo "$out" | grep '^kcompactd')"
echo "$out" | grep -q '0 stalls' &&
	fail "compaction-6.18: '0 stalls' for reclaim it cannot tell" ||
	ok "compaction-6.18: no '0 stalls'"

f="$samples/memcg-swap-6.18.dat"
check "$f" stalls.memcg.count 2180 "its memcg reclaim records"
check "$f" stalls.memcg.recorded True "records of it"

f="$data/quiet-6.18.dat"
"$MMSCOPE" dump --info "$f" | grep -q 'events=.*vmscan:mm_vmscan_memcg_reclaim_begin' ||
	fail "quiet-6.18: its events= no longer names memcg reclaim: the checks below test nothing"
check "$f" stalls.memcg.recorded True "events= names it"
check "$f" stalls.memcg.count 0 "enabled, none fired"
check "$f" stalls.memcg.passes.count 0 "enabled, none fired"
check "$f" stalls.direct.count 0 "enabled, none fired"
check "$f" handoff.0.episodes 0 "kswapd enabled, never woke"
finish
