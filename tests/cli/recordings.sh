#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Recordings, not files, and hosts, not recordings (src/inputs.h,
# src/history.h): two unrelated real recordings (two boots of two VMs
# both called "vm", no machine id) are two hosts: a directory holding
# both is refused by report (text and JSON), tui and dump, with one line
# per run giving its files and time range; named as two files, report
# gives two reports; compare and export take them as two runs, never one
# merged. The files of one run are one recording, grouped by the run_id=
# record writes into each of them, or without one by the --switch-output
# naming (switch_output=N, BASE-N.dat).
. "${top_srcdir:-.}/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 not installed"
mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || skip "tests/compare/mkrec not built"

# two real recordings of one kernel, 2.9 hours apart, of two boots
mkdir "$scratch/two"
cp "$top_srcdir/tests/data/report/oom-6.18.dat" "$top_srcdir/tests/data/report/run-memcg-6.18.dat" \
	"$scratch/two/"

# refused_dir CMD...: exit 2, a first line saying why, then a line per
# run with its file and wall-clock range
refused_dir() {
	"$MMSCOPE" "$@" >/dev/null 2>"$scratch/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 3 ] &&
		head -1 "$scratch/e" | grep -q "^error: .*/two: the recordings of 2 hosts" &&
		grep -q '^  host 1 of 2, run 1: .*/two/oom-6.18.dat, 2026-12-01T07:07:24Z .. 2026-12-01T07:07:25Z (host vm)$' "$scratch/e" &&
		grep -q '^  host 2 of 2, run 1: .*/two/run-memcg-6.18.dat, 2026-12-01T09:59:17Z .. 2026-12-01T09:59:20Z (host vm)$' "$scratch/e" &&
		ok "$1 DIR of two hosts: refused, a line per run" || fail "$1 DIR: exit $rc: $(cat "$scratch/e")"
}
refused_dir report "$scratch/two"
refused_dir report -f json "$scratch/two"
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q refused_dir tui "$scratch/two"
refused_dir dump --stat "$scratch/two"

"$MMSCOPE" report "$scratch/two/oom-6.18.dat" "$scratch/two/run-memcg-6.18.dat" >"$scratch/text" \
	2>"$scratch/e" || fail "report FILE FILE: $(cat "$scratch/e")"
n=$(grep -c '^mmscope report: ' "$scratch/text")
[ "$n" = 2 ] && ok "report FILE FILE of two hosts (text): two reports" ||
	fail "report FILE FILE (text): $n reports"
grep -q '^=== recording 1 of 2: .*/two/oom-6.18.dat$' "$scratch/text" &&
	grep -q '^=== recording 2 of 2: .*/two/run-memcg-6.18.dat$' "$scratch/text" &&
	ok "report FILE FILE (text): a line names each recording" ||
	fail "report FILE FILE (text): $(grep '^===' "$scratch/text")"
# the spans are each recording's own, not one from the first's start to
# the other's end
grep -q '^span      3715.271820 .. 3715.591454 s (0.320 s)' "$scratch/text" &&
	grep -q '^span      1475.142728 .. 1478.366667 s (3.224 s)' "$scratch/text" &&
	ok "report FILE FILE (text): each recording's own span" ||
	fail "report FILE FILE (text): spans $(grep '^span' "$scratch/text")"
grep -q '^History' "$scratch/text" && fail "report FILE FILE: a history of two hosts' runs"

"$MMSCOPE" report -f json "$scratch/two/oom-6.18.dat" "$scratch/two/run-memcg-6.18.dat" \
	>"$scratch/json" 2>"$scratch/e" || fail "report -f json FILE FILE: $(cat "$scratch/e")"
got=$(python3 - "$scratch/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(type(d).__name__, len(d), " ".join(str(r["header"]["events"]) for r in d))
PY
)
[ "$got" = "list 2 180 638" ] && ok "report -f json FILE FILE: an array of two reports (180 and 638 events)" ||
	fail "report -f json FILE FILE: '$got'"
# one recording stays one object
"$MMSCOPE" report -f json "$scratch/two/oom-6.18.dat" | python3 -c \
	'import json,sys; d=json.load(sys.stdin); sys.exit(not isinstance(d, dict))' &&
	ok "report -f json FILE: one object" || fail "report -f json FILE: not an object"

