#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Recordings of a 16 KB-page arm64 kernel (ring page 16384, uname
# aarch64), written by tests/compare/mkrec from hand-written sample lines
# as mmscope record writes them there: every size comes from the page
# size, none from 4 KB. Held to goldens (the swap and findings sections):
#   report-16k-config.txt    the run context has thp_swap=n,
#                            thp.hpage_pmd_size 32 MB and clusters of 256
#   report-16k-inferred.txt  an older recorder's context (no thp_swap, no
#                            cluster size, no PMD size): THP_SWAP off is
#                            inferred from arm64 with 16 KB pages
# In both the mTHP swap-out fallbacks are splits by configuration
# (mthp-split-config), never mthp-fallback; the JSON says page size
# 16384, PMD order 11, cluster 256, thp_swap false, and the orders of the
# hugepages-64kB (2) and -32768kB (11) counters; the export's swap_orders
# and the Perfetto counter names carry 64kB and 32768kB; the run section
# says PMD 32768 kB and THP_SWAP n, the handoff section counts free blocks
# from order 11. The same lines on a 4 KB x86-64 recording are
# mthp-fallback (64kB = order 4).
# MMSCOPE_UPDATE_GOLDEN=1 rewrites the goldens.
. "${top_srcdir:-.}/tests/lib.sh"

golden=$top_srcdir/tests/golden
mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || { fail "tests/compare/mkrec not built"; finish; }

check() {	# NAME FILE: FILE against the golden NAME
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$2" "$golden/$1"
		ok "$1: golden updated"
	elif diff -u "$golden/$1" "$2" >&2; then
		ok "$1 matches"
	else
		fail "$1 differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
	fi
}

# lines CTX: three sample sets 0.5 s apart, the run context CTX first;
# hugepages-64kB and -32768kB swap-outs all fall back (swpout stays 0)
lines() {
	t0=1000000000
	echo "$t0 mms1 ctx 0 at=start kernel.release=6.12.57+deb13-arm64-16k page_size=$PAGE $1"
	fb64=0 fbpmd=0
	for seq in 0 1 2; do
		t=$((t0 + 1000 + seq * 500000000))
		echo "$t mms1 vmstat $seq pswpout=$((seq * 4000)) thp_swpout=0 thp_swpout_fallback=$fbpmd"
		for kb in $SIZES; do
			fb=0
			[ "$kb" = "$SMALL" ] && fb=$fb64
			[ "$kb" = "$PMD" ] && fb=$fbpmd
			echo "$((t + 10)) mms1 mthp $seq size=$kb enabled=never swpout=0 swpout_fallback=$fb zswpout=0"
		done
		echo "$((t + 20)) mms1 swap $seq dev=/dev/vda2 type=partition size=1048576 used=$((seq * 65536)) prio=-2 rotational=0"
		echo "$((t + 30)) mms1 end $seq us=100"
		fb64=$((fb64 + 120)) fbpmd=$((fbpmd + 2))
	done
}

# mkrec OUT UNAME CTX
rec() {
	lines "$3" | MKREC_PAGE=$PAGE MKREC_UNAME="$2" \
		MKREC_META="$(printf 'mmscope=test\nkernel=6.12.57+deb13-arm64-16k\nhost=arm16k\n')" \
		"$mkrec" "$1" || fail "mkrec $1"
}

PAGE=16384 SMALL=64 PMD=32768
SIZES="32 64 128 256 512 1024 2048 4096 8192 16384 32768"
hp=""
for kb in $SIZES; do
	hp="$hp thp.hugepages-${kb}kB.enabled=$([ "$kb" = 64 ] && echo always || echo never)"
done
rec "$scratch/config.dat" "Linux arm16k 6.12.57+deb13-arm64-16k aarch64" \
	"thp.hpage_pmd_size=33554432$hp thp_swap=n swap.cluster_pages=256 swap.devices=1"
rec "$scratch/inferred.dat" "Linux arm16k 6.12.57+deb13-arm64-16k aarch64" "${hp# } swap.devices=1"

for v in config inferred; do
	(cd "$scratch" && "$MMSCOPE" report -s swap -s findings "$v.dat") >"$scratch/$v.txt" 2>"$scratch/err" ||
		fail "report $v: $(cat "$scratch/err")"
	check "report-16k-$v.txt" "$scratch/$v.txt"
	"$MMSCOPE" report -f json "$scratch/$v.dat" >"$scratch/$v.json" ||
		fail "report -f json $v"
	python3 - "$scratch/$v.json" "$v" <<'EOF' && ok "$v: JSON sizes of 16 KB pages" || fail "$v: JSON sizes"
import json, sys
r = json.load(open(sys.argv[1]))
s, v = r['swap'], sys.argv[2]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append('%s: %r, want %r' % (what, got, exp))
want('page_size', s['page_size'], 16384)
want('pmd_order', s['pmd_order'], 11)
want('pmd_order_basis', s['pmd_order_basis'],
     'recorded' if v == 'config' else 'derived from the page size')
