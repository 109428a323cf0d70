#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mmscope tui` on a host's history of several runs (src/history.h,
# tui/data.h): one directory of four recordings of one host, made by
# tests/history/mkhist from one real recording (tests/data/report/oom-6.18.dat:
# 35 memcg reclaim stalls and an OOM kill in 0.32 s):
#   a.dat  run 1, at 0 s, ended by SIGTERM
#   b.dat  run 2, 2 s later on the same boot's trace clock (a restart),
#          ended recovered
#   c.dat  run 3, a flight-recorder incident with run 2's events: inside
#          run 2, not drawn again
#   d.dat  run 4, another boot, placed 6 s after run 1 by the wall clock
#          (its trace clock starts where run 1's did: an offset on the
#          history's time line)
# In headless mode the timeline marks both gaps as not recorded (/) on
# every lane and chart row, the status bar names the run at the cursor
# and how it began, or the gap with how the runs around it ended and
# began; } and { go from run to run; the other views read the cursor's
# run (the events of run 4 at its own trace time, timed from the
# history's first event); --run N opens one run; --since/--until select
# the runs the window touches. A second directory holds a run of two
# switch-output parts beside a run of one file.
. "${top_srcdir:-.}/tests/lib.sh"

mkhist=$top_builddir/tests/history/mkhist
[ -x "$mkhist" ] || skip "tests/history/mkhist not built"
src="$top_srcdir/tests/data/report/oom-6.18.dat"
[ -f "$src" ] || fail "no recording $src"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
export LSAN_OPTIONS

m=0123456789abcdef0123456789abcdef
b1=11111111-2222-3333-4444-555555555555 b2=66666666-2222-3333-4444-555555555555
w=1796108844952968188	# the recording's start_realtime_ns
id() { echo "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa$1"; }
h=$scratch/h
mkdir "$h"
"$mkhist" "$src" "$h/a.dat" 0 0 machine_id=$m boot_id=$b1 run_id="$(id 1)" \
	stop_reason=signal stop_detail=SIGTERM &&
"$mkhist" "$src" "$h/b.dat" 2000000000 0 machine_id=$m boot_id=$b1 run_id="$(id 2)" \
	start_realtime_ns=$((w + 2000000000)) stop_reason=recovered &&
"$mkhist" "$src" "$h/c.dat" 2000000000 0 machine_id=$m boot_id=$b1 run_id="$(id 3)" \
	start_realtime_ns=$((w + 2000000000)) mode=flight-recorder trigger_name=oom &&
"$mkhist" "$src" "$h/d.dat" 0 0 machine_id=$m boot_id=$b2 run_id="$(id 4)" \
	start_realtime_ns=$((w + 6000000000)) || fail "mkhist failed"

# the history as the input layer makes it (what the report lists)
"$MMSCOPE" report -s header "$h" >"$scratch/report" 2>&1 || fail "report: $(cat "$scratch/report")"
grep -q '^History of host vm: 4 runs, 2 gaps, 1 incident inside a run$' "$scratch/report" &&
	ok "the fixture: 4 runs, 2 gaps, an incident inside a run" ||
	fail "the fixture's history: $(head -16 "$scratch/report")"

# screen NAME KEYS [ARGS...]: the dumped screen in $scratch/NAME (100x30)
screen() {
	name=$1 keys=$2
	shift 2
	MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="$keys" MMSCOPE_TUI_DUMP="$scratch/$name" \
		TERM=dumb COLUMNS=100 LINES=30 "$MMSCOPE" tui "$@" </dev/null >"$scratch/out" 2>&1 ||
		{ fail "$name: exit $?: $(cat "$scratch/out")"; return 1; }
	[ -s "$scratch/out" ] && { fail "$name printed: $(cat "$scratch/out")"; return 1; }
	return 0
}
status() { tail -n 1 "$scratch/$1"; }
has() {	# NAME TEXT WHAT
	grep -qF -- "$2" "$scratch/$1" && ok "$3" || fail "$3: no '$2' in
$(cat "$scratch/$1")"
}

# ---- the time line ----
screen first "" "$h"
gaps=0
for lane in "0 kswapd" "0 kcompactd" "0 reclaim" "0 compact" "0 oom"; do
	row=$(grep -F -- "$lane" "$scratch/first")
	# both gaps: two runs of / on the row, the second the longer
	n=$(printf '%s\n' "$row" | cut -c14- | grep -o '/\{3,\}' | wc -l)
	[ "$n" = 2 ] || { fail "$lane: $n gaps marked, want 2: '$row'"; gaps=1; }
done
[ $gaps = 0 ] && ok "both gaps marked not recorded (/) on every lane"
chart=$(sed -n '/free Normal/,/min /p' "$scratch/first" | grep -c '//////')
[ "$chart" -ge 10 ] && ok "and on every chart row ($chart rows)" ||
	fail "the chart's rows: $chart with the gap marked"
reclaim=$(grep -F -- "0 reclaim" "$scratch/first" | cut -c14- | tr -cd R | wc -c)
oom=$(grep -F -- "0 oom" "$scratch/first" | cut -c14- | tr -cd '!' | wc -c)
[ "$reclaim" -ge 3 ] && [ "$oom" = 3 ] && ok "every run's stalls and OOM kill drawn (3 kills)" ||
	fail "reclaim $reclaim columns, oom $oom kills drawn, want 3 runs' worth"
status first | grep -q 'run 1 of 4 (began: start)$' && ok "the status bar: run 1 of 4, began: start" ||
	fail "status: $(status first)"

# ---- from run to run ----
screen next "}" "$h"
status next | grep -q '^ 2\.000000 s .*run 2 of 4 (began: restart)$' &&
	head -1 "$scratch/next" | grep -q '^ mmscope b\.dat ' &&
	ok "}: run 2 at 2 s, a restart, its file in the top bar" ||
	fail "}: $(head -1 "$scratch/next") / $(status next)"
