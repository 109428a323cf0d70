#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Proactive compaction in the handoff section, on a real recording
# (tests/data/report/proactive-handoff-7.2.dat, a 7.2 guest with
# vm.compaction_proactiveness 100). kcompactd compacts proactively on its
# 500 ms timeout, or after a write of the sysctl (wakeup_kcompactd order
# -1), by compact_node(): mm_compaction_begin/end per zone and NO
# mm_compaction_kcompactd_wake; then it loops back to its wait, emitting
# mm_compaction_kcompactd_sleep. The report counted only wakes of order
# <= 0 as "proactive" and so said 0 here. trace-cmd decodes the file on
# its own: a pass is kcompactd's first compaction_begin outside a
# kcompactd_wake .. kcompactd_sleep request, up to its next sleep; its
# runs are the compaction_end events inside; its time is begin to sleep.
# The compaction section's runners and the export's compaction_runs must
# count the same proactive runs, and those in kcompactd_wake .. sleep as
# kcompactd's (any wake order); an extract file shows them unknown.
. "$(dirname "$0")/../lib.sh"

f=$top_srcdir/tests/data/report/proactive-handoff-7.2.dat
[ -f "$f" ] || { fail "missing recording $f"; finish; }
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
command -v python3 >/dev/null || skip "python3 not installed"

# the oracle: passes, their runs and microseconds, and the passes that
# followed an order -1 wakeup (a sysctl write) rather than the timeout
trace-cmd report "$f" 2>/dev/null | awk '
	/LOST/ { for (t in known) known[t] = 0; lost++ }
	{ ts = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		ts = $i; sub(/:$/, "", ts); ev = $(i + 1); break } }
	ts == "" { next }
	ev == "mm_compaction_wakeup_kcompactd:" && / order=-1 / { written = 1 }
	$1 !~ /^kcompactd[0-9]+-[0-9]+$/ { next }
	ev == "mm_compaction_kcompactd_wake:" { close_pass(ts); req[$1] = 1; known[$1] = 1 }
	ev == "mm_compaction_kcompactd_sleep:" { close_pass(ts); req[$1] = 0; known[$1] = 1 }
	ev == "mm_compaction_begin:" && known[$1] && !req[$1] && !(($1) in pass) {
		pass[$1] = ts; passes++; if (written) bywrite++; written = 0 }
	ev == "mm_compaction_end:" && (($1) in pass) { runs++ }
	ev == "mm_compaction_end:" && known[$1] && req[$1] { reqruns++ }
	ev == "mm_compaction_begin:" && !known[$1] { unknown++ }
	function close_pass(t) {
		if (($1) in pass) { us += (t - pass[$1]) * 1e6; delete pass[$1] } }
	END { for (t in pass) open++
		printf "%d %d %.0f %d %d %d %d %d\n", passes, runs, us, bywrite, open, lost,
			reqruns, unknown }' \
	> "$scratch/tc" || fail "trace-cmd oracle failed"
read -r passes runs us bywrite open lost reqruns unknown < "$scratch/tc"
# not vacuous: the file has proactive passes of both kinds, none open
# at the end (the report would count it to the end of the file)
[ "${passes:-0}" -gt 0 ] && [ "$bywrite" -gt 0 ] && [ "$bywrite" -lt "$passes" ] &&
	[ "$open" -eq 0 ] && [ "$lost" -eq 0 ] &&
	ok "trace-cmd: $passes proactive passes ($bywrite after a sysctl write), $runs runs, $us us" ||
	fail "trace-cmd: unexpected oracle result: $(cat "$scratch/tc")"

"$MMSCOPE" report -f json -s handoff -s compaction "$f" > "$scratch/j" || fail "report failed"
python3 - "$scratch/j" "$passes" "$runs" "$us" "$reqruns" "$unknown" > "$scratch/out" 2>&1 <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
h = d["handoff"][0]
passes, runs, us = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
got = (h.get("kcompactd_proactive_passes"), h.get("kcompactd_proactive_runs"))
if got != (passes, runs):
    sys.exit("handoff: proactive passes/runs %s, trace-cmd %s" % (got, (passes, runs)))
