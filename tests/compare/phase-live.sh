#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Phase markers live: "mmscope record -- COMMAND" gives the command its
# instance's trace_marker in $MMSCOPE_TRACE_MARKER; the markers written
# there (by a shell script and by anon-touch) are the report's phases and
# what "compare --phase" windows; the command's Duration rows, the whole
# run's, are left out of a phase's comparison, and the table says so.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require

cat >"$scratch/work.sh" <<EOF
[ -w "\$MMSCOPE_TRACE_MARKER" ] || { echo "no MMSCOPE_TRACE_MARKER" >&2; exit 1; }
echo "mmscope phase warmup" >"\$MMSCOPE_TRACE_MARKER"
sleep 0.5	# not a wait: the warmup phase, with sample sets in it
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
# that sample sets begin inside it; vmstat is global). The counter delta
# runs from the last sample set begun before the phase's marker to the
# last one begun inside it (mmscope-compare(1)), so the faults after that
# set are the next phase's: the oracle is that delta recomputed from
# trace-cmd's text of the same file (the sampler writes a counter only
# when it changed: its value at a set is the last one written).
"$MMSCOPE" compare --format json --metrics minor-faults --phase pass-1 "a=$scratch/r.dat" \
	>"$scratch/p1.json" 2>"$scratch/err" || fail "compare --phase pass-1: $(cat "$scratch/err")"
v=$(sed -n 's/.*"values": \[\([0-9.]*\)\].*/\1/p' "$scratch/p1.json")
if command -v trace-cmd >/dev/null; then
	want=$(trace-cmd report "$scratch/r.dat" 2>/dev/null | awk '
		/mmscope phase / { phase = $NF; next }
		match($0, /mms1 vmstat [0-9]+ /) {
			split(substr($0, RSTART, RLENGTH), w, " "); seq = w[3]
			if (!(seq in began)) { began[seq] = phase; order[n++] = seq }
			for (i = 1; i <= NF; i++)
				if ($i ~ /^(pgfault|pgmajfault)=/) { split($i, kv, "="); cur[kv[1]] = kv[2] }
			minor[seq] = cur["pgfault"] - cur["pgmajfault"]
		}
		END {
			for (i = 0; i < n; i++) {
				if (began[order[i]] != "pass-1" && !seen) pre = order[i]
				if (began[order[i]] == "pass-1") { seen = 1; upto = order[i] }
			}
			if (seen && pre != "") printf "%d", minor[upto] - minor[pre]
		}')
	[ -n "$want" ] && [ "${v%.*}" = "$want" ] && [ "$want" -gt 0 ] &&
		ok "pass-1: $v minor faults, as the sample sets in trace-cmd's text give them" ||
		fail "pass-1 minor faults: '$v', the sample sets say '$want'"
fi
# vmstat is global: under make -j the other tests fault too, so no
# upper bound; the pass's own faults are in it
[ "${v%.*}" -gt 0 ] 2>/dev/null && ok "pass-1: some minor faults" ||
	fail "pass-1 minor faults: '$v' (want > 0)"
# the command's wait4 figures are the whole run's (issue 44 item 7): the
# whole run compares them; a phase, even the last one (where the outcome
# line falls), leaves them out and says so under the table
"$MMSCOPE" compare --all "a=$scratch/r.dat" "b=$scratch/r.dat" >"$scratch/whole" 2>&1
grep -q '^Duration Elapsed ' "$scratch/whole" && ok "the whole run: Duration Elapsed" ||
	fail "the whole run has no Duration Elapsed: $(cat "$scratch/whole")"
for p in warmup pass-2; do
	"$MMSCOPE" compare --all --phase $p "a=$scratch/r.dat" "b=$scratch/r.dat" >"$scratch/ph" 2>&1
	if grep -qE '^(Duration (Elapsed|User|System)|Max RSS) ' "$scratch/ph"; then
		fail "--phase $p: the whole run's rows: $(grep -E '^(Duration|Max RSS)' "$scratch/ph")"
	elif tr -s ' \n' '  ' <"$scratch/ph" | grep -q "Max RSS, the command's (wait4), are the whole run's: left out with --phase"; then
		ok "--phase $p: no whole-run Duration rows, said under the table"
	else
		fail "--phase $p: no note on the Duration rows: $(cat "$scratch/ph")"
	fi
done
finish
