# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a Perfetto trace mmscope wrote, as protoc decoded it (text format),
against the rules of the format and the report's JSON of the same
recording:

  check.py TRACE.txt REPORT.json ZONES.txt INFO.txt PHASES

- protoc knew every field (no unknown field numbers in the text);
- time stamps never go back on a sequence;
- every track event names a declared track; parents exist; uuids unique;
- every slice begin has its end on the same track (a stack per track:
  slices nest), no track is left open; counters only on counter tracks;
- each flow leaves one slice and ends on another;
- the stalls with a kernel stack (record -T) per kind, as the report's;
- per node: kswapd episode slices, kcompactd request slices and kcompactd
  compaction runs; per kind: direct and memcg reclaim and direct
  compaction stall slices; OOM kill instants: as many as the report says;
- every kill (.oom.kills[]): an instant on the "kills" track named after
  its killer and victim, its arguments the dossier's lines, each the
  JSON's figure ('-' exactly where it is null; tests/kills_expect.py);
- counter values: PSI and memcg first and last as the report's counters,
  zswap and swap cluster series point for point as the report's series
  (zswpout as its rate per interval), mTHP swpout/fallback rates adding up
  to their counters' rise, zone free pages and
  watermarks as the zoneinfo lines of complete sample sets (ZONES.txt,
  from mmscope dump);
