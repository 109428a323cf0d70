#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One zone per node for the watermark views: the report's handoff section
# (its watermark rows, JSON wmark_*) and the plot's watermark chart (the
# same zone as the TUI lanes, model-lanes) follow one rule,
# wmark_zone_closer: the zone whose free pages came closest to its high
# watermark. They differed on the lab host's recordings (oom-6.18.dat,
# khugepaged-6.18.dat): the report followed the largest zone, an idle
# DMA32 with the same free pages in every sample, the chart Normal. Every
# recording with zone samples is checked; the text names its zone and the
# rule.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

n=0
for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .dat)
	"$MMSCOPE" report -f json -s handoff "$f" > "$scratch/j" 2>/dev/null ||
		{ fail "$name: report failed"; continue; }
	rep=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for h in d.get("handoff") or []:
    if h.get("wmark_last"):
        print("node %d, zone %s" % (h["nid"], h["wmark_last"]["zone"]))' "$scratch/j")
	"$MMSCOPE" plot -w watermarks "$f" > "$scratch/svg" 2>/dev/null ||
		{ fail "$name: plot failed"; continue; }
	plot=$(grep -o 'node [0-9]*, zone [A-Za-z0-9]*: free pages' "$scratch/svg" |
		sed 's/: free pages$//' | sort -u)
	[ -n "$rep$plot" ] || continue
	# a recording whose only sample set never ended: the report shows
	# no zone (and says so), the chart draws the partial set
	if [ -z "$rep" ] && "$MMSCOPE" report -s handoff "$f" |
		grep -q '^watermarks  no complete zone sample set$'; then
		ok "$name: no complete sample set (report), $plot (plot)"
		continue
	fi
	n=$((n + 1))
	if [ "$rep" = "$plot" ]; then
		ok "$name: $rep"
	else
		fail "$name: report '$rep', plot '$plot'"
	fi
done
[ "$n" -ge 5 ] || fail "only $n recordings with zone samples"

# the two that differed: Normal, and the text names the rule
for name in oom-6.18 khugepaged-6.18; do
	"$MMSCOPE" report -s handoff "$top_srcdir/tests/data/report/$name.dat" > "$scratch/t"
	grep -Eq '^  last +[0-9.]+ Normal ' "$scratch/t" &&
		grep -q "^zone        of the node's 3, the one closest to its high watermark" \
			"$scratch/t" && ok "$name: text on Normal, rule named" ||
		fail "$name: text: $(grep -A4 '^watermarks' "$scratch/t")"
done
finish
