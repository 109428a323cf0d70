#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kills-oracle.py [--self-test] [--window S] TRACE_CMD_REPORT REPORT_JSON [KILLS_TXT]

The independent oracle of tests/vm/check-kills.sh (issue 41): every kill
of a recording and the window before it, rebuilt from the text of
`trace-cmd report -t` (nanosecond timestamps) of the same file, held
against `mmscope report -f json`'s oom.kills[]. One "ok: ..." or
"FAIL: ..." line per check; exit 1 if any failed.

From the trace-cmd text alone:
  * kills: each oom:mark_victim is a kernel OOM kill (its time); its
    killer is memcg-oom when the task that invoked the OOM killer (the
    line's task) last began a memcg reclaim, else kernel-oom. Each
    signal:signal_generate of sig=9 delivered (res 0 or 4) to another
    task is a kill by the sender (earlyoom, systemd-oomd by the sender's
    comm, else other:COMM), unless a mark_victim of that target by the
    same sender follows within 1 s (the OOM kill's own SIGKILL) or it is
    the OOM killer's SIGKILL (code 128) to another task within 100 ms of
    its kill (a sharer of the victim's memory).
  * the window [t - window_s, t] before each kill: direct and memcg
    reclaim stalls (begin/end pairs by pid; one still open at the kill
    counts up to it; stall time clipped to the window), the same for
    stalls of tasks in the victim's cgroup (cgtasks lines,
    task_newtask, cgroup_attach_task), compaction runs
    (mm_compaction_begin/end by pid, ended in the window; failures: a
    status other than success), kswapd episodes (kswapd_wake to
    kswapd_sleep per node, any time in the window) and of them those
    of order > 0 (the highest of its kswapd_wake and of the
    wakeup_kswapd before it) whose node's kcompactd was woken (kswapd's
    wakeup_kcompactd while the episode was open, or kcompactd_wake at
    order > 0 from its start to 1 s after its end; an order-0 episode
    needs no compaction, as mmscope's handoff model has it, even when
    kswapd woke kcompactd at pageblock order for boosted watermarks),
    the last PSI sample before the kill (some_avg10, its age),
    the swap size and use of the last complete sample set, and the
    candidates (the ranked tasks of the last complete tasks set).
--window S: the dossier window the report was asked for
(--dossier-window). --self-test: instead, each figure the checks read is
made wrong in a copy of the report, one at a time, and each must fail a
check (the unchanged report must pass).
KILLS_TXT (the scenario's "CASE VICTIM COMM KILLER_PID RC" lines) names
the kills the scenario made and whose they must be.
"""
import json
import re
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\S+):\s*(.*)$')
KV = re.compile(r'(\w[\w-]*)[=:](\S*)')

fails = 0
quiet = False


def ok(msg):
    if not quiet:
        print('ok: ' + msg)


def bad(msg):
    global fails
    fails += 1
    if not quiet:
        print('FAIL: ' + msg)


def check(cond, msg):
    (ok if cond else bad)(msg)


def parse(path):
    evs = []
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            comm, pid, _cpu, ts, ev, rest = m.groups()
            evs.append((int(ts.replace('.', '')), comm, int(pid), ev, rest))
    evs.sort(key=lambda e: e[0])
    return evs


def fields(rest):
    return {k: v for k, v in KV.findall(rest)}


class Span:
    def __init__(self, b, pid, kind, cg):
        self.b, self.e, self.pid, self.kind, self.cg, self.status = b, None, pid, kind, cg, None


def main():
    global fails, quiet
    args = sys.argv[1:]
    selftest, want_w = False, None
    while args and args[0].startswith('--'):
        if args[0] == '--self-test':
            selftest = True
        elif args[0] == '--window' and len(args) > 1:
            want_w = float(args[1])
            args = args[1:]
        args = args[1:]
    if len(args) < 2:
        print('usage: kills-oracle.py [--self-test] [--window S] TRACE_CMD_REPORT REPORT_JSON [KILLS_TXT]', file=sys.stderr)
        return 2
    evs = parse(args[0])
    rep = json.load(open(args[1]))
    expect = []
    if len(args) > 2:
        for line in open(args[2]):
            w = line.split()
            if len(w) >= 4:
                expect.append((w[0], int(w[1]), w[2], None if w[3] == '-' else int(w[3])))
    if not evs:
        bad('no events in the trace-cmd report text')
        return 1
    t0 = evs[0][0]

    cg = {}			# pid -> cgroup path
    last_reclaim = {}		# pid -> 'direct' | 'memcg'
    stalls, open_stall = [], {}
    runs, open_run = [], {}
    eps = {}			# nid -> list of [start, end, order]
    wk_order = {}		# nid -> highest wakeup_kswapd order since its last wake
    kcwake = {}			# nid -> list of (ts, kind): 'wakeup' (any), 'wake' (order > 0)
    psi = []			# (ts, some_avg10)
    sets = {}			# seq -> {'swap_size', 'swap_used', 'tasks': {rank: (pid, comm, rss, swap)}, 'tasks_ts'}
    done_sets = []		# (end ts, seq)
    oracle = []		# kills: dict(ts, killer, pid, comm, sender, sender_comm, cg, oom)
    recent = []		# SIGKILLs: (ts, sender, target, kill index or None)
    last_oom = None

    for ts, comm, pid, ev, rest in evs:
        f = fields(rest)
        if ev == 'print':
            w = rest.split()
            if len(w) < 4 or w[1] != 'mms1':
                continue
            kind, seq = w[2], w[3]
            kv = fields(' '.join(w[4:]))
            if kind == 'cgtasks' and 'pids' in kv and 'path' in kv:
                for p in kv['pids'].split(','):
                    if p.isdigit():
                        cg[int(p)] = kv['path']
            elif kind == 'psi' and 'some_avg10' in kv:
                psi.append((ts, float(kv['some_avg10'])))
            elif kind == 'swap':
                s = sets.setdefault(seq, {})
                s['swap_size'] = s.get('swap_size', 0) + int(kv.get('size', 0))
                s['swap_used'] = s.get('swap_used', 0) + int(kv.get('used', 0))
            elif kind == 'tasks' and 'rank' in kv:
                s = sets.setdefault(seq, {})
                s.setdefault('tasks_ts', ts)
                s.setdefault('tasks', {})[int(kv['rank'])] = (
                    int(kv['pid']), kv.get('comm', ''), int(kv['rss_kb']), int(kv['swap_kb']))
            elif kind == 'end':
                done_sets.append((ts, seq))
            continue
        if ev == 'task_newtask':
            if pid in cg:
                cg[int(f['pid'])] = cg[pid]
        elif ev == 'cgroup_attach_task':
            cg[int(f['pid'])] = f['dst_path']
        elif ev in ('mm_vmscan_direct_reclaim_begin', 'mm_vmscan_memcg_reclaim_begin'):
            k = 'direct' if 'direct' in ev else 'memcg'
            last_reclaim[pid] = k
            open_stall[pid] = Span(ts, pid, k, cg.get(pid))
        elif ev in ('mm_vmscan_direct_reclaim_end', 'mm_vmscan_memcg_reclaim_end'):
            k = 'direct' if 'direct' in ev else 'memcg'
            s = open_stall.pop(pid, None)
            if s and s.kind == k:
                s.e = ts
                stalls.append(s)
        elif ev == 'mm_compaction_begin':
            open_run[pid] = Span(ts, pid, 'run', None)
        elif ev == 'mm_compaction_end':
            s = open_run.pop(pid, None)
            if s:
                s.e, s.status = ts, f.get('status')
                runs.append(s)
        elif ev == 'mm_vmscan_wakeup_kswapd':
            n = int(f['nid'])
            wk_order[n] = max(wk_order.get(n, 0), int(f.get('order', 0)))
        elif ev == 'mm_vmscan_kswapd_wake':
            n = int(f['nid'])
            lst = eps.setdefault(n, [])
            if not lst or lst[-1][1] is not None:
                lst.append([ts, None, wk_order.pop(n, 0)])
            lst[-1][2] = max(lst[-1][2], int(f.get('order', 0)))
        elif ev == 'mm_vmscan_kswapd_sleep':
            lst = eps.setdefault(int(f['nid']), [])
            if lst and lst[-1][1] is None:
                lst[-1][1] = ts
        elif ev == 'mm_compaction_wakeup_kcompactd':
            if comm.startswith('kswapd'):	# kswapd's own request (the model's "wake")
                kcwake.setdefault(int(f['nid']), []).append((ts, 'wakeup'))
        elif ev == 'mm_compaction_kcompactd_wake':
            if int(f.get('order', 0)) > 0:
                kcwake.setdefault(int(f['nid']), []).append((ts, 'wake'))
        elif ev == 'signal_generate':
            if f.get('sig') != '9' or f.get('res', '0') not in ('0', '4'):
                continue
            target = int(f['pid'])
            if target == pid:
                recent.append((ts, pid, target, None))
                continue
            if last_oom is not None and f.get('code') == '128' and \
                    oracle[last_oom]['sender'] == pid and ts - oracle[last_oom]['ts'] <= 100000000 and \
                    target != oracle[last_oom]['pid']:
                oracle[last_oom]['also'] += 1
                continue
            killer = {'earlyoom': 'earlyoom', 'systemd-oomd': 'systemd-oomd'}.get(comm, 'other:' + comm)
            oracle.append(dict(ts=ts, killer=killer, pid=target, comm=f.get('comm'), sender=pid,
                               sender_comm=comm, cg=cg.get(target), oom=False, also=0))
            recent.append((ts, pid, target, len(oracle) - 1))
        elif ev == 'mark_victim':
            victim = int(f['pid'])
            killer = 'memcg-oom' if last_reclaim.get(pid) == 'memcg' else 'kernel-oom'
            k = None
            for rts, snd, tgt, ki in reversed(recent):
                if snd == pid and tgt == victim and ts - rts <= 1000000000:
                    k = ki
                    break
            d = dict(ts=ts, killer=killer, pid=victim, comm=f.get('comm'), sender=pid,
                     sender_comm=comm, cg=cg.get(victim), oom=True, also=0)
            if k is not None and not oracle[k]['oom']:
                oracle[k] = d
                last_oom = k
            else:
                oracle.append(d)
                last_oom = len(oracle) - 1
        if ev in ('signal_generate', 'mark_victim') and oracle:
            # the window is taken at the kill: what is open is open now
            k = oracle[-1] if last_oom is None or ev == 'signal_generate' else oracle[last_oom]
            if k['ts'] == ts and 'open' not in k:
                k['open'] = [Span(s.b, s.pid, s.kind, s.cg) for s in open_stall.values()]
    t_end = evs[-1][0]


    def compare(rep):
        kills = (rep.get('oom') or {}).get('kills')
        if kills is None:
            bad('the report has no oom.kills')
            return fails
        check(len(kills) == len(oracle),
              f'{len(kills)} kills in the report, {len(oracle)} in the trace-cmd text '
              f'({", ".join(k["killer"] + "/" + str(k["pid"]) for k in oracle)})')
        for i, (k, o) in enumerate(zip(kills, oracle)):
            name = f'kill {i + 1} ({o["killer"]}, victim {o["pid"]})'
            check(k['killer'] == o['killer'], f'{name}: killer {k["killer"]}, trace-cmd says {o["killer"]}')
            v = k.get('victim') or {}
            check(v.get('pid') == o['pid'] and v.get('comm') == o['comm'],
                  f'{name}: victim {v.get("pid")} {v.get("comm")}, trace-cmd {o["pid"]} {o["comm"]}')
            check(v.get('cgroup') == o['cg'], f'{name}: victim cgroup {v.get("cgroup")}, tracked {o["cg"]}')
            s = k.get('sender') or {}
            check(s.get('pid') == o['sender'] and s.get('comm') == o['sender_comm'],
                  f'{name}: sender {s.get("pid")} {s.get("comm")}, trace-cmd {o["sender"]} {o["sender_comm"]}')
            check(k.get('oom_killer') == o['oom'], f'{name}: oom_killer {k.get("oom_killer")}, trace-cmd {o["oom"]}')
            check(k.get('also_killed') == o['also'], f'{name}: also_killed {k.get("also_killed")}, trace-cmd {o["also"]}')
            T = o['ts']
            check(abs(k['t_s'] - (T - t0) / 1e9) <= 2e-6,
                  f'{name}: t_s {k["t_s"]}, trace-cmd {(T - t0) / 1e9:.6f} after the first event')
            b = k.get('before') or {}
            W = round(b.get('window_s', 0) * 1e9)
            check(W > 0 and (want_w is None or abs(b['window_s'] - want_w) < 0.0005),
                  f'{name}: window_s {b.get("window_s")}, asked {want_w}')
            frm = T - W
            # stalls: ended ones and those open at the kill (up to it)
            sp = [s for s in stalls if s.e <= T] + \
                 [Span(s.b, s.pid, s.kind, s.cg) for s in o.get('open', [])]
            for s in sp[len(sp) - len(o.get('open', [])):]:
                s.e = T
            cnt = {'direct': [0, 0], 'memcg': [0, 0]}
            cgc = {'direct': [0, 0], 'memcg': [0, 0]}
            for s in sp:
                if s.b >= T or s.e <= frm:
                    continue
                ns = min(s.e, T) - max(s.b, frm)
                cnt[s.kind][0] += 1
                cnt[s.kind][1] += max(ns, 0)
                if o['cg'] is not None and s.cg == o['cg']:
                    cgc[s.kind][0] += 1
                    cgc[s.kind][1] += max(ns, 0)
            for kind in ('direct', 'memcg'):
                n, ms = b.get(f'{kind}_stalls'), b.get(f'{kind}_stall_ms')
                check(n == cnt[kind][0], f'{name}: {kind}_stalls {n}, trace-cmd {cnt[kind][0]}')
                check(ms is not None and abs(ms - cnt[kind][1] / 1e6) <= 0.0015,
                      f'{name}: {kind}_stall_ms {ms}, trace-cmd {cnt[kind][1] / 1e6:.3f}')
                n, ms = b.get(f'cgroup_{kind}_stalls'), b.get(f'cgroup_{kind}_stall_ms')
                check(n == cgc[kind][0] and ms is not None and abs(ms - cgc[kind][1] / 1e6) <= 0.0015,
                      f'{name}: cgroup_{kind}_stalls {n} ({ms} ms) in {o["cg"]}, trace-cmd {cgc[kind][0]} '
                      f'({cgc[kind][1] / 1e6:.3f} ms)')
            rn = [r for r in runs if frm < r.e <= T]
            check(b.get('compaction_runs') == len(rn),
                  f'{name}: compaction_runs {b.get("compaction_runs")}, trace-cmd {len(rn)}')
            nf = sum(1 for r in rn if r.status != 'success')
            check(b.get('compaction_failures') == nf,
                  f'{name}: compaction_failures {b.get("compaction_failures")}, trace-cmd {nf}')
            ne = nh = 0
            for nid, lst in eps.items():
                for st, en, order in lst:
                    if st > T or (en is not None and en < frm):
                        continue
                    ne += 1
                    if order <= 0:
                        continue	# an order-0 episode needs no compaction
                    hi = (en if en is not None else t_end)
                    if any(st <= wts <= (hi if kd == 'wakeup' else hi + 1000000000)
                           for wts, kd in kcwake.get(nid, [])):
                        nh += 1
            check(b.get('kswapd_episodes') == ne,
                  f'{name}: kswapd_episodes {b.get("kswapd_episodes")}, trace-cmd {ne}')
            check(b.get('handoffs') == nh, f'{name}: handoffs {b.get("handoffs")}, trace-cmd {nh}')
            p = [x for x in psi if x[0] <= T]
            if p:
                check(b.get('psi_some_avg10') is not None and abs(b['psi_some_avg10'] - p[-1][1]) < 0.005 and
                      abs(b.get('psi_age_s', -1) - (T - p[-1][0]) / 1e9) <= 2e-6,
                      f'{name}: psi_some_avg10 {b.get("psi_some_avg10")} age {b.get("psi_age_s")} s, '
                      f'trace-cmd {p[-1][1]} age {(T - p[-1][0]) / 1e9:.6f} s')
            else:
                check(b.get('psi_some_avg10') is None, f'{name}: psi_some_avg10 {b.get("psi_some_avg10")}, no PSI sample before')
            done = [seq for ets, seq in done_sets if ets <= T]
            sz = used = 0
            cand = None
            for seq in done:
                s = sets.get(seq, {})
                sz, used = s.get('swap_size', 0), s.get('swap_used', 0)
                if 'tasks' in s:
                    cand = s
            check(b.get('swap_size_kb') == sz and b.get('swap_used_kb') == used,
                  f'{name}: swap_size_kb {b.get("swap_size_kb")} used {b.get("swap_used_kb")}, trace-cmd {sz} {used}')
            want_free = None if sz == 0 else 100.0 * (sz - used) / sz
            got = b.get('swap_free_pct')
            check((got is None and want_free is None) or
                  (got is not None and want_free is not None and abs(got - want_free) < 0.006),
                  f'{name}: swap_free_pct {got}, trace-cmd {want_free}')
            rc = k.get('candidates') or []
            if cand is None:
                check(not rc, f'{name}: candidates {rc}, no tasks set before the kill')
            else:
                ranks = [cand['tasks'][r] for r in sorted(cand['tasks'])]
                got = [(c.get('pid'), c.get('comm'), c.get('rss_kb'), c.get('swap_kb')) for c in rc]
                check(len(got) >= min(5, len(ranks)) and got == ranks[:len(got)],
                      f'{name}: {len(got)} candidates, trace-cmd\'s last tasks set {ranks[:len(got) or 5]}'
                      + ('' if got == ranks[:len(got)] else f' but the report {got}'))
                check(abs(k.get('candidates_age_s', -1) - (T - cand['tasks_ts']) / 1e9) <= 2e-6,
                      f'{name}: candidates_age_s {k.get("candidates_age_s")}, trace-cmd {(T - cand["tasks_ts"]) / 1e9:.6f}')

        # what the scenario made, in its order
        want = {'memcg': 'memcg-oom', 'shell': 'other:sh', 'earlyoom': 'earlyoom', 'kernel': 'kernel-oom'}
        pos = -1
        for case, vpid, vcomm, kpid in expect:
            idx = [i for i, k in enumerate(kills) if (k.get('victim') or {}).get('pid') == vpid]
            if not idx:
                bad(f'{case}: no kill of {vpid} ({vcomm}) in the report')
                continue
            k = kills[idx[0]]
            s = k.get('sender') or {}
            check(k['killer'] == want.get(case) and k['victim'].get('comm') == vcomm and kpid in (None, s.get('pid')),
                  f'{case}: the report says {k["killer"]} killed {vpid} {k["victim"].get("comm")} '
                  f'(sender {s.get("pid")}); the scenario: {want.get(case)}, {vcomm}, sender {kpid or "any"}')
            check(idx[0] > pos, f'{case}: kill {idx[0] + 1} in the report, after the one before it')
            pos = idx[0]
        if expect:
            check(len(kills) == len(expect), f'{len(kills)} kills in the report, {len(expect)} made by the scenario')
        return fails

    if not selftest:
        compare(rep)
        return 1 if fails else 0
    # --self-test: every figure the checks read, made wrong in a copy of
    # the report one at a time, must fail a check (and the report as it
    # is must pass them all)
    quiet = True
    fails = 0
    if compare(rep):
        print('FAIL: self-test: the report as it is fails %d check(s)' % fails)
        return 1
    muts = []
    for i, k in enumerate(rep['oom']['kills']):
        muts.append((i, 'killer', lambda k: k.__setitem__('killer', k['killer'] + 'x')))
        muts.append((i, 't_s', lambda k: k.__setitem__('t_s', k['t_s'] + 0.001)))
        muts.append((i, 'oom_killer', lambda k: k.__setitem__('oom_killer', not k['oom_killer'])))
        muts.append((i, 'also_killed', lambda k: k.__setitem__('also_killed', k['also_killed'] + 1)))
        for f in ('pid', 'comm', 'cgroup'):
            muts.append((i, 'victim.' + f, lambda k, f=f: k['victim'].__setitem__(
                f, (k['victim'][f] or 0) + 1 if f == 'pid' else (k['victim'][f] or '') + 'x')))
        for f in ('pid', 'comm'):
            muts.append((i, 'sender.' + f, lambda k, f=f: k['sender'].__setitem__(
                f, k['sender'][f] + 1 if f == 'pid' else k['sender'][f] + 'x')))
        for f, v in k['before'].items():
            if f in ('clipped', 'psi_full_avg10', 'zswap_pool_bytes'):
                continue	# not held to the trace (see the top)
            muts.append((i, 'before.' + f, lambda k, f=f: k['before'].__setitem__(
                f, 1 if k['before'][f] is None else k['before'][f] + 1)))
        if k.get('candidates'):
            muts.append((i, 'candidates', lambda k: k['candidates'].pop()))
            muts.append((i, 'candidates[0].rss_kb', lambda k: k['candidates'][0].__setitem__(
                'rss_kb', k['candidates'][0]['rss_kb'] + 1)))
            muts.append((i, 'candidates_age_s', lambda k: k.__setitem__(
                'candidates_age_s', k['candidates_age_s'] + 0.001)))
    muts.append((None, 'a kill left out', lambda r: r['oom']['kills'].pop()))
    bad_muts = []
    for i, what, fn in muts:
        r = json.loads(json.dumps(rep))
        fn(r if i is None else r['oom']['kills'][i])
        fails = 0
        if not compare(r):
            bad_muts.append(f'{what} of kill {i + 1}' if i is not None else what)
    quiet = False
    fails = 0
    check(not bad_muts, f'self-test: {len(muts)} figures made wrong one at a time, each failed a check'
          + (f'; these did not: {", ".join(bad_muts)}' if bad_muts else ''))
    return 1 if fails else 0



if __name__ == '__main__':
    sys.exit(main())