want('cluster_size', s['cluster_size'], 256)
want('thp_swap', s['thp_swap'], False)
want('thp_swap_basis', s['thp_swap_basis'], 'recorded' if v == 'config' else 'inferred')
want('orders with counters', sorted(o['order'] for o in s['orders']), list(range(1, 12)))
fb = {o['order']: o['swpout_fallback'] for o in s['orders']}
want('order 2 (64kB) fallbacks', fb[2], 240)
want('order 11 (32768kB) fallbacks', fb[11], 4)
f = {(x['id'], x.get('order')): x['count'] for x in r['findings']}
want('findings', sorted(f), [('mthp-split-config', 2), ('mthp-split-config', 11)])
want('split count 64kB', f.get(('mthp-split-config', 2)), 240)
dev = s['devices'][0]
want('device clusters for its size', dev['clusters_for_size'], (65536 + 1 + 255) // 256)
if bad:
    print('\n'.join(bad), file=sys.stderr)
    sys.exit(1)
EOF
done
# the handoff section's free blocks at the pageblock order of 16 KB
# pages (11), where kswapd was not asked for an order: 3, not the 23
# blocks of order 9 and more
for seq in 0 1; do
	t=$((1000000000 + seq * 500000000))
	[ "$seq" = 0 ] && echo "$t mms1 ctx 0 at=start page_size=16384"
	echo "$((t + 10)) mms1 zone $seq node=0 zone=Normal free=9000 min=1000 low=2000 high=3000 managed=100000 spanned=100000"
	echo "$((t + 20)) mms1 buddy $seq node=0 zone=Normal free=10,10,10,10,10,10,10,10,10,10,10,3"
	echo "$((t + 30)) mms1 end $seq us=1"
done | MKREC_PAGE=16384 MKREC_UNAME="Linux arm16k 6.12.57+deb13-arm64-16k aarch64" \
	MKREC_META="mmscope=test" "$mkrec" "$scratch/buddy.dat" || fail "mkrec buddy.dat"
"$MMSCOPE" report -s handoff "$scratch/buddy.dat" | grep -q '^blocks>=o11 first 3, at lowest free 3, last 3 ' &&
	ok "handoff: blocks of the pageblock order 11" ||
	fail "handoff: $("$MMSCOPE" report -s handoff "$scratch/buddy.dat" | grep '^blocks')"

# the run section says the kernel's PMD size and THP_SWAP where recorded
"$MMSCOPE" report -s run "$scratch/config.dat" | tr '\n' ' ' | tr -s ' ' |
	grep -q 'PMD 32768 kB, THP_SWAP n' && ok "run: PMD 32768 kB, THP_SWAP n" ||
	fail "run: $("$MMSCOPE" report -s run "$scratch/config.dat" | grep -A1 '^THP')"
python3 "$top_srcdir/tests/oracle/findings.py" json "$MMSCOPE" "$scratch/config.dat" \
	"$scratch/inferred.dat" >/dev/null 2>"$scratch/err" &&
	ok "findings oracle: counts equal the swap section's" || fail "findings oracle: $(cat "$scratch/err")"

# the export's swap_orders rows and Perfetto's counter tracks: 16 KB sizes
"$MMSCOPE" export -f csv -o "$scratch/ex" "$scratch/config.dat" >/dev/null 2>"$scratch/err" ||
	fail "export: $(cat "$scratch/err")"
if [ -f "$scratch/ex/swap_orders.csv" ]; then
	kbs=$(python3 -c '
import csv, sys
rows = csv.DictReader(open(sys.argv[1]))
print(" ".join(sorted({"%s:%s" % (r["alloc_order"], r["size_kb"]) for r in rows
                        if r["alloc_order"] in ("2", "11")})))' "$scratch/ex/swap_orders.csv")
	[ "$kbs" = "11:32768 2:64" ] && ok "export swap_orders: order 2 64 kB, order 11 32768 kB" ||
		fail "export swap_orders: '$kbs'"
else
	fail "export wrote no swap_orders.csv: $(ls "$scratch/ex")"
fi
"$MMSCOPE" convert "$scratch/config.dat" -o "$scratch/p.pftrace" >/dev/null 2>"$scratch/err" ||
	fail "convert (Perfetto): $(cat "$scratch/err")"
# (on 4 KB pages order 11 would be 8192kB: no 32768kB track)
grep -aq '32768kB swpout_fallback' "$scratch/p.pftrace" && grep -aq '64kB swpout_fallback' "$scratch/p.pftrace" &&
	ok "perfetto: counter tracks of 64kB and 32768kB" ||
	fail "perfetto: counter names not of 16 KB pages"

# the same lines on a 4 KB x86-64 kernel with THP_SWAP: fragmentation's
PAGE=4096 SMALL=64 PMD=2048
SIZES="8 16 32 64 128 256 512 1024 2048"
rec "$scratch/x86.dat" "Linux x86host 6.12.57+deb13-amd64 x86_64" \
	"thp.hpage_pmd_size=2097152 thp_swap=y swap.cluster_pages=512 swap.devices=1"
"$MMSCOPE" report -s findings -f json "$scratch/x86.dat" >"$scratch/x86.json" || fail "report x86"
python3 - "$scratch/x86.json" <<'EOF' && ok "4 KB with THP_SWAP: mthp-fallback (64kB order 4), no split-config" ||
import json, sys
f = sorted((x['id'], x.get('order')) for x in json.load(open(sys.argv[1]))['findings'])
if f != [('mthp-fallback', 4), ('mthp-fallback', 9)]:
    print(f, file=sys.stderr)
    sys.exit(1)
EOF
	fail "4 KB: findings $(cat "$scratch/x86.json" | head -c 300)"
finish
