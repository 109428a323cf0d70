#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Phase markers live: "mmscope record -- COMMAND" gives the command its
# instance's trace_marker in $MMSCOPE_TRACE_MARKER; the markers written
# there (by a shell script and by anon-touch) are the report's phases and
# what "compare --phase" windows.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require

cat >"$scratch/work.sh" <<EOF
[ -w "\$MMSCOPE_TRACE_MARKER" ] || { echo "no MMSCOPE_TRACE_MARKER" >&2; exit 1; }
echo "mmscope phase warmup" >"\$MMSCOPE_TRACE_MARKER"
sleep 0.5
$ANON_TOUCH -m 32 -p 2 -r 20000 -q
EOF
"$MMSCOPE" record -q -g oom --interval 100 -o "$scratch/r.dat" -- sh "$scratch/work.sh" \
	>"$scratch/rec.out" 2>&1 || fail "record: $(tail -3 "$scratch/rec.out")"
"$MMSCOPE" report --section phases "$scratch/r.dat" >"$scratch/phases" 2>&1
for p in warmup pass-1 pass-2; do
	grep -q "  $p" "$scratch/phases" && ok "phase $p reported" ||
		fail "phase $p missing: $(cat "$scratch/phases")"
done
grep -q "pass-2 (to the end)" "$scratch/phases" && ok "the last phase runs to the end" ||
	fail "last phase: $(cat "$scratch/phases")"
# pass-1: anon-touch faults 32 MB in (8192 pages, paced over 0.4 s so
# that sample sets begin inside it; vmstat is global)
"$MMSCOPE" compare --format json --metrics minor-faults --phase pass-1 "a=$scratch/r.dat" \
	>"$scratch/p1.json" 2>"$scratch/err" || fail "compare --phase pass-1: $(cat "$scratch/err")"
v=$(sed -n 's/.*"values": \[\([0-9.]*\)\].*/\1/p' "$scratch/p1.json")
[ "${v%.*}" -ge 8192 ] 2>/dev/null && ok "pass-1: $v minor faults (32 MB touched)" ||
	fail "pass-1 minor faults: '$v'"
finish
