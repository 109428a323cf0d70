#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A host's history (mmscope(1), HOST HISTORY) in every front end, on a
# directory of real events (tests/history/lib.sh): three runs of one
# service, a restart after SIGTERM, one after a kill and recover, and a
# flight incident inside the second run. report (text, JSON), dump, plot
# and convert open it: the runs in time order, the two gaps stated as not
# recorded with how one run ended and the next began, the incident not
# counted again; the sums over the runs are the runs' own; --run and
# --since/--until across runs pick runs; another machine's run in the
# directory is refused, a line per run.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/history/lib.sh"

command -v python3 >/dev/null || skip "python3 not installed"
h=$scratch/h
mk_history "$h"

# --- report, text
"$MMSCOPE" report "$h" >"$scratch/text" 2>"$scratch/e" || fail "report DIR: $(cat "$scratch/e")"
grep -q '^History of host vm: 4 runs, 2 gaps, 1 incident inside a run$' "$scratch/text" &&
	ok "report: the history's title" || fail "report: $(head -1 "$scratch/text")"
grep -q '^run 1     began: start; ended: a signal (SIGTERM)$' "$scratch/text" &&
	grep -q '^run 2     began: restart; ended: recovered by mmscope recover$' "$scratch/text" &&
	grep -q '^run 4     began: restart after recover; ended: the command exited$' "$scratch/text" &&
	ok "report: how each run began and ended" || fail "report: began/ended: $(grep began "$scratch/text")"
[ "$(grep -c '^gap       not recorded: 9.7 s (' "$scratch/text")" = 2 ] &&
	ok "report: two gaps of 9.7 s, not recorded" || fail "report: gaps: $(grep 'not recorded' "$scratch/text")"
grep -q '^run 3     an incident inside run 2: its events are that run.s, not$' "$scratch/text" &&
	ok "report: the incident inside run 2" || fail "report: no incident line"
[ "$(grep -c '^mmscope report: ' "$scratch/text")" = 3 ] &&
	grep -q '^=== run 1 of 4: .*svc-1.dat (began: start)$' "$scratch/text" &&
	grep -q '^=== run 4 of 4: .*svc-3.dat (began: restart after recover)$' "$scratch/text" &&
	ok "report: three runs' reports in time order, the incident's not" ||
	fail "report: $(grep '^===' "$scratch/text")"
grep -q '^--- not recorded for 9.7 s, 07:07:25 .. 07:07:34: run 1 ended: a signal (SIGTERM); run 2 began: restart$' \
	"$scratch/text" && ok "report: the gap line between run 1 and run 2" ||
	fail "report: gap line: $(grep '^---' "$scratch/text")"
grep -q '^all      1.0 s        540       0      3       0    105         0$' "$scratch/text" &&
	ok "report: the sums: 540 events, 3 OOM kills, 105 memcg stalls over 3 runs" ||
	fail "report: totals: $(grep '^all' "$scratch/text")"

# --- report, JSON: the sums are the runs' reports' own figures
"$MMSCOPE" report -f json "$h" >"$scratch/json" 2>"$scratch/e" || fail "report -f json: $(cat "$scratch/e")"
got=$(python3 - "$scratch/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h, runs = d["history"], d["runs"]
rep = [r for r in h["runs"] if r["reported"]]
assert len(rep) == len(runs) == 3, (len(rep), len(runs))
kills = sum(r["oom"]["oom_kills"] for r in runs)
memcg = sum(r["stalls"]["memcg"]["count"] for r in runs)
for r, s in zip(rep, runs):
    assert r["sums"]["oom_kills"] == s["oom"]["oom_kills"]
    assert r["sums"]["memcg_stalls"] == s["stalls"]["memcg"]["count"]
    assert r["sums"]["events"] == s["header"]["events"]
inc = [r for r in h["runs"] if r["relation"] == "inside"]
gaps = [r["gap_before"]["seconds"] for r in h["runs"] if r["gap_before"]]
print(h["totals"]["oom_kills"], kills, h["totals"]["memcg_stalls"], memcg, len(inc),
      inc[0]["other_run"], inc[0]["reported"], " ".join("%.2f" % g for g in gaps))
PY
)
[ "$got" = "3 3 105 105 1 2 False 9.68 9.68" ] &&
	ok "report -f json: totals = the runs' figures (3 kills, 105 stalls), the incident inside run 2 not reported, gaps 9.68 s" ||
	fail "report -f json: '$got'"

