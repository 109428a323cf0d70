#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope plot: the SVG of every bundled sample equals its golden
# (tests/golden/plot-NAME.svg; MMSCOPE_UPDATE_GOLDEN=1 rewrites them) and
# is the same on a second run; the SVG of every real recording (samples/,
# tests/data/report/) parses as XML and renders with rsvg-convert to a
# 1200 px wide PNG; each of the five charts is drawn for some real
# recording; a chart without data is one line and no axes; bad command
# lines exit 2, a bad recording 1.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

golden="$top_srcdir/tests/golden"
for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat; do
	name=$(basename "$f" .dat)
	svg="$scratch/$name.svg"
	"$MMSCOPE" plot "$f" -o "$svg" 2>"$scratch/err" ||
		{ fail "$name: plot failed: $(cat "$scratch/err")"; continue; }
	"$MMSCOPE" plot "$f" >"$scratch/again.svg" || fail "$name: plot to stdout failed"
	cmp -s "$svg" "$scratch/again.svg" || fail "$name: two runs differ"
	case $f in
	"$top_srcdir"/samples/*)
		want="$golden/plot-$name.svg"
		if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
			cp "$svg" "$want"
		elif ! cmp -s "$want" "$svg"; then
			diff -u "$want" "$svg" | head -20 >&2
			fail "$name: SVG differs from $want (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
		fi ;;
	esac
	python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert root.get("width") == "1200", root.get("width")' "$svg" 2>"$scratch/err" ||
		fail "$name: not a 1200 px wide SVG: $(tail -1 "$scratch/err")"
	cat "$svg" >>"$scratch/all.svg"
done
ok "$(ls "$scratch"/*.svg | grep -vc -e all.svg -e again.svg) recordings plotted: deterministic, golden, well-formed XML"

# every chart is drawn for some real recording (by its title)
for title in "free pages against the watermarks" "swap-out fallback to order 0" \
	"clusters by state" "reclaim stalls: " "unusable free space index per order"; do
	grep -q "font-weight=\"bold\">[^<]*$title" "$scratch/all.svg" || fail "no recording drew '$title'"
done
ok "each chart is drawn for a real recording"

# a chart the recording has no data for: one line, no axes
"$MMSCOPE" plot --what stalls "$top_srcdir/samples/compaction-6.18.dat" >"$scratch/none.svg" ||
	fail "plot --what stalls failed"
[ "$(grep -c '<text' "$scratch/none.svg")" -eq 3 ] &&
	grep -q '>stalls: no reclaim stalls' "$scratch/none.svg" &&
	! grep -q -e '<line' -e '<path' -e 'stroke=' "$scratch/none.svg" ||
	fail "a chart without data is not one line without axes: $(cat "$scratch/none.svg")"
"$MMSCOPE" plot -w stalls,unusable "$top_srcdir/samples/memcg-swap-6.18.dat" >"$scratch/two.svg" ||
	fail "plot -w stalls,unusable failed"
grep -q 'reclaim stalls: 2180' "$scratch/two.svg" && grep -q '>unusable: no' "$scratch/two.svg" &&
	! grep -q 'watermarks' "$scratch/two.svg" || fail "--what did not select the charts"
ok "--what selects charts; no data is one line"

# bad input
"$MMSCOPE" plot -w nonsense "$top_srcdir/samples/compaction-6.18.dat" >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown chart: not exit 2"
"$MMSCOPE" plot >/dev/null 2>&1
[ $? -eq 2 ] || fail "no recording: not exit 2"
"$MMSCOPE" plot "$scratch/missing.dat" 2>"$scratch/err" >/dev/null
[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] || fail "missing recording: not one line, exit 1"
"$MMSCOPE" plot -o /nonexistent/dir/x.svg "$top_srcdir/samples/compaction-6.18.dat" 2>/dev/null
[ $? -eq 1 ] || fail "unwritable output: not exit 1"
ok "bad command lines exit 2, bad files 1"

command -v rsvg-convert >/dev/null || skip "rsvg-convert not installed (librsvg2-bin): not rendered"
for svg in "$scratch"/*.svg; do
	case $svg in */all.svg|*/again.svg) continue ;; esac
	rsvg-convert -w 1200 "$svg" -o "${svg%.svg}.png" 2>"$scratch/err" ||
		{ fail "$(basename "$svg"): rsvg-convert: $(cat "$scratch/err")"; continue; }
	python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(24)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR", "not a PNG"
assert struct.unpack(">I", d[16:20])[0] == 1200, "not 1200 px wide"' "${svg%.svg}.png" ||
		fail "$(basename "$svg"): not a 1200 px PNG"
done
ok "every SVG renders with rsvg-convert to a 1200 px PNG"
finish
