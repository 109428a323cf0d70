#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The HTML pages in a real browser: headless Chromium loads the report
# page of each bundled sample and a compare page, with networking off,
# and dumps the DOM it built and a screenshot. The DOM has every printed
# section, every chart as an <svg>, and nothing that would fetch (no
# http(s):// or // address in a src or href); the screenshot is a page,
# not a blank one colour (more than a few distinct pixel values).
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium not installed (tests/install-deps.sh)"
check="python3 $top_srcdir/tests/html/check.py"
S=$top_srcdir/samples

# One browser run: a fresh profile, no network, no background traffic.
browse() {
	prof=$(mktemp -d "$scratch/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" "$@" 2>>"$scratch/chromium.log"
}

"$MMSCOPE" report --help | awk '/^sections/ { on = 1; next } on && /^  [a-z]/ { print $1 }' \
	>"$scratch/sections"
charts=$("$MMSCOPE" plot --help | awk '/^charts/ { on = 1; next }
	on && /^  [a-z]/ { print "chart-" $1 }' | paste -sd, -)
ncharts=$(echo "$charts" | tr ',' '\n' | grep -c .)
[ "$ncharts" -ge 5 ] || fail "plot --help lists $ncharts charts"

# a first run tells whether this Chromium can run here at all
"$MMSCOPE" report -f html -o "$scratch/first.html" "$S/compaction-6.18.dat" ||
	fail "report -f html failed"
browse --dump-dom "file://$scratch/first.html" >"$scratch/first.dom" && [ -s "$scratch/first.dom" ] ||
	skip "chromium does not run here: $(tail -1 "$scratch/chromium.log")"

for f in $(fixtures); do
	b=$(basename "$f" .dat)
	sections=$("$MMSCOPE" report -f json "$f" | python3 -c '
import json, sys
names = open(sys.argv[1]).read().split()
keys = json.load(sys.stdin)
print(",".join(n for n in names if n in keys or n == "summary"))' "$scratch/sections")
	"$MMSCOPE" report -f html -o "$scratch/$b.html" "$f" || { fail "$b: report failed"; continue; }
	browse --dump-dom "file://$scratch/$b.html" >"$scratch/$b.dom" || fail "$b: --dump-dom failed"
	$check page "$scratch/$b.dom" --ids "contents,charts,$sections,$charts" \
		--svgs "$ncharts" || fail "$b: the DOM"
	browse --screenshot="$scratch/$b.png" --window-size=1200,2000 \
		"file://$scratch/$b.html" >/dev/null || fail "$b: --screenshot failed"
	[ -s "$scratch/$b.png" ] || fail "$b: empty screenshot"
	$check png "$scratch/$b.png" 8 || fail "$b: the screenshot"
done
ok "report pages of $(fixtures | wc -l) samples in Chromium"

# the kills as Chromium builds them: oom-6.18's memcg OOM kill, its block
# the JSON's, the charts' marks links to it; a recording without kills
# says so
for b in oom-6.18 quiet-6.18; do
	f=$top_srcdir/tests/data/report/$b.dat
	"$MMSCOPE" report -f html -o "$scratch/k-$b.html" "$f" &&
		"$MMSCOPE" report -f json "$f" >"$scratch/k-$b.json" || fail "$b: report failed"
	browse --dump-dom "file://$scratch/k-$b.html" >"$scratch/k-$b.dom" ||
		fail "$b: --dump-dom failed"
	$check kills "$scratch/k-$b.dom" "$scratch/k-$b.json" >"$scratch/k-$b.out" ||
		fail "$b: the kills section in Chromium"
done
grep -q ': 1 kills checked' "$scratch/k-oom-6.18.out" &&
	links=$(grep -c '<a href="#kill-1">' "$scratch/k-oom-6.18.dom") &&
	[ "$links" -ge 1 ] &&
	[ "$links" -eq "$(grep -c '<a href="#kill-1">' "$scratch/k-oom-6.18.html")" ] ||
	fail "oom-6.18: its kill or the charts' links to it: $(cat "$scratch/k-oom-6.18.out")"
ok "the kills section in Chromium"

"$MMSCOPE" compare -f html -o "$scratch/c.html" \
	a="$S/mthp-swap-6.18.dat,$S/memcg-swap-6.18.dat" \
	b="$S/compaction-6.18.dat,$S/mthp-swap-6.18.dat" || fail "compare -f html failed"
browse --dump-dom "file://$scratch/c.html" >"$scratch/c.dom" || fail "compare: --dump-dom failed"
$check page "$scratch/c.dom" --ids contents,columns,group-stall,findings --svgs 3 ||
	fail "compare: the DOM"
browse --screenshot="$scratch/c.png" --window-size=400,1600 "file://$scratch/c.html" \
	>/dev/null || fail "compare: --screenshot failed"
$check png "$scratch/c.png" 8 || fail "compare: the phone-width screenshot"
ok "compare page in Chromium"
finish
