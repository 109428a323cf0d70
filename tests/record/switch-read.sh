#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the files of one record --switch-output run read as one recording.
# trace-cmd is the oracle: `mmscope dump DIR` (and the files named in any
# order) prints exactly the lines of `trace-cmd report` of each file,
# merged in time order (a stable sort of their concatenation by time
# stamp: a file's lines before a later file's at the same time); `dump
# --stat` counts each event as the files' sum; `export DIR` writes one
# recording whose events and sample sets are the sum of the files' own
# exports, and the files named one by one are the same recording; `tui
# DIR` spans all the files, its events view reads them merged as dump
# does; in `compare` they are one run. Every part carries the run's
# run_id, which places a renamed part. Files with a segment missing
# between them are refused with one line; another run beside them is
# another recording.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

mkdir "$scratch/seg"
# two switches (three parts), then SIGINT; loaded until then, up to 60 s
switched() { [ "$(grep -c '^mmscope: wrote ' "$scratch/err")" -ge 2 ]; }
# shellcheck disable=SC2086
"$MMSCOPE" record --switch-output 1M --interval 200 --duration 90 -o "$scratch/seg/run.dat" \
	$EV 2>"$scratch/err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
copy_load_until 60 switched
kill -INT "$rec"
wait "$rec" || { cat "$scratch/err"; fail "record --switch-output 1M exited $?"; }
files=$(ls "$scratch/seg" | grep '^run-[0-9]*\.dat$' | sort -t- -k2 -n | sed "s|^|$scratch/seg/|")
n=$(echo "$files" | wc -l)
[ "$n" -ge 3 ] || fail "only $n files"
# one run id, 32 lowercase hex digits, in every part (mmscope-recording(5))
ids=$(for f in $files; do "$MMSCOPE" dump --info "$f" | sed -n 's/^ *run_id=//p'; done | sort | uniq -c)
echo "$ids" | grep -q "^ *$n [0-9a-f]\{32\}$" && ok "one run_id in all $n parts: $ids" ||
	fail "run ids of the parts: '$ids'"

# Memory per part (issue 36): opening the set once parsed every part's
# kallsyms (~16 MB a part on a 6.18 host), and the parts stay open to the
# end; the report of all parts may hold more than the first part's alone
# by the parts' own state (~2-6 MB), not by a symbol table each. Under
# ASan freed memory waits in a quarantine (14 MB a part): none for this.
rss() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
		/usr/bin/time -f %M -o "$scratch/rss" "$MMSCOPE" report "$@" >/dev/null 2>&1 &&
		tail -1 "$scratch/rss"
}
one=$(rss "$(echo "$files" | head -1)")
# shellcheck disable=SC2086
all=$(rss $files)
per=$(( (all - one) / (n - 1) ))
[ "$per" -lt 8192 ] && ok "report of the $n parts: $all KB peak, $one KB for one, $per KB a part more" ||
	fail "report of the $n parts: $all KB peak against $one KB for one: $per KB a part"

# trace-cmd report, normalized as tests/oracle/trace-cmd.sh does, each
# line after its time stamp in ns (from report -t: the lines printed
# round to the microsecond, which cannot order two files' events)
tc_report() { trace-cmd report "$1" 2>/dev/null | grep -v '^cpus=' | sed -E 's/ +/ /g'; }
tc_keyed() {
	trace-cmd report -t "$1" 2>/dev/null | grep -v '^cpus=' | awk '{ t = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; break }
		if (t == "") { print "a line without a time stamp: " $0 >"/dev/stderr"; exit 1 }
		sub(/:$/, "", t); print t }' >"$scratch/keys" || fail "$1: trace-cmd printed a line without a time stamp"
	tc_report "$1" >"$scratch/lines"
	[ "$(wc -l <"$scratch/keys")" = "$(wc -l <"$scratch/lines")" ] || fail "$1: trace-cmd report -t has other lines"
	paste "$scratch/keys" "$scratch/lines"
}
ms_norm() { sed -E 's/ [a-z0-9_]+:([a-z0-9_]+:)/ \1/; s/ +/ /g'; }
for f in $files; do
	tc_keyed "$f"
