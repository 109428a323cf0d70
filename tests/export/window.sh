#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export --since/--until (issue 23): a window of real recordings
# holds exactly the stalls and compaction runs of the whole export that
# began in it, with the same times (counted from the recording's first
# event either way), and as many as `report --since/--until --format
# json` counts; its recordings row carries window_start_ns and
# window_end_ns (null for a whole recording) and its own id; a window of
# the files of one switch-output run is one row. Also what export
# refuses: since after until, a bad time.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

d="$top_srcdir/tests/data/report"
for f in "$d/global-pressure-reclaim-6.12.dat" "$d/compaction-sampled-6.18.dat" \
	"$d/stacks-memcg-6.18.dat"; do
	name=$(basename "$f" .dat)
	read -r first last <<EOF
$("$MMSCOPE" report -s header -f json "$f" |
		sed -n 's/.*"first_s": \([0-9.]*\).*/\1/p; s/.*"last_s": \([0-9.]*\).*/\1/p' | tr '\n' ' ')
EOF
	# the middle third of the recording, in seconds from its first event
	since=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) / 3 }')
	until=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", 2 * (b - a) / 3 }')
	"$MMSCOPE" export -o "$scratch/$name-all" "$f" || { fail "$name: export failed"; continue; }
	"$MMSCOPE" export --since "$since" --until "$until" -o "$scratch/$name-win" "$f" ||
		{ fail "$name: export --since $since --until $until failed"; continue; }
	"$MMSCOPE" report --since "$since" --until "$until" -f json "$f" >"$scratch/$name.json" ||
		{ fail "$name: report of the window failed"; continue; }
	python3 - "$scratch/$name-all" "$scratch/$name-win" "$scratch/$name.json" "$since" "$until" <<'PY' ||
import csv, json, sys
whole, win, rep = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
since, until = round(float(sys.argv[4]) * 1e9), round(float(sys.argv[5]) * 1e9)
rows = lambda d, t: list(csv.DictReader(open("%s/%s.csv" % (d, t), newline="")))
bad = []
(ra,), (rw,) = rows(whole, "recordings"), rows(win, "recordings")
start = int(ra["start_ns"])
if ra["window_start_ns"] or ra["window_end_ns"]:
    bad.append("the whole recording has a window: %s %s" % (ra["window_start_ns"], ra["window_end_ns"]))
if rw["recording_id"] == ra["recording_id"]:
    bad.append("the window has the whole recording's id")
if int(rw["start_ns"]) != start:
    bad.append("start_ns %s, want the recording's first event %d" % (rw["start_ns"], start))
if rw["window_start_ns"] != str(start + since):
    bad.append("window_start_ns %s, want %d" % (rw["window_start_ns"], start + since))
if not rw["window_end_ns"] or int(rw["window_end_ns"]) > start + until:
    bad.append("window_end_ns %s after the window's end %d" % (rw["window_end_ns"], start + until))
if int(rw["duration_ns"]) != int(rw["end_ns"]) - int(rw["window_start_ns"]):
    bad.append("duration_ns %s is not end_ns - window_start_ns" % rw["duration_ns"])
if int(rw["events"]) >= int(ra["events"]) or int(rw["events"]) <= 0:
    bad.append("events %s in the window of %s" % (rw["events"], ra["events"]))
# the rows begun in the window, as the whole export has them
for t in ("stalls", "compaction_runs"):
    key = lambda r: tuple(v for k, v in r.items() if k != "recording_id")
    want = sorted(key(r) for r in rows(whole, t) if since <= int(r["begin_ns"]) <= until)
    got = sorted(key(r) for r in rows(win, t))
    if want != got:
        bad.append("%s: %d rows in the window, %d begun in it in the whole export"
                   % (t, len(got), len(want)))
# reclaim stalls of each kind: as many rows as report --since/--until counts
for kind in ("direct", "memcg", "softlimit", "node"):
    n = (rep["stalls"].get(kind) or {}).get("count") or 0
    m = sum(1 for r in rows(win, "stalls") if r["kind"] == kind)
    if n != m:
        bad.append("%s stalls: report counts %d in the window, export has %d rows" % (kind, n, m))
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
		fail "$name: the window's tables"
	ok "$name: window $since..$until s"
done

f="$d/global-pressure-reclaim-6.12.dat"
out=$("$MMSCOPE" export --since 5 --until 2 -o "$scratch/inv" "$f" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "since is after" || fail "since after until: '$out'"
out=$("$MMSCOPE" export --since x -o "$scratch/bad" "$f" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "bad --since" || fail "a bad --since: '$out'"
[ ! -e "$scratch/inv" ] && [ ! -e "$scratch/bad" ] || fail "a refused window created the directory"
# a window after the last event: no made-up end (report: '-', JSON null;
# export: the recording left out with a reason, exit 1)
out=$("$MMSCOPE" export --since 100000 -o "$scratch/late" "$f" 2>&1)
rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "no event in the window (after the recording's last event)" &&
	[ "$(awk -F, 'NR > 1' "$scratch/late/recordings.csv" 2>/dev/null | wc -l)" = 0 ] ||
	fail "export of a window after the end: exit $rc, '$out'"
"$MMSCOPE" report --since 100000 "$f" |
	grep -q "^span      - (no event in the window: after the recording's last event)$" ||
	fail "report of a window after the end: $("$MMSCOPE" report --since 100000 "$f" | grep span)"
"$MMSCOPE" report -s header -f json --since 100000 "$f" >"$scratch/late.json"
grep -q '"last_s": null' "$scratch/late.json" && grep -q "\"empty\": \"after the recording's last event\"" \
	"$scratch/late.json" || fail "report JSON of a window after the end: $(grep -E 'last_s|empty' "$scratch/late.json")"
# before the first event (a trace time before it), and in a gap
"$MMSCOPE" report --since @0 --until @1 "$f" | grep -q "(no event in the window: before its first event)" ||
	fail "report of a window before the start: $("$MMSCOPE" report --since @0 --until @1 "$f" | grep span)"
# the parts of one switch-output run (tests/cli/multifile.sh makes them
# the same way): one recording, its window from its first file's event
mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || skip "tests/compare/mkrec not built"
mkdir "$scratch/run"
for n in 1 2; do
	echo "$n part $n" | MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\nswitch_output=%s\n' $((n * 1000)) $n)" \
		"$mkrec" "$scratch/run/r-$n.dat" || fail "mkrec r-$n.dat"
done
printf '1000000000 one\n2000000000 two\n' | "$mkrec" "$scratch/gap.dat" || fail "mkrec gap.dat"
out=$("$MMSCOPE" export --since @1.2 --until @1.5 -o "$scratch/gap" "$scratch/gap.dat" 2>&1)
echo "$out" | grep -q "no event in the window (in a gap between events)" ||
	fail "a window between two events: '$out'"
"$MMSCOPE" report -s header -f json --since @1.2 --until @1.5 "$scratch/gap.dat" |
	grep -q '"empty": "in a gap between events"' || fail "report JSON of a window in a gap"
out=$("$MMSCOPE" export --since 0 -o "$scratch/runx" "$scratch/run" "$f" 2>&1) ||
	fail "a window across a run's files: exit $?, '$out'"
[ "$(awk -F, 'NR > 1' "$scratch/runx/recordings.csv" 2>/dev/null | wc -l)" = 2 ] ||
	fail "the run and the other recording were not both exported: $(cat "$scratch/runx/recordings.csv")"
grep -q '/run (2 files),.*,2,' "$scratch/runx/recordings.csv" ||
	fail "the run's window: $(cat "$scratch/runx/recordings.csv")"
finish
