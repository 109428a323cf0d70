#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# --since/--until as wall-clock times (2026-12-01T14:32:05Z): what an
# incident on a fleet is known by, each host's trace clock counting from
# its own boot. A recording made by mmscope record holds the wall and
# trace clocks read together at its start (start_realtime_ns,
# start_trace_ns); a wall-clock window must read exactly as the same
# window in trace time (@T) computed here from those two numbers, in
# report (text, JSON), dump and export, in every zone form. A recording
# without them (trace-cmd's), a date that does not exist and since after
# until are refused with one line, exit 2.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

# wall T_NS REAL0 TRACE0 ZONE: the wall-clock time of trace time T_NS
wall() {
	python3 - "$@" <<'PY'
import datetime, sys
t, real0, trace0, zone = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ns = real0 + (t - trace0)
s, f = divmod(ns, 10**9)
off = {"Z": 0, "+05:30": 330, "-0800": -480, "": 0}[zone]
d = datetime.datetime.fromtimestamp(s, datetime.timezone.utc) + datetime.timedelta(minutes=off)
print(d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09d" % f + zone)
PY
}
meta() { grep -a -m1 -o "$2=[0-9]*" "$1" | cut -d= -f2; }

d="$top_srcdir/tests/data/report"
for f in "$d/global-pressure-reclaim-6.12.dat" "$d/compaction-sampled-6.18.dat" "$d/global-pressure-7.2.dat"; do
	name=$(basename "$f")
	real0=$(meta "$f" start_realtime_ns) trace0=$(meta "$f" start_trace_ns)
	[ -n "$real0" ] && [ -n "$trace0" ] || { fail "$name: no start_realtime_ns/start_trace_ns"; continue; }
	set -- $("$MMSCOPE" report -s header -f json "$f" |
		sed -n 's/^ *"\(first_s\|last_s\)": \([0-9.]*\),$/\2/p')
	a=$(awk -v f="$1" -v l="$2" 'BEGIN { printf "%.0f", (f + (l - f) / 3) * 1e9 }')
	b=$(awk -v f="$1" -v l="$2" 'BEGIN { printf "%.0f", (f + 2 * (l - f) / 3) * 1e9 }')
	at_a=$(awk -v n="$a" 'BEGIN { printf "@%d.%09d", n / 1e9, n % 1e9 }')
	at_b=$(awk -v n="$b" 'BEGIN { printf "@%d.%09d", n / 1e9, n % 1e9 }')
	for fmt in text json; do
		"$MMSCOPE" report -f $fmt --since "$at_a" --until "$at_b" "$f" >"$scratch/want.$fmt" ||
			fail "$name: report --since $at_a --until $at_b"
	done
	"$MMSCOPE" dump --since "$at_a" --until "$at_b" "$f" >"$scratch/want.dump" || fail "$name: dump"
	[ -s "$scratch/want.dump" ] || fail "$name: no event in the window $at_a..$at_b"
	for zone in Z +05:30 -0800 ""; do
		wa=$(wall "$a" "$real0" "$trace0" "$zone") wb=$(wall "$b" "$real0" "$trace0" "$zone")
		for fmt in text json; do
			TZ=UTC "$MMSCOPE" report -f $fmt --since "$wa" --until "$wb" "$f" >"$scratch/got" 2>"$scratch/e" ||
				{ fail "$name: report --since $wa: $(cat "$scratch/e")"; continue; }
			cmp -s "$scratch/got" "$scratch/want.$fmt" ||
				{ diff "$scratch/want.$fmt" "$scratch/got" | head -5 >&2
				  fail "$name: $fmt report of $wa..$wb is not that of $at_a..$at_b"; }
		done
		TZ=UTC "$MMSCOPE" dump --since "$wa" --until "$wb" "$f" | cmp -s - "$scratch/want.dump" ||
			fail "$name: dump of $wa..$wb is not that of $at_a..$at_b"
	done
	rm -rf "$scratch/x1" "$scratch/x2"
	"$MMSCOPE" export --since "$at_a" --until "$at_b" -o "$scratch/x1" "$f" &&
		"$MMSCOPE" export --since "$wa" --until "$wb" -o "$scratch/x2" "$f" &&
		diff -r "$scratch/x1" "$scratch/x2" >/dev/null ||
		fail "$name: export of $wa..$wb is not that of $at_a..$at_b"
	ok "$name: $wa .. $wb (4 zone forms) reads as $at_a .. $at_b (report, dump, export)"
	# recordings.start_unix_ns: start_ns on the wall clock, from the pair
	python3 - "$scratch/x1/recordings.csv" "$real0" "$trace0" <<'PY' &&
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
want = int(sys.argv[2]) + int(r["start_ns"]) - int(sys.argv[3])
sys.exit(0 if r["start_unix_ns"] == str(want) else "start_unix_ns %s, want %d" % (r["start_unix_ns"], want))
PY
		ok "$name: recordings.start_unix_ns is start_ns on the wall clock" ||
		fail "$name: recordings.start_unix_ns"
done

# refused in one line, exit 2
refused() {	# refused WHAT PATTERN ARGS...
	what=$1 pat=$2; shift 2
	"$MMSCOPE" "$@" >/dev/null 2>"$scratch/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q -- "$pat" "$scratch/e" &&
		ok "$what: exit 2" || fail "$what: exit $rc: $(cat "$scratch/e")"
}
rm -rf "$scratch/x3"
"$MMSCOPE" export -o "$scratch/x3" "$top_srcdir/samples/compaction-6.18.dat" &&
	python3 -c 'import csv, sys; r = next(csv.DictReader(open(sys.argv[1]))); sys.exit(r["start_unix_ns"] != "")' \
		"$scratch/x3/recordings.csv" && ok "trace-cmd's recording: start_unix_ns null" ||
	fail "trace-cmd's recording: start_unix_ns not null"
f="$d/global-pressure-reclaim-6.12.dat"
refused "no wall clock in a trace-cmd recording" "start_realtime_ns" \
	report --since 2026-11-30T04:46:37Z "$top_srcdir/samples/compaction-6.18.dat"
refused "dump, no wall clock in a trace-cmd recording" "start_realtime_ns" \
	dump --until 2026-11-30T04:46:37Z "$top_srcdir/samples/compaction-6.18.dat"
for bad in 2026-02-30T00:00:00Z 2026-11-30T24:00:00Z 2026-11-30T04:46:37.Z 2026-11-30T04:46:37+5 \
	2026-11-30T04:46:37ZZ 1969-12-31T23:59:59Z 2026-1-30T04:46:37Z; do
	refused "bad time $bad" "bad --since" report --since "$bad" "$f"
done
refused "since after until, both wall-clock" "since is after" \
	report --since 2026-11-30T04:46:40Z --until 2026-11-30T04:46:39Z "$f"

# A real step of the wall clock (tests/vm/scenarios/clock-step.sh, a 6.12
# guest: +30 s, then -10 s, during the recording). The recorder's reads
# of both clocks (wall_segments, at every sample set) are the oracle here:
# each step is where two reads stopped agreeing; a wall-clock window inside
# a segment reads as the @T window computed from that segment's ends; a
# time the step skipped or repeated is refused, naming the step.
f="$d/clock-step-6.12.dat"
segs=$(grep -a -m1 -o 'wall_segments=[0-9:,]*' "$f" | cut -d= -f2)
# plan: one line per check, from the segments (python: exact integers)
python3 - "$segs" >"$scratch/plan" <<'PY'
import sys
segs = [tuple(map(int, s.split(":"))) for s in sys.argv[1].split(",")]
print("nseg", len(segs))
for i in range(len(segs) - 1):
    ta, ra, tb, rb = segs[i]
    na, nra, _, _ = segs[i + 1]
    print("step", i, tb, na, (nra - na) - (rb - tb))
def trace_of(seg, w):	# inside the segment, by the line through its ends
    ta, ra, tb, rb = seg
    return ta + ((w - ra) * (tb - ta) * 2 + (rb - ra)) // (2 * (rb - ra))
def wall(ns):
    import datetime
    s, f = divmod(ns, 10**9)
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % f
def at(ns):
    return "@%d.%09d" % divmod(ns, 10**9)
def holders(w):	# the segments that hold wall time w (the ends reach on)
    return [i for i, (ta, ra, tb, rb) in enumerate(segs)
            if (i == 0 or w >= ra) and (i == len(segs) - 1 or w <= rb)]
for i, seg in enumerate(segs):	# a window inside each segment, if its times are its own
    ta, ra, tb, rb = seg
    wa, wb = ra + (rb - ra) // 3, ra + 2 * (rb - ra) // 3
    if holders(wa) == [i] and holders(wb) == [i]:
        print("win", i, wall(wa), wall(wb), at(trace_of(seg, wa)), at(trace_of(seg, wb)))
    else:	# a step back repeated them all
        print("twice", i, wall(wa))
wa = segs[0][1] + (segs[0][3] - segs[0][1]) // 2
wb = segs[-1][1] + (segs[-1][3] - segs[-1][1]) // 2
print("win", "across", wall(wa), wall(wb), at(trace_of(segs[0], wa)), at(trace_of(segs[-1], wb)))
for i in range(len(segs) - 1):
    rb, nra = segs[i][3], segs[i + 1][1]
    if nra > rb:	# forward: a time in the middle was skipped
        w = (rb + nra) // 2
        if not holders(w):
            print("skipped", i, wall(w))
    else:		# back: one second before its last read happened twice
        w = rb - 10**9
        if len(holders(w)) > 1:
            print("twice", i, wall(w))
PY
[ "$(sed -n 's/^nseg //p' "$scratch/plan")" = 3 ] || fail "clock-step: $(head -1 "$scratch/plan") in wall_segments, want 3"
"$MMSCOPE" report -s header -f json "$f" >"$scratch/j" || fail "clock-step: json report"
python3 - "$scratch/j" "$scratch/plan" <<'PY' && ok "clock-step: JSON wall_steps are the recorder's two steps (+30 s, -10 s)" ||
import json, sys
h = json.load(open(sys.argv[1]))["header"]
want = [l.split()[2:] for l in open(sys.argv[2]) if l.startswith("step ")]
got = h["wall_steps"]
assert len(got) == len(want) == 2, (got, want)
for g, (after, before, moved) in zip(got, want):
    assert g["moved_ns"] == int(moved), (g, moved)
    assert "%.6f" % (int(after) / 1e9) == "%.6f" % g["after_s"] and "%.6f" % (int(before) / 1e9) == "%.6f" % g["before_s"], (g, after, before)
assert 29e9 < got[0]["moved_ns"] < 31e9 and -11e9 < got[1]["moved_ns"] < -9e9, got
assert h["first_wall"] and h["last_wall"], h
PY
	fail "clock-step: JSON wall_steps"
"$MMSCOPE" report -s header "$f" | grep -c '^ *stepped [-+][0-9.]* s between ' | grep -qx 2 &&
	ok "clock-step: the text header names both steps" || fail "clock-step: text header"
grep '^win ' "$scratch/plan" >"$scratch/wins"
[ "$(wc -l <"$scratch/wins")" -ge 3 ] || fail "clock-step: only $(wc -l <"$scratch/wins") windows to try"
while read -r _ which wa wb ta tb; do
	"$MMSCOPE" report -f json --since "$ta" --until "$tb" "$f" >"$scratch/want" ||
		{ fail "clock-step: report $ta..$tb"; continue; }
	"$MMSCOPE" report -f json --since "$wa" --until "$wb" "$f" >"$scratch/got" 2>"$scratch/e" ||
		{ fail "clock-step $which: report --since $wa: $(cat "$scratch/e")"; continue; }
	cmp -s "$scratch/want" "$scratch/got" &&
		"$MMSCOPE" dump --since "$wa" --until "$wb" "$f" >"$scratch/got" &&
		"$MMSCOPE" dump --since "$ta" --until "$tb" "$f" | cmp -s - "$scratch/got" &&
		[ -s "$scratch/got" ] &&
		ok "clock-step: window in segment $which: $wa .. $wb reads as $ta .. $tb (report, dump)" ||
		fail "clock-step: window in segment $which: $wa .. $wb is not $ta .. $tb"
done <"$scratch/wins"
grep '^skipped \|^twice ' "$scratch/plan" >"$scratch/misses"
n=$(wc -l <"$scratch/misses")
[ "$n" -ge 2 ] || fail "clock-step: $n times a step skipped or repeated, want 2 or more"
while read -r how step w; do
	pat="falls in that step"
	[ "$how" = twice ] && pat="on both sides of that step"
	refused "clock-step: report --since $w ($how, $step)" "$pat" report --since "$w" "$f"
	refused "clock-step: dump --until $w ($how, $step)" "$pat" dump --until "$w" "$f"
	# export goes on with the other recordings: this one fails (exit 1)
	rm -rf "$scratch/x4"
	"$MMSCOPE" export -o "$scratch/x4" --since "$w" "$f" >/dev/null 2>"$scratch/e"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q -- "$pat" "$scratch/e" &&
		[ ! -s "$scratch/x4/recordings.csv" ] &&
		ok "clock-step: export --since $w ($how, $step): exit 1, nothing exported" ||
		fail "clock-step: export --since $w: exit $rc: $(cat "$scratch/e")"
done <"$scratch/misses"
rm -rf "$scratch/x5"
"$MMSCOPE" export -o "$scratch/x5" "$f" || fail "clock-step: export"
python3 - "$scratch/x5/recordings.csv" "$scratch/plan" <<'PY' &&
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
after = int([l.split()[2] for l in open(sys.argv[2]) if l.startswith("step 0 ")][0])
want = after - int(r["start_ns"])
sys.exit(0 if (r["wall_steps"], r["wall_step_ns"]) == ("2", str(want))
	 else "wall_steps %s wall_step_ns %s, want 2 %d" % (r["wall_steps"], r["wall_step_ns"], want))
PY
	ok "clock-step: export recordings.wall_steps 2, wall_step_ns the last read before the first" ||
	fail "clock-step: export wall_steps"
python3 -c 'import csv, sys; r = next(csv.DictReader(open(sys.argv[1]))); sys.exit(not (r["wall_steps"] == "0" and r["wall_step_ns"] == ""))' \
	"$scratch/x1/recordings.csv" 2>/dev/null && ok "a recording without a step: wall_steps 0, wall_step_ns null" ||
	{ [ -n "$(grep -a -m1 -o 'wall_segments=' "$d/global-pressure-7.2.dat")" ] &&
		fail "a recording without a step: wall_steps/wall_step_ns" ||
		ok "older recordings (no wall_segments): wall_steps null"; }
finish