done >"$scratch/tc.cat"
# a stable sort by time: a file's lines before a later file's at the same ns
sort -s -n -k1,1 "$scratch/tc.cat" >"$scratch/tc.keyed"
cut -f2- "$scratch/tc.keyed" >"$scratch/tc"
total=$(wc -l <"$scratch/tc")
cmp -s "$scratch/tc.cat" "$scratch/tc.keyed" || echo "(the files overlap in time: the merge reorders)"

"$MMSCOPE" dump "$scratch/seg" >"$scratch/ms.raw" 2>"$scratch/e" || fail "dump DIR: $(cat "$scratch/e")"
ms_norm <"$scratch/ms.raw" >"$scratch/ms"
if cmp -s "$scratch/tc" "$scratch/ms"; then
	ok "dump DIR: $total events, trace-cmd report's of the $n files in time order"
else
	fail "dump DIR differs from trace-cmd report of the files"
	diff "$scratch/tc" "$scratch/ms" | head -5 >&2
fi
# shellcheck disable=SC2046
"$MMSCOPE" dump $(echo "$files" | sort -r) | ms_norm >"$scratch/ms2"
cmp -s "$scratch/ms" "$scratch/ms2" && ok "dump FILE... in any order: the same" ||
	fail "dump FILE... (reversed) differs from dump DIR"
# a window across a switch: from the middle event's ns on, as trace-cmd's
mid=$(sed -n "$((total / 2))p" "$scratch/tc.keyed" | cut -f1)
"$MMSCOPE" dump --since "@$mid" "$scratch/seg" | ms_norm >"$scratch/ms3"
awk -F '\t' -v t="$mid" '$1 + 0 >= t + 0' "$scratch/tc.keyed" | cut -f2- >"$scratch/ms3.want"
cmp -s "$scratch/ms3" "$scratch/ms3.want" &&
	ok "dump --since @$mid DIR: $(wc -l <"$scratch/ms3") events, trace-cmd's from then on" ||
	{ fail "dump --since across files differs from trace-cmd's from then on"
	  diff "$scratch/ms3" "$scratch/ms3.want" | head -5 >&2; }

# --stat: per event, the sum over the files (trace-cmd's lines)
awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i+1); break }}' \
	"$scratch/tc" | sed 's/:$//' | sort | uniq -c | awk '{print $2, $1}' >"$scratch/tc.count"
"$MMSCOPE" dump --stat "$scratch/seg" >"$scratch/stat" || fail "dump --stat DIR failed"
awk '$2 ~ /:/ && $1 ~ /^[0-9]+$/ {sub(/^[^:]*:/, "", $2); print $2, $1}' "$scratch/stat" |
	sort >"$scratch/ms.count"
cmp -s "$scratch/tc.count" "$scratch/ms.count" && ok "dump --stat DIR: per-event counts are the files' sum" ||
	{ fail "dump --stat DIR: counts differ"; diff "$scratch/tc.count" "$scratch/ms.count" >&2; }
got=$(awk '$2 == "total" { print $1 }' "$scratch/stat")
[ "$got" = "$total" ] && ok "dump --stat DIR: $got in total" || fail "dump --stat DIR: total $got, want $total"
[ "$(grep -c '^file: ' "$scratch/stat")" = "$n" ] || fail "dump --stat DIR: not one file: line per file"
# the kernel's per-CPU stats, summed: nothing overrun or dropped
awk '/^ *cpu / { s = 1; next } s && NF == 5 { if ($4 != 0 || $5 != 0) bad = 1 } END { exit bad }' \
	"$scratch/stat" && ok "dump --stat DIR: 0 overrun, 0 dropped in the files' CPU stats" ||
	fail "dump --stat DIR: overrun or dropped: $(cat "$scratch/stat")"