# the incident inside run 2 is no run of the time line: the next is 4
screen next2 "} }" "$h"
status next2 | grep -q '^ 6\.000000 s .*run 4 of 4 (began: reboot)$' &&
	ok "} }: run 4 (the incident inside run 2 is not one), a reboot, at 6 s" ||
	fail "} }: $(status next2)"
screen next3 "} } }" "$h"
has next3 "the last run of the history" "} at the last run says so"
screen back "} } {" "$h"
status back | grep -q '^ 2\.000000 s .*run 2 of 4' && ok "{: back to run 2" ||
	fail "{: $(status back)"

# ---- in a gap ----
col=$(grep -F -- "0 kswapd" "$scratch/first" | awk '{ print index($0, "/") + 2 }')
screen gap "click=1,$col" "$h"
status gap | grep -q 'not recorded 1.68s: run 1 ended: a signal (SIGTERM); run 2 began: restart$' &&
	ok "the cursor in the gap: its length, how run 1 ended, how run 2 began" ||
	fail "gap status: $(status gap)"
has gap "not recorded for 1.7 s, 07:07:25 .. 07:07:26: run 1 ended: a signal (SIGTERM); run 2" \
	"under the axis: the gap with its wall-clock ends"

# ---- the cursor's run in the other views ----
# run 4 is of another boot: its trace time is run 1's, its place 6 s later
"$MMSCOPE" dump "$src" | grep -m1 'mm_vmscan_memcg_reclaim_begin' >"$scratch/dump1"
first=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }' \
	"$scratch/dump1")
start=$("$MMSCOPE" dump "$src" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }')
want=$(awk -v a="$first" -v s="$start" 'BEGIN { printf "%.6f", 6 + a - s }')
screen events "} } 5" "$h"
has events "events at 6.000000 s (@$start)" "events of run 4: the cursor at 6 s, its trace time @$start"
sed -n 3p "$scratch/events" | grep -q "^$want .*mm_vmscan_memcg_reclaim_begin" &&
	ok "run 4's first stall at $want s: its own time + 6 s" ||
	fail "events of run 4: line 1 '$(sed -n 3p "$scratch/events")', want $want"
screen stalls "} } 4" "$h"
has stalls "stalls from 6.000000 to 6.319634 s (whole of run 4)" "the stalls view: the cursor's run, whole"
has stalls "reclaim stalls: 35" "its 35 stalls (not the history's 105)"

# ---- help ----
screen help "? PgDn PgDn" "$h"
has help "}            next run of the history" "the help lists } with several runs"
has help "/ not recorded" "and the gap's mark"

# ---- --run, --since, --until ----
screen run2 "" --run 2 "$h"
status run2 | grep -q '^ 0\.000000 s .*run 2 of 4 (began: restart)$' &&
	ok "--run 2: that run alone, timed from its own first event" || fail "--run 2: $(status run2)"
screen run2b "}" --run 2 "$h"
has run2b "one run: { and } go from run to run" "--run 2: } has no run to go to"
screen run3 "" --run 3 "$h"
status run3 | grep -q 'run 3 of 4 (began: trigger oom, inside run 2)$' &&
	ok "--run 3: the incident, inside run 2" || fail "--run 3: $(status run3)"
"$MMSCOPE" tui --run 5 "$h" </dev/null >/dev/null 2>"$scratch/e"
[ $? = 2 ] && grep -q "^error: --run 5: the history has 4 runs" "$scratch/e" &&
	ok "--run 5: refused, exit 2" || fail "--run 5: $(cat "$scratch/e")"
screen win "}" --since 1.9 --until 6.1 "$h"
status win | grep -q '^ 6\.000000 s .*run 4 of 4' && head -30 "$scratch/win" | grep -q '^2\.000000 ' &&
	ok "--since 1.9 --until 6.1: runs 2 and 4, the axis from 2 s, } to run 4" ||
	fail "window: $(grep '^[0-9]' "$scratch/win" | tail -1) / $(status win)"
"$MMSCOPE" tui --since 100 "$h" </dev/null >/dev/null 2>"$scratch/e"
[ $? = 1 ] && grep -q "holds no run of the history" "$scratch/e" &&
	ok "a window past the history: refused with the runs" || fail "--since 100: $(cat "$scratch/e")"

# ---- a run of two switch-output parts ----
s=$scratch/s
mkdir "$s"
"$mkhist" "$src" "$s/x-1.dat" 0 0 machine_id=$m boot_id=$b1 run_id="$(id 5)" switch_output=1 \
	stop_reason=switch-output &&
"$mkhist" "$src" "$s/x-2.dat" 400000000 0 machine_id=$m boot_id=$b1 run_id="$(id 5)" \
	switch_output=2 start_realtime_ns=$((w + 400000000)) stop_reason=signal &&
"$mkhist" "$src" "$s/y.dat" 3000000000 0 machine_id=$m boot_id=$b1 run_id="$(id 6)" \
	start_realtime_ns=$((w + 3000000000)) || fail "mkhist failed"
screen parts "5" "$s"
head -1 "$scratch/parts" | grep -q '^ mmscope x-1\.dat (2 files) ' &&
	grep -q '^0\.260103 .*mm_vmscan_memcg_reclaim_begin' "$scratch/parts" &&
	ok "a run of two parts: its events through the set" ||
	fail "two parts: $(head -4 "$scratch/parts")"
screen parts2 "} 5 {" "$s"
status parts2 | grep -q '^ 0\.000000 s .*run 1 of 2 (began: start)$' &&
	ok "from the events view, { goes back to the run of two parts" || fail "parts: $(status parts2)"
finish
