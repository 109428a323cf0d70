#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope plot's charts, from one table (src/plot-charts.c): --help lists
# them (name, help line, what each needs) as man/mmscope-plot.1's CHARTS
# does, --what takes each name and the error lists them, the bash
# completion offers them. On real recordings: the cluster chart of a
# recording without swap probes is one line (no invented zeros), the
# unusable-index chart draws the zone whose free lists moved (Normal on
# run-memcg-6.18, not the idle DMA32 with the most free memory), an OOM
# kill is marked at its time, and the free-page line over sparse samples
# has a dot at each sample. export's swap_clusters agrees: null states
# where no cluster's state is known.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

S=$top_srcdir/samples
R=$top_srcdir/tests/data/report
page=$top_srcdir/man/mmscope-plot.1
texts() { sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"; }

# ---- the table: --help and the man page agree ----
"$MMSCOPE" plot --help >"$scratch/help" || fail "plot --help failed"
# "name<TAB>help<TAB>needs" from --help: a name line, then "(needs ...)"
awk '/^charts/ { on = 1; next }
     on && /^  [a-z]/ { name = $1; sub(/^  [a-z]+ +/, ""); help = $0; next }
     on && /^ +\(needs / { sub(/^ +\(needs /, ""); sub(/\)$/, ""); print name "\t" help "\t" $0 }' \
	"$scratch/help" >"$scratch/help.list"
[ "$(wc -l <"$scratch/help.list")" -ge 5 ] || fail "plot --help lists $(wc -l <"$scratch/help.list") charts"
awk 'length > 79 { print "plot --help line " FNR " is " length " columns" }' "$scratch/help" >"$scratch/wide"
[ -s "$scratch/wide" ] && fail "$(cat "$scratch/wide")"
# the man page: under CHARTS, ".B name", the help line, "Needs WHAT."
awk '/^\.SH CHARTS/ { on = 1; next } on && /^\.SH/ { exit }
     on && /^\.B [a-z]+$/ { name = $2; getline h; getline n
	gsub(/\\-/, "-", h); gsub(/\\-/, "-", n); sub(/\.$/, "", h); sub(/^Needs /, "", n); sub(/\.$/, "", n)
	print name "\t" h "\t" n }' "$page" >"$scratch/man.list"
if diff -u "$scratch/man.list" "$scratch/help.list" >"$scratch/diff"; then
	ok "man CHARTS lists the charts of plot --help (name, help, needs)"
else
	cat "$scratch/diff" >&2
	fail "man/mmscope-plot.1 CHARTS differs from plot --help"
fi
names=$(cut -f1 "$scratch/help.list" | tr '\n' ' ')
list=$(cut -f1 "$scratch/help.list" | tr '\n' ',' | sed 's/,$//; s/,/, /g')
"$MMSCOPE" plot -w nosuch "$S/compaction-6.18.dat" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown chart in 'nosuch' ($list)" "$scratch/err" &&
	ok "an unknown chart: exit 2, the names listed" || fail "unknown chart: $(head -1 "$scratch/err")"
for c in $names; do
	"$MMSCOPE" plot -w "$c" "$S/global-pressure-6.12.dat" >"$scratch/c.svg" || fail "--what $c failed"
done
script=$top_builddir/completion/mmscope
if [ -f "$script" ] && command -v bash >/dev/null; then
	got=$(bash -c '. "$1"; COMP_WORDS=(mmscope plot --what ""); COMP_CWORD=3
		_mmscope mmscope "" --what; printf "%s " "${COMPREPLY[@]}"' - "$script")
	[ "$got" = "$names" ] && ok "completion offers plot --what $got" ||
		fail "completion of plot --what: '$got', want '$names'"
else
	fail "no completion script $script or no bash: completion not checked"
fi

# ---- clusters: no swap probes, no cluster states ----
for f in "$R/run-memcg-6.18.dat" "$R/stacks-memcg-6.18.dat"; do
	n=$(basename "$f")
	"$MMSCOPE" plot -w clusters "$f" >"$scratch/cl.svg" || { fail "$n: plot failed"; continue; }
	[ "$(texts "$scratch/cl.svg" | sed 1,2d)" = "clusters: swap device 0 (/dev/loop0): cluster states not measured (no swap probes: mmscope record -g swap)" ] &&
		! grep -q -e '<path' -e '<line' "$scratch/cl.svg" &&
		ok "$n, no swap probes: the cluster chart is one line" ||
		fail "$n: cluster chart without probes: $(texts "$scratch/cl.svg" | sed 1,2d | head -3)"
done
# export's swap_clusters of the same recording: the states are null (not
# 0) where no cluster is known, numbers where the first sample showed
# the device empty
"$MMSCOPE" export -o "$scratch/ex" "$R/run-memcg-6.18.dat" 2>"$scratch/err" || fail "export: $(cat "$scratch/err")"
python3 - "$scratch/ex/swap_clusters.csv" <<'EOF' && ok "export swap_clusters: states null where no cluster was known" ||
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
states = ["free_clusters", "nonfull_clusters", "frag_clusters", "full_clusters",
          "discard_clusters", "isolated_clusters"]
unknown = [r for r in rows if int(r["unknown_clusters"]) == 128]
known = [r for r in rows if int(r["unknown_clusters"]) == 0]
assert unknown and known, (len(unknown), len(known))
assert all(r[s] == "" for r in unknown for s in states), unknown[0]
assert all(r[s] != "" for r in known for s in states), known[0]
assert int(known[0]["free_clusters"]) > 0, known[0]
EOF
	fail "export swap_clusters of run-memcg-6.18: $(sed -n 3p "$scratch/ex/swap_clusters.csv")"
# with probes still drawn
"$MMSCOPE" plot -w clusters "$S/mthp-frag-7.3.dat" >"$scratch/cl.svg" || fail "plot mthp-frag-7.3 failed"
texts "$scratch/cl.svg" | grep -q '^swap device 0 (/dev/zram0): clusters by state$' &&
	ok "with the swap probes the cluster chart is drawn" || fail "mthp-frag-7.3: no cluster chart"

# ---- unusable: the zone whose free lists moved ----
"$MMSCOPE" plot -w unusable "$R/run-memcg-6.18.dat" >"$scratch/u.svg" || fail "plot -w unusable failed"
texts "$scratch/u.svg" | sed 1,2d >"$scratch/u.txt"
grep -q '^node 0, zone Normal: unusable free space index' "$scratch/u.txt" &&
	! grep -q 'zone DMA32: unusable' "$scratch/u.txt" &&
	grep -q 'not drawn, unchanged: DMA, DMA32$' "$scratch/u.txt" &&
	ok "run-memcg-6.18: unusable index of zone Normal; idle DMA, DMA32 named, not drawn" ||
	fail "run-memcg-6.18 unusable: $(head -3 "$scratch/u.txt" | tr '\n' '|')"
# and its lines are not flat at 0: order 9's index moves above 0
python3 - "$scratch/u.svg" <<'EOF' || fail "run-memcg-6.18: the drawn zone's index is flat 0"
import re, sys
svg = open(sys.argv[1]).read()
ys = [float(y) for d in re.findall(r'<path fill="none" stroke="[^"]*" stroke-width="2.0"[^>]* d="([^"]*)"', svg)
      for y in re.findall(r'[ML][0-9.]+ ([0-9.]+)', d)]
bottom = max(ys)
assert any(y < bottom - 10 for y in ys), "flat"
EOF

# ---- OOM kills marked at their time ----
f=$R/oom-6.18.dat
"$MMSCOPE" plot "$f" >"$scratch/oom.svg" || fail "plot oom-6.18 failed"
t=$("$MMSCOPE" report -s oom -f json "$f" | sed -n 's/^ *"time_s": \([0-9.]*\),$/\1/p' | head -1)
span=$("$MMSCOPE" report -s header -f json "$f" | python3 -c '
import json, sys
h = json.load(sys.stdin)["header"]
print(h["last_s"] - h["first_s"])')
python3 - "$scratch/oom.svg" "$t" "$span" <<'EOF' && ok "oom-6.18: the OOM kill at $t s marked on every time axis" ||
import re, sys
svg, t, span = open(sys.argv[1]).read(), float(sys.argv[2]), float(sys.argv[3])
assert "OOM kills: 1 (marked in red)" in svg, "no count in the subtitle"
marks = re.findall(r'<g class="oom">\n<line x1="([0-9.]+)"[^\n]*\n<text[^>]*>OOM kill anon-touch</text>', svg)
frames = re.findall(r'fill="none" stroke="#404040"/>', svg)
assert len(marks) == 3, ("marks", marks)
for x in marks:
    # full-width panels (watermarks, unusable): 1080 px; stalls: 860 px
    assert any(abs(float(x) - (90 + t / span * w)) < 1.0 for w in (1080, 860)), (x, t, span)
EOF
	fail "oom-6.18: OOM kill mark (report: at $t s of $span s)"
# ---- the trigger of a flight-recorder file marked at its time ----
f=$top_srcdir/tests/data/perfetto/flight-oom-6.18.dat
"$MMSCOPE" plot "$f" >"$scratch/trig.svg" || fail "plot flight-oom-6.18 failed"
"$MMSCOPE" report -s header -f json "$f" >"$scratch/trig.json" || fail "report flight-oom-6.18 failed"
python3 - "$scratch/trig.svg" "$scratch/trig.json" <<'EOF' &&
import json, re, sys
svg, h = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))["header"]
t, span = h["trigger"]["at_s"], h["last_s"] - h["first_s"]
assert "; trigger oom at %.3f s (marked in purple)" % t in svg, "no trigger in the subtitle"
marks = re.findall(r'<g class="trigger">\n<line x1="([0-9.]+)"[^\n]*\n<text[^>]*>trigger oom</text>', svg)
assert len(marks) == 3, ("marks", marks)
for x in marks:
    assert any(abs(float(x) - (90 + t / span * w)) < 1.0 for w in (1080, 860)), (x, t, span)
EOF
	ok "flight-oom-6.18: the trigger marked on every time axis" ||
	fail "flight-oom-6.18: trigger mark"
"$MMSCOPE" plot "$R/oom-6.18.dat" | grep -q 'class="trigger"\|; trigger ' &&
	fail "oom-6.18 has no trigger, yet one is marked" || ok "no trigger mark without a trigger"

"$MMSCOPE" plot "$S/compaction-6.18.dat" >"$scratch/n.svg"
texts "$scratch/n.svg" | sed -n 2p | grep -q 'OOM kills: not recorded (mmscope record -g oom)$' &&
	ok "without the oom group: OOM kills not recorded, said" || fail "no oom group: $(texts "$scratch/n.svg" | sed -n 2p)"

# ---- which zone: the one that came closest to its watermarks ----
# oom-6.18's node 0 has DMA (3840 pages), DMA32 (772798, all free the
# whole run) and Normal (425984, down to its watermarks): the largest
# zone would draw a flat line far above its watermarks
"$MMSCOPE" plot -w watermarks "$R/oom-6.18.dat" >"$scratch/oomwm.svg" || fail "plot oom-6.18 failed"
texts "$scratch/oomwm.svg" | grep -q '^node 0, zone Normal: free pages against the watermarks' &&
	texts "$scratch/oomwm.svg" | grep -q "^zone Normal of the node's 3: the one whose free pages came closest" &&
	ok "oom-6.18: the watermark chart draws Normal (closest to its watermarks), not the idle DMA32" ||
	fail "oom-6.18 watermark chart: $(texts "$scratch/oomwm.svg" | grep -m2 'zone')"
# the note's figure: the lowest free/high of each zone, from the samples
lows=$("$MMSCOPE" dump "$R/oom-6.18.dat" | grep -o 'mms1 zone [0-9]* node=0 zone=[A-Za-z0-9]* free=[0-9]* .*high=[0-9]*' |
	sed -E 's/.*zone=([A-Za-z0-9]*) free=([0-9]*) .* high=([0-9]*).*/\1 \2 \3/' |
	awk '$3 > 0 { r = $2 / $3; if (!($1 in m) || r < m[$1]) m[$1] = r } END { for (z in m) print m[z], z }' |
	sort -g | head -1 | awk '{ print $2 }')
[ "$lows" = Normal ] && ok "oom-6.18: Normal has the lowest free/high in the samples" ||
	fail "oom-6.18: the lowest free/high is $lows's"

# ---- sparse samples: a dot at each sample of the free-page line ----
f=$S/global-pressure-6.12.dat
"$MMSCOPE" plot -w watermarks "$f" >"$scratch/wm.svg" || fail "plot -w watermarks failed"
want=$("$MMSCOPE" dump "$f" | grep -c 'mms1 zone [0-9]* node=0 zone=DMA32 ')
got=$(sed -n '/<g class="samples">/{n;p;}' "$scratch/wm.svg" | grep -o 'M[0-9.]* [0-9.]*h0' | wc -l)
grep -A1 '<g class="samples">' "$scratch/wm.svg" | grep -q 'stroke="#1f77b4"' && [ "$got" -eq "$want" ] &&
	ok "global-pressure-6.12: the free-page line has a dot at each of its $want samples" ||
	fail "free-page samples: $got dots, $want zone samples"
# dense samples (400 at 10 ms) with a 3 s hole: no dot but at the hole's
# two ends, which the line joins with an interpolation
mkrec=$top_builddir/tests/compare/mkrec
if [ -x "$mkrec" ]; then
	awk 'BEGIN { for (s = 0; s < 400; s++) {
		t = 1000000000 + s * 10000000 + (s >= 200 ? 3000000000 : 0)
		printf "%.0f mms1 zone %d node=0 zone=Normal free=%d min=10 low=20 high=30 managed=9000 spanned=9000\n", t, s, 5000 + s
		printf "%.0f mms1 end %d us=1\n", t + 1000, s } }' |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=1\n')" "$mkrec" "$scratch/dense.dat" ||
		fail "mkrec dense.dat"
	"$MMSCOPE" plot -w watermarks "$scratch/dense.dat" >"$scratch/dense.svg" || fail "plot dense.dat"
	got=$(sed -n '/<g class="samples">/{n;p;}' "$scratch/dense.svg" | grep -o 'M[0-9.]* [0-9.]*h0' | tr '\n' ' ')
	# samples 199 (at 1.99 s) and 200 (at 5.00 s) of 6.99 s over 1080 px
	python3 - "$got" <<'EOF' && ok "dense samples with a hole: dots at the hole's two ends only" ||
import re, sys
xs = [float(x) for x in re.findall(r'M([0-9.]+) ', sys.argv[1])]
want = [90 + 1.99 / 6.99 * 1080, 90 + 5.0 / 6.99 * 1080]
assert len(xs) == 2 and all(abs(a - b) < 0.2 for a, b in zip(xs, want)), (xs, want)
EOF
		fail "dense samples with a hole: dots '$got'"
else
	fail "tests/compare/mkrec not built: dense samples not tested"
fi
finish
