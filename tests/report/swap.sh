#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The "swap" and "zswap" report sections on real recordings from the
# kernel matrix: each must print exactly tests/golden/report-swap-NAME.txt
# (MMSCOPE_UPDATE_GOLDEN=1 rewrites them), fit 72 columns, and its numbers
# must equal the kernel's own counters in the same recording:
#   mTHP fragmentation (7.3): probe fallbacks per order = swpout_fallback
#     delta, probe successes = swpout delta; the same for PMD THP on 6.1
#     (tests/data/swap/mthp-frag-6.1.dat) against thp_swpout*
#   zswap (6.12): stored = zswpout delta, written back = zswpwb delta
#   global pressure (5.10, 6.1, 6.12, 7.2): PMD successes within 1 of
#     thp swpout
#   a swapon during the recording (7.2): fewest free clusters when the
#     device ran out, not at its swapon (issue 32.17)
. "$(dirname "$0")/../lib.sh"

golden="$top_srcdir/tests/golden"
check_golden() {	# NAME FILE
	out="$scratch/$1.txt"
	"$MMSCOPE" report --section swap --section zswap "$2" > "$out" 2> "$scratch/$1.err" ||
		{ fail "$1: report exited: $(cat "$scratch/$1.err")"; return; }
	awk 'length > 72 { bad = 1 } END { exit bad }' "$out" || fail "$1: wider than 72"
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$out" "$golden/report-swap-$1.txt"
		ok "$1: golden updated"
	elif diff -u "$golden/report-swap-$1.txt" "$out" >&2; then
		ok "$1: swap/zswap sections match"
	else
		fail "$1: swap/zswap sections differ"
	fi
}

# "  64K  tries ok fallbk fb%  swpout fallbk fb%": probes against counters
order_row() {	# FILE SIZE -> "tries ok fallback swpout swpout_fallback"
	awk -v s="$2" '$1 == s && NF == 8 { print $2, $3, $4, $6, $7; exit }' "$1"
}

