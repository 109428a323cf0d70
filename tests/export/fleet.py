# SPDX-License-Identifier: GPL-2.0-or-later
"""Holds a database's answers to the fleet queries (tests/export/*.sh) to
`mmscope report --format json` of each recording.

usage: fleet.py REPORTS_DIR IDS EPISODES ORDERS STALLS
  REPORTS_DIR  FILE.json per recording, named by its recording id
  IDS          recording_id<TAB>file           (every recording)
  EPISODES     recording_id<TAB>episodes       (per recording, 0 included)
  ORDERS       recording_id<TAB>order<TAB>tries<TAB>fallback<TAB>swpout<TAB>swpout_fallback
  STALLS       recording_id<TAB>kind<TAB>count<TAB>max_ns<TAB>p99_ns (nearest rank)
Empty fields and \\N are null. Prints what it compared; exits 1 on the
first-found differences (all of them listed)."""
import json, os, sys

def rows(path):
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if line:
            out.append([None if f in ("", "\\N", "NULL") else f for f in line.split("\t")])
    return out

def num(v):
    return None if v is None else int(float(v))

# src/hist.c: the report's percentiles are the upper bound of the value's
# bucket (16 linear sub-buckets per power of two), capped at min and max
def hist_upper(v):
    if v < 16:
        return v
    e = v.bit_length() - 1
    sub = (v >> (e - 4)) & 15
    return ((16 + sub + 1) << (e - 4)) - 1

rep_dir, ids, episodes, orders, stalls = sys.argv[1:6]
reports = {}
for rid, f in rows(ids):
    reports[rid] = json.load(open(os.path.join(rep_dir, rid + ".json")))
bad, checked = [], {"episodes": 0, "orders": 0, "stalls": 0}

got = {r[0]: num(r[1]) for r in rows(episodes)}
for rid, rep in reports.items():
    want = sum(len(n["kswapd_episodes"] or []) for n in rep["handoff"])
    if got.get(rid) != want:
        bad.append("%s episodes: db %s, report %s" % (rid, got.get(rid), want))
    checked["episodes"] += 1

got = {(r[0], num(r[1])): [num(v) for v in r[2:6]] for r in rows(orders)}
for rid, rep in reports.items():
    for o in rep["swap"]["orders"]:
        want = [o["attempts"], o["fallback"], o["swpout"], o["swpout_fallback"]]
        g = got.pop((rid, o["order"]), None)
        if g != want:
            bad.append("%s order %d (tries, fallback, swpout, swpout_fallback): db %s, report %s"
                       % (rid, o["order"], g, want))
        # the fallback percentages the two give, as the report prints them
        elif want[0]:
            assert round(100.0 * g[1] / g[0], 1) == round(100.0 * want[1] / want[0], 1)
        checked["orders"] += 1
for k in got:
    bad.append("%s order %d: in the db, not in the report" % k)

got = {(r[0], r[1]): [num(v) for v in r[2:5]] for r in rows(stalls)}
for rid, rep in reports.items():
    for kind, st in rep["stalls"].items():
        if not isinstance(st, dict) or "count" not in st:
            continue
        g = got.pop((rid, kind), None)
        if not st["count"]:
            if g:
                bad.append("%s %s: db has %s stalls, report none" % (rid, kind, g[0]))
            continue
        if g is None:
            bad.append("%s %s: %d stalls in the report, none in the db" % (rid, kind, st["count"]))
            continue
        n, mx, p99 = g
        want_p99 = min(hist_upper(p99), mx)
        if n != st["count"] or mx != st["max_ns"] or want_p99 != st["p99_ns"]:
            bad.append("%s %s (count, max, p99 in the report's bucket): db %s %s %s->%s, "
                       "report %s %s %s" % (rid, kind, n, mx, p99, want_p99, st["count"],
                                            st["max_ns"], st["p99_ns"]))
        checked["stalls"] += 1
for k in got:
    bad.append("%s %s: stalls in the db, not in the report" % k)

print("compared: %d recordings' episodes, %d (recording, order) swap-out rows, "
      "%d (recording, kind) stall percentiles" % (checked["episodes"], checked["orders"],
                                                  checked["stalls"]))
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
