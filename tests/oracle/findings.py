#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings' counts against the report and against trace-cmd.

usage: findings.py json MMSCOPE FILE...    each finding's count equals the
           figure of the JSON section it comes from (mmscope-report(1),
           FINDINGS), and every nonzero figure a rule watches has its
           finding
       findings.py truth MMSCOPE FILE...   the stall, handoff, OOM,
           memcg-scan-rounding, swap-free-scattered and zswap-reject
           findings' counts recomputed from `trace-cmd report` (the events, decoded by
           trace-cmd, by the rules of the man page); FINDINGS_IDS=ID,...
           checks only those
exit 0 all agree, 1 a difference
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import truth  # noqa: E402  (tests/oracle/truth.py: trace-cmd's events)


def report(mmscope, path):
    """The JSON report; FINDINGS_SCOPE (e.g. "--since 10 --until 12") adds
    a window or task scope."""
    scope = os.environ.get('FINDINGS_SCOPE', '').split()
    return json.loads(subprocess.run([mmscope, 'report', '--format', 'json'] + scope + [path],
                                     capture_output=True, text=True, check=True).stdout)


def section_figure(rep, f):
    """The figure of f's section that f's count must equal."""
    fid = f['id']
    if fid == 'oom-kill':
        return rep['oom']['oom_kills']
    if fid == 'data-loss':
        key = {'events': 'lost', 'overruns': 'cpustat_lost', 'probe hits': 'probe_missed',
               'sample sets': 'sample_gaps'}[f['unit']]
        return rep['header'][key]
    if fid in ('mthp-fallback', 'mthp-split-config'):
        o = [x for x in rep['swap']['orders'] if x['order'] == f['order']][0]
        return o['swpout_fallback'] if o['swpout_fallback'] is not None else o['fallback']
    if fid == 'swap-cluster-exhausted':
        return [d for d in rep['swap']['devices'] if d['type'] == f['device']][0]['ran_out']
    if fid in ('handoff-missing', 'kcompactd-asleep-stalls'):
        nd = [n for n in rep['handoff'] if n['nid'] == f['node']][0]
        return nd['handoff_none' if fid == 'handoff-missing' else 'stalls_kcompactd_asleep']
    if fid == 'direct-reclaim-stalls':
        return rep['stalls']['direct']['count']
    if fid == 'memcg-reclaim-stalls':
        return rep['stalls']['memcg']['count']
    if fid == 'memcg-scan-rounding':
        return rep['stalls']['memcg']['passes']['escalated']
    if fid == 'swap-free-scattered':
        return rep['swap']['free_scatter']['switches']
    if fid == 'compaction-failing':
        d = rep['compaction']['runners']['direct']
        return d['runs'] - d['status'].get('success', 0)
    if fid == 'zswap-writeback':
        z = rep['zswap']
        if z.get('zswpwb') is not None:
            return z['zswpwb']
        if z.get('written_back_pages') is not None:
            return z['written_back_pages']
        return z['writebacks_ok']
    if fid == 'zswap-reject':
        # the store probe's refusals, else pswpout - zswpwb, else the
        # debugfs rejects (mmscope-report(1), FINDINGS)
        z, s = rep['zswap'], rep['zswap']['series']
        if (z.get('stores_ok') or 0) + (z.get('stores_not') or 0):
            return z['stores_not']
        if None not in (s[0]['pswpout'], s[-1]['pswpout'], s[0]['zswpwb'], s[-1]['zswpwb']) \
                and z.get('enabled'):
            return s[-1]['pswpout'] - s[0]['pswpout'] - (s[-1]['zswpwb'] - s[0]['zswpwb'])
        return s[-1]['rejects'] - s[0]['rejects']
    raise KeyError(fid)


def expected_present(rep):
    """(id, where) of findings that must exist: a nonzero figure that a rule
    reports whatever its severity."""
    want = []
    if isinstance(rep.get('oom'), dict) and rep['oom']['oom_kills']:
        want.append(('oom-kill', None))
    for nd in rep.get('handoff', []):
        if nd.get('handoff_none'):
            want.append(('handoff-missing', nd['nid']))
        if nd.get('stalls_kcompactd_asleep') and nd.get('kcompactd_wakes') is not None:
            want.append(('kcompactd-asleep-stalls', nd['nid']))
    for kind in ('direct', 'memcg'):
        s = rep['stalls'][kind]
        if s['recorded'] and s['count']:
            want.append((kind + '-reclaim-stalls', None))
    if rep['header']['lost']:
        want.append(('data-loss', 'events'))
    elif rep['header']['cpustat_lost'] and not rep['header']['lost_unknown']:
        want.append(('data-loss', 'overruns'))
    for o in rep['swap']['orders']:
        if o['order'] > 0 and o['swpout_fallback']:
            # without THP_SWAP every one is a split by configuration
            split = rep['swap'].get('thp_swap') is False
            want.append(('mthp-split-config' if split else 'mthp-fallback', o['order']))
    if (rep['stalls']['memcg'].get('passes') or {}).get('escalated'):
        want.append(('memcg-scan-rounding', None))
    if (rep['swap'].get('free_scatter') or {}).get('switches'):
        want.append(('swap-free-scattered', None))
    z = rep['zswap']
    if z.get('zswpwb') or (z.get('zswpwb') is None and z.get('written_back_pages')):
        want.append(('zswap-writeback', None))
    return want


