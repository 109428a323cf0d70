#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden reports: "mmscope report" on the real fixtures (samples/*.dat and
# tests/data/report/*.dat, and the flight-recorder file with a trigger of
# tests/data/perfetto) must print exactly tests/golden/report-NAME.txt,
# and "--format json" must be valid JSON (and match report-NAME.json where
# one is kept).
# MMSCOPE_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing.
. "$(dirname "$0")/../lib.sh"

golden="$top_srcdir/tests/golden"
for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	"$top_srcdir"/tests/data/perfetto/flight-oom-6.18.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .dat)
	want="$golden/report-$name.txt"
	"$MMSCOPE" report "$f" > "$scratch/$name.txt" 2> "$scratch/$name.err" ||
		{ fail "$name: report exited $?: $(cat "$scratch/$name.err")"; continue; }
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$scratch/$name.txt" "$want"
		ok "$name: golden updated"
	elif [ ! -f "$want" ]; then
		fail "$name: no golden file $want"
	elif diff -u "$want" "$scratch/$name.txt" > "$scratch/$name.diff"; then
		ok "$name: text report matches"
	else
		cat "$scratch/$name.diff" >&2
		fail "$name: text report differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
	fi
	# no line wider than the default 72 columns
	awk 'length > 72 { print FILENAME ": " FNR ": " length; bad = 1 } END { exit bad }' \
		"$scratch/$name.txt" >&2 || fail "$name: lines wider than 72 columns"
	# JSON, run beside the file so the path in it is only the name
	(cd "$(dirname "$f")" && "$MMSCOPE" report --format json "$(basename "$f")") \
		> "$scratch/$name.json" || fail "$name: json report failed"
	case $name in
	global-pressure-reclaim-6.12|flight-oom-6.18)	# the richest recording; a trigger
		if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
			cp "$scratch/$name.json" "$golden/report-$name.json"
		elif ! diff -u "$golden/report-$name.json" "$scratch/$name.json" >&2; then
			fail "$name: json report differs"
		fi ;;
	esac
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
			"$scratch/$name.json" || fail "$name: invalid JSON"
	fi
	# one section at a time gives the same text as in the full report
	"$MMSCOPE" report --section compaction "$f" > "$scratch/$name.sec" ||
		fail "$name: --section failed"
	grep -q '^Compaction$' "$scratch/$name.sec" || fail "$name: --section compaction"
	! grep -q '^Summary$' "$scratch/$name.sec" || fail "$name: --section printed more"
done

# JSON says null, not 0, for pages the events could not give: 7.2's
# recording has no mm_vmscan_lru_shrink_inactive ("not traced" in text)
"$MMSCOPE" report --format json --section stalls \
	"$top_srcdir/tests/data/report/global-pressure-7.2.dat" > "$scratch/stalls.json"
grep -q '^    "scanned": null,$' "$scratch/stalls.json" &&
	grep -q '^    "nr_reclaimed": [0-9]' "$scratch/stalls.json" ||
	fail "json: untraced reclaim efficiency is not null (or nr_reclaimed is)"

# recordings without samples say so in one line per section
out=$("$MMSCOPE" report --section counters "$top_srcdir/samples/compaction-6.18.dat")
echo "$out" | grep -q 'needs counter samples' || fail "no-samples line missing"

# usage errors
"$MMSCOPE" report --section nosuch "$top_srcdir/samples/compaction-6.18.dat" \
	>/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown section should exit 2"
"$MMSCOPE" report --format xml "$top_srcdir/samples/compaction-6.18.dat" \
	>/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown format should exit 2"
"$MMSCOPE" report "$scratch/none.dat" >/dev/null 2>&1; [ $? -eq 1 ] ||
	fail "missing file should exit 1"
finish
