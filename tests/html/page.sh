#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# report --format html and compare --format html, checked as files: for
# each bundled sample the page has the contents, an id per report section
# (report --help's list) and per chart (plot --help's), an <svg> per
# chart, nothing that fetches or runs, and the words of its sections are
# the text report's, in order (so every figure, unit and '-' is the
# text's); the compare page's rows are the plain table's. A recording
# whose command line holds markup shows it escaped. -o follows
# output-file.c: no overwrite without --force, no symlink followed. Each
# finding sits in a box of its severity's colour.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
check="python3 $top_srcdir/tests/html/check.py"
S=$top_srcdir/samples

"$MMSCOPE" report --help >"$scratch/help" || fail "report --help failed"
awk '/^sections/ { on = 1; next } on && /^  [a-z]/ { print $1 }' "$scratch/help" \
	>"$scratch/sections"
"$MMSCOPE" plot --help >"$scratch/phelp" || fail "plot --help failed"
charts=$(awk '/^charts/ { on = 1; next } on && /^  [a-z]/ { print "chart-" $1 }' "$scratch/phelp" |
	paste -sd, -)
ncharts=$(echo "$charts" | tr ',' '\n' | grep -c .)
[ -s "$scratch/sections" ] && [ "$ncharts" -ge 5 ] || fail "no sections or charts ($charts)"
# The sections the text report prints for a recording: those with a JSON
# member (a section the text leaves out has none: phases without phase
# markers) and the summary (text only).
printed() {
	"$MMSCOPE" report -f json "$1" | python3 -c '
import json, sys
names = open(sys.argv[1]).read().split()
keys = json.load(sys.stdin)
print(",".join(n for n in names if n in keys or n == "summary"))' "$scratch/sections"
}

for f in $(fixtures); do
	b=$(basename "$f" .dat)
	"$MMSCOPE" report "$f" >"$scratch/$b.txt" || fail "$b: report failed"
	"$MMSCOPE" report --format html -o "$scratch/$b.html" "$f" ||
		{ fail "$b: report --format html failed"; continue; }
	sections=$(printed "$f")
	$check page "$scratch/$b.html" --ids "contents,charts,$sections,$charts" \
		--svgs "$ncharts" --report-text "$scratch/$b.txt" || fail "$b: the page"
	# standard output is the same page
	"$MMSCOPE" report -f html "$f" | cmp -s - "$scratch/$b.html" ||
		fail "$b: -o and standard output differ"
done
ok "report pages of $(fixtures | wc -l) samples"