# --- report, HTML: one page, every run under its heading, ids unique
"$MMSCOPE" report -f html -o "$scratch/h.html" "$h" 2>"$scratch/e" || fail "report -f html: $(cat "$scratch/e")"
got=$(python3 - "$scratch/h.html" <<'PY'
import collections, re, sys
t = open(sys.argv[1]).read()
ids = collections.Counter(re.findall(r' id="([^"]+)"', t))
dups = [k for k, v in ids.items() if v > 1]
runs = re.findall(r'<h2>run (\d) of 4: ', t)
print(len(dups), " ".join(runs), 'id="history"' in t, 'id="totals"' in t,
      t.count("not recorded for 9.7 s"), t.count("<h2>mmscope report: svc-"))
PY
)
[ "$got" = "0 1 2 4 True True 2 3" ] &&
	ok "report -f html: one page: the history, runs 1, 2 and 4 with the gaps before them, the sums; ids unique" ||
	fail "report -f html: '$got'"

# --- --run and windows across runs
"$MMSCOPE" report -s header --run 3 "$h" >"$scratch/r3" || fail "report --run 3"
grep -q '^=== run 3 of 4: .*flight-1.dat (began: ' "$scratch/r3" &&
	[ "$(grep -c '^mmscope report: ' "$scratch/r3")" = 1 ] &&
	ok "report --run 3: the incident alone" || fail "report --run 3: $(grep '^===' "$scratch/r3")"
"$MMSCOPE" report -s header --since 10 --until 15 "$h" >"$scratch/w" || fail "report --since 10 --until 15"
grep -q '^=== run 2 of 4: .*svc-2.dat' "$scratch/w" && [ "$(grep -c '^mmscope report: ' "$scratch/w")" = 1 ] &&
	grep -q '^left out  runs 1, 3, 4 (outside the window)$' "$scratch/w" &&
	ok "report --since 10 --until 15: run 2 only (seconds from the history's first event)" ||
	fail "report window across runs: $(grep '^===\|^not reported' "$scratch/w")"
"$MMSCOPE" report -s header --since 10.1 --until 20.1 "$h" >"$scratch/w2" || fail "report --since 10.1"
grep -q '^window ' "$scratch/w2" && [ "$(grep -c '^mmscope report: ' "$scratch/w2")" = 2 ] &&
	ok "report --since 10.1 --until 20.1: runs 2 and 4, each windowed" ||
	fail "report window of two runs: $(grep -c '^mmscope report: ' "$scratch/w2")"
"$MMSCOPE" report --since 5 --until 6 "$h" >/dev/null 2>"$scratch/e"
rc=$?
[ $rc -eq 1 ] && grep -q 'holds no run of the history' "$scratch/e" &&
	ok "a window in a gap: exit 1, its runs listed" || fail "window in a gap: exit $rc: $(cat "$scratch/e")"
"$MMSCOPE" report --run 9 "$h" >/dev/null 2>"$scratch/e"
[ $? -eq 2 ] && grep -q -- '--run 9: the history has 4 runs' "$scratch/e" && ok "--run 9: exit 2" ||
	fail "--run 9: $(cat "$scratch/e")"

# --- dump: each run's events under a line, the gaps between
"$MMSCOPE" dump "$h" >"$scratch/dump" 2>"$scratch/e" || fail "dump DIR: $(cat "$scratch/e")"
[ "$(grep -c '^===' "$scratch/dump")" = 3 ] && [ "$(grep -c '^--- not recorded for 9.7 s' "$scratch/dump")" = 2 ] &&
	[ "$(grep -vc '^===\|^---' "$scratch/dump")" = 540 ] &&
	ok "dump DIR: 3 runs' 540 events, 2 gap lines" ||
	fail "dump DIR: $(grep -c '' "$scratch/dump") lines: $(grep '^===\|^---' "$scratch/dump")"
"$MMSCOPE" dump --run 2 "$h" | grep -vc '^===' | grep -qx 180 && ok "dump --run 2: 180 events" ||
	fail "dump --run 2"

# --- plot and Perfetto
"$MMSCOPE" plot "$h" -o "$scratch/h.svg" 2>"$scratch/e" || fail "plot DIR: $(cat "$scratch/e")"
[ "$(grep -c '>run [1-4] of 4, ' "$scratch/h.svg")" = 3 ] && [ "$(grep -c '>--- not recorded for 9.7 s' "$scratch/h.svg")" = 2 ] &&
	ok "plot DIR: three runs' charts, two gaps stated" || fail "plot DIR: $(grep -o '>run [^<]*\|>--- [^<]*' "$scratch/h.svg")"
