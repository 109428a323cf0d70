#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A week of one-minute parts (issue 40 item 5): 10,080 --switch-output
# parts of one run made by tests/history/mkhist from one real part (each
# the part moved by a minute), then, on this machine, in one run:
#   - a 10-minute window's report of the week (goal: under 1 s), against
#     trace-cmd report of the 10 files that hold the window;
#   - the TUI opened on the week and quit (goal: under 2 s);
#   - the whole week's report: time, events/s and peak RSS (goal: 64 MB),
#     and a day's, to see the time grow with the events (linear);
#   - mmscope report of one part against trace-cmd report of it.
# Prints one line per figure and "history-bench: ..." with all of them.
# Not a test: a timing on a shared machine passes or fails nothing.
#
#   sh tests/bench/history.sh [PART.dat]
# PART: a real part of a --switch-output 60s run (default: one is recorded
# here, as root, for 65 s under a page-cache load). BENCH_WEEK_DIR keeps
# the generated week (12 GB for this machine's part) between runs;
# BENCH_PARTS sets the number of parts (10080).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${top_builddir:-$top}
mmscope=${MMSCOPE:-$build/mmscope}
mkhist=$build/tests/history/mkhist
parts=${BENCH_PARTS:-10080}
dir=${BENCH_WEEK_DIR:-/var/tmp/mmscope-bench/week}
[ -x "$mkhist" ] || { echo "build tests/history/mkhist first (make check builds it)" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "trace-cmd is needed to compare" >&2; exit 1; }
mkdir -p "$dir"

src=${1:-$dir/src-1.dat}
if [ ! -f "$src" ]; then
	echo "recording a one-minute part into $dir (65 s)..."
	"$mmscope" record --switch-output 60s --duration 65 -o "$dir/src.dat" -- sh -c '
		for i in $(seq 1 30); do
			head -c 300000000 /dev/zero >/dev/shm/mmscope-bench.$$
			rm -f /dev/shm/mmscope-bench.$$; sleep 1.5
		done' >"$dir/record.log" 2>&1 || { cat "$dir/record.log"; exit 1; }
	rm -f "$dir/src-2.dat"
fi
week=$dir/parts
if [ "$(ls "$week" 2>/dev/null | grep -c '\.dat$')" != "$parts" ]; then
	echo "making $parts parts in $week..."
	rm -rf "$week" && mkdir -p "$week"
	start=$(date +%s)
	MKHIST_NOCHECK=1 "$mkhist" --parts "$parts" --every 60 "$src" "$week/week" || exit 1
	echo "made in $(($(date +%s) - start)) s, $(du -sh "$week" | cut -f1)"
fi
load=$(cut -d' ' -f1-3 /proc/loadavg)

# secs CMD...: wall seconds of CMD (output discarded); peak RSS in $rss_mb
secs() {
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || {
		echo "failed: $* ($(tail -1 "$dir/err"))" >&2; echo "-"; return; }
	rss_mb=$(awk '{ printf "%.1f", $2 / 1024 }' "$dir/time")
	cut -d' ' -f1 "$dir/time"
}

# a window in the middle of the week: 10 minutes from day 3.5
from=$((parts * 60 / 2))
win=$(secs "$mmscope" report --since $from --until $((from + 600)) "$week")
win_rss=$rss_mb
first=$((from / 60 + 1))
files=""
for k in $(seq "$first" $((first + 9))); do files="$files $week/week-$k.dat"; done
tc_win=$(secs sh -c "for f in $files; do trace-cmd report \$f; done")
echo "10-minute window of the week: report $win s (RSS $win_rss MB); trace-cmd report of its 10 files $tc_win s"

tui=$(MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q secs "$mmscope" tui "$week")
echo "tui of the week, opened and quit: $tui s (RSS $rss_mb MB)"

one=$(secs "$mmscope" report "$week/week-1.dat")
tc_one=$(secs trace-cmd report "$week/week-1.dat")
echo "one part: report $one s, trace-cmd report $tc_one s"

dayfiles=$dir/day
rm -rf "$dayfiles" && mkdir -p "$dayfiles"
for k in $(seq 1 $((parts / 7))); do ln -s "$week/week-$k.dat" "$dayfiles/"; done
day=$(secs "$mmscope" report "$dayfiles")
day_rss=$rss_mb
MMSCOPE_REPORT_TIMING=1 "$mmscope" report "$week" >/dev/null 2>"$dir/timing"
wk=$(secs "$mmscope" report "$week")
wk_rss=$rss_mb
events=$(sed -n 's/.*: \([0-9]*\) events in .*/\1/p' "$dir/timing" | head -1)
echo "the week: report $wk s, $events events ($(awk -v e="${events:-0}" -v s="$wk" \
	'BEGIN { if (s > 0) printf "%.0f", e / s; else print "-" }') events/s), RSS $wk_rss MB"
echo "a day: report $day s (RSS $day_rss MB); week/day $(awk -v a="$wk" -v b="$day" \
	'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }') (7 for linear)"
echo "history-bench: parts=$parts load=\"$load\" window_s=$win window_tc_s=$tc_win tui_s=$tui" \
	"week_s=$wk week_events=${events:-?} week_rss_mb=$wk_rss day_s=$day one_s=$one one_tc_s=$tc_one"
rm -rf "$dayfiles"