# export: one recording, the sum of its files
col() {	# col FILE NAME: the column NAME of the rows of a CSV file
	awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"
}
"$MMSCOPE" export -o "$scratch/ex" "$scratch/seg" 2>"$scratch/e" || fail "export DIR: $(cat "$scratch/e")"
rows=$(($(wc -l <"$scratch/ex/recordings.csv") - 1))
[ "$rows" = 1 ] && ok "export DIR: one recording" || fail "export DIR: $rows recordings"
ev=$(col "$scratch/ex/recordings.csv" events)
[ "$ev" = "$total" ] && ok "export DIR: $ev events" || fail "export DIR: $ev events, want $total"
[ "$(col "$scratch/ex/recordings.csv" lost_events)" = 0 ] || fail "export DIR: lost events not 0"
for f in $files; do
	"$MMSCOPE" export -o "$scratch/each" "$f" 2>/dev/null || fail "export $f failed"
done
for c in events sample_sets; do
	sum=$(col "$scratch/each/recordings.csv" $c | awk '{ s += $1 } END { print s }')
	one=$(col "$scratch/ex/recordings.csv" $c)
	[ "$sum" = "$one" ] && ok "export DIR: $c $one, the sum of the $n files' exports" ||
		fail "export DIR: $c $one, the files' exports sum to $sum"
done
sets=$(col "$scratch/ex/recordings.csv" sample_sets)
[ "$(col "$scratch/ex/counters.csv" t_ns | sort -u | wc -l)" -le "$sets" ] || fail "export DIR: more counter times than sets"
# shellcheck disable=SC2086
"$MMSCOPE" export -o "$scratch/ex" $files 2>"$scratch/e"
grep -q 'already in' "$scratch/e" && ok "export FILE...: the same recording (skipped: $(cat "$scratch/e"))" ||
	fail "export FILE... is not the same recording as DIR: $(cat "$scratch/e")"

# tui DIR: the models of all the files, the timeline from the first file's
# first event to the last file's last one
ts_of() { grep -o '[0-9][0-9]*\.[0-9]\{6\}:' | head -1 | tr -d :; }
t_first=$(head -1 "$scratch/ms.raw" | ts_of)
t_last=$(tail -1 "$scratch/ms.raw" | ts_of)
# the TUI's times count from the first event (as the report's)
t_last=$(awk -v a="$t_first" -v b="$t_last" 'BEGIN { printf "%.6f", b - a }')
t_first=0.000000
tui() {	# tui KEYS ARGS...: the last screen
	k=$1; shift
	MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="$k" MMSCOPE_TUI_DUMP="$scratch/screen" LINES=30 \
		COLUMNS=100 TERM=dumb "$MMSCOPE" tui "$@" </dev/null 2>"$scratch/e" ||
		fail "tui $*: exit $?: $(cat "$scratch/e")"
}
tui Home "$scratch/seg"
head -1 "$scratch/screen" | grep -q "seg ($n files)" && ok "tui DIR: the title says $n files" ||
	fail "tui DIR: title $(head -1 "$scratch/screen")"
got=$(tail -1 "$scratch/screen" | awk '{ print $1 }')
[ "$got" = "$t_first" ] && ok "tui DIR: Home is the first event, $got" || fail "tui DIR: Home at $got, want $t_first"
tui End "$scratch/seg"
got=$(tail -1 "$scratch/screen" | awk '{ print $1 }')
# within a microsecond: the TUI rounds the ns difference, dump each time
awk -v a="$got" -v b="$t_last" 'BEGIN { d = a - b; exit !(d < 0.0000015 && d > -0.0000015) }' &&
	ok "tui DIR: End is the last file's last event, $got" || fail "tui DIR: End at $got, want $t_last"
# shellcheck disable=SC2086
tui 4 $files
grep -q "seg/run-1.dat ($n files)\|run-1.dat ($n files)" "$scratch/screen" || fail "tui FILE...: title $(head -1 "$scratch/screen")"
# the events view in the middle of the recording (60 columns on, of 100):
# its lines are dump DIR's there, in order (task names aside: the view
# names a pid after all the files' saved cmdlines, dump after its own
# file's)
keys=$(for i in $(seq 60); do printf 'Right '; done)
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="${keys}5" MMSCOPE_TUI_DUMP="$scratch/screen" LINES=30 \
	COLUMNS=300 TERM=dumb "$MMSCOPE" tui "$scratch/seg" </dev/null 2>"$scratch/e" ||
	fail "tui DIR events: $(cat "$scratch/e")"
