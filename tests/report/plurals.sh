#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A count of one takes the singular (issue 44 item 13: "zone pfn 0x1: 1
# runs" in samples/compaction-6.18.dat, "1 clusters of 512", "peak 1
# requests", "1 wakes", "moved 1 times", the TUI's "count 1 kills"):
# every real recording's report, compare's table and the TUI's views
# hold no "1 WORDs" but the words ending in s that are no plural.
. "${top_srcdir:-.}/tests/lib.sh"

# a 1 standing alone (not 0.1, 11, x1), a word in s after it
pat='(^|[^.0-9A-Za-z_-])1 [a-z]+s\b'
# words in s that are singular, and units
ok_words='success|yes|ms|us|ns|kB|status|was|is|has|its|this|process|pass|address|less|class|miss|bytes?/s'

plural_hits() {	# FILE: the lines with "1 WORDs" in FILE
	grep -E "$pat" "$1" | grep -vE "(^|[^.0-9A-Za-z_-])1 ($ok_words)\b" || :
}

check() {	# WHAT FILE
	hits=$(plural_hits "$2")
	[ -z "$hits" ] && ok "$1: no '1 WORDs'" || fail "$1: $hits"
}

recs="$top_srcdir/samples/*.dat $top_srcdir/tests/data/report/*.dat $top_srcdir/tests/data/cgroups/*.dat"
for f in $recs; do
	n=$(basename "$f")
	"$MMSCOPE" report "$f" >"$scratch/r.txt" 2>/dev/null || fail "report $n exited $?"
	check "report $n" "$scratch/r.txt"
done

d=$top_srcdir/tests/data/compare
"$MMSCOPE" compare "a=$d/limit40-1.dat" "b=$d/limit176-1.dat" >"$scratch/c.txt" 2>/dev/null ||
	fail "compare exited $?"
check "compare limit40-1 limit176-1" "$scratch/c.txt"

# the TUI: the swap view (its clusters) and the findings view (a
# finding's count) of every recording
for f in $recs; do
	n=$(basename "$f")
	for k in 2 6; do
		MMSCOPE_TUI_HEADLESS=1 LINES=50 COLUMNS=160 MMSCOPE_TUI_KEYS="$k" \
			MMSCOPE_TUI_DUMP="$scratch/t.txt" "$MMSCOPE" tui "$f" >/dev/null 2>&1 ||
			fail "tui $n ($k) exited $?"
		check "tui $n view $k" "$scratch/t.txt"
	done
done
finish
