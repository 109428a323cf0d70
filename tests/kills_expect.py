# SPDX-License-Identifier: GPL-2.0-or-later
"""A kill's dossier lines (src/kill-dossier-lines.h, as the HTML page's
table and the Perfetto instant's arguments show them) held to the
report's JSON of the same kill (.oom.kills[i]): the front ends compute
nothing, so each line's figures are the JSON's, and a line is "-" exactly
where the JSON has null. Used by tests/html/check.py and
tests/perfetto/check.py.

  problems(kill, lines) -> [str]
      kill: one element of .oom.kills[]; lines: [(key, value)] in order.
"""
import re


def num(s):
    """the numbers in a value, in order"""
    return [float(x) for x in re.findall(r'-?\d+(?:\.\d+)?', s)]


def near(a, b, tol):
    return a is not None and b is not None and abs(a - b) <= tol


def count_line(v, n, ms=None):
    """'-' for null; 'N' or 'N (M.M ms)'"""
    if n is None:
        return v == '-'
    got = num(v)
    if not got or got[0] != n:
        return False
    if n and ms is not None:
        return len(got) >= 2 and near(got[1], ms, 0.051) and v.endswith(' ms)')
    return True


def pct_line(v, p, tol=0.0051):
    if p is None:
        return v == '-'
    got = num(v)
    return bool(got) and near(got[0], p, tol) and '%' in v


def who(comm, pid):
    return '%s %d' % (comm or '-', pid) if pid is not None else (comm or '-')


def mib_line(v, nbytes, tol=0.051):
    """'-' for null; 'N.N MiB ...'"""
    if nbytes is None:
        return v.split(' ')[0] == '-'
    got = num(v)
    return bool(got) and near(got[0], nbytes / 1048576.0, tol) and ' MiB' in v


def cgroup_checks(kill):
    """the victim's cgroup's sample (.victim_cgroup) and systemd-oomd's
    xattr (.oomd_xattr): their lines' checks, and the lines they need"""
    vc, ox = kill.get('victim_cgroup'), kill.get('oomd_xattr')
    want, must = {}, []
    if vc is not None:
        def usage(v):
            m = re.search(r'\((-?\d+(?:\.\d+)?) s before\)$', v)
            return mib_line(v, vc['usage_bytes']) and m is not None and \
                near(float(m.group(1)), vc['sample_age_s'], 0.051)

        def limit(v):
            if vc['limit_unlimited']:
                return v == 'none'
            return mib_line(v, vc['limit_bytes'])

        def deltas(v):
            known = {k: n for k, n in vc['stat_deltas'].items() if n is not None}
            if vc['stat_deltas_s'] is None or not known:
                return v == '-'
            m = re.match(r'^(.*) \(over (\d+(?:\.\d+)?) s\)$', v)
            if not m or not near(float(m.group(2)), vc['stat_deltas_s'], 0.051):
                return False
            got = dict((k, int(n)) for k, n in re.findall(r'(\w+) \+(\d+)', m.group(1)))
            return got == known

        want.update({
            'cgroup_sampled': lambda v: vc['found_by'] == 'oom_kill_count' and
            v == vc['path'] + ' (its OOM kill count rose)',
            'cgroup_usage': usage,
            'cgroup_limit': limit,
            'cgroup_usage_pct': lambda v: pct_line(v, vc['usage_pct'], 0.051),
            'cgroup_stat_deltas': deltas,
        })
        must += ['cgroup_usage', 'cgroup_limit', 'cgroup_usage_pct', 'cgroup_stat_deltas']
        if vc['found_by'] == 'oom_kill_count':
            must.append('cgroup_sampled')
    else:
        want['cgroup_usage'] = lambda v: v.startswith('- (no sample')
        must.append('cgroup_usage')
    if ox is not None:
        want['oomd_xattr'] = lambda v: num(v)[:2] == [ox['before'], ox['after']] and \
            near(num(v)[2], ox['before_s'], 0.051) and near(num(v)[3], ox['after_s'], 0.051) \
            and v.endswith(' on ' + (ox['path'] or '-'))
        must.append('oomd_xattr')
    return want, must