# (and times aside: the view counts from the first event, dump prints
# trace time; and the counter-sample lines aside: the view hides them
# until `p`, so a sample set written among the 24 events shown splits
# dump's run of them; and line ends: the view clips at the screen's
# width, so both are compared on their first 200 characters)
nocomm() { sed -E 's/ +$//; s/^ *.*-([0-9]+) +\[/\1 [/; s/^([0-9]+ \[[0-9]+\]) +[0-9]+\.[0-9]+:/\1/' | cut -c1-200; }
awk 'NR >= 3' "$scratch/screen" | sed -n '/^-----/q;p' | nocomm >"$scratch/vis"
grep -v ': mms1 ' "$scratch/ms.raw" | nocomm >"$scratch/all"
m=$(wc -l <"$scratch/vis")
# without times a line may repeat: any place where all m lines follow
k=""
for c in $(grep -n -F -x -- "$(head -1 "$scratch/vis")" "$scratch/all" | cut -d: -f1); do
	sed -n "$c,$((c + m - 1))p" "$scratch/all" | cmp -s - "$scratch/vis" && { k=$c; break; }
done
if [ "$m" -ge 10 ] && [ -n "$k" ]; then
	ok "tui DIR: the events view at $(tail -1 "$scratch/screen" | awk '{ print $1 }'): $m lines, dump's from line $k of $total"
else
	fail "tui DIR: the events view's $m lines are not dump's (from line '$k')"
	{ echo "the screen:"; cat "$scratch/screen"; echo "its lines, as compared:"; cat "$scratch/vis"; } >&2
fi
# a window across the switches (the middle half of the events)
lo=$(sed -n "$((total / 4))p" "$scratch/tc.keyed" | cut -f1)
hi=$(sed -n "$((3 * total / 4))p" "$scratch/tc.keyed" | cut -f1)
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS="q" MMSCOPE_TUI_DUMP="$scratch/wscreen" LINES=30 \
	COLUMNS=120 TERM=dumb "$MMSCOPE" tui --since "@$lo" --until "@$hi" "$scratch/seg" </dev/null \
	2>"$scratch/e" && [ -s "$scratch/wscreen" ] && ok "tui --since/--until DIR: drawn" ||
	fail "tui --since/--until DIR: $(cat "$scratch/e")"

# compare: the files of one run (a directory, or named in a column) are
# one run; its counter delta spans them all, so it is at least any one
# file's own
cmp_row() {	# cmp_row STAT COLUMNS...: that row's values of minor-faults
	st=$1; shift
	"$MMSCOPE" compare -m minor-faults -s samples,mean -w 200 "$@" 2>"$scratch/e" |
		awk -v s="$st" '$1 == "Minor" && $3 == s { for (i = 5; i <= NF; i++) if ($i !~ /%$/) printf "%s ", $i }'
}
runs() {	# runs COLUMNS...: the runs of each column
	"$MMSCOPE" compare -f json "$@" 2>"$scratch/e" | grep -o '"runs": [0-9]*' | awk '{ printf "%s ", $2 }'
}
got=$(runs A="$scratch/seg" B="$(echo "$files" | tr '\n' , | sed 's/,$//')")
[ "$got" = "1 1 " ] && ok "compare A=DIR B=FILE,...: one run each" || fail "compare: runs '$got': $(cat "$scratch/e")"
one=$(cmp_row mean A="$scratch/seg" | tr -d ' ')
max=0
for f in $files; do
	v=$(cmp_row mean A="$f" | tr -d ' ')
	[ -n "$v" ] && [ "$v" -gt "$max" ] && max=$v
done
[ -n "$one" ] && [ "$one" -gt 0 ] && [ "$one" -ge "$max" ] &&
	ok "compare A=DIR: minor faults $one, at least any one file's ($max)" ||
	fail "compare A=DIR: minor faults '$one', a file alone $max"
"$MMSCOPE" compare A="$(echo "$files" | head -1),$(echo "$files" | tail -1)" B="$scratch/seg" \
	>/dev/null 2>"$scratch/e"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q 'is missing' "$scratch/e" &&
	ok "compare A=FIRST,LAST: exit $rc: $(cat "$scratch/e")" || fail "compare A=FIRST,LAST: exit $rc: $(cat "$scratch/e")"