# the kills: a block per kill of the JSON's .oom.kills[], its heading and
# its dossier's table the JSON's figures; oom-6.18 has its memcg OOM kill
# and a link to it from the charts; a recording without kills says so,
# with no table
for f in $(fixtures) "$top_srcdir"/tests/data/report/*.dat; do
	b=$(basename "$f" .dat)
	"$MMSCOPE" report -f html "$f" >"$scratch/k-$b.html" &&
		"$MMSCOPE" report -f json "$f" >"$scratch/k-$b.json" ||
		{ fail "$b: report for the kills failed"; continue; }
	$check kills "$scratch/k-$b.html" "$scratch/k-$b.json" >"$scratch/k-$b.out" ||
		fail "$b: the kills section is not the JSON's"
done
grep -q ': 1 kills checked' "$scratch/k-oom-6.18.out" ||
	fail "oom-6.18: $(cat "$scratch/k-oom-6.18.out")"
grep -q '<a href="#kill-1">' "$scratch/k-oom-6.18.html" ||
	fail "oom-6.18: the charts do not link its kill"
grep -q '<p class="none">No kill in this recording.</p>' "$scratch/k-quiet-6.18.html" ||
	fail "quiet-6.18: no line saying there is no kill"
ok "the kills section: the JSON's kills and figures, or a line saying there is none"

# --section: only those, with their figures; no charts
"$MMSCOPE" report -f html -s stalls -s handoff "$S/compaction-6.18.dat" >"$scratch/s.html" ||
	fail "report -f html -s failed"
"$MMSCOPE" report -s stalls -s handoff "$S/compaction-6.18.dat" >"$scratch/s.txt"
$check page "$scratch/s.html" --ids contents,stalls,handoff --report-text "$scratch/s.txt" ||
	fail "report -f html -s stalls -s handoff"
grep -q 'id="charts"\|id="header"' "$scratch/s.html" && fail "-s: other sections or charts shown"

# the compare page: columns, one table per group, rows as the text's
set -- a="$S/mthp-swap-6.18.dat,$S/memcg-swap-6.18.dat" \
	b="$S/compaction-6.18.dat,$S/mthp-swap-6.18.dat"
"$MMSCOPE" compare --width 400 "$@" >"$scratch/c.txt" || fail "compare failed"
"$MMSCOPE" compare --format html -o "$scratch/c.html" "$@" || fail "compare --format html failed"
$check page "$scratch/c.html" --ids contents,columns --svgs 3 \
	--compare-text "$scratch/c.txt" || fail "the compare page"
grep -q '<h2 id="group-stall">stall</h2>' "$scratch/c.html" || fail "compare: no stall group"
"$MMSCOPE" compare --all --width 400 "$@" >"$scratch/ca.txt"
"$MMSCOPE" compare --all -f html "$@" >"$scratch/ca.html" || fail "compare --all -f html failed"
$check page "$scratch/ca.html" --compare-text "$scratch/ca.txt" || fail "compare --all page"
"$MMSCOPE" compare -f pdf "$@" 2>"$scratch/err" && fail "compare -f pdf accepted"
grep -q "text, json or html" "$scratch/err" || fail "compare -f pdf: $(cat "$scratch/err")"
ok "compare page"

# the compare page's findings: the text's "Findings that differ", a row
# per finding with the text's cell per column; here oom-kill is found in
# one column only
set -- quiet="$top_srcdir/tests/data/report/quiet-6.18.dat" \
	oom="$top_srcdir/tests/data/report/oom-6.18.dat"
"$MMSCOPE" compare "$@" >"$scratch/f.txt" || fail "compare quiet oom failed"
"$MMSCOPE" compare -f html "$@" >"$scratch/f.html" || fail "compare -f html quiet oom failed"
$check page "$scratch/f.html" --ids contents,columns,findings || fail "findings: the DOM"
python3 - "$scratch/f.txt" "$scratch/f.html" <<'PY' || fail "findings: the page is not the text's"
import html, re, sys
txt = open(sys.argv[1]).read()
block = txt.split('Findings that differ', 1)[1].split(':\n', 1)[1]
text = {}
for line in block.split('\n'):
    if line.startswith('  ') and not line.startswith('   ') and ':' in line:
        key = line.split(':', 1)[0].strip()
        text[key] = line.split(':', 1)[1]
    elif line.startswith('    ') and text:
        text[key] += ' ' + line.strip()
    elif not line.strip():
        break
page = open(sys.argv[2]).read().split('id="findings"', 1)[1].split('</table>', 1)[0]
rows = re.findall(r'<tr><td class="k"><code>(.*?)</code></td>(.*?)</tr>', page)
cols = [html.unescape(h) for h in re.findall(r'<th class="l">(.*?)</th>', page)][1:]
got = {html.unescape(i): [html.unescape(c) for c in re.findall(r'<td class="l">(.*?)</td>', r)]
       for i, r in rows}
assert set(got) == set(text), (sorted(got), sorted(text))
for fid, cells in got.items():
    want = ' '.join(text[fid].split())
    have = ', '.join('%s %s' % (c, v) for c, v in zip(cols, cells))
    assert want == have, (fid, want, have)
assert 'oom-kill' in got and got['oom-kill'][0] in ('-', 'not run') and \
    got['oom-kill'][1].startswith('critical 1'), got.get('oom-kill')
PY
ok "compare page: the findings that differ, as the text's"

# text from the recording is escaped: a command line with markup
MKREC=$top_builddir/tests/compare/mkrec
printf '%s\n' '1000000 mms1 ctx 0 at=start vm.swappiness=60' \
	'2000000 mms1 outcome 12 argc=3 arg0=sh arg1=-c arg2=%3Cscript%3Ealert(1)%3C/script%3E%22%27 exit=0 elapsed_us=1002120 user_us=912 sys_us=1204 maxrss_kb=1652 majflt=0 minflt=168 stopped_by_recorder=0' \
	'3000000 mms1 ctx 0 at=end vm.swappiness=60' | "$MKREC" "$scratch/h.dat" ||
	fail "mkrec failed"
"$MMSCOPE" report -s run "$scratch/h.dat" >"$scratch/h.txt"
grep -q '<script>' "$scratch/h.txt" || fail "the hostile command is not in the text report"
"$MMSCOPE" report -f html "$scratch/h.dat" >"$scratch/h.html" || fail "report of h.dat failed"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$scratch/h.html" ||
	fail "the command line is not shown escaped"
$check page "$scratch/h.html" --ids run || fail "the hostile recording's page"
cp "$scratch/h.dat" "$scratch/h2.dat"
"$MMSCOPE" compare -f html --all "$scratch/h.dat" "$scratch/h2.dat" >"$scratch/hc.html" ||
	fail "compare of h.dat failed"
grep -q '<code>sh -c &lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;</code>' "$scratch/hc.html" ||
	fail "compare: the command line is not shown escaped"
$check page "$scratch/hc.html" --ids columns || fail "the hostile recordings' compare page"
ok "text from the recording is escaped"

# -o: no overwrite without --force, no symlink, the file replaced whole
f=$S/compaction-6.18.dat
echo keep >"$scratch/old.html"
"$MMSCOPE" report -f html -o "$scratch/old.html" "$f" 2>"$scratch/err" && fail "-o overwrote"
grep -q "already exists (use --force" "$scratch/err" || fail "-o on a file: $(cat "$scratch/err")"
[ "$(cat "$scratch/old.html")" = keep ] || fail "-o changed the existing file"
"$MMSCOPE" report -f html --force -o "$scratch/old.html" "$f" || fail "--force failed"
grep -q '^<!DOCTYPE html>' "$scratch/old.html" || fail "--force did not replace the file"
ln -s "$scratch/target" "$scratch/link.html"
"$MMSCOPE" report -f html -o "$scratch/link.html" --force "$f" 2>"$scratch/err" &&
	fail "-o wrote through a symlink"
[ -e "$scratch/target" ] && fail "the symlink's target was created"
grep -q "symbolic link" "$scratch/err" || fail "-o on a symlink: $(cat "$scratch/err")"
"$MMSCOPE" compare -f html -o "$scratch/old.html" "$f" "$f" 2>"$scratch/err" &&
	fail "compare -o overwrote"
"$MMSCOPE" compare -f html -o "$scratch/link.html" --force "$f" "$f" 2>"$scratch/err" &&
	fail "compare -o wrote through a symlink"
"$MMSCOPE" report -f pdf "$f" 2>"$scratch/err" && fail "report -f pdf accepted"
grep -q "text, json or html" "$scratch/err" || fail "report -f pdf: $(cat "$scratch/err")"
ls -A "$scratch" | grep -q '^\..*\.tmp$' && fail "a temporary file was left behind"
ok "-o and --force"

# each finding in a box of its severity's colour, an info finding never
# in the critical (red) one (issue 44 item 11): oom-6.18 has one of each
o=$top_srcdir/tests/data/report/oom-6.18.dat
for s in "" "-s findings"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" report -f html $s "$o" | sed -n '/id="findings"/,/<\/section>/p' >"$scratch/fb"
	grep -q '^<pre class="crit">crit oom-kill ' "$scratch/fb" &&
		grep -q '^<pre class="info">info memcg-reclaim-stalls ' "$scratch/fb" &&
		[ "$(grep -c '<pre class="crit">' "$scratch/fb")" -eq 1 ] &&
		ok "report -f html $s: a box per finding by its severity" ||
		fail "report -f html $s: the finding boxes: $(grep '<pre' "$scratch/fb")"
done
"$MMSCOPE" report -f html "$o" | grep -q '#findings pre.info{border-left:4px solid #1f77b4' &&
	! "$MMSCOPE" report -f html "$o" | grep -q '#findings pre{' &&
	ok "the info box is blue, not every box red" || fail "the findings boxes' style"
finish
