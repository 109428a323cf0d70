#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export carries the run's context (issue 21): the outcome and
# memcg columns of recordings and the context rows of settings hold what
# `mmscope report --format json` says in its "run" member of the same
# recording (a real one with context, outcome and a v1 memcg; one with a
# memcg but no context; one with neither), in JSON Lines and in CSV; a
# figure the recording lacks is null (JSON) or an empty field (CSV).
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

d="$top_srcdir/tests/data/report"
set -- "$d/run-memcg-6.18.dat" "$d/oom-6.18.dat" "$top_srcdir/samples/global-pressure-6.12.dat"
"$MMSCOPE" export -f jsonl -o "$scratch/jsonl" "$@" || fail "export jsonl failed"
"$MMSCOPE" export -o "$scratch/csv" "$@" || fail "export csv failed"
mkdir "$scratch/reports"
for f; do
	"$MMSCOPE" report --format json "$f" >"$scratch/reports/$(basename "$f").json" ||
		fail "report of $f failed"
done

python3 - "$scratch" <<'PY' || fail "export and report disagree on the run"
import csv, json, os, sys
d = sys.argv[1]
bad = []
recs = [json.loads(l) for l in open(d + "/jsonl/recordings.jsonl")]
sets = [json.loads(l) for l in open(d + "/jsonl/settings.jsonl")]
crow = {r["recording_id"]: r for r in csv.DictReader(open(d + "/csv/recordings.csv", newline=""))}
outcome_cols = ["command", "exit_status", "signal", "elapsed_us", "user_us", "sys_us",
                "maxrss_kb", "stopped_by_recorder"]
memcg_cols = ["memcg_path", "memcg_version", "memcg_limit_bytes", "memcg_limit_unlimited",
              "memcg_peak_bytes", "memcg_usage_max_bytes", "memcg_oom_kills"]
us = lambda s: None if s is None else round(s * 1e6)
seen = set()
for r in recs:
    name = os.path.basename(r["file"])
    run = json.load(open("%s/reports/%s.json" % (d, name)))["run"] or {}
    want = dict.fromkeys(outcome_cols + memcg_cols)
    o = run.get("outcome")
    if o:
        want.update(command=" ".join(run["command"]), exit_status=o["exit"], signal=o["signal"],
                    elapsed_us=us(o["elapsed_s"]), user_us=us(o["user_s"]), sys_us=us(o["sys_s"]),
                    maxrss_kb=o["max_rss_kb"],
                    stopped_by_recorder=None if o["stopped_by_recorder"] is None
                    else int(o["stopped_by_recorder"]))
    g = run.get("memcg")
    if g:
        lim = g["limits_bytes"]["limit"]
        want.update(memcg_path=g["path"], memcg_version=g["cgroup_version"],
                    memcg_limit_bytes=None if lim == "max" else lim,
                    memcg_limit_unlimited=None if lim is None else int(lim == "max"),
                    memcg_peak_bytes=g["usage_bytes"]["kernel_peak"],
                    memcg_usage_max_bytes=g["usage_bytes"]["largest_sampled"],
                    memcg_oom_kills=g["events_delta"]["oom_kill"])
    got = {k: r[k] for k in want}
    if got != want:
        bad.append("%s recordings:\n  export %s\n  report %s" % (name, got, want))
    # CSV: the same values, an empty field where JSON has null
    c = crow[r["recording_id"]]
    for k, v in want.items():
        if c[k] != ("" if v is None else str(v)):
            bad.append("%s recordings.csv %s: %r, want %r" % (name, k, c[k], v))
    # settings: every context key's start (or end) value, an end row
    # exactly for the keys that changed
    mine = [s for s in sets if s["recording_id"] == r["recording_id"]]
    ctx = run.get("settings") or {}
    start = {s["key"]: s["value"] for s in mine if s["phase"] == "start"}
    end = {s["key"]: s["value"] for s in mine if s["phase"] == "end"}
    for k, v in ctx.items():
        if k not in start and k not in end and v is not None:
            bad.append("%s settings: %s=%s missing" % (name, k, v))
        elif k in start and start[k] != v:
            bad.append("%s settings: %s start %s, report %s" % (name, k, start[k], v))
    extra = (set(start) | set(end)) - set(ctx)
    if extra:
        bad.append("%s settings: keys not in the report %s" % (name, sorted(extra)))
    # an end row: a change the report lists, or a key only read at the end
    ch = {c["key"]: c["end"] for c in run.get("changed") or [] if c["end"] is not None}
    for k, v in end.items():
        if ch.get(k) != v and (k in start or ctx.get(k) != v):
            bad.append("%s settings: end row %s=%s, changed %s" % (name, k, v, ch))
    for k, v in ch.items():
        if end.get(k) != v:
            bad.append("%s settings: change of %s to %s has no end row" % (name, k, v))
    plain = [s["key"] for s in mine if s["phase"] is None]
    if len(plain) != len(set(plain)) or set(plain) & set(ctx):
        bad.append("%s settings: a key twice: %s" % (name, plain))
    seen.add((name, bool(o), bool(g), len(start)))
# the three kinds are there: context and outcome and memcg; memcg only; none
kinds = {(o, g, n > 0) for _, o, g, n in seen}
if kinds != {(True, True, True), (False, True, False), (False, False, False)}:
    bad.append("recordings not as expected: %s" % sorted(seen))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
ok "outcome, memcg and settings columns agree with report's run member"

# the recording with context: its values as the fixture's README says
row=$(grep -F run-memcg-6.18.dat "$scratch/csv/recordings.csv")
case $row in
*",0,,3193657,17288,374904,66608,0,/sys/fs/cgroup/memory/mmscope-run,1,67108864,0,67108864,67108864,0,"*) ;;
*) fail "run-memcg row: $row" ;;
esac
[ "$(grep -c ',vm.swappiness,60,start$' "$scratch/csv/settings.csv")" -eq 1 ] ||
	fail "vm.swappiness start row missing"
ok "CSV: the outcome and memcg as recorded"
finish