# the window across the switches: report reads from the file that holds
# its start on and counts trace-cmd's events between its ends
want=$(awk -F '\t' -v a="$lo" -v b="$hi" '$1 + 0 >= a + 0 && $1 + 0 <= b + 0' "$scratch/tc.keyed" | wc -l)
got=$("$MMSCOPE" report -s header -f json --since "@$lo" --until "@$hi" "$scratch/seg" 2>"$scratch/e" |
	sed -n 's/^ *"events": \([0-9]*\),$/\1/p')
[ -n "$got" ] && [ "$got" = "$want" ] &&
	ok "report --since @$lo --until @$hi DIR: $got events, trace-cmd's between them" ||
	fail "report --since/--until DIR: '$got' events, trace-cmd has $want: $(cat "$scratch/e")"
"$MMSCOPE" compare --since "@$lo" --until "@$hi" A="$scratch/seg" B="$scratch/seg" >/dev/null 2>"$scratch/e" &&
	ok "compare --since/--until A=DIR" || fail "compare --since/--until A=DIR: $(cat "$scratch/e")"

# refused: a segment missing between two, segments of two runs
first=$(echo "$files" | head -1)
last=$(echo "$files" | tail -1)
for cmd in "dump" "dump --stat" "report" "export -o $scratch/ex2"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" $cmd "$first" "$last" >/dev/null 2>"$scratch/e"
	rc=$?
	[ $rc -ne 0 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q 'is missing' "$scratch/e" &&
		ok "$cmd FIRST LAST: exit $rc: $(cat "$scratch/e")" || fail "$cmd FIRST LAST: exit $rc: $(cat "$scratch/e")"
done
# another host's run beside a part: two histories, never one (report
# and dump refuse the directory, a line per run; report shows both when
# named one by one; compare and export count two); the part renamed is
# still its run's (placed by its run id, not its name)
mkdir "$scratch/two"
cp "$first" "$scratch/two/a-$(basename "$first" | sed 's/^run-//')"
cp "$top_srcdir/tests/data/report/oom-6.18.dat" "$scratch/two/"
"$MMSCOPE" dump "$scratch/two" >/dev/null 2>"$scratch/e"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 3 ] && grep -q 'the recordings of 2 hosts' "$scratch/e" &&
	ok "dump DIR of two hosts' runs: exit $rc, a line per run" ||
	fail "dump DIR of two runs: exit $rc: $(cat "$scratch/e")"
got=$("$MMSCOPE" report -s header "$scratch/two"/*.dat 2>"$scratch/e" | grep -c '^mmscope report: ')
[ "$got" = 2 ] && ok "report DIR of two runs: two reports" || fail "report DIR of two runs: $got: $(cat "$scratch/e")"
got=$(runs A="$scratch/two")
[ "$got" = "2 " ] && ok "compare A=DIR of two runs: two runs" || fail "compare A=DIR of two runs: '$got' runs"
"$MMSCOPE" export -o "$scratch/ex3" "$scratch/two" 2>"$scratch/e" || fail "export DIR of two runs: $(cat "$scratch/e")"
[ "$(($(wc -l <"$scratch/ex3/recordings.csv") - 1))" = 2 ] && ok "export DIR of two runs: two recordings" ||
	fail "export DIR of two runs: not two recordings"
mkdir "$scratch/renamed"
for f in $files; do cp "$f" "$scratch/renamed/"; done
mv "$scratch/renamed/$(basename "$first")" "$scratch/renamed/other-name.dat"
got=$("$MMSCOPE" dump --stat "$scratch/renamed" 2>"$scratch/e" | sed -n 's/^ *\([0-9]*\)  total$/\1/p')
want=$("$MMSCOPE" dump --stat "$scratch/seg" | sed -n 's/^ *\([0-9]*\)  total$/\1/p')
[ -n "$got" ] && [ "$got" = "$want" ] && ok "a part renamed: still its run's ($got events)" ||
	fail "a part renamed: '$got' events, the run has '$want': $(cat "$scratch/e")"
finish
