#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Parts of a run add up to the run (man mmscope-report, PARTS OF A RUN).

usage: parts-sum.py RUN.json PART.json...   check every figure below
       parts-sum.py --list                  print the figures

RUN.json is `mmscope report -f json` of a --switch-output run read whole
(its directory), each PART.json of one of its files read alone. Every
figure of FIGURES is a sum over time: the sum of the parts' values must
be the run's, exactly. A figure is one JSON path, or several whose
values are added (a sum across categories a part cannot always tell
apart). Path segments:

  NAME        an object's member
  *           every member (each a figure of its own)
  +           every member (of an object or a list), added into one figure
  #           every element of a list (by position)
  NAME[K,...] a list of objects, each one by its members K... (the run's
              and the parts' elements matched by those)
  @delta      last - first of an object with both (a counter's delta)

A value a part does not have counts 0. null is "not measured": a figure
that is null in the run must be null (or absent) in every part, and the
other way round; a null inside a '+' sum counts 0. Exit 0 when every
figure adds up, 1 when one does not (each one printed), 2 on bad input.

A figure added to the report that is a sum over time goes into FIGURES;
one that is not (a percentile, a maximum, a first or last value, a time
series, a classification that needs what happened before a part) goes
into NOT_SUMS with the reason, so that the two lists cover the report.
"""
import json
import sys

STALL_KINDS = "stalls.*."
FIGURES = [
    # events and samples: each event and each sample set is in one file
    "header.events", "header.parsed", "header.records", "header.lost",
    "header.cpustat_lost", "header.sample_sets", "header.sample_lines",
    # the recorder's boundary set: the files' counter deltas telescope
    "counters[source,instance,key]@delta",
    "consistency[events,counter].counter_delta",
    "run.memcg.events_delta.*", "run.memcg.memory_stat_delta_pages.*",
    "memcg.cgroups[path].failcnt.delta", "memcg.cgroups[path].events_low.delta",
    "memcg.cgroups[path].events_high.delta", "memcg.cgroups[path].events_max.delta",
    "memcg.cgroups[path].events_oom.delta", "memcg.cgroups[path].events_oom_kill.delta",
    "memcg.cgroups[path].pressure_some_us.delta", "memcg.cgroups[path].pressure_full_us.delta",
    "swap.orders[order].swpout", "swap.orders[order].swpout_fallback",
    "zswap.zswpout", "zswap.zswpwb", "zswap.written_back_pages",
    "oom.vmstat_oom_kill",
    # reclaim: a stall counts where it began, its time split at the cut;
    # LRU work of a task is held until its stall's end names the kind
    STALL_KINDS + "begins", STALL_KINDS + "ends", STALL_KINDS + "open_at_end",
    STALL_KINDS + "unpaired_ends", STALL_KINDS + "nr_reclaimed", STALL_KINDS + "count",
    STALL_KINDS + "total_ns", STALL_KINDS + "scanned", STALL_KINDS + "reclaimed",
    STALL_KINDS + "anon_scanned", STALL_KINDS + "anon_reclaimed",
    STALL_KINDS + "file_scanned", STALL_KINDS + "file_reclaimed",
    STALL_KINDS + "write_anon", STALL_KINDS + "write_file", STALL_KINDS + "priority.#.#",
    # per memory cgroup, all rows added: a task that ended between a
    # part's start and its list of tasks is of unknown cgroup in the part
    "cgroups.rows.+.stalls.*.count", "cgroups.rows.+.stalls.*.total_ns",
    "cgroups.rows.+.memcg_reclaim_scanned", "cgroups.rows.+.memcg_reclaim_reclaimed",
    "cgroups.rows.+.swap_outs", "cgroups.rows.+.oom_kills",
    # compaction: runs likewise; the runner of a run begun before a part
    # is what the part can tell, so the runners are added
    "compaction.runners.+.count", "compaction.runners.+.total_ns",
    "compaction.runners.+.runs", "compaction.runners.+.status.*",
    "compaction.runners.+.migrate_scanned", "compaction.runners.+.migrate_taken",
    "compaction.runners.+.free_scanned", "compaction.runners.+.free_taken",
    "compaction.runners.+.migrated", "compaction.runners.+.failed",
    "compaction.zones[zone_start_pfn].runs", "compaction.direct_tries",
    "compaction.deferred", "compaction.defer_compaction", "compaction.defer_reset",
    "compaction.extfrag", "compaction.extfrag_severe", "compaction.extfrag_ownership",
    "compaction.unattributed_scans",
    # kswapd and kcompactd events
    "handoff[nid].kswapd_wakes", "handoff[nid].wakeup_kswapd",
    "handoff[nid].kcompactd_wakes", "handoff[nid].kcompactd_order0",
    "handoff[nid].kcompactd_sleeps", "handoff[nid].wakeup_kcompactd",
    "handoff[nid].wakeup_kcompactd_proactive",
    # swap and zswap probes: each result in one file (6.1: its order at
    # an entry before the part is not known: results_order_unknown)
    ["swap.orders.+.attempts", "swap.results_order_unknown"],
    "zswap.stores_ok", "zswap.stores_not", "zswap.loads_ok", "zswap.loads_not",
    "zswap.writebacks_ok", "zswap.writebacks_not",
    # khugepaged and OOM: events
    "khugepaged.passes", "khugepaged.full_scans", "khugepaged.orders[order].scans",
    "khugepaged.orders[order].file_scans", "khugepaged.orders[order].collapses",
    "khugepaged.orders[order].collapses_ok", "khugepaged.orders[order].file_collapses",
    "khugepaged.orders[order].isolates", "khugepaged.orders[order].isolates_ok",
    "khugepaged.orders[order].swapins", "khugepaged.orders[order].swapins_ok",
    "khugepaged.orders[order].swapped_in",
    "oom.oom_kills", "oom.reclaim_retries", "oom.compact_retries",
]

# what was cut at a part's end went on in the next: over the parts, as
# many cut as continued (less what the run itself was cut at or continued
# from, when it is a part of a longer run)
PAIRS = [
    (STALL_KINDS + "cut", STALL_KINDS + "continued"),
]

NOT_SUMS = {
    "header (first_s, last_s, wall, versions, spacing)": "times and settings",
    "stalls.*.p50_ns/p90_ns/p99_ns/max_ns/log2_ns, passes": "complete stalls only",
    "stalls.top_tasks": "a ranking (each task's count and total do add up)",
    "cgroups.rows[].stalls.*.p99_ns/max_ns": "complete stalls only",
    "cgroups.rows[] one by one": "a task that ended after a part began, before "
        "the part's list of tasks was read (gone=), is of unknown cgroup in it "
        "(each row adds up otherwise)",
    "compaction.runners.<runner> alone": "a run begun before a part: its runner "
        "as the part can tell (kcompactd's on a request or proactive, direct "
        "without the try: not known)",
    "compaction.runs_by_order": "ended runs whose begin is in the file",
    "handoff episodes, awake_ns, kswapd_continued": "a first kswapd wake in a part "
        "may be a re-wake of an episode from the part before (it cannot tell)",
    "handoff handoffs, kcompactd woken/pickup/busy/proactive, stalls while "
        "kcompactd slept, wakeups by kswapd": "they need kswapd's and kcompactd's "
        "state at the part's start",
    "swap.orders[].ok/fallback/causes": "6.1: a result's order at an entry before "
        "the part; causes: the clusters' state at the part's start",
    "khugepaged collapsible, results": "a scan's result after a collapse before "
        "the part",
    "consistency[].event_count": "each file's own window between its sample "
        "sets, and the alternative count it may take",
    "counters first/last/max_step/peak, frag, series, swap devices, zswap pool, "
        "run settings, memcg gauges": "values at a time, not sums",
    "findings": "thresholds on each recording's figures",
    "oom.kills[], oom.sigkills": "a kill's dossier is the window before it, "
        "which a cut shortens; the OOM killer's SIGKILL and its mark_victim, "
        "microseconds apart, may fall in two parts (two kills there, one in "
        "the run)",
    "stacks": "complete stalls only",
}


def fail(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def parse(path):
    segs = []
    for s in path.split("."):
        if "[" in s and s.endswith("]"):
            name, keys = s[:-1].split("[", 1)
            segs.append(("list", name, keys.split(",")))
        elif s.startswith("@"):
            segs.append(("op", s[1:], None))
        elif s in ("*", "+", "#"):
            segs.append((s, None, None))
        else:
            segs.append(("key", s, None))
    return segs


MISSING = object()


def expand(doc, segs, label=""):
    """Every (label, value) of the path in doc; '+' yields lists to add."""
    if not segs:
        yield label, doc
        return
    kind, name, keys = segs[0]
    rest = segs[1:]
    if doc is None or doc is MISSING:
        yield label + "".join(_show(s) for s in segs), doc
        return
    if kind == "key":
        v = doc.get(name, MISSING) if isinstance(doc, dict) else MISSING
        yield from expand(v, rest, label + "." + name)
    elif kind == "*":
        for k in (doc if isinstance(doc, dict) else {}):
            yield from expand(doc[k], rest, label + "." + k)
    elif kind == "#":
        for i, v in enumerate(doc if isinstance(doc, list) else []):
            yield from expand(v, rest, "%s[%d]" % (label, i))
    elif kind == "+":
        vals = {}
        members = list(doc.values()) if isinstance(doc, dict) else \
            doc if isinstance(doc, list) else []
        for m in members:
            for sub, v in expand(m, rest, ""):
                vals.setdefault(sub, []).append(v)
        for sub, vs in vals.items():
            yield label + ".+" + sub, ("sum", vs)
    elif kind == "list":
        lst = doc.get(name, MISSING) if isinstance(doc, dict) else MISSING
        if lst is None or lst is MISSING:
            yield label + "." + name + "[...]", lst
            return
        for el in lst:
            ident = ",".join("%s=%s" % (k, el.get(k)) for k in keys)
            yield from expand(el, rest, "%s.%s[%s]" % (label, name, ident))
    elif kind == "op" and name == "delta":
        if isinstance(doc, dict) and "first" in doc and "last" in doc:
            if doc["first"] is None or doc["last"] is None:
                yield label + "@delta", None
            else:
                yield label + "@delta", doc["last"] - doc["first"]
        else:
            yield label + "@delta", MISSING
    else:
        fail("bad path segment %r" % (kind,))


def _show(s):
    kind, name, keys = s
    return {"key": "." + str(name), "*": ".*", "+": ".+", "#": "[#]",
            "list": ".%s[%s]" % (name, ",".join(keys or [])),
            "op": "@" + str(name)}[kind]


def value(v):
    """A number, None (not measured) or MISSING."""
    if isinstance(v, tuple) and v[0] == "sum":
        nums = [value(x) for x in v[1]]
        nums = [x for x in nums if x is not None and x is not MISSING]
        return sum(nums) if nums else None
    if v is MISSING or v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        fail("not a number: %r" % (v,))
    return v


def figures_of(doc, spec):
    """label -> value for one figure spec (a path or a list of paths)."""
    paths = spec if isinstance(spec, list) else [spec]
    out = {}
    for p in paths:
        for label, v in expand(doc, parse(p)):
            v = value(v)
            if len(paths) > 1:	# one figure: the paths' values added
                label = " + ".join(paths)
                if label in out and out[label] not in (None, MISSING):
                    if v not in (None, MISSING):
                        out[label] += v
                    continue
            out[label] = v
    return out


def check(run, parts):
    bad = checked = 0
    for spec in FIGURES:
        want = figures_of(run, spec)
        got = {}
        nulls = {}
        for part in parts:
            for label, v in figures_of(part, spec).items():
                if v is MISSING:
                    continue
                if v is None:
                    nulls[label] = nulls.get(label, 0) + 1
                    continue
                got[label] = got.get(label, 0) + v
        for label in sorted(set(want) | set(got)):
            w = want.get(label, MISSING)
            g = got.get(label, MISSING)
            if w is None or w is MISSING:
                if g is MISSING:
                    continue
                if w is MISSING and g == 0:
                    continue	# a part's zero the run does not list
                print("DIFF %s: the run: %s, %d parts: %s" %
                      (label, "null" if w is None else "absent", len(parts), g))
                bad += 1
                continue
            if g is MISSING and nulls.get(label):
                print("DIFF %s: the run: %s, every part: null" % (label, w))
                bad += 1
                continue
            g = 0 if g is MISSING else g
            checked += 1
            if g != w:
                print("DIFF %s: the run %s, the parts %s (%+d)" % (label, w, g, g - w))
                bad += 1
    for cut, cont in PAIRS:
        rc, rn = figures_of(run, cut), figures_of(run, cont)
        sc, sn = {}, {}
        for part in parts:
            for label, v in figures_of(part, cut).items():
                if isinstance(v, (int, float)):
                    sc[label] = sc.get(label, 0) + v
            for label, v in figures_of(part, cont).items():
                if isinstance(v, (int, float)):
                    sn[label.replace(".continued", ".cut")] = \
                        sn.get(label.replace(".continued", ".cut"), 0) + v
        for label in sorted(set(sc) | set(sn)):
            a = sc.get(label, 0) - (rc.get(label) or 0)
            b = sn.get(label, 0) - (rn.get(label.replace(".cut", ".continued")) or 0)
            checked += 1
            if a != b:
                print("DIFF %s: %d cut at a part's end, %d continued in the next" %
                      (label, a, b))
                bad += 1
    return checked, bad


def main(argv):
    if argv[1:] == ["--list"]:
        for spec in FIGURES:
            print(" + ".join(spec) if isinstance(spec, list) else spec)
        for cut, cont in PAIRS:
            print("%s == %s (over the parts)" % (cut, cont))
        print("\nnot sums:")
        for what, why in NOT_SUMS.items():
            print("  %s: %s" % (what, why))
        return 0
    if len(argv) < 3:
        fail("usage: parts-sum.py RUN.json PART.json... | --list")
    try:
        run = json.load(open(argv[1]))
        parts = [json.load(open(p)) for p in argv[2:]]
    except (OSError, ValueError) as e:
        fail(str(e))
    checked, bad = check(run, parts)
    print("%d figures checked over %d parts: %s" %
          (checked, len(parts), "%d differ" % bad if bad else "every one adds up"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