def where(f):
    if f['id'] in ('handoff-missing', 'kcompactd-asleep-stalls'):
        return f['node']
    if f['id'] in ('mthp-fallback', 'mthp-split-config'):
        return f['order']
    if f['id'] == 'data-loss':
        return f['unit']
    return None


def check_json(mmscope, path):
    rep = report(mmscope, path)
    bad = []
    for f in rep['findings']:
        fig = section_figure(rep, f)
        if f['count'] != fig:
            bad.append('%s %s: count %s, its section says %s'
                       % (f['id'], where(f), f['count'], fig))
        if f['severity'] not in ('info', 'warning', 'critical'):
            bad.append('%s: severity %s' % (f['id'], f['severity']))
        if not f['summary'] or not f['mechanism'] or not f['evidence']:
            bad.append('%s: summary, mechanism or evidence empty' % f['id'])
    have = {(f['id'], where(f)) for f in rep['findings']}
    for w in expected_present(rep):
        if w not in have:
            bad.append('%s %s: its section has a nonzero figure, no finding' % w)
    return bad, len(rep['findings'])


def kc_asleep_stalls(evs):
    """Per node: direct reclaim begins and direct compaction tries while
    the node's kcompactd slept (after its sleep, before its next wake)."""
    asleep, out = {}, {}
    for _, _, ev, f in evs:
        if ev == 'mm_compaction_kcompactd_sleep':
            asleep[truth.num(f.get('nid', '0'))] = True
        elif ev == 'mm_compaction_kcompactd_wake':
            asleep[truth.num(f.get('nid', '0'))] = False
        elif ev in ('mm_vmscan_direct_reclaim_begin', 'mm_compaction_try_to_compact_pages'):
            for nid, a in asleep.items():
                if a:
                    out[nid] = out.get(nid, 0) + 1
    return out


RECLAIM_BEGIN = {'mm_vmscan_direct_reclaim_begin': 'direct',
                 'mm_vmscan_memcg_reclaim_begin': 'memcg',
                 'mm_vmscan_node_reclaim_begin': 'node'}
DEF_PRIORITY = 12


def memcg_escalated(evs):
    """memcg-scan-rounding: memcg reclaim passes (a task's begin .. end)
    whose first scanning priority is below DEF_PRIORITY. Pages isolated
    (lru_isolate) take the priority of the shrink_inactive/_active that
    follows; an isolate that took nothing from an inactive list has no
    shrink event, so its priority is unknown: the pass is not counted
    unless its first stamped priority is 12. None without memcg begins."""
    open_, n, seen = {}, 0, False
    for _, pid, ev, f in evs:
        if ev in RECLAIM_BEGIN:
            seen = seen or ev == 'mm_vmscan_memcg_reclaim_begin'
            open_[pid] = {'kind': RECLAIM_BEGIN[ev], 'first': None, 'unattr': False,
                          'pending': 0}
            continue
        p = open_.get(pid)
        if p is None:
            continue
        if ev == 'mm_vmscan_lru_isolate':
            sc, tk = truth.num(f['nr_scanned']), truth.num(f['nr_taken'])
            if not sc:
                continue
            if f.get('lru') not in ('active_anon', 'active_file') and not tk:
                if p['first'] is None:
                    p['unattr'] = True
            else:
                p['pending'] += sc
        elif ev in ('mm_vmscan_lru_shrink_inactive', 'mm_vmscan_lru_shrink_active'):
            own = truth.num(f['nr_scanned' if ev.endswith('inactive') else 'nr_taken'])
            sc, p['pending'] = max(p['pending'], own), 0
            if sc and p['first'] is None:
                p['first'] = truth.num(f['priority'])
        elif ev.endswith('_reclaim_end') and 'softlimit' not in ev:
            del open_[pid]
            if ev == 'mm_vmscan_memcg_reclaim_end' and p['kind'] == 'memcg':
                if p['first'] is not None and p['first'] < DEF_PRIORITY and \
                        not p['unattr']:
                    n += 1
    return n if seen else None


SWP_OFFSET_MASK = (1 << 58) - 1


def swap_cluster(evs):
    """SWAPFILE_CLUSTER in slots: the recorder's run context
    (swap.cluster_pages, from the kernel's CONFIG_THP_SWAP and PMD size),
    else 512 (HPAGE_PMD_NR with THP_SWAP and 4 KB pages, what every
    recording made before the run context had) when the page size is
    4 KB or not given; None for another page size without it (arm64
    16K: 256 without THP_SWAP, 2048 with it)."""
    page = None
    for _, _, ev, f in evs:
        if ev == 'print' and f.get('_mms1') == 'ctx':
            # truth.FIELD keys are words: swap.cluster_pages= is read
            # as cluster_pages= (no other context key ends so)
            if 'cluster_pages' in f:
                return truth.num(f['cluster_pages'])
            page = page or f.get('page_size')
    return 512 if page in (None, '4096') else None


