#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The truth test: mmscope's figures recomputed from `trace-cmd report`.

trace-cmd decodes the recording (not our reader); this script recomputes,
by the rules documented in mmscope-report(1), what the report claims:
kswapd episodes and their handoff labels per node, stall count, total and
maximum per reclaim kind, compaction runs, per-order swap-out attempts,
successes and fallbacks from the swap probes, zswap stores, loads and
writebacks from the zswap probes, khugepaged scans (collapsible ones too:
from 6.1 a scan carries the result of the collapse it led to) and
collapses per order with the scans' results, kswapd_wake events per node,
direct reclaim's scanned pages, OOM kills. Any difference with
`mmscope report --format json` fails, naming the recording and the figure.
Kernel stacks (record -T): each trace-cmd kernel_stack goes to the stall
whose begin was the previous event on its CPU in the same task; per kind,
stalls, stalls with a stack, distinct stacks and each top stack's count,
total, max, addresses and function names.

trace-cmd prints microseconds, so a duration may differ by 1 us from the
nanosecond one: totals are allowed 1 us per stall, maxima 1 us.

usage: truth.py MMSCOPE FILE...      exit 0 all agree, 1 a difference
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?P<ts>\d+\.\d+):\s+(?P<event>[\w.]+):\s?(?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
PICKUP_WINDOW_US = 600000
# a kcompactd_wake without a wakeup event this soon after its sleep ran a
# request pending at that sleep (kcompactd checks before it waits)
KC_AT_ONCE_US = 10000
RECLAIM_KINDS = {
    'mm_vmscan_direct_reclaim': 'direct',
    'mm_vmscan_memcg_reclaim': 'memcg',
    'mm_vmscan_memcg_softlimit_reclaim': 'softlimit',
    'mm_vmscan_node_reclaim': 'node',
}


def num(s):
    try:
        return int(s, 0)
    except ValueError:
        return int(s.rstrip(','), 0)


STACK_FRAME = re.compile(r'^=> (?:(?P<func>\S+) \()?(?P<addr>[0-9a-f]+)\)?$')


def events(path):
    """(ts in us, pid, event, fields) of every event, in trace-cmd's order;
    a kernel_stack's fields are {'cpu': N, 'frames': [(func, addr)...]}."""
    out = subprocess.run(['trace-cmd', 'report', path], capture_output=True,
                         text=True, check=True).stdout
    stack = None
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            fm = STACK_FRAME.match(line)
            if fm and stack is not None:
                stack[3]['frames'].append((fm['func'], int(fm['addr'], 16)))
            continue
        if stack is not None:
            yield stack
            stack = None
        sec, frac = m['ts'].split('.')
        ts = int(sec) * 1000000 + int(frac.ljust(6, '0')[:6])
        if m['event'] == 'kernel_stack':
            stack = (ts, int(m['pid']), 'kernel_stack',
                     {'cpu': int(m['cpu']), 'frames': []})
            continue
        f = dict(FIELD.findall(m['rest']))
        f['cpu'] = int(m['cpu'])
        if m['event'] == 'print':             # "mms1 SOURCE ..." of a sample line
            f['_mms1'] = m['rest'].split('mms1 ', 1)[1].split(' ', 1)[0] \
                if 'mms1 ' in m['rest'] else None
        yield ts, int(m['pid']), m['event'], f
    if stack is not None:
        yield stack


STACK_KINDS = {
    'mm_vmscan_direct_reclaim': 'direct_reclaim',
    'mm_vmscan_memcg_reclaim': 'memcg_reclaim',
}


def kernel_stacks(evs):
    """Per stall kind: {addresses: [count, total us, max us, names]},
    stalls, stalls with a stack; direct compaction: the runs within 1 s
    of the task's try_to_compact_pages (not khugepaged's)."""
    last = {}             # cpu -> (pid, what) of the last event there
    open_, tries, runs = {}, {}, {}
    out = {k: [{}, 0, 0] for k in ('direct_reclaim', 'memcg_reclaim', 'direct_compaction')}
    comm = {}

    def add(kind, stack, d):
        o = out[kind]
        o[1] += 1
        if stack is None:
            return
        o[2] += 1
        addrs = tuple(a for _, a in stack)
        c, t, m, names = o[0].get(addrs, (0, 0, 0, [n for n, _ in stack]))
        o[0][addrs] = (c + 1, t + d, max(m, d), names)

    for ts, pid, ev, f in evs:
        cpu = f.get('cpu')
        prev, last[cpu] = last.get(cpu), (pid, ev)
        if ev == 'kernel_stack':
            if prev and prev[0] == pid:
                if prev[1].endswith('_reclaim_begin') and pid in open_:
                    open_[pid][2] = f['frames']
                elif prev[1] == 'mm_compaction_try_to_compact_pages' and pid in tries:
                    tries[pid][1] = f['frames']
            continue
        for prefix, kind in STACK_KINDS.items():
            if ev == prefix + '_begin':
                open_[pid] = [kind, ts, None]
            elif ev == prefix + '_end' and pid in open_ and open_[pid][0] == kind:
                k, t0, st = open_.pop(pid)
                add(k, st, ts - t0)
        if ev == 'mm_compaction_try_to_compact_pages':
            tries[pid] = [ts, None]
        elif ev == 'mm_compaction_begin':
            t = tries.get(pid)
            if t and ts - t[0] < 1000000 and comm.get(pid) != 'khugepaged':
                runs[pid] = (ts, t[1])
            else:
                runs.pop(pid, None)
        elif ev == 'mm_compaction_end' and pid in runs:
            t0, st = runs.pop(pid)
            add('direct_compaction', st, ts - t0)
    return out


class Node:
    def __init__(self):
        self.cur = None       # open episode: dict(start, end, order, label)
        # kswapd's awake times in order: every episode (the open one last)
        # and, when kswapd slept without a wake seen, the time before
        self.awake = []
        self.labels = []      # (start, label)
        self.pending_order = 0
        self.kswapd_pid = None
        self.kc_busy = False
        self.kc_asleep = None
        self.kc_req_from = 0  # earliest time a picked-up request was made
        self.kc_sleep_ts = None
        self.kc_req_before_sleep = 0
        self.wakeup_pending = False

    def resolve(self, ep, label):
        ep['label'] = label
        self.labels.append((ep['start'], label))

    def waiting(self):
        return [e for e in self.awake if e['label'] == 'await']

    def expire(self, ts):
        for ep in self.waiting():
            if ts > ep['end'] + PICKUP_WINDOW_US:
                self.resolve(ep, 'none')

    def take_pickup(self):
        # The request was made at or after kc_req_from, by kswapd while
        # awake: it cannot predate only the first episode awake then or
        # later. That one takes it: closed, while it waits out its window;
        # open, if kc_req_from is inside it. No other episode does.
        first = next((e for e in self.awake
                      if e is self.cur or e['end'] >= self.kc_req_from), None)
        if first is None:
            return
        if first is self.cur:
            if (first['label'] == 'open' and first['order'] > 0
                    and self.kc_req_from >= first['start']):
                first['label'] = 'pickup'
        elif first['label'] == 'await':
            self.resolve(first, 'pickup')


def handoffs(evs, end_ts):
    """Per node: episode labels by mmscope-report(1)'s handoff rule."""
    nodes = {}

    def node(f):
        return nodes.setdefault(num(f.get('nid', f.get('node', '0'))), Node())

    for ts, pid, ev, f in evs:
        for n in nodes.values():
            n.expire(ts)
        if ev == 'mm_vmscan_wakeup_kswapd':
            n = node(f)
            order = num(f.get('order', '0'))
            if n.cur:
                n.cur['order'] = max(n.cur['order'], order)
            else:
                n.pending_order = max(n.pending_order, order)
        elif ev == 'mm_vmscan_kswapd_wake':
            n = node(f)
            n.kswapd_pid = pid
            order = num(f.get('order', '0'))
            if n.cur:
                n.cur['order'] = max(n.cur['order'], order)
            else:
                n.cur = {'start': ts, 'end': None, 'order': max(order, n.pending_order),
                         'label': 'open'}
                n.awake.append(n.cur)
                n.pending_order = 0
        elif ev == 'mm_vmscan_kswapd_sleep':
            n = node(f)
            n.kswapd_pid = pid
            ep, n.cur = n.cur, None
            if not ep:      # awake since before the recording saw it wake
                n.awake.append({'start': None, 'end': ts, 'label': 'unseen'})
                continue
            ep['end'] = ts
            if ep['label'] in ('wakeup', 'pickup'):
                n.resolve(ep, ep['label'])
            elif ep['order'] <= 0:
                n.resolve(ep, 'not-needed')
            else:           # waits out its window, whatever follows
                ep['label'] = 'await'
        elif ev == 'mm_compaction_wakeup_kcompactd':
            n = node(f)
            if num(f.get('order', '0')) < 0:
                continue    # a sysctl write: proactive compaction, no wake
            n.wakeup_pending = True
            if pid != n.kswapd_pid:
                continue
            if n.cur and n.cur['label'] in ('open', 'pickup'):
                n.cur['label'] = 'wakeup'
        elif ev == 'mm_compaction_kcompactd_wake':
            n = node(f)
            order = num(f.get('order', '0'))
            if order > 0 and n.wakeup_pending:
                if n.waiting():
                    n.take_pickup()
            elif order > 0:
                if n.kc_sleep_ts is not None and 0 <= ts - n.kc_sleep_ts < KC_AT_ONCE_US:
                    n.kc_req_from = n.kc_req_before_sleep
                n.take_pickup()
            n.wakeup_pending = False
            n.kc_busy, n.kc_asleep, n.kc_req_from = True, False, ts
        elif ev == 'mm_compaction_kcompactd_sleep':
            n = node(f)
            n.kc_sleep_ts, n.kc_req_before_sleep = ts, n.kc_req_from
            if not n.kc_busy and n.kc_asleep:
                n.kc_req_from = ts
            n.kc_busy, n.kc_asleep = False, True
    for n in nodes.values():
        n.expire(end_ts)
        for ep in n.waiting():
            n.resolve(ep, 'open')
        if n.cur:
            n.resolve(n.cur, n.cur['label'])
    return {nid: sorted(n.labels) for nid, n in nodes.items()}


def stalls(evs):
    """Per reclaim kind: completed begin/end pairs, total and max in us."""
    open_, out = {}, {}
    for ts, pid, ev, _ in evs:
        for prefix, kind in RECLAIM_KINDS.items():
            if ev == prefix + '_begin':
                open_[(kind, pid)] = ts
            elif ev == prefix + '_end' and (kind, pid) in open_:
                d = ts - open_.pop((kind, pid))
                c, t, m = out.get(kind, (0, 0, 0))
                out[kind] = (c + 1, t + d, max(m, d))
    return out


def direct_scanned(evs):
    """Pages direct reclaim scanned: lru_shrink_inactive's nr_scanned in
    a task between its direct_reclaim_begin and _end; None without
    shrink_inactive events."""
    open_, total, seen = set(), 0, False
    for _, pid, ev, f in evs:
        if ev == 'mm_vmscan_direct_reclaim_begin':
            open_.add(pid)
        elif ev == 'mm_vmscan_direct_reclaim_end':
            open_.discard(pid)
        elif ev == 'mm_vmscan_lru_shrink_inactive':
            seen = True
            if pid in open_:
                total += num(f.get('nr_scanned', '0'))
    return total if seen else None


ZONE_KEY = re.compile(r'^pgscan_direct(?:_(?:dma|dma32|normal|movable|high|device))?$')


def pgscan_direct(evs):
    """pgscan_direct (and its per-zone forms, never _throttle) from the
    first and last mms1 vmstat sample lines: last - first summed, or None."""
    first, last = {}, {}
    for _, _, ev, f in evs:
        if ev != 'print' or f.get('_mms1') != 'vmstat':
            continue
        for k, v in f.items():
            if ZONE_KEY.match(k):
                first.setdefault(k, num(v))
                last[k] = num(v)
    return sum(last[k] - first[k] for k in last) if last else None


ALLOCSTALL = re.compile(r'^allocstall(?:_(?:dma|dma32|normal|movable|high|device))?$')


def allocstalls(evs):
    """allocstall and its per-zone forms, last - first summed, or None."""
    first, last = {}, {}
    for _, _, ev, f in evs:
        if ev != 'print' or f.get('_mms1') != 'vmstat':
            continue
        for k, v in f.items():
            if ALLOCSTALL.match(k):
                first.setdefault(k, num(v))
                last[k] = num(v)
    return sum(last[k] - first[k] for k in last) if last else None


def memcg_reclaim_pages(evs):
    """What memcg limit reclaim scanned, counted two ways from its own
    events (a task between memcg_reclaim_begin and _end): shrink_inactive's
    nr_scanned, and lru_isolate's nr_taken off the inactive lists (MGLRU
    counts pgscan as isolated folios). (None, None) without the events."""
    open_, scanned, taken, seen = set(), 0, 0, False
    for _, pid, ev, f in evs:
        if ev == 'mm_vmscan_memcg_reclaim_begin':
            open_.add(pid)
            seen = True
        elif ev == 'mm_vmscan_memcg_reclaim_end':
            open_.discard(pid)
        elif pid in open_ and ev == 'mm_vmscan_lru_shrink_inactive':
            scanned += num(f.get('nr_scanned', '0'))
        elif pid in open_ and ev == 'mm_vmscan_lru_isolate' and \
                f.get('lru', '').startswith('inactive'):
            taken += num(f.get('nr_taken', '0'))
    return (scanned, taken) if seen else (None, None)


def compaction_runs(evs):
    begins, done, open_ = 0, 0, set()
    for _, pid, ev, _ in evs:
        if ev == 'mm_compaction_begin':
            begins += 1
            open_.add(pid)
        elif ev == 'mm_compaction_end' and pid in open_:
            open_.discard(pid)
            done += 1
    return begins, done


def swap_orders(evs):
    """Per folio order: folio_alloc_swap results, successes, fallbacks."""
    entry_order, out = {}, {}
    for _, pid, ev, f in evs:
        if ev == 'fas':                       # 6.1: order at entry
            head = (num(f.get('pflags', '0')) >> 16) & 1
            entry_order[pid] = num(f.get('ord', '0')) if head else 0
            continue
        if ev != 'fas_r':
            continue
        if 'fl1' in f:                        # 6.12+: PG_head is bit 6
            head = (num(f['pflags']) >> 6) & 1
            order = num(f['fl1']) & 0xff if head else 0
        else:
            order = entry_order.pop(pid, None)
            if order is None:
                continue
        ok = num(f['ret']) == 0 if 'ret' in f else num(f.get('entry', '0')) != 0
        a, o, fb = out.get(order, (0, 0, 0))
        out[order] = (a + 1, o + ok, fb + (not ok and order > 0))
    return out


def zswap_results(evs, kernel):
    """stores, loads, writebacks: (ok, not) from the return probes."""
    maj, mnr = (int(x) for x in re.match(r'(\d+)\.(\d+)', kernel).groups())
    new = (maj, mnr) >= (6, 18)
    out = {'stores': [0, 0], 'loads': [0, 0], 'writebacks': [0, 0]}
    for _, _, ev, f in evs:
        if ev not in ('store_r', 'load_r', 'wb_r') or 'ret' not in f:
            continue
        ret = num(f['ret'])
        if ev == 'store_r':
            ok = ret == 0 if (maj, mnr) < (6, 12) else ret == 1
            key = 'stores'
        elif ev == 'load_r':
            ok = ret == 1 if (6, 12) <= (maj, mnr) < (6, 18) else ret == 0
            key = 'loads'
        else:
            key = 'writebacks'
            if new:                           # shrink_memcg_cb's lru_status
                if ret not in (1, 4):
                    continue
                ok = ret == 1
            else:
                ok = ret == 0
        out[key][0 if ok else 1] += 1
    return out


THP_EVENTS = ('mm_khugepaged_scan_pmd', 'mm_collapse_huge_page', 'mm_collapse_huge_page_isolate',
              'mm_collapse_huge_page_swapin', 'mm_khugepaged_scan_file',
              'mm_khugepaged_collapse_file', 'mm_khugepaged_scan')


def khugepaged(evs):
    """Anonymous PMD scans and collapses (kernels without an order field:
    order 9), with their results: (scans, collapsible, collapses, ok).
    A scan is collapsible when its status is succeeded or when it is its
    task's next khugepaged event after a collapse: from 6.1 the scan is
    emitted after the collapse it led to and carries that result."""
    out, last, names = {}, {}, {}
    for _, pid, ev, f in evs:
        if ev not in THP_EVENTS:
            continue
        prev, last[pid] = last.get(pid), ev
        if ev not in ('mm_khugepaged_scan_pmd', 'mm_collapse_huge_page'):
            continue
        order = num(f.get('order', '9').rstrip(','))
        ok = f.get('status', '').rstrip(',') == 'succeeded'
        s, sok, c, cok = out.get(order, (0, 0, 0, 0))
        if ev == 'mm_khugepaged_scan_pmd':
            ok = ok or prev == 'mm_collapse_huge_page'
            out[order] = (s + 1, sok + ok, c, cok)
            # a collapsible scan's criterion is "succeeded", whatever
            # collapse result it carries
            st = 'succeeded' if ok else f.get('status', '').rstrip(',')
            names.setdefault(order, {})
            names[order][st] = names[order].get(st, 0) + 1
        else:
            out[order] = (s, sok, c + 1, cok + ok)
    return out, names


def check(path, mmscope):
    bad = []
    rep = json.loads(subprocess.run([mmscope, 'report', '--format', 'json', path],
                                    capture_output=True, text=True, check=True).stdout)
    evs = list(events(path))
    name = path.rsplit('/', 1)[-1]

    def differ(what, ours, theirs):
        bad.append('%s: %s: mmscope %s, trace-cmd %s' % (name, what, ours, theirs))

    end_ts = evs[-1][0] if evs else 0
    labels = handoffs(evs, end_ts)
    for nd in rep.get('handoff', []):
        got = labels.get(nd['nid'], [])
        want_eps = [e['handoff'] for e in (nd.get('kswapd_episodes') or [])]
        have = [lab for _, lab in got]
        # null: "kswapd not recorded", true only when trace-cmd sees none
        if nd['episodes'] is None and not have:
            continue
        if nd['episodes'] != len(have):
            differ('node %d kswapd episodes' % nd['nid'], nd['episodes'], len(have))
        wakes = sum(1 for e in evs if e[2] == 'mm_vmscan_kswapd_wake'
                    and num(e[3].get('nid', '0')) == nd['nid'])
        if nd.get('kswapd_wakes') != wakes:
            differ('node %d kswapd_wake events' % nd['nid'], nd.get('kswapd_wakes'), wakes)
        for lab in ('wakeup', 'pickup', 'none', 'not-needed', 'open'):
            key = 'handoff_' + lab.replace('-', '_')
            if nd.get(key) != have.count(lab):
                differ('node %d handoff %s' % (nd['nid'], lab), nd.get(key), have.count(lab))
        norm = [{'not_needed': 'not-needed'}.get(x, x) for x in want_eps]
        if len(norm) == len(have) and norm != have:
            differ('node %d episode labels in time order' % nd['nid'], norm, have)
    for nid in labels:
        if labels[nid] and nid not in [nd['nid'] for nd in rep.get('handoff', [])]:
            differ('node %d' % nid, 'absent', '%d episodes' % len(labels[nid]))

    for kind, (c, total_us, max_us) in stalls(evs).items():
        s = rep['stalls'][kind]
        if s['count'] != c:
            differ('%s stalls' % kind, s['count'], c)
        if abs(s['total_ns'] - total_us * 1000) > 1000 * c:
            differ('%s stall total ns' % kind, s['total_ns'], total_us * 1000)
        if abs(s['max_ns'] - max_us * 1000) > 1000:
            differ('%s stall max ns' % kind, s['max_ns'], max_us * 1000)
    for kind in RECLAIM_KINDS.values():
        if kind not in stalls(evs) and rep['stalls'][kind]['count']:
            differ('%s stalls' % kind, rep['stalls'][kind]['count'], 0)

    ds = direct_scanned(evs)
    got = rep['stalls']['direct'].get('scanned')
    if ds is not None and rep['stalls']['direct'].get('recorded') and got != ds:
        differ('direct reclaim pages scanned (shrink_inactive)', got, ds)
    pd = pgscan_direct(evs)
    # a delta needs two complete sample sets (their end lines)
    sets = sum(1 for _, _, ev, f in evs if ev == 'print' and f.get('_mms1') == 'end')
    if pd is not None and sets >= 2:
        txt = subprocess.run([mmscope, 'report', '--section', 'counters', path],
                             capture_output=True, text=True, check=True).stdout
        m = re.search(r'^Ops Direct pages scanned\s+(-?\d+)', txt, re.M)
        mm = re.search(r'^Ops Direct\+memcg pages scanned\s+(-?\d+)', txt, re.M)
        maj, mnr = (int(x) for x in re.match(r'(\d+)\.(\d+)', rep['header']['kernel']).groups())
        if (maj, mnr) < (7, 2):
            if not m or int(m.group(1)) != pd:
                differ('Ops Direct pages scanned (pgscan_direct)', m and int(m.group(1)), pd)
        elif mm:	# 7.2+ and no way to split: both kinds, named so
            if int(mm.group(1)) != pd:
                differ('Ops Direct+memcg pages scanned (pgscan_direct)', int(mm.group(1)), pd)
        elif not m:
            differ('Ops Direct pages scanned (7.2+)', None, pd)
        elif allocstalls(evs) == 0:	# no allocation stalled: all memcg's
            if int(m.group(1)) != 0:
                differ('Ops Direct pages scanned (7.2+, no allocstall)', int(m.group(1)), 0)
        else:	# memcg's own pages taken out, by its events
            scanned, taken = memcg_reclaim_pages(evs)
            if scanned is None or int(m.group(1)) not in (pd - scanned, pd - taken):
                differ('Ops Direct pages scanned (7.2+: pgscan_direct less memcg '
                       'reclaim %s/%s)' % (scanned, taken), int(m.group(1)), pd)

    begins, done = compaction_runs(evs)
    runners = rep['compaction']['runners'].values()
    if not rep['compaction'].get('recorded', True):
        # "not recorded" (null counts) holds only when trace-cmd sees none
        if begins or done:
            differ('compaction runs (reported not recorded)', None, begins)
    # a runner that cannot be told (kcompactd's requests and proactive
    # passes without its wake/sleep events) is null: its runs are counted
    # under kc_unknown, so the sum over the runners still holds
    elif sum(r['runs'] or 0 for r in runners) != begins:
        differ('compaction runs begun', sum(r['runs'] or 0 for r in runners), begins)
    elif sum(r['count'] or 0 for r in runners) != done:
        differ('compaction runs ended', sum(r['count'] or 0 for r in runners), done)

    orders = swap_orders(evs)
    if orders:
        ours = {o['order']: o for o in rep['swap']['orders']}
        for order in sorted(set(orders) | set(ours)):
            a, ok, fb = orders.get(order, (0, 0, 0))
            o = ours.get(order)
            if o is None:
                differ('order %d swap-out attempts' % order, 'absent', a)
                continue
            for key, v in (('attempts', a), ('ok', ok), ('fallback', fb)):
                if o[key] != v:
                    differ('order %d swap-out %s' % (order, key), o[key], v)

    z = zswap_results(evs, rep['header']['kernel'])
    for key, (ok, no) in z.items():
        if ok + no == 0:
            continue
        for suffix, v in (('_ok', ok), ('_not', no)):
            if rep['zswap'].get(key + suffix) != v:
                differ('zswap %s%s' % (key, suffix), rep['zswap'].get(key + suffix), v)

    thp, thp_names = khugepaged(evs)
    if thp:
        ours = {o['order']: o for o in (rep.get('khugepaged') or {}).get('orders', [])}
        for order, (sc, sok, co, cok) in sorted(thp.items()):
            o = ours.get(order, {})
            for key, v in (('scans', sc), ('collapsible', sok), ('collapses', co),
                           ('collapses_ok', cok)):
                # file scans count in the model's totals too: subtract them
                got = o.get(key)
                if key == 'scans' and got is not None:
                    got -= o.get('file_scans', 0)
                if key == 'collapses' and got is not None:
                    got -= o.get('file_collapses', 0)
                if got != v:
                    differ('khugepaged order %d %s' % (order, key), got, v)
            if o.get('file_scans'):
                continue
            ours_names = {r['name']: r['scan'] for r in o.get('results', []) if r['scan']}
            if ours_names != thp_names.get(order, {}):
                differ('khugepaged order %d scan results' % order, ours_names,
                       thp_names.get(order, {}))

    ks = kernel_stacks(evs)
    have_stacks = any(e[2] == 'kernel_stack' for e in evs)
    if (rep.get('stacks') is not None) != have_stacks:
        differ('kernel stacks recorded', rep.get('stacks') is not None, have_stacks)
    for kind, (dist, nstalls, nwith) in ks.items() if have_stacks else ():
        o = rep['stacks'].get(kind)
        if o is None:
            if nstalls:
                differ('%s stalls (stacks: not recorded)' % kind, None, nstalls)
            continue
        for key, v in (('stalls', nstalls), ('with_stack', nwith), ('distinct', len(dist))):
            if o[key] != v:
                differ('%s stacks %s' % (kind, key), o[key], v)
        for i, top in enumerate(o['top']):
            addrs = tuple(int(a, 16) for a in top['addresses'])
            if addrs not in dist:
                differ('%s stack #%d' % (kind, i + 1), 'addresses %s' % top['addresses'],
                       'no such stack')
                continue
            c, t, m, names = dist[addrs]
            ours = [fr.split('+')[0] if not fr.startswith('0x') else None
                    for fr in top['frames']]
            if ours != names:
                differ('%s stack #%d names' % (kind, i + 1), ours, names)
            if top['stalls'] != c:
                differ('%s stack #%d stalls' % (kind, i + 1), top['stalls'], c)
            if abs(top['total_ms'] * 1000 - t) > c + 1:
                differ('%s stack #%d total us' % (kind, i + 1), top['total_ms'] * 1000, t)
            if abs(top['max_ms'] * 1000 - m) > 2:
                differ('%s stack #%d max us' % (kind, i + 1), top['max_ms'] * 1000, m)
        # the longest stall first: no stack left out had a longer one
        shown = {tuple(int(a, 16) for a in top['addresses']) for top in o['top']}
        least = min((top['max_ms'] * 1000 for top in o['top']), default=None)
        for addrs, (c, t, m, _) in dist.items():
            if addrs not in shown and least is not None and m > least + 2:
                differ('%s stacks: a longer stall left out' % kind, least, m)

    kills = sum(1 for e in evs if e[2] == 'mark_victim')
    ours = rep.get('oom', {}).get('oom_kills', 0) if isinstance(rep.get('oom'), dict) else 0
    if ours != kills:
        differ('OOM kills', ours, kills)
    return bad


def main():
    mmscope, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        bad = check(path, mmscope)
        name = path.rsplit('/', 1)[-1]
        if bad:
            failed += 1
            for b in bad:
                print('FAIL:', b)
        else:
            print('ok: %s: episodes, handoffs, stalls, compaction runs, swap orders, khugepaged, '
                  'zswap, OOM kills and kernel stacks agree with trace-cmd' % name)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
