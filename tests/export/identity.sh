#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Each event once in an export directory (mmscope-export(5), EACH EVENT
# ONCE): a recording is known by its host, boot, run and parts, not its
# file name. On a run of three --switch-output parts and a flight
# incident inside it (one machine, one boot): exporting the directory
# takes the run and leaves the incident to it; again, or a part of it
# after it, changes no byte; a part first, then the run, adds only the
# other parts; the events exported, summed over the recordings table,
# are the files' events once. In CSV and JSON Lines.
. "${top_srcdir:-.}/tests/lib.sh"

mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || skip "tests/compare/mkrec not built"
command -v python3 >/dev/null || skip "python3 not installed"

machine=3d1219c7c4c5404aaa1f6d2a48adfda4
boot=32ce32ed-64e4-48b8-b341-08bfbf6af72e
run=0123456789abcdef0123456789abcdef
inc=fedcba9876543210fedcba9876543210
# part FILE N START_TRACE_NS T...: part N of the run, one print per time
part() {
	f=$1 n=$2 st=$3; shift 3
	for t in "$@"; do echo "$t part $n at $t"; done |
		MKREC_META="$(printf 'mmscope=test\nhost=vm\nmachine_id=%s\nboot_id=%s\nclock=mono\nstart_realtime_ns=%s\nstart_trace_ns=%s\nrun_id=%s\nswitch_output=%s\nevents=ftrace:print\ncpustat=window\nstop_reason=%s\n' \
			$machine $boot $((1796000000000000000 + st)) "$st" $run "$n" \
			"$([ "$n" = 3 ] && echo signal || echo switch-output)")" "$mkrec" "$f" ||
		fail "mkrec $f"
}
mkdir "$scratch/h"
part "$scratch/h/mm-1.dat" 1 1000000000 1000000000 1100000000 1200000000
part "$scratch/h/mm-2.dat" 2 1300000000 1300000000 1400000000
part "$scratch/h/mm-3.dat" 3 1500000000 1500000000 1600000000 1700000000 1800000000
# an incident of a flight recorder beside it, inside the run's span
printf '1350000000 incident\n1360000000 incident\n' |
	MKREC_META="$(printf 'mmscope=test\nhost=vm\nmachine_id=%s\nboot_id=%s\nclock=mono\nstart_realtime_ns=%s\nstart_trace_ns=1350000000\nrun_id=%s\nmode=flight-recorder\nevents=ftrace:print\ncpustat=window\ntrigger_name=oom\nstop_reason=trigger:oom\n' \
		$machine $boot $((1796000000000000000 + 1350000000)) $inc)" "$mkrec" "$scratch/h/flight-1.dat" ||
	fail "mkrec flight"
total=9	# the run's events: the incident's two are the run's too

# sum_events DIR FMT: "ROWS EVENTS" of DIR's recordings table
sum_events() {
	python3 - "$1" "$2" <<'PY'
import csv, json, sys
d, fmt = sys.argv[1], sys.argv[2]
if fmt == "csv":
    rows = list(csv.DictReader(open(d + "/recordings.csv", newline="")))
else:
    rows = [json.loads(l) for l in open(d + "/recordings.jsonl") if l.strip()]
print(len(rows), sum(int(r["events"]) for r in rows))
PY
}
snap() { cat "$1"/*."$2" | cksum; }

for fmt in csv jsonl; do
	x=$scratch/x-$fmt
	"$MMSCOPE" export -f $fmt -o "$x" "$scratch/h" 2>"$scratch/e" || fail "$fmt: export DIR: $(cat "$scratch/e")"
	grep -q 'flight-1.dat: an incident inside .*mm-1.dat (3 files): its events are exported with it' "$scratch/e" &&
		ok "$fmt: the incident is the run's: $(grep incident "$scratch/e")" ||
		fail "$fmt: incident not said: $(cat "$scratch/e")"
	[ "$(sum_events "$x" $fmt)" = "1 $total" ] && ok "$fmt: export DIR: one recording, $total events" ||
		fail "$fmt: export DIR: $(sum_events "$x" $fmt) (rows events), want 1 $total"
	before=$(snap "$x" $fmt)
	"$MMSCOPE" export -f $fmt -o "$x" "$scratch/h" 2>"$scratch/e" || fail "$fmt: again: $(cat "$scratch/e")"
	"$MMSCOPE" export -f $fmt -o "$x" "$scratch/h/mm-2.dat" 2>>"$scratch/e" || fail "$fmt: part 2"
	"$MMSCOPE" export -f $fmt -o "$x" "$scratch/h/flight-1.dat" 2>>"$scratch/e" || fail "$fmt: incident"
	[ "$(snap "$x" $fmt)" = "$before" ] &&
		ok "$fmt: the run again, a part of it, the incident alone: no byte changed" ||
		fail "$fmt: a second export changed the tables: $(cat "$scratch/e")"
	grep -q 'parts 2..2 of run .* are already in' "$scratch/e" &&
		grep -q 'an incident inside recording [0-9a-f]* already in' "$scratch/e" &&
		ok "$fmt: each skip says why" || fail "$fmt: skips: $(cat "$scratch/e")"

	# a part first, then the run: the run adds parts 1 and 3 only
	y=$scratch/y-$fmt
	"$MMSCOPE" export -f $fmt -o "$y" "$scratch/h/mm-2.dat" 2>"$scratch/e" || fail "$fmt: part 2 first"
	"$MMSCOPE" export -f $fmt -o "$y" "$scratch/h" 2>"$scratch/e" || fail "$fmt: then DIR: $(cat "$scratch/e")"
	[ "$(sum_events "$y" $fmt)" = "3 $total" ] &&
		grep -q 'parts 1..1 of run .* not in .* yet' "$scratch/e" && grep -q 'parts 3..3 of run' "$scratch/e" &&
		ok "$fmt: part 2, then the run: parts 1 and 3 added, $total events in 3 rows" ||
		fail "$fmt: part then run: $(sum_events "$y" $fmt): $(cat "$scratch/e")"
	before=$(snap "$y" $fmt)
	"$MMSCOPE" export -f $fmt -o "$y" "$scratch/h" "$scratch/h/mm-1.dat" 2>"$scratch/e"
	[ "$(snap "$y" $fmt)" = "$before" ] && ok "$fmt: and again: nothing" ||
		fail "$fmt: again after pieces: $(cat "$scratch/e")"
done

# the ids: a part's id does not depend on its file name
mkdir "$scratch/renamed"
cp "$scratch/h/mm-2.dat" "$scratch/renamed/other-name.dat"
"$MMSCOPE" export -o "$scratch/x-csv" "$scratch/renamed/other-name.dat" 2>"$scratch/e"
grep -q 'already in' "$scratch/e" && ok "a part renamed: still known" ||
	fail "a part renamed: $(cat "$scratch/e")"
finish