def problems(kill, lines):
    b = kill['before']
    want = {
        'killer': lambda v: v == kill['killer'],
        'victim': lambda v: v == who(kill['victim']['comm'], kill['victim']['pid']),
        'victim_cgroup': lambda v: v == (kill['victim']['cgroup'] or '-'),
        'sender': lambda v: v.split(' ')[0] == (kill['sender']['comm'] or '-') and
        (kill['sender']['pid'] is None or num(v)[-1:] == [kill['sender']['pid']]),
        'sender_cgroup': lambda v: v == (kill['sender']['cgroup'] or '-'),
        'also_killed': lambda v: num(v)[:1] == [kill['also_killed']],
        'window': lambda v: near(num(v)[0], b['window_s'], 0.001) and
        (' began inside it' in v) == b['clipped'],
        'direct_stalls': lambda v: count_line(v, b['direct_stalls'], b['direct_stall_ms']),
        'memcg_stalls': lambda v: count_line(v, b['memcg_stalls'], b['memcg_stall_ms']),
        'cg_direct_stalls': lambda v: count_line(v, b['cgroup_direct_stalls'],
                                                 b['cgroup_direct_stall_ms']),
        'cg_memcg_stalls': lambda v: count_line(v, b['cgroup_memcg_stalls'],
                                                b['cgroup_memcg_stall_ms']),
        'kswapd_episodes': lambda v: count_line(v, b['kswapd_episodes']),
        'handoffs': lambda v: count_line(v, b['handoffs']),
        'compaction_runs': lambda v: count_line(v, b['compaction_runs']),
        'compaction_failures': lambda v: count_line(v, b['compaction_failures']),
        'psi_some_avg10': lambda v: pct_line(v, b['psi_some_avg10']),
        'psi_full_avg10': lambda v: pct_line(v, b['psi_full_avg10']),
        'swap': lambda v: v == '-' if b['swap_size_kb'] is None else
        v == 'none' if b['swap_size_kb'] == 0 else
        near(num(v)[0], b['swap_free_pct'], 0.051) and num(v)[1] == b['swap_size_kb'],
        'zswap_pool': lambda v: v == '-' if b['zswap_pool_bytes'] is None else
        num(v)[:1] == [b['zswap_pool_bytes'] // 1024],
    }
    cg_want, cg_must = cgroup_checks(kill)
    want.update(cg_want)
    err, seen, cands = [], set(), []
    for key, v in lines:
        seen.add(key)
        if key == 'candidate':
            cands.append(v)
        elif key == 'candidates':
            # "- (no task snapshot ...)" for null, "none (...)" for []
            if not v.startswith('- ' if kill['candidates'] is None else 'none '):
                err.append('candidates: %r, the JSON has %r' % (v, kill['candidates']))
        elif key not in want:
            err.append('a line %s=%r the JSON has no figure for' % (key, v))
        elif not want[key](v):
            err.append('%s: %r is not the JSON\'s' % (key, v))
    # the lines every kill has, and those of the JSON's non-null parts
    must = ['killer', 'victim', 'victim_cgroup', 'window', 'direct_stalls', 'memcg_stalls',
            'kswapd_episodes', 'handoffs', 'compaction_runs', 'compaction_failures',
            'psi_some_avg10', 'psi_full_avg10', 'swap', 'zswap_pool']
    if not kill['oom_killer']:
        must += ['sender', 'sender_cgroup']
    if kill['victim']['cgroup'] is not None:
        must += ['cg_direct_stalls', 'cg_memcg_stalls']
    must += cg_must
    err += ['no %s line' % k for k in must if k not in seen]
    if kill['candidates'] is None and 'candidates' not in seen:
        err.append('no line saying the candidates are not known')
    for i, c in enumerate(kill['candidates'] or []):
        w = '%s %d %s+%s ' % (c['comm'] or '-', c['pid'],
                              '-' if c['rss_kb'] is None else c['rss_kb'],
                              '-' if c['swap_kb'] is None else c['swap_kb'])
        if i >= len(cands) or not cands[i].startswith(w):
            err.append('candidate %d: %r, the JSON\'s %r' %
                       (i + 1, cands[i] if i < len(cands) else None, w))
    if len(cands) > len(kill['candidates'] or []):
        err.append('%d candidate lines, the JSON has %d' % (len(cands),
                                                             len(kill['candidates'] or [])))
    return err
