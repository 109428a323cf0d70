#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dump's window and exclusions against trace-cmd (issue 18): on real
# recordings, "mmscope dump --since T --until T" (seconds from the first
# event, and @T trace time) prints exactly the lines of "trace-cmd report"
# whose time stamps fall in the window, and "-e '!ftrace:print'" exactly
# its lines but the print events (the counter samples), alone and in a
# window. Edges are cut in a gap of 3 us or more between printed time
# stamps (both print microseconds, rounded). With --cgroup (the tasks'
# cgroups followed from the start) the window holds too: the lines of
# "dump --cgroup C" from --since on, and the memcg reclaim ends among
# them are the stalls report counts in that window and cgroup.
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"

# normalized as tests/oracle/trace-cmd.sh does; lines without a time
# stamp (lost-event markers) are left out of both
tc_report() {
	trace-cmd report "$1" 2>/dev/null | grep -v '^cpus=' | sed -E 's/ +/ /g' |
		grep -E ' [0-9]+\.[0-9]{6}: '
}
ms_dump() {
	f=$1
	shift
	"$MMSCOPE" dump "$@" "$f" | sed -E 's/ [a-z0-9_]+:([a-z0-9_]+:)/ \1/; s/ +/ /g' |
		grep -E ' [0-9]+\.[0-9]{6}: '
}
# the time stamp of a line, in us
ts_awk='function ts(   i, t) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
	t = $i; sub(/:$/, "", t); split(t, p, "."); return p[1] * 1000000 + p[2] } return -1 }'