- a flight-recorder file's trigger: one instant at its trigger_ns (INFO.txt,
  mmscope dump --info), none without; PHASES phase instants (the
  recording's "mmscope phase" markers).
Prints one line per failed check; exits 1 if any.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kills_expect  # noqa: E402


def parse_text(path):
    """protoc's text format as nested lists of (key, value) pairs."""
    root = []
    stack = [root]
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line == "}":
                stack.pop()
                continue
            if line.endswith("{"):
                child = []
                stack[-1].append((line[:-1].strip(), child))
                stack.append(child)
                continue
            key, _, val = line.partition(": ")
            if val.startswith('"'):
                val = bytes(val[1:-1], "utf-8").decode("unicode_escape")
            stack[-1].append((key, val))
    return root


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def get_all(msg, key):
    return [v for k, v in msg if k == key]


def main():
    trace_txt, report_json, zones_txt, info_txt, nphases = sys.argv[1:6]
    fails = []
    raw = open(trace_txt).read()
    unknown = re.findall(r"^\s*(\d+): ", raw, re.M)
    if unknown:
        fails.append("fields protoc does not know: %s" % sorted(set(unknown)))
    packets = get_all(parse_text(trace_txt), "packet")
    report = json.load(open(report_json))

    tracks = {}
    last_ts = {}
    open_slices = {}
    counts = {}      # (track uuid) -> slices begun
    names = {}       # (track uuid, name) -> count
    values = {}      # track uuid -> [(ts, value)]
    flows_out, flows_in = {}, {}
    flow_from, flow_to = {}, {}
    with_stack = {}  # slice name -> slices with a kernel stack
    instants = []
    kills = []       # (name, [(argument, value)]) on the "kills" track
    interned_events, interned_debug = {}, {}
    for p in packets:
        seq = get(p, "trusted_packet_sequence_id")
        ts = get(p, "timestamp")
        if ts is None:
            fails.append("a packet without a time stamp")
            continue
        ts = int(ts)
        if seq in last_ts and ts < last_ts[seq]:
            fails.append("time stamp %d after %d on sequence %s" % (ts, last_ts[seq], seq))
        last_ts[seq] = ts
        td = get(p, "track_descriptor")
        if td is not None:
            uuid = get(td, "uuid")
            if uuid in tracks:
                fails.append("track %s declared twice" % uuid)
            tracks[uuid] = td
            continue
        te = get(p, "track_event")
        if te is None:
            fails.append("a packet with neither track nor event")
            continue
        # interned strings: defined in this packet or an earlier one, and
        # a packet using them says it needs the sequence's state
        idata = get(p, "interned_data") or []
        for kind, table in (("event_names", interned_events),
                            ("debug_annotation_names", interned_debug)):
            for entry in get_all(idata, kind):
                iid = get(entry, "iid")
                if iid in table:
                    fails.append("%s iid %s interned twice" % (kind, iid))
                table[iid] = get(entry, "name")
        uses = get(te, "name_iid") is not None or any(
            get(a, "name_iid") is not None for a in get_all(te, "debug_annotations"))
        if uses and not int(get(p, "sequence_flags", "0")) & 2:
            fails.append("packet at %d uses interned strings without "
                         "SEQ_NEEDS_INCREMENTAL_STATE" % ts)
        for a in get_all(te, "debug_annotations"):
            iid = get(a, "name_iid")
            if iid is not None and iid not in interned_debug:
                fails.append("annotation name iid %s not interned" % iid)
        uuid = get(te, "track_uuid")
        if uuid not in tracks:
            fails.append("event on undeclared track %s" % uuid)
            continue
        typ = get(te, "type")
        is_counter = get(tracks[uuid], "counter") is not None
        if typ == "TYPE_COUNTER":
            if not is_counter:
                fails.append("counter value on a slice track %s" % uuid)
            v = get(te, "counter_value")
            if v is None:
                v = get(te, "double_counter_value")
            values.setdefault(uuid, []).append((ts, float(v)))
            continue
        if is_counter:
            fails.append("%s on counter track %s" % (typ, uuid))
        name = get(te, "name")
        if get(te, "name_iid") is not None:
            name = interned_events.get(get(te, "name_iid"))
            if name is None:
                fails.append("event name iid %s not interned" % get(te, "name_iid"))
        if typ == "TYPE_SLICE_BEGIN":
            open_slices.setdefault(uuid, []).append((ts, name))
            counts[uuid] = counts.get(uuid, 0) + 1
            names[(uuid, name)] = names.get((uuid, name), 0) + 1
            if get(te, "callstack") is not None:
                with_stack[name] = with_stack.get(name, 0) + 1
        elif typ == "TYPE_SLICE_END":
            if not open_slices.get(uuid):
                fails.append("slice end at %d with no begin on track %s" % (ts, uuid))
            else:
                b, n = open_slices[uuid].pop()
                if ts < b:
                    fails.append("slice %s ends at %d before its begin %d" % (n, ts, b))
        elif typ == "TYPE_INSTANT":
            names[(uuid, name)] = names.get((uuid, name), 0) + 1
            instants.append((ts, name))
            if get(tracks[uuid], "name") == "kills":
                kills.append((name, [(interned_debug.get(get(a, "name_iid"), get(a, "name")),
                                      get(a, "string_value"))
                                     for a in get_all(te, "debug_annotations")]))
        else:
            fails.append("unexpected event type %s" % typ)
        for f in get_all(te, "flow_ids"):
            flows_out[f] = flows_out.get(f, 0) + 1
            flow_from[f] = get(tracks[uuid], "name")
        for f in get_all(te, "terminating_flow_ids"):
            flows_in[f] = flows_in.get(f, 0) + 1
            flow_to[f] = get(tracks[uuid], "name")
    for uuid, st in open_slices.items():
        if st:
            fails.append("%d slices never end on track %s" % (len(st), uuid))
    for uuid, td in tracks.items():
        parent = get(td, "parent_uuid")
        if parent is not None and parent not in tracks:
            fails.append("track %s has an undeclared parent %s" % (uuid, parent))
    for f in set(flows_out) | set(flows_in):
        if flows_out.get(f) != 1 or flows_in.get(f) != 1:
            fails.append("flow %s leaves %s slices, ends on %s" % (f, flows_out.get(f, 0),
                                                                 flows_in.get(f, 0)))
        elif (flow_from[f], flow_to[f]) != ("kswapd", "kcompactd requests"):
            fails.append("flow %s from %s to %s" % (f, flow_from[f], flow_to[f]))

    def name_of(uuid):
        return get(tracks[uuid], "name")

    def child(parent_name, name):
        """uuids of tracks called name under a track called parent_name"""
        out = []
        for uuid, td in tracks.items():
            p = get(td, "parent_uuid")
            if name_of(uuid) == name and p in tracks and name_of(p) == parent_name:
                out.append(uuid)
        return out

    def expect(what, got, want):
        if got != want:
            fails.append("%s: %s in the trace, %s in the report" % (what, got, want))

    # per node: kswapd episodes, kcompactd requests and runs
    want_flows = 0
    for node in report.get("handoff") or []:
        nn = "node %d" % node["nid"]
        eps = sum(counts.get(u, 0) for u in child(nn, "kswapd"))
        expect(nn + " kswapd episodes", eps, len(node["kswapd_episodes"] or []))
        if node["episodes"] is not None:
            expect(nn + " kswapd episodes (all)", eps, node["episodes"])
        req = sum(counts.get(u, 0) for u in child(nn, "kcompactd requests"))
        expect(nn + " kcompactd requests", req, len(node["kcompactd_requests"] or []))
        runs = sum(counts.get(u, 0) for u in child(nn, "kcompactd runs"))
        expect(nn + " kcompactd runs", runs, node["kcompactd_runs"] or 0)
        # a flow per handoff that reached a request kcompactd ran for kswapd
        ho = sum(1 for e in (node["kswapd_episodes"] or []) if e["handoff"] in ("wakeup", "pickup"))
        served = sum(1 for k in (node["kcompactd_requests"] or []) if k["for_kswapd"])
        want_flows += min(ho, served)

    expect("handoff flows", len(flows_out), want_flows)

    # per kind: stall slices (every task's track of that name)
    def slices_named(name):
        return sum(c for (u, n), c in names.items() if n == name
                   and get(tracks[u], "counter") is None)
    for kind, name in (("direct", "direct reclaim"), ("memcg", "memcg reclaim")):
        want = report["stalls"][kind]["count"]
        expect(name + " stalls", slices_named(name), want or 0)
    comp = report["compaction"]["runners"]["direct"]["runs"]
    expect("direct compaction stalls", slices_named("direct compaction"), comp or 0)
    st = report.get("stacks")
    for kind, name in (("direct_reclaim", "direct reclaim"), ("memcg_reclaim", "memcg reclaim"),
                       ("direct_compaction", "direct compaction")):
        want = st[kind]["with_stack"] if st and st.get(kind) else 0
        expect(name + " stalls with a stack", with_stack.get(name, 0), want)
    oom = report.get("oom")
    expect("OOM kill instants", slices_named("OOM kill"), oom["oom_kills"] if oom else 0)
    # every kill: its instant, named after killer and victim, and its
    # dossier's lines as arguments, each the JSON's figure
    want_kills = (oom or {}).get("kills") or []
    expect("kill instants", len(kills), len(want_kills))
    for i, ((name, args), k) in enumerate(zip(kills, want_kills)):
        v = k["victim"]
        want_name = "kill: %s victim %s" % (k["killer"], v["comm"] or "-" if v["pid"] is None
                                            else "%d %s" % (v["pid"], v["comm"] or "-"))
        expect("kill %d name" % (i + 1), name, want_name)
        lines = [("candidate" if a.startswith("candidate_") else a, v) for a, v in args]
        fails.extend("kill %d: %s" % (i + 1, e) for e in kills_expect.problems(k, lines))
        numbered = [a for a, _ in args if a.startswith("candidate_")]
        expect("kill %d candidate arguments" % (i + 1), numbered,
               ["candidate_%d" % (n + 1) for n in range(len(numbered))])

    # the findings: one annotation (slice or instant) each, by id
    fnd = report.get("findings")
    fl = fnd if isinstance(fnd, list) else (fnd or {}).get("findings", [])
    for fid in sorted(set(f["id"] for f in fl)):
        expect("finding " + fid, slices_named("finding " + fid),
               sum(1 for f in fl if f["id"] == fid))
    expect("findings", sum(c for (u, n), c in names.items() if n.startswith("finding ")),
           len(fl))

    info = {}
    for line in open(info_txt, errors="replace"):
        k, _, v = line.strip().partition("=")
        info[k] = v
    want = [(int(info["trigger_ns"]), "trigger " + info["trigger_name"])] \
        if "trigger_ns" in info else []
    expect("trigger instants", [i for i in instants if i[1].startswith("trigger ")], want)
    expect("phase instants", sum(1 for i in instants if i[1].startswith("phase ")),
           int(nphases))

    # counters: first and last as the report's counters list
    mthp_keys = {}
    for c in report.get("counters") or []:
        if c["source"] == "mthp" and c["key"] in ("swpout", "swpout_fallback"):
            mthp_keys.setdefault(c["instance"], set()).add(c["key"])
    mthp_both = {i: len(k) == 2 for i, k in mthp_keys.items()}
    by_name = {}
    for uuid in tracks:
        if get(tracks[uuid], "counter") is not None:
            by_name[name_of(uuid)] = values.get(uuid, [])
    for c in report.get("counters") or []:
        inst = c["instance"]
        key = c["key"]
        scale = 10 ** c["scale"]
        if c["source"] == "psi":
            tn = "psi %s%s%s" % (inst, " " if inst else "", key)
        elif c["source"] == "memcg" and key in ("usage", "limit", "memsw_usage",
                                                  "memsw_limit", "swap_usage", "swap_max",
                                                  "high"):
            tn = "memcg %s%s%s" % (inst, " " if inst else "", key)
            if c["first"] >= 1 << 60 or c["last"] >= 1 << 60:
                if tn in by_name and any(v >= 2 ** 60 for _, v in by_name[tn]):
                    fails.append(tn + ": a limit of 'none' drawn as a value")
                continue
        elif c["source"] == "mthp" and key in ("swpout", "swpout_fallback"):
            # instances are sizes in kB; a size is drawn with both counters
            tn = "%skB %s" % (inst, key)
            if not mthp_both.get(inst):
                continue
        else:
            continue
        got = by_name.get(tn)
        if c["source"] == "mthp":
            # drawn as rates (folios/s from each set, the last interval's
            # again at the last set): over the intervals they add up to
            # the counter's rise, within the hundredths they are kept in
            if c["last"] == c["first"] and not got:
                continue
            if not got or len(got) < 2:
                fails.append("counter track '%s' missing" % tn)
                continue
            rise = sum(v * (got[k + 1][0] - got[k][0]) / 1e9 for k, (_, v) in enumerate(got[:-1]))
            if any(v < 0 for _, v in got) or got[-1][1] != got[-2][1] or \
                    abs(rise - (c["last"] - c["first"])) > 0.5 + 0.01 * len(got) * \
                    (got[-1][0] - got[0][0]) / 1e9:
                fails.append("%s: rates add up to %.2f, the counter rose by %d" %
                             (tn, rise, c["last"] - c["first"]))
            continue
        if not got:
            fails.append("counter track '%s' missing" % tn)
            continue
        expect(tn + " first", got[0][1], c["first"] / scale)
        expect(tn + " last", got[-1][1], c["last"] / scale)

    # zswap series, point for point
    zs = report.get("zswap") or {}
    for field, tn in (("stored_pages", "zswap stored pages"), ("pool_bytes", "zswap pool size")):
        want = [p[field] for p in zs.get("series") or [] if p.get(field) is not None]
        got = [v for _, v in by_name.get(tn, [])]
        expect(tn + " series", got, [float(w) for w in want])
    # zswpout, a counter since boot: its rate per interval (pages/s), the
    # report's series of it over the interval's seconds (kept to ms there)
    pts = [(p["t"], p["zswpout"]) for p in zs.get("series") or [] if p.get("zswpout") is not None]
    got = [v for _, v in by_name.get("zswap stores (zswpout)", [])]
    if len(pts) >= 2:
        want = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(pts, pts[1:])]
        want.append(want[-1])
        if len(got) != len(want) or any(abs(g - w) > 0.01 + 0.005 * w for g, w in zip(got, want)):
            fails.append("zswap stores (zswpout) rates: %s in the trace, %s from the report's "
                         "series" % (got, ["%.2f" % w for w in want]))
    elif got:
        fails.append("zswap stores (zswpout): a rate from fewer than two sets")

    # swap clusters: the unknown count at every point, the others where
    # every cluster was known
    for dev in (report.get("swap") or {}).get("devices") or []:
        series = dev.get("series") or []
        for state in ("unknown", "free", "full"):
            tn = "swap %d clusters %s" % (dev["type"], state)
            want = [float(p[state]) for p in series
                    if state == "unknown" or p["unknown"] == 0]
            got = [v for _, v in by_name.get(tn, [])]
            expect(tn + " series", got, want)

    # zones: free pages and watermarks of every complete sample set
    zones = {}
    for line in open(zones_txt):
        node, zone, key, ts, v = line.split()
        tn = "%s %s%s" % (zone, key, " pages" if key == "free" else " watermark")
        zones.setdefault((node, tn), []).append(float(v))
    for (node, tn), want in sorted(zones.items()):
        cand = child("node " + node, tn)
        got = [v for u in cand for _, v in values.get(u, [])]
        expect("node %s %s" % (node, tn), got, want)

    for f in fails:
        print(f)
    print("%d packets, %d tracks, %d flows, %d counter tracks with values, %d kills: %s" % (
        len(packets), len(tracks), len(flows_out), len(values), len(kills),
        "ok" if not fails else "%d failed" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