"$MMSCOPE" compare -f json "A=$scratch/two" >"$scratch/cmp" 2>"$scratch/e" ||
	fail "compare A=DIR: $(cat "$scratch/e")"
grep -q '"runs": 2' "$scratch/cmp" && ok "compare A=DIR: two runs" ||
	fail "compare A=DIR: $(grep -o '"runs": [0-9]*' "$scratch/cmp" | head -1)"

"$MMSCOPE" export -o "$scratch/ex" "$scratch/two" 2>"$scratch/e" || fail "export DIR: $(cat "$scratch/e")"
rows=$(($(wc -l <"$scratch/ex/recordings.csv") - 1))
[ "$rows" = 2 ] && ok "export DIR: two recordings" || fail "export DIR: $rows recordings"

# seg FILE N START_NS RUN_ID T...: part N of a run (RUN_ID "": none)
seg() {
	f=$1 n=$2 start=$3 id=$4; shift 4
	for t in "$@"; do echo "$t part $n at $t"; done |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\n%sswitch_output=%s\ncpustat=window\n' \
			"$start" "${id:+run_id=$id
}" "$n")" "$mkrec" "$f" || fail "mkrec $f"
}
recs() {	# the recordings export finds in ARGS
	rm -rf "$scratch/x"
	"$MMSCOPE" export -o "$scratch/x" "$@" 2>"$scratch/e" || { echo "error"; return; }
	echo $(($(wc -l <"$scratch/x/recordings.csv") - 1))
}
# the reports of a directory's files named one by one (files of no host
# are each a history of their own: a directory of them is refused)
heads() { "$MMSCOPE" report -s header "$1"/*.dat 2>"$scratch/e" | grep -c '^mmscope report: '; }

# a --switch-output set without run ids (older files): one recording
mkdir "$scratch/old"
seg "$scratch/old/r-1.dat" 1 1000 "" 1000000000 1100000000
seg "$scratch/old/r-2.dat" 2 2000 "" 1200000000
[ "$(recs "$scratch/old")" = 1 ] && [ "$(heads "$scratch/old")" = 1 ] &&
	ok "a switch-output set without run ids: one recording" ||
	fail "old switch-output set: $(recs "$scratch/old") / $(heads "$scratch/old") recordings"

# with a run id: one recording whatever the names; another id, another
a=0123456789abcdef0123456789abcdef b=fedcba9876543210fedcba9876543210
mkdir "$scratch/ids"
seg "$scratch/ids/first.dat" 1 1000 $a 1000000000 1100000000
seg "$scratch/ids/second.dat" 2 2000 $a 1200000000
seg "$scratch/ids/r-1.dat" 1 3000 $b 5000000000
got="$(recs "$scratch/ids") $(heads "$scratch/ids")"
[ "$got" = "2 2" ] && ok "run ids: first.dat + second.dat one recording, r-1.dat another" ||
	fail "run ids: '$got' recordings: $(cat "$scratch/e")"
grep -q 'ids (2 files)\|first.dat (2 files)' "$scratch/x/recordings.csv" &&
	ok "run ids: the pair exported as one recording of 2 files" ||
	fail "run ids: $(cat "$scratch/x/recordings.csv")"
# the naming rule does not join parts of two runs: BASE-N.dat of two ids
mkdir "$scratch/clash"
seg "$scratch/clash/r-1.dat" 1 1000 $a 1000000000
seg "$scratch/clash/r-2.dat" 2 2000 $b 2000000000
[ "$(recs "$scratch/clash")" = 2 ] && ok "r-1.dat and r-2.dat of two run ids: two recordings" ||
	fail "r-1/r-2 of two run ids: $(recs "$scratch/clash")"
# flight-recorder files: one recorder's run id, yet each file is one
# incident, a recording of its own (never merged into one)
fl() {	# fl FILE START_NS T
	echo "$3 incident at $3" |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\nrun_id=%s\nmode=flight-recorder\ncpustat=window' "$2" $a)" \
		"$mkrec" "$1" || fail "mkrec $1"
}
mkdir "$scratch/flight"
fl "$scratch/flight/inc-1.dat" 1000 1000000000
fl "$scratch/flight/inc-2.dat" 9000 9000000000
got="$(recs "$scratch/flight") $(heads "$scratch/flight")"
[ "$got" = "2 2" ] && ok "two flight files of one recorder: two recordings" ||
	fail "flight files: '$got' recordings: $(cat "$scratch/e")"
finish
