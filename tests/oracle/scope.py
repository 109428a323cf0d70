#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The scope test: `mmscope report --since/--until`, `--comm` and `--pid`
give the stall counts that trace-cmd's text gives for the same window or
task; `--comm` the per-order swap-outs (folio_alloc_swap) of the tasks of
that name; `--comm`/`--pid` the OOM kills whose victim has that name or pid.

trace-cmd decodes the recording (not our reader). A stall belongs to a
window when its begin is inside it (mmscope-report(1)), and it counts when
its end follows, wherever (tests/oracle/truth.py's pairing); so do compaction runs (begun in the
window, and of those the ended ones). A task's stalls are those whose
begin line carries its name or pid.

Windows are cut at a third and two thirds of each recording and at
fixed offsets, each edge moved off any event by more than 2 us (trace-cmd
prints microseconds, mmscope compares nanoseconds). Times are given
relative to the first event, as the report prints them, and once as @T
(absolute). Also checked: the window's event count equals trace-cmd's
line count in it.

usage: scope.py MMSCOPE FILE...      exit 0 all agree, 1 a difference
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import truth  # noqa: E402

# an instance's name ("mmscope-fixture-1:") opens the line of its events
LINE = re.compile(r'^(?:[\w.-]+:\s+)?\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[\d+\]\s+(?P<ts>\d+\.\d+):\s+'
                  r'(?P<event>[\w.]+):')


def parse(path):
    """(ts us, pid, comm, event) of every event line of trace-cmd report,
    and the report's lines (trace-cmd runs once a file: it is most of this
    test's time)."""
    lines = tc_lines(path)
    evs = []
    for line in lines:
        m = LINE.match(line)
        if m:
            sec, frac = m['ts'].split('.')
            evs.append((int(sec) * 1000000 + int(frac.ljust(6, '0')[:6]), int(m['pid']),
                        m['comm'], m['event']))
    return evs, lines


def pairs(evs):
    """(kind, begin ts us, pid, comm) of every completed begin/end pair: a
    begin is paired with its task's next end of that kind, a second begin
    before it replaces the first."""
    names = {}
    for prefix, kind in truth.RECLAIM_KINDS.items():
        names[prefix + '_begin'] = (kind, True)
        names[prefix + '_end'] = (kind, False)
    open_, out = {}, []
    for ts, pid, comm, ev in evs:
        k = names.get(ev)
        if k is None:
            continue
        if k[1]:
            open_[(k[0], pid)] = (ts, comm)
        elif (k[0], pid) in open_:
            ts0, comm0 = open_.pop((k[0], pid))
            out.append((k[0], ts0, pid, comm0))
    return out


def stalls(prs, lo, hi, keep=lambda pid, comm: True):
    """Per kind: completed begin/end pairs (pairs()) whose begin is in
    [lo, hi] (us)."""
    out = {}
    for kind, ts, pid, comm in prs:
        if lo <= ts <= hi and keep(pid, comm):
            out[kind] = out.get(kind, 0) + 1
    return out


def compaction(evs, lo, hi):
    """Compaction runs begun in [lo, hi] (us), and those of them that ended."""
    begins, done, open_ = 0, 0, {}
    for ts, pid, _, ev in evs:
        if ev == 'mm_compaction_begin':
            inside = lo <= ts <= hi
            begins += inside
            open_[pid] = inside
        elif ev == 'mm_compaction_end' and pid in open_:
            done += open_.pop(pid)
    return begins, done


def clear(stamps, t):
    """t moved forward until no event stamp is within 2 us of it."""
    while any(s in stamps for s in range(t - 2, t + 3)):
        t += 5
    return t


