#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The recordings of arm64 guests with 16 KB pages (tests/data/page16k,
# issue 43): the report's page geometry must be the guest's, as the
# recording's run context and counter samples give it through trace-cmd
# (the independent reader), never a 4 KB one:
#   * swap.cluster_size = the context's swap.cluster_pages (256: no
#     CONFIG_THP_SWAP on arm64 16K);
#   * one swap.orders row per order 0 and per hugepages-NkB directory of
#     the guest (order log2(N kB / page_size): 1..11, PMD 32 MB = order 11);
#   * frag rows of 12 orders (0..11), as the buddyinfo samples have;
#   * mthp-frag: the 64 kB row (order 2) holds the probes' fallbacks and
#     the kernel's swpout_fallback delta, and no success (swpout +0);
#   * every finding's count is its section's figure (findings.py json;
#     tests/oracle/findings-truth.sh holds them to trace-cmd).
# Golden reports: the files named in GOLDENS must print exactly
# tests/golden/report-NAME.txt and report-NAME.json (MMSCOPE_UPDATE_GOLDEN=1
# rewrites them).
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed"
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
data="$top_srcdir/tests/data/page16k"
golden="$top_srcdir/tests/golden"
FILES='memcg-swap-16k-6.12 memcg-swap-16k-7.2 mthp-frag-16k-6.12 mthp-frag-16k-7.2 global-pressure-16k-6.12'
GOLDENS=$FILES

for name in $FILES; do
	f=$data/$name.dat
	# part of the tree: a missing one fails, so that deleting it cannot
	# drop its checks quietly
	[ -f "$f" ] || { fail "missing recording $f"; continue; }
	"$MMSCOPE" report "$f" >"$scratch/$name.txt" 2>"$scratch/$name.err" ||
		{ fail "$name: report exited: $(cat "$scratch/$name.err")"; continue; }
	(cd "$data" && "$MMSCOPE" report --format json "$name.dat") >"$scratch/$name.json" ||
		{ fail "$name: json report failed"; continue; }
	trace-cmd report "$f" >"$scratch/$name.tc" 2>/dev/null ||
		{ fail "$name: trace-cmd report cannot read it"; continue; }
	if python3 - "$scratch/$name.json" "$scratch/$name.tc" "$name" >"$scratch/$name.py" 2>&1 <<'EOF'
import json, math, re, sys

rep = json.load(open(sys.argv[1]))
ctx, mthp = {}, {}
for line in open(sys.argv[2]):
    m = re.search(r'mms1 (\w+) (\d+) (.*)$', line)
    if not m:
        continue
    src, seq, kv = m.group(1), int(m.group(2)), dict(re.findall(r'(\S+?)=(\S*)', m.group(3)))
    if src == 'ctx':
        for k, v in kv.items():
            ctx.setdefault(k, v)
    elif src == 'mthp' and 'size' in kv:     # a long line goes on with its size=
        mthp.setdefault(kv['size'], {}).setdefault(seq, {}).update(kv)
bad = []
page = int(ctx['page_size'])
if page != 16384:
    bad.append('run context page_size %d, not 16384' % page)
cl = int(ctx['swap.cluster_pages'])
if rep['swap']['cluster_size'] != cl:
    bad.append('swap.cluster_size %s, the run context says %d' % (rep['swap']['cluster_size'], cl))
sizes = sorted({int(m.group(1)) for k in ctx for m in [re.match(r'thp\.hugepages-(\d+)kB\.', k)] if m})
want = [0] + [int(math.log2(s * 1024 // page)) for s in sizes]
got = [o['order'] for o in rep['swap']['orders']]
if got != want:
    bad.append('swap.orders %s, the guest\'s sizes %s kB give %s' % (got, sizes, want))
for z in rep['frag']:
    if len(z['last']) != want[-1] + 1:
        bad.append('frag %s: %d orders, want %d' % (z['zone'], len(z['last']), want[-1] + 1))
if sys.argv[3].startswith('mthp-frag'):
    o2 = [o for o in rep['swap']['orders'] if o['order'] == 2][0]
    s = [v for _, v in sorted(mthp['64'].items()) if 'swpout' in v and 'swpout_fallback' in v]
    d_fb = int(s[-1]['swpout_fallback']) - int(s[0]['swpout_fallback'])
    d_ok = int(s[-1]['swpout']) - int(s[0]['swpout'])
    if not (o2['swpout_fallback'] == d_fb > 0 and o2['swpout'] == d_ok == 0
            and o2['fallback'] == o2['attempts'] and o2['ok'] == 0):
        bad.append('64kB row (order 2) %s; samples: swpout +%d, swpout_fallback +%d'
                   % ({k: o2[k] for k in ('attempts', 'ok', 'fallback', 'swpout', 'swpout_fallback')},
                      d_ok, d_fb))
for b in bad:
    print(b)
print('page %d, cluster %d, orders 0..%d' % (page, cl, want[-1]))
sys.exit(1 if bad else 0)
EOF
	then
		ok "$name: $(tail -1 "$scratch/$name.py")"
	else
		fail "$name: $(head -3 "$scratch/$name.py" | tr '\n' ';')"
	fi
	python3 "$top_srcdir/tests/oracle/findings.py" json "$MMSCOPE" "$f" >"$scratch/$name.fj" 2>&1 ||
		fail "$name: $(grep -m1 FAIL "$scratch/$name.fj")"
	awk 'length > 72 { bad = 1 } END { exit bad }' "$scratch/$name.txt" ||
		fail "$name: lines wider than 72 columns"
	case " $GOLDENS " in
	*" $name "*)
		for ext in txt json; do
			if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
				cp "$scratch/$name.$ext" "$golden/report-$name.$ext"
			elif ! diff -u "$golden/report-$name.$ext" "$scratch/$name.$ext" >&2; then
				fail "$name: $ext report differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
			fi
		done ;;
	esac
done
finish
