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
finish
