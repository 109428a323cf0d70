#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kills table (mmscope-export(5)): on every real recording, a row per
# kill of the report's .oom.kills[] (issue 41), in time order, with the
# same killer, time, victim, sender and window figures, null where the
# report says null; the candidates' count and the first candidate; the
# headline the Kills section prints. In CSV and JSON Lines.
. "${top_srcdir:-.}/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 not installed"
files=$(ls "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat)
for f in $files; do
	"$MMSCOPE" report --format json "$f" >"$scratch/$(basename "$f" .dat).json" ||
		fail "report --format json $f"
done
# shellcheck disable=SC2086
"$MMSCOPE" export -o "$scratch/csv" $files >/dev/null 2>"$scratch/err" ||
	fail "export to CSV: $(cat "$scratch/err")"
# shellcheck disable=SC2086
"$MMSCOPE" export -f jsonl -o "$scratch/jsonl" $files >/dev/null 2>"$scratch/err" ||
	fail "export to JSON Lines: $(cat "$scratch/err")"

if python3 - "$scratch" <<'PY' >"$scratch/out" 2>&1; then
import csv, json, os, sys

d = sys.argv[1]

def rows(fmt, table):
    if fmt == "csv":
        with open(os.path.join(d, "csv", table + ".csv")) as f:
            return [{k: (None if v == "" else v) for k, v in r.items()} for r in csv.DictReader(f)]
    with open(os.path.join(d, "jsonl", table + ".jsonl")) as f:
        return [{k: (None if v is None else str(v)) for k, v in json.loads(l).items()} for l in f]

def num(v):
    return None if v is None else float(v)

bad, nkills = [], 0
for fmt in ("csv", "jsonl"):
    rec = {r["recording_id"]: os.path.basename(r["file"]) for r in rows(fmt, "recordings")}
    kills = {}
    for r in rows(fmt, "kills"):
        kills.setdefault(rec[r["recording_id"]], []).append(r)
    for name in sorted(set(rec.values())):
        rep = json.load(open(os.path.join(d, name[:-4] + ".json")))
        want = (rep.get("oom") or {}).get("kills") or []
        got = sorted(kills.get(name, []), key=lambda r: int(r["t_ns"]))
        if len(got) != len(want):
            bad.append("%s %s: %d rows, the report %d kills" % (fmt, name, len(got), len(want)))
            continue
        for r, k in zip(got, want):
            nkills += fmt == "csv"
            b = k["before"]
            c = k["candidates"]
            pairs = [
                ("killer", r["killer"], k["killer"]),
                ("t_ns", round(int(r["t_ns"]) / 1e3), round(k["t_s"] * 1e6)),
                ("victim_pid", num(r["victim_pid"]), num(k["victim"]["pid"])),
                ("victim_comm", r["victim_comm"], k["victim"]["comm"]),
                ("victim_cgroup", r["victim_cgroup"], k["victim"]["cgroup"]),
                ("sender_cgroup", r["sender_cgroup"], k["sender"]["cgroup"]),
                ("window_ns", num(r["window_ns"]) / 1e9, b["window_s"]),
                ("window_clipped", r["window_clipped"] == "1", bool(b["clipped"])),
            ]
            for col in ("direct_stalls", "memcg_stalls", "kswapd_episodes", "handoffs",
                        "compaction_runs", "compaction_failures", "zswap_pool_bytes"):
                pairs.append((col, num(r[col]), num(b[col])))
            for col in ("direct_stall", "memcg_stall"):
                ns, ms = num(r[col + "_ns"]), b[col + "_ms"]
                pairs.append((col + "_ms", None if ns is None else round(ns / 1e6, 3), ms))
            for col in ("psi_some_avg10", "psi_full_avg10", "swap_free_pct"):
                x, y = num(r[col]), b[col]
                pairs.append((col, None if x is None else round(x, 2),
                              None if y is None else round(y, 2)))
            cg = k.get("victim_cgroup") or {}
            for col in ("usage_bytes", "limit_bytes"):
                pairs.append(("cgroup_" + col, num(r["cgroup_" + col]), num(cg.get(col))))
            u = cg.get("limit_unlimited")
            pairs.append(("cgroup_limit_unlimited", num(r["cgroup_limit_unlimited"]),
                          None if u is None else int(u)))
            x, y = num(r["cgroup_usage_pct"]), cg.get("usage_pct")
            pairs.append(("cgroup_usage_pct", None if x is None else round(x, 2),
                          None if y is None else round(y, 2)))
            pairs.append(("candidates", num(r["candidates"]), None if c is None else len(c)))
            if c:
                pairs.append(("top_candidate_comm", r["top_candidate_comm"], c[0]["comm"]))
                pairs.append(("top_candidate_rss_kb", num(r["top_candidate_rss_kb"]),
                              num(c[0]["rss_kb"])))
            for what, x, y in pairs:
                if x != y:
                    bad.append("%s %s kill at %s: %s %r, the report %r" %
                               (fmt, name, k["t_s"], what, x, y))
if nkills == 0:
    bad.append("no kill in the real recordings: nothing was compared")
print("\n".join(bad[:10]) if bad else "%d kills" % nkills)
sys.exit(1 if bad else 0)
PY
	ok "kills table: every kill of the report, the same figures ($(cat "$scratch/out"))"
else
	fail "kills table differs from the report: $(cat "$scratch/out")"
fi

# the headline column is the one the oom-kill finding gives of the first
# kill ("10 s before: HEADLINE")
# shellcheck disable=SC2086
if python3 - "$scratch" "$MMSCOPE" $files <<'PY'; then
import csv, os, subprocess, sys
d, mmscope, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
byname = {os.path.basename(p): p for p in paths}
rec = {r["recording_id"]: byname[os.path.basename(r["file"])]
       for r in csv.DictReader(open(os.path.join(d, "csv", "recordings.csv")))}
first = {}
for r in csv.DictReader(open(os.path.join(d, "csv", "kills.csv"))):
    k = r["recording_id"]
    if k not in first or int(r["t_ns"]) < int(first[k]["t_ns"]):
        first[k] = r
bad, n = [], 0
for k, r in first.items():
    if not r["headline"] or r["killer"] not in ("kernel-oom", "memcg-oom"):
        continue
    text = subprocess.run([mmscope, "report", "-s", "findings", rec[k]], capture_output=True,
                          text=True).stdout
    n += 1
    if "before: " + r["headline"] not in " ".join(text.split()):
        bad.append("%s: %r" % (rec[k], r["headline"]))
if not n or bad:
    print("headlines checked %d, not in the finding: %s" % (n, bad[:3]), file=sys.stderr)
    sys.exit(1)
PY
	ok "kills table: a first kill's headline is the oom-kill finding's"
else
	fail "a first kill's headline is not the oom-kill finding's"
fi
finish