if command -v protoc >/dev/null; then
	MMSCOPE_PERFETTO_STATS=1 "$MMSCOPE" convert "$h" -o "$scratch/h.pftrace" 2>"$scratch/e" ||
		fail "convert DIR: $(cat "$scratch/e")"
	protoc --decode=perfetto.protos.Trace -I "$top_srcdir/tests/data/perfetto" perfetto_trace.proto \
		<"$scratch/h.pftrace" >"$scratch/h.txt" 2>"$scratch/protoc.err" ||
		fail "protoc: $(head -1 "$scratch/protoc.err")"
	got=$(python3 - "$scratch/h.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
seqs = set(re.findall(r"trusted_packet_sequence_id: (\d+)", t))
runs = len(re.findall(r'name: "=== run \d of 4', t))
gaps = len(re.findall(r'name: "--- not recorded for 9.7 s', t))
kills = t.count('"OOM kill')
print(len(seqs), runs, gaps)
PY
)
	[ "$got" = "4 3 2" ] && ok "convert DIR: 3 runs on their own sequences and a history track of 3 runs and 2 gaps" ||
		fail "convert DIR: sequences runs gaps '$got'"
fi

# --- an incident partly inside run 2 (its ring began 0.1 s before it, in
# the gap): only its part outside the run is its own
p=$scratch/p
mkdir "$p"
cp "$h"/svc-*.dat "$p/"
# 9.9 s: its first 0.1 s before run 2's first event
"$mkhist" "$HIST_SRC" "$p/flight-1.dat" 9900000000 9900000000 machine_id=$HIST_MACHINE \
	boot_id=$HIST_BOOT run_id=dddddddddddddddddddddddddddddddd mode=flight-recorder \
	trigger_name=oom stop_reason=trigger:oom || fail "mkhist partly"
"$MMSCOPE" report -f json "$p" >"$scratch/pj" 2>"$scratch/e" || fail "report partly: $(cat "$scratch/e")"
got=$(python3 - "$scratch/pj" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["history"]
inc = [r for r in h["runs"] if r["kind"] == "incident"][0]
own = (inc["own_last_ns"] - inc["own_first_ns"]) / 1e9
print(inc["relation"], inc["other_run"], inc["reported"], "%.2f" % own, h["totals"]["oom_kills"],
      len(d["runs"]))
PY
)
[ "$got" = "partly 3 True 0.10 3 4" ] &&
	ok "an incident partly inside a run: its own 0.10 s reported, the kill the run's (3 in all)" ||
	fail "partly: '$got'"
"$MMSCOPE" export -o "$scratch/px" "$p" 2>"$scratch/e" || fail "export partly: $(cat "$scratch/e")"
"$MMSCOPE" export -o "$scratch/px" "$p/flight-1.dat" 2>>"$scratch/e" || fail "export partly again"
rows=$(($(wc -l <"$scratch/px/oom_kills.csv") - 1))
[ "$rows" = 3 ] && ok "export: 3 OOM kill rows, the incident's own part adds none" ||
	fail "export partly: $rows kill rows: $(cat "$scratch/e")"

# --- a history longer than an hour: the TUI opens its last hour, says so
l=$scratch/long
mkdir -p "$l"
"$mkhist" --parts 3 --every 1800 "$HIST_SRC" "$l/long" machine_id=$HIST_MACHINE \
	boot_id=$HIST_BOOT >/dev/null || fail "mkhist --parts"
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q "$MMSCOPE" tui "$l" >"$scratch/lt" 2>"$scratch/e" </dev/null ||
	fail "tui of a long history: $(cat "$scratch/e")"
grep -q '^mmscope: 1.0 hours recorded: the TUI shows the last hour' "$scratch/e" &&
	ok "tui: a 1.0-hour history opens on its last hour, and says so" || fail "tui long: '$(cat "$scratch/e")'"
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q "$MMSCOPE" tui --since 0 "$l" >/dev/null 2>"$scratch/e" </dev/null &&
	! grep -q 'last hour' "$scratch/e" && ok "tui --since 0: all of it, no note" ||
	fail "tui --since 0: '$(cat "$scratch/e")'"

# --- another machine's run beside them: refused, a line per run
hist_copy "$h/other.dat" 30 machine_id=00000000000000000000000000000001
"$MMSCOPE" report "$h" >/dev/null 2>"$scratch/e"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 6 ] && grep -q 'the recordings of 2 hosts' "$scratch/e" &&
	grep -q '^  host 2 of 2, run 1: .*other.dat, 2026-12-01T07:07:54Z .. 2026-12-01T07:07:55Z (host vm, boot 32ce32ed)$' \
		"$scratch/e" && ok "a second machine in the directory: refused, a line per run" ||
	fail "second machine: exit $rc: $(cat "$scratch/e")"
finish