# trace-cmd prints microseconds: at most 1 us off per end of each pass
if abs(h["kcompactd_proactive_ns"] / 1000.0 - us) > 2 * passes:
    sys.exit("handoff: proactive %d ns, trace-cmd %d us" % (h["kcompactd_proactive_ns"], us))
if h["kcompactd_runs_unclassified"] != 0:
    sys.exit("handoff: %d unclassified runs" % h["kcompactd_runs_unclassified"])
# the compaction section classifies runs by runner on its own: the same
# rule, so the same runs (requests: kcompactd_wake .. sleep, any order)
cr = d["compaction"]["runners"]
got = (cr["proactive"]["runs"], cr["kcompactd"]["runs"], cr["kc_unknown"]["runs"])
want = (runs, int(sys.argv[5]), int(sys.argv[6]))
if got != want:
    sys.exit("compaction section: proactive, kcompactd, kc_unknown runs %s, "
             "trace-cmd %s" % (got, want))
print("json: %d passes, %d runs, %d ns; compaction section agrees "
      "(%d request runs, %d unknown)" % (passes, runs, h["kcompactd_proactive_ns"],
                                         want[1], want[2]))
PY
	ok "$(cat "$scratch/out")" || fail "$(cat "$scratch/out")"

# the text names them as passes, apart from the wakes
"$MMSCOPE" report -s handoff "$f" > "$scratch/t" || fail "text report failed"
grep -q "^proactive   $passes passes, $runs runs, " "$scratch/t" &&
	ok "text: $(grep '^proactive' "$scratch/t")" ||
	fail "text: no 'proactive   $passes passes, $runs runs': $(grep -A3 '^kcompactd' "$scratch/t")"
"$MMSCOPE" report "$f" | grep -q "^kcompactd .* $passes proactive passes; " ||
	fail "summary: not $passes proactive passes"

# the export's compaction_runs: the same runs by runner
"$MMSCOPE" export -o "$scratch/x" "$f" > /dev/null 2>&1 || fail "export failed"
got=$(awk -F, 'NR > 1 { n[$2]++ } END { printf "%d %d %d", n["proactive"],
	n["kcompactd"], n["kc_unknown"] }' "$scratch/x/compaction_runs.csv")
[ "$got" = "$runs $reqruns $unknown" ] &&
	ok "export: proactive, kcompactd, kc_unknown runs $got" ||
	fail "export: proactive, kcompactd, kc_unknown runs $got, trace-cmd $runs $reqruns $unknown"

# an extract file (samples/compaction-6.18.dat) holds compaction runs but
# cannot vouch for kcompactd_wake: kcompactd's runs on a request and its
# proactive ones are unknown there, null and '-', never 0
f=$top_srcdir/samples/compaction-6.18.dat
"$MMSCOPE" report -f json -s compaction "$f" > "$scratch/j2" || fail "report failed on $f"
python3 - "$scratch/j2" > "$scratch/out" 2>&1 <<'PY' &&
import json, sys
c = json.load(open(sys.argv[1]))["compaction"]
if not c["recorded"] or c["runners"]["manual"]["runs"] != 3:
    sys.exit("not the recording meant: %s" % c["runners"]["manual"])
bad = [(k, f, v) for k in ("kcompactd", "proactive")
       for f, v in c["runners"][k].items() if f not in ("status", "log2_ns") and v is not None]
if bad:
    sys.exit("kcompactd/proactive not null without kcompactd_wake: %s" % bad)
print("extract file: kcompactd and proactive runs null, manual 3")
PY
	ok "$(cat "$scratch/out")" || fail "$(cat "$scratch/out")"
"$MMSCOPE" report -s compaction "$f" | grep -q "^kcompactd and proactive - (needs kcompactd_wake/sleep)" &&
	ok "extract file: text says '-' for kcompactd and proactive" ||
	fail "extract file: no '-' for kcompactd and proactive runs"
finish