def report(mmscope, path, args):
    r = subprocess.run([mmscope, 'report', '--format', 'json'] + args + [path],
                       capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError('mmscope report %s: %s' % (' '.join(args), r.stderr.strip()))
    return json.loads(r.stdout)


def check(path, mmscope):
    bad, done = [], []
    name = os.path.basename(path)
    evs, lines = parse(path)
    if not evs:
        return ['%s: trace-cmd printed no events' % name], done
    prs, stamps = pairs(evs), {e[0] for e in evs}
    first, last = evs[0][0], evs[-1][0]
    span = last - first

    def compare(what, args, want, want_events=None):
        rep = report(mmscope, path, args)
        for kind in truth.RECLAIM_KINDS.values():
            got = rep['stalls'][kind]['count']
            if got is None and not want.get(kind, 0):
                continue    # the kind was not recorded (null), and trace-cmd saw none
            if got != want.get(kind, 0):
                bad.append('%s: %s: %s stalls: mmscope %s, trace-cmd %s' %
                           (name, what, kind, got, want.get(kind, 0)))
        if want_events is not None:     # a window: its compaction runs too
            runners = (rep['compaction'].get('runners') or {}).values()
            got = (sum(r['runs'] or 0 for r in runners), sum(r['count'] or 0 for r in runners))
            lo_hi = [float(x.lstrip('@')) for x in (args[1], args[3])]
            base = 0 if args[1].startswith('@') else first
            want_c = compaction(evs, round(lo_hi[0] * 1e6) + base, round(lo_hi[1] * 1e6) + base)
            if got != want_c:
                bad.append('%s: %s: compaction runs begun/ended: mmscope %s, trace-cmd %s' %
                           (name, what, got, want_c))
        if want_events is not None and rep['header']['events'] != want_events:
            bad.append('%s: %s: events: mmscope %s, trace-cmd %s' %
                       (name, what, rep['header']['events'], want_events))
        done.append('%s %s%s' % (what, sum(want.values()), '' if want_events is None else
                                   ' (compaction %d/%d)' % want_c))

    cuts = [(span // 3, 2 * span // 3), (0, span // 4), (span // 2, span + 1000000),
            (1000, 1000 + min(span, 300000))]
    for i, (a, b) in enumerate(cuts):
        lo, hi = clear(stamps, first + a), clear(stamps, first + b)
        rel = ['--since', '%.6f' % ((lo - first) / 1e6), '--until', '%.6f' % ((hi - first) / 1e6)]
        n = sum(1 for e in evs if lo <= e[0] <= hi)
        compare('window %s..%s' % (rel[1], rel[3]), rel, stalls(prs, lo, hi), n)
        if i == 0:
            ab = ['--since', '@%.6f' % (lo / 1e6), '--until', '@%.6f' % (hi / 1e6)]
            compare('window @%s..@%s' % (ab[1][1:], ab[3][1:]), ab, stalls(prs, lo, hi), n)
    # tasks: the two names and the pid with the most stall begins
    begins = {}
    for _, pid, comm, ev in evs:
        if ev.endswith('_reclaim_begin') and ev[:-6] in truth.RECLAIM_KINDS:
            begins.setdefault(('comm', comm), set()).add(pid)
            begins.setdefault(('pid', pid), set()).add(pid)
    nbegins = {}
    for _, pid, comm, ev in evs:
        if ev.endswith('_reclaim_begin'):
            nbegins[('comm', comm)] = nbegins.get(('comm', comm), 0) + 1
            nbegins[('pid', pid)] = nbegins.get(('pid', pid), 0) + 1
    ranked = sorted(begins, key=lambda k: -nbegins.get(k, 0))
    comms = [k for k in ranked if k[0] == 'comm' and not k[1].startswith('<')][:2]
    pids = [k for k in ranked if k[0] == 'pid'][:1]
    for kind, v in comms + pids:
        if kind == 'comm':
            keep = (lambda c: lambda pid, comm: comm == c)(v)
        else:
            keep = (lambda p: lambda pid, comm: pid == p)(v)
        compare('--%s %s' % (kind, v), ['--%s' % kind, str(v)],
                stalls(prs, 0, 1 << 62, keep))
        lo, hi = clear(stamps, first + span // 3), clear(stamps, first + 2 * span // 3)
        compare('--%s %s in a window' % (kind, v),
                ['--%s' % kind, str(v), '--since', '%.6f' % ((lo - first) / 1e6),
                 '--until', '%.6f' % ((hi - first) / 1e6)], stalls(prs, lo, hi, keep))
    # swap-outs (folio_alloc_swap results per order) of one task name;
    # the clusters stay global
    tevs = list(truth.events(path))
    comm_of = {e[1]: e[2] for e in evs}
    fas = {}
    for e in tevs:
        if e[2] == 'fas_r':
            fas[comm_of.get(e[1], '?')] = fas.get(comm_of.get(e[1], '?'), 0) + 1
    for c in sorted(fas, key=lambda k: -fas[k])[:2]:
        want = truth.swap_orders([e for e in tevs if comm_of.get(e[1]) == c])
        rep = report(mmscope, path, ['--comm', c, '-s', 'swap'])
        ours = {o['order']: o for o in rep['swap']['orders']}
        for order in sorted(set(want) | set(ours)):
            a, ok_, fb = want.get(order, (0, 0, 0))
            o = ours.get(order, {'attempts': 0, 'ok': 0, 'fallback': 0})
            if (o['attempts'], o['ok'], o['fallback']) != (a, ok_, fb):
                bad.append('%s: --comm %s: order %d swap-outs: mmscope %s/%s/%s, trace-cmd '
                           '%s/%s/%s' % (name, c, order, o['attempts'], o['ok'],
                                         o['fallback'], a, ok_, fb))
        done.append('swap-outs of --comm %s %d' % (c, sum(v[0] for v in want.values())))
    # OOM victims: --comm keeps the kills whose victim has that name
    # (mark_victim's comm= field), --pid those of that victim pid
    victims = [truth_fields(line) for line in lines if ' mark_victim: ' in line]
    for key, arg in sorted({('comm', v.get('comm')) for v in victims} |
                           {('pid', v.get('pid')) for v in victims}):
        want = sum(1 for v in victims if v.get(key) == arg)
        rep = report(mmscope, path, ['--%s' % key, arg, '-s', 'oom'])
        got = rep['oom']['oom_kills'] if isinstance(rep.get('oom'), dict) else 0
        if got != want:
            bad.append('%s: --%s %s: OOM kills: mmscope %s, trace-cmd %s' % (name, key, arg, got, want))
        done.append('OOM kills of --%s %s %d' % (key, arg, want))
    # a name no task had is refused (exit 1, naming the tasks there are),
    # not an empty report (issue 44 item 8)
    r = subprocess.run([mmscope, 'report', '--comm', 'no-such-task', path],
                       capture_output=True, text=True)
    if r.returncode != 1 or 'no task in this recording had that name' not in r.stderr:
        bad.append('%s: --comm no-such-task: exit %d, %s' % (name, r.returncode, r.stderr.strip()))
    done.append('--comm no-such-task refused')
    return bad, done


def tc_lines(path):
    return subprocess.run(['trace-cmd', 'report', path], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def truth_fields(line):
    return dict(truth.FIELD.findall(line.split(' mark_victim: ', 1)[1]))


def main():
    mmscope, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        bad, done = check(path, mmscope)
        for b in bad:
            print('FAIL:', b)
        if bad:
            failed += 1
        else:
            print('ok: %s: stall counts agree with trace-cmd for %s' %
                  (os.path.basename(path), '; '.join(done)))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
