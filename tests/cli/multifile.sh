#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Several files as one recording, without a live recorder: files made by
# tests/compare/mkrec with the metadata record --switch-output writes
# (start_realtime_ns, switch_output=N, named BASE-N.dat). dump orders them
# by their start, not by name, and merges their events in time order;
# compare and export take a directory's parts of one run as one run and
# another run's as another; a part missing between two, a part renamed,
# and parts of two runs where one recording is asked for are refused with
# one line (tests/record/switch-read.sh does the same on a live run,
# against trace-cmd).
. "${top_srcdir:-.}/tests/lib.sh"

mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || skip "tests/compare/mkrec not built"

# seg FILE N START_NS T0 T1...: part N of a run, one print per time
seg() {
	f=$1 n=$2 start=$3; shift 3
	for t in "$@"; do echo "$t part $n at $t"; done |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\nswitch_output=%s\ncpustat=window\n' "$start" "$n")" \
		"$mkrec" "$f" || fail "mkrec $f"
}
mkdir "$scratch/run" "$scratch/two"
# part 10 sorts before part 9 by name: the order is the start's
seg "$scratch/run/r-9.dat" 9 1000 1000000000 1100000000 1200000000
seg "$scratch/run/r-10.dat" 10 2000 1300000000 1400000000
seg "$scratch/run/r-11.dat" 11 3000 1500000000
"$MMSCOPE" dump "$scratch/run" >"$scratch/out" 2>"$scratch/e" || fail "dump DIR: $(cat "$scratch/e")"
got=$(sed 's/.*part \([0-9]*\) at.*/\1/' "$scratch/out" | tr '\n' ' ')
[ "$got" = "9 9 9 10 10 11 " ] && ok "dump DIR: parts 9, 10, 11 in time order (not name order)" ||
	fail "dump DIR: parts '$got'"
"$MMSCOPE" dump --stat "$scratch/run" >"$scratch/out" || fail "dump --stat DIR"
grep -q '^ *6  total$' "$scratch/out" && ok "dump --stat DIR: 6 events" || fail "dump --stat DIR: $(cat "$scratch/out")"
"$MMSCOPE" dump --since 0.3 --until 0.45 "$scratch/run" >"$scratch/out" || fail "dump --since DIR"
got=$(sed 's/.*part \([0-9]*\) at \([0-9]*\).*/\2/' "$scratch/out" | tr '\n' ' ')
[ "$got" = "1300000000 1400000000 " ] && ok "dump --since 0.3 --until 0.45 DIR: from the first file's first event" ||
	fail "dump --since DIR: '$got'"
# report and export: a window of the run, also across a switch (0.15 s:
# the third print of part 9, then part 10's two)
wevents() { "$MMSCOPE" report -s header -f json "$@" | sed -n 's/^ *"events": \([0-9]*\),$/\1/p'; }
got=$(wevents --since 0.3 --until 0.45 "$scratch/run")
[ "$got" = 2 ] && ok "report --since 0.3 --until 0.45 DIR: 2 events" || fail "report window of DIR: '$got' events"
got=$(wevents --since 0.15 --until 0.45 "$scratch/run")
[ "$got" = 3 ] && ok "report --since 0.15 --until 0.45 DIR: 3 events across the switch" ||
	fail "report window across a switch: '$got' events"
"$MMSCOPE" export --since 0.15 --until 0.45 -o "$scratch/exw" "$scratch/run" 2>"$scratch/e" ||
	fail "export --since/--until DIR: $(cat "$scratch/e")"
grep -q '/run (3 files),.*,3,.*,1150000000,1450000000,[0-9]*,\{18\}9,11,0$' "$scratch/exw/recordings.csv" &&
	ok "export --since 0.15 --until 0.45 DIR: 3 events, the window in ns" ||
	fail "export window of DIR: $(cat "$scratch/exw/recordings.csv")"
"$MMSCOPE" report --since 0.4 --until 0.2 "$scratch/run" >/dev/null 2>"$scratch/e"
[ $? -eq 2 ] && ok "report DIR, since after until: exit 2" || fail "report DIR, since after until: $(cat "$scratch/e")"

# refused where one recording is asked for: one line, exit 1 (exit 2:
# several recordings given where one is asked for, a usage error)
refused() {	# refused WHAT PATTERN ARGS...
	what=$1 pat=$2; shift 2
	"$MMSCOPE" "$@" >/dev/null 2>"$scratch/e"
	rc=$?
	[ $rc -eq "${want_rc:-1}" ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q "$pat" "$scratch/e" &&
		ok "$what: exit 1: $(cat "$scratch/e")" || fail "$what: exit $rc: $(cat "$scratch/e")"
}
refused "dump, a part missing" "r-10.dat is missing" dump "$scratch/run/r-9.dat" "$scratch/run/r-11.dat"
refused "report, a part missing" "r-10.dat is missing" report "$scratch/run/r-11.dat" "$scratch/run/r-9.dat"
refused "dump, a file twice" "given twice" dump "$scratch/run" "$scratch/run/r-9.dat"
cp "$scratch/run/r-9.dat" "$scratch/two/"
seg "$scratch/two/q-1.dat" 1 500 100000000
"$MMSCOPE" dump "$scratch/two" >/dev/null 2>"$scratch/e"
rc=$?
# two runs of no known host: two histories, each run on a line
[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 3 ] && head -1 "$scratch/e" | grep -q 'the recordings of 2 hosts' &&
	grep -q 'run 1: .*two/q-1.dat, ' "$scratch/e" && grep -q 'run 1: .*two/r-9.dat, ' "$scratch/e" &&
	ok "dump, parts of two runs: exit 2, a line per run" || fail "dump, parts of two runs: exit $rc: $(cat "$scratch/e")"
cp "$scratch/run/r-9.dat" "$scratch/renamed.dat"
refused "compare, a part renamed" "not named BASE-9.dat" compare A="$scratch/renamed.dat" B="$scratch/run"

# compare and export: a directory's parts of one run are one run
runs() { "$MMSCOPE" compare -f json "$@" 2>"$scratch/e" | grep -o '"runs": [0-9]*' | awk '{ printf "%s ", $2 }'; }
# mkrec's prints are no counter sets: every run has no metrics, which
# compare says per run; the runs it counted are in the error
"$MMSCOPE" compare A="$scratch/run" B="$scratch/two" >/dev/null 2>"$scratch/e"
grep -q "/run (3 files): no metrics" "$scratch/e" && ok "compare A=DIR: one run of 3 files" ||
	fail "compare A=DIR: $(cat "$scratch/e")"
"$MMSCOPE" export -o "$scratch/ex" "$scratch/run" "$scratch/two" 2>"$scratch/e" || fail "export: $(cat "$scratch/e")"
rows=$(($(wc -l <"$scratch/ex/recordings.csv") - 1))
[ "$rows" = 3 ] && ok "export DIR DIR2: 3 recordings (one of 3 files, two of one)" || fail "export: $rows recordings"
grep -q '/run (3 files),.*,6,' "$scratch/ex/recordings.csv" && ok "export DIR: its 6 events in one row" ||
	fail "export DIR: $(cat "$scratch/ex/recordings.csv")"
finish