for f in "$top_srcdir/tests/data/report/global-pressure-reclaim-6.12.dat" \
	 "$top_srcdir/samples/memcg-swap-6.18.dat" "$top_srcdir/samples/zswap-6.12.dat"; do
	name=$(basename "$f" .dat)
	tc_report "$f" >"$scratch/tc"
	n=$(wc -l <"$scratch/tc")
	[ "$n" -gt 1000 ] || { fail "$name: trace-cmd printed $n lines"; continue; }
	# edges: in the first gap >= 3 us after the lines n/4 and 3n/4
	set -- $(awk "$ts_awk"'
		NR == 1 { first = ts() }
		{ t = ts(); if (NR > 1 && t - prev >= 3) {
			if (!lo && NR > n / 4) lo = prev + 1.5
			else if (lo && !hi && NR > 3 * n / 4) hi = prev + 1.5 }
		  prev = t }
		END { printf "%.1f %.1f %.1f\n", first, lo, hi }' n="$n" "$scratch/tc")
	first=$1 lo=$2 hi=$3
	rel_lo=$(awk "BEGIN { printf \"%.7f\", ($lo - $first) / 1e6 }")
	rel_hi=$(awk "BEGIN { printf \"%.7f\", ($hi - $first) / 1e6 }")
	abs_lo=$(awk "BEGIN { printf \"%.7f\", $lo / 1e6 }")
	abs_hi=$(awk "BEGIN { printf \"%.7f\", $hi / 1e6 }")
	awk "$ts_awk"' { t = ts() } t >= lo && t <= hi' lo="$lo" hi="$hi" "$scratch/tc" >"$scratch/want"
	w=$(wc -l <"$scratch/want")
	[ "$w" -gt 100 ] && [ "$w" -lt "$n" ] || fail "$name: window of $w lines of $n"
	ms_dump "$f" --since "$rel_lo" --until "$rel_hi" >"$scratch/got"
	cmp -s "$scratch/want" "$scratch/got" &&
		ok "$name: --since $rel_lo --until $rel_hi: the $w lines of trace-cmd report" ||
		fail "$name: --since $rel_lo --until $rel_hi: $(wc -l <"$scratch/got") lines, trace-cmd $w"
	ms_dump "$f" --since "@$abs_lo" --until "@$abs_hi" >"$scratch/got"
	cmp -s "$scratch/want" "$scratch/got" &&
		ok "$name: --since @$abs_lo --until @$abs_hi: the same $w lines" ||
		fail "$name: @ window: $(wc -l <"$scratch/got") lines, trace-cmd $w"

	# exclusion: every line but the print events
	awk "$ts_awk"' { t = ts(); for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if ($(i + 1) != "print:") print }' "$scratch/tc" >"$scratch/want"
	w=$(wc -l <"$scratch/want")
	ms_dump "$f" -e '!ftrace:print' >"$scratch/got"
	cmp -s "$scratch/want" "$scratch/got" &&
		ok "$name: -e '!ftrace:print': the $w lines of trace-cmd report but the prints ($((n - w)))" ||
		fail "$name: -e '!ftrace:print': $(wc -l <"$scratch/got") lines, want $w"
	awk "$ts_awk"' { t = ts() } t >= lo && t <= hi' lo="$lo" hi="$hi" "$scratch/want" >"$scratch/want2"
	ms_dump "$f" -e '!ftrace:print' --since "$rel_lo" --until "$rel_hi" >"$scratch/got"
	cmp -s "$scratch/want2" "$scratch/got" &&
		ok "$name: -e '!ftrace:print' in the window: $(wc -l <"$scratch/want2") lines" ||
		fail "$name: -e '!ftrace:print' in the window differs from trace-cmd"
	# a selection and an exclusion of one of its events
	"$MMSCOPE" dump -e vmscan -e '!vmscan:mm_vmscan_lru_isolate' "$f" >"$scratch/got"
	a=$("$MMSCOPE" dump -e vmscan "$f" | grep -vc 'vmscan:mm_vmscan_lru_isolate:')
	[ "$(wc -l <"$scratch/got")" -eq "$a" ] && ! grep -q 'mm_vmscan_lru_isolate:' "$scratch/got" &&
		ok "$name: -e vmscan -e '!vmscan:mm_vmscan_lru_isolate': $a lines" ||
		fail "$name: -e vmscan with an exclusion: $(wc -l <"$scratch/got") lines, want $a"
done

# --cgroup and --since together (the window was once left out there)
f=$top_srcdir/tests/data/cgroups/cgroups-6.18.dat
first=$("$MMSCOPE" dump "$f" | head -1 | awk "$ts_awk"' { printf "%.0f\n", ts() }')
since_us=$((first + 800000))
"$MMSCOPE" dump --cgroup /mmscope-cg/b "$f" >"$scratch/all" || fail "dump --cgroup"
awk "$ts_awk"' ts() >= lo' lo="$since_us" "$scratch/all" >"$scratch/want"
"$MMSCOPE" dump --cgroup /mmscope-cg/b --since 0.8 "$f" >"$scratch/got" || fail "dump --cgroup --since"
n=$(wc -l <"$scratch/want")
[ "$n" -gt 10 ] && [ "$n" -lt "$(wc -l <"$scratch/all")" ] && cmp -s "$scratch/want" "$scratch/got" &&
	ok "dump --cgroup --since 0.8: the $n lines of dump --cgroup from 0.8 s on" ||
	fail "dump --cgroup --since 0.8: $(wc -l <"$scratch/got") lines, want $n of $(wc -l <"$scratch/all")"
ends=$(grep -c 'mm_vmscan_memcg_reclaim_end:' "$scratch/got")
stalls=$("$MMSCOPE" report -f json -s stalls --cgroup /mmscope-cg/b --since 0.8 "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["stalls"]["memcg"]["count"])' 2>/dev/null)
[ -n "$stalls" ] && [ "$ends" -ge "$stalls" ] && [ "$ends" -le $((stalls + 1)) ] &&
	ok "dump --cgroup --since: $ends memcg reclaim ends, report counts $stalls stalls" ||
	fail "dump --cgroup --since: $ends ends, report '$stalls' stalls"
finish