def free_switches(evs):
    """swap-free-scattered: a task's consecutive frees (the swap probes'
    "free" event) landing on another device or in another cluster: offset
    (6.1), entry (6.12) or the cluster pointer (7.x: ci) give the cluster,
    a range is compared by its last slot. Pairs with a cluster not given
    are not counted. None without free events."""
    last, n, seen = {}, 0, False
    cluster = swap_cluster(evs)
    for _, pid, ev, f in evs:
        if ev != 'free' or 'type' not in f:
            continue
        seen = True
        typ, nr = truth.num(f['type']), truth.num(f.get('nr', '1')) or 1
        if 'ci' in f and 'start' in f:
            now, end = ('ptr', f['ci']), ('ptr', f['ci'])
        elif ('offset' in f or 'entry' in f) and cluster:
            off = truth.num(f['offset']) if 'offset' in f else \
                int(f['entry'], 16) & SWP_OFFSET_MASK
            now = ('idx', off // cluster)
            end = ('idx', (off + nr - 1) // cluster)
        else:
            now = end = None
        prev = last.get(pid)
        if prev is not None and prev[1] is not None and now is not None and \
                prev[1][0] == now[0] and (prev[0] != typ or prev[1] != now):
            n += 1
        last[pid] = (typ, end)
    return n if seen else None


def zswap_refused(evs, kernel):
    """zswap-reject: the stores the store probe's return (store_r) says
    zswap refused: before 6.5 zswap_frontswap_store's int, 0 = stored;
    from then zswap_store's bool, 1 = stored (kernel-facts.md). None when
    it stored nothing (zswap off: every store refused at once, no
    refusal) or refused nothing."""
    try:
        major, minor = (int(x) for x in kernel.split('.')[:2])
    except ValueError:
        return None
    stored_is = (lambda r: r == 0) if (major, minor) < (6, 5) else (lambda r: r == 1)
    ok = no = 0
    for _, _, ev, f in evs:
        if ev == 'store_r' and 'ret' in f:
            if stored_is(truth.num(f['ret'])):
                ok += 1
            else:
                no += 1
    return no if ok and no else None


def check_truth(mmscope, path):
    rep = report(mmscope, path)
    evs = list(truth.events(path))
    bad = []
    got = {(f['id'], where(f)): f['count'] for f in rep['findings']}
    want = {}
    names = {e[2] for e in evs}

    st = truth.stalls(evs)
    for kind in ('direct', 'memcg'):
        if st.get(kind, (0,))[0]:
            want[(kind + '-reclaim-stalls', None)] = st[kind][0]
    kills = sum(1 for e in evs if e[2] == 'mark_victim')
    if kills:
        want[('oom-kill', None)] = kills
    end_ts = evs[-1][0] if evs else 0
    if 'mm_vmscan_kswapd_wake' in names or 'mm_vmscan_kswapd_sleep' in names:
        for nid, labels in truth.handoffs(evs, end_ts).items():
            none = sum(1 for _, lab in labels if lab == 'none')
            if none:
                want[('handoff-missing', nid)] = none
    if 'mm_compaction_kcompactd_wake' in names or 'mm_compaction_kcompactd_sleep' in names:
        for nid, n in kc_asleep_stalls(evs).items():
            want[('kcompactd-asleep-stalls', nid)] = n
    esc = memcg_escalated(evs)
    if esc:
        want[('memcg-scan-rounding', None)] = esc
    sw = free_switches(evs)
    if sw:
        want[('swap-free-scattered', None)] = sw
    ref = zswap_refused(evs, rep['header'].get('kernel') or '')
    if ref:
        want[('zswap-reject', None)] = ref
    ids = {'direct-reclaim-stalls', 'memcg-reclaim-stalls', 'oom-kill', 'handoff-missing',
           'kcompactd-asleep-stalls', 'memcg-scan-rounding', 'swap-free-scattered',
           'zswap-reject'}
    if os.environ.get('FINDINGS_IDS'):      # only these (comma-separated)
        ids &= set(os.environ['FINDINGS_IDS'].split(','))
        want = {k: v for k, v in want.items() if k[0] in ids}
    for k in sorted(set(want) | {k for k in got if k[0] in ids}, key=str):
        if got.get(k) != want.get(k):
            bad.append('%s %s: mmscope %s, trace-cmd %s' % (k[0], k[1], got.get(k), want.get(k)))
    return bad, len(want)


def main():
    mode, mmscope, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    for path in files:
        name = path.rsplit('/', 1)[-1]
        bad, n = (check_json if mode == 'json' else check_truth)(mmscope, path)
        for b in bad:
            print('FAIL: %s: %s' % (name, b))
        if bad:
            failed += 1
        else:
            print('ok: %s: %d findings agree with %s' %
                  (name, n, 'the sections' if mode == 'json' else 'trace-cmd'))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