# The 5 numbers of order_row: probe fallbacks and successes must equal the
# counters' deltas, and the workload must have made fallbacks at all.
probes_match_counters() {	# NAME SIZE OK-COUNTER FALLBACK-COUNTER
	name=$1 size=$2 okc=$3 fbc=$4
	set -- $(order_row "$scratch/$name.txt" "$size")
	if [ $# -eq 5 ] && [ "$2" = "$4" ] && [ "$3" = "$5" ] && [ "$3" -gt 0 ]; then
		ok "$name: $size ok $2 = $okc $4, fallback $3 = $fbc $5"
	else
		fail "$name: $size probes vs counters: '$*'"
	fi
}

# The recordings are part of the tree: a missing one is a failure, not a
# skip, so that deleting a fixture cannot quietly drop its checks.
need() {	# FILE
	[ -f "$1" ] || { fail "missing recording $1"; return 1; }
}

f=$top_srcdir/samples/mthp-frag-7.3.dat
if need "$f"; then
	check_golden mthp-frag-7.3 "$f"
	probes_match_counters mthp-frag-7.3 64K swpout swpout_fallback
	grep -q 'ran out 1 time' "$scratch/mthp-frag-7.3.txt" ||
		fail "mthp-frag-7.3: free clusters should run out once"
fi

f=$top_srcdir/tests/data/swap/mthp-frag-6.1.dat
if need "$f"; then	# 6.1: PMD THP only, counted in vmstat thp_swpout*
	check_golden mthp-frag-6.1 "$f"
	probes_match_counters mthp-frag-6.1 2M thp_swpout thp_swpout_fallback
	grep -q '6.1 keeps no lists' "$scratch/mthp-frag-6.1.txt" ||
		fail "mthp-frag-6.1: the 6.1 rules line is missing"
fi

f=$top_srcdir/tests/data/swap/mthp-frag-6.12.dat
if need "$f"; then	# 6.12: lists derived, nonfull -> frag on scan
	check_golden mthp-frag-6.12 "$f"
	probes_match_counters mthp-frag-6.12 64K swpout swpout_fallback
fi

f=$top_srcdir/samples/zswap-6.12.dat
if need "$f"; then
	check_golden zswap-6.12 "$f"
	t=$scratch/zswap-6.12.txt
	zo=$(sed -n 's/^vmstat: zswpout +\([0-9]*\),.*zswpwb +\([0-9]*\),.*/\1 \2/p' "$t")
	st=$(awk '$1 == "stores" { print $3 }' "$t")
	wb=$(awk '$1 == "writebacks" { print $3 }' "$t")
	if [ -n "$zo" ] && [ "$zo" = "$st $wb" ]; then
		ok "zswap-6.12: stored/written back $st/$wb = zswpout/zswpwb deltas"
	else
		fail "zswap-6.12: probes '$st $wb' vs vmstat '$zo'"
	fi
fi

# issue 32.17 on a real recording: zram0 swapped on 1.3 s into the 7.2
# recording, where the swapon probe (add_to_avail_list) gives no size.
# Its fewest free clusters (0) is when it ran out, not at its swapon
# (the old model: "fewest 0 at 1.307 s" and an all-zero first row).
f=$top_srcdir/tests/data/swap/swapon-mid-7.2.dat
if need "$f"; then
	check_golden swapon-mid-7.2 "$f"
	t=$scratch/swapon-mid-7.2.txt
	probes_match_counters swapon-mid-7.2 64K swpout swpout_fallback
	dev=$(sed -n '/^device 1  \/dev\/zram0$/,/^order>0/p' "$t")
	echo "$dev" | grep -q '^  swapon 1, swapoff 0 during the recording$' ||
		fail "swapon-mid-7.2: zram0's swapon is not seen by the probes"
	fewest=$(echo "$dev" | sed -n 's/^  free clusters now [0-9]*, fewest 0 at \([0-9.]*\) s;.*/\1/p')
	out=$(echo "$dev" | sed -n 's/^  ran out at \([0-9.]*\) s$/\1/p')
	[ -n "$out" ] && [ "$fewest" = "$out" ] &&
		ok "swapon-mid-7.2: fewest 0 free clusters at $fewest s, when it ran out" ||
		fail "swapon-mid-7.2: fewest 0 at '$fewest' s, ran out at '$out' s"
	first=$(echo "$dev" | awk '$1 ~ /^[0-9]+\.[0-9]+$/ { print $2, $3, $4; exit }')
	[ -n "$first" ] && [ "$first" != "0 0 0" ] &&
		ok "swapon-mid-7.2: first row free/full/unknown $first" ||
		fail "swapon-mid-7.2: a row of zeros before zram0 had clusters ('$first')"
fi

for v in global-pressure-reclaim-5.10 global-pressure-reclaim-6.1 global-pressure-early-6.12 \
	global-pressure-7.2; do
	f=$top_srcdir/tests/data/report/$v.dat
	need "$f" || continue
	check_golden "$v" "$f"
	set -- $(order_row "$scratch/$v.txt" 2M)
	if [ $# -eq 5 ] && [ "$3" -eq 0 ] && [ "$5" -eq 0 ] &&
	   [ $(($2 - $4)) -ge 0 ] && [ $(($2 - $4)) -le 1 ]; then
		ok "$v: 2M ok $2 vs thp swpout $4, no fallbacks"
	else
		fail "$v: 2M probes vs counters: '$*'"
	fi
done

# compare: the swap and zswap metrics from the same recordings
a=$top_srcdir/samples/mthp-frag-7.3.dat b=$top_srcdir/samples/zswap-6.12.dat
if need "$a" && need "$b"; then
	"$MMSCOPE" compare --dialect plain --metrics swap,zswap "frag=$a" "zswap=$b" \
		> "$scratch/cmp" 2>&1 || fail "compare failed: $(head -2 "$scratch/cmp")"
	grep -Eq '^Swap fallback % order 4 +% +5\.77 ' "$scratch/cmp" &&
		ok "compare: 64K fallback % = 96 / 1664" || fail "compare: no 5.77% order-4 row"
	grep -Eq '^Swap free clusters ran out +events +1 ' "$scratch/cmp" ||
		fail "compare: free clusters ran out once in the 7.3 recording"
	grep -Eq '^Zswap writeback pages +pages +0 +3831 ' "$scratch/cmp" &&
		ok "compare: zswap writeback pages = written_back_pages delta" ||
		fail "compare: zswap writeback row"
	grep -Eq '^Zswap reject % +% +- ' "$scratch/cmp" ||
		fail "compare: zswap off must give no reject % (absent, not 0 or 100)"
fi

# no probes, no samples: one line says why
"$MMSCOPE" report --section swap "$top_srcdir/samples/compaction-6.18.dat" > "$scratch/c"
grep -q '^no swap probes or counter samples here (needs mmscope record -g swap)$' \
	"$scratch/c" || fail "no-probe line missing"
[ "$(wc -l < "$scratch/c")" -eq 3 ] ||
	fail "a trace-cmd recording's swap section must be one line under its title"
# the section names work with --section and in JSON
"$MMSCOPE" report --format json --section swap --section zswap \
	"$top_srcdir/samples/compaction-6.18.dat" > "$scratch/j"
grep -q '"swap": {' "$scratch/j" && grep -q '"zswap": {' "$scratch/j" ||
	fail "json members swap/zswap missing"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$scratch/j" ||
		fail "invalid JSON"
fi
# a counter the kernel lacks is null in JSON, never -1 or a delta of 0:
# 6.1 has no zswpwb; order 0 has no per-size swpout counter
"$MMSCOPE" report --format json --section swap --section zswap \
	"$top_srcdir/tests/data/swap/mthp-frag-6.1.dat" > "$scratch/j61"
grep -q '^  "zswpwb": null,$' "$scratch/j61" || fail "json: zswpwb on 6.1 is not null"
grep -q '^      "zswpwb": null,$' "$scratch/j61" || fail "json: zswpwb points on 6.1 are not null"
! grep -q ': -1,\{0,1\}$' "$scratch/j61" || fail "json: -1 printed for an unknown value"
awk '/"order": 0,/ { o0 = 1 } o0 && /"swpout": / { print; exit }' "$scratch/j61" |
	grep -q '"swpout": null,' || fail "json: order 0 swpout is not null"
ok "json: not measured is null"
# per-order attempts/ok/fallback come from the probes: null in a recording
# with counter samples but no swap probes (issue 17.6), numbers with them;
# a device whose cluster detail held has detail_lost_t null
"$MMSCOPE" report --format json --section swap \
	"$top_srcdir/tests/data/report/compaction-sampled-6.18.dat" > "$scratch/jns"
grep -q '"probes": 0,' "$scratch/jns" && grep -q '"attempts": null,' "$scratch/jns" &&
	grep -q '"tries": null,' "$scratch/jns" && grep -q '"causes": null,' "$scratch/jns" &&
	! grep -Eq '"(attempts|ok|fallback|tries|fallbacks)": 0' "$scratch/jns" &&
	ok "json: no swap probes: attempts/ok/fallback null" ||
	fail "json: attempts/ok/fallback not null without swap probes"
"$MMSCOPE" report --format json --section swap "$top_srcdir/samples/mthp-frag-7.3.dat" \
	> "$scratch/j73"
grep -q '"attempts": 1664,' "$scratch/j73" && grep -q '"detail_lost_t": null,' "$scratch/j73" &&
	grep -q '"free_min": 0,' "$scratch/j73" &&
	ok "json: with probes: attempts, free_min measured, detail held" ||
	fail "json: probe figures of mthp-frag-7.3"
finish
