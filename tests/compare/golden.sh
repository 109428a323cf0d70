#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope compare: golden tables for both dialects and JSON from metrics
# files (three runs per side, a single-run side, a metric absent on one
# side, zero baselines) and from recordings made by tests/compare/mkrec;
# the reproduction of a published mmtests row; errors and exit codes.
# Regenerate the goldens with MMSCOPE_UPDATE_GOLDEN=1 (then review the diff).
. "${top_srcdir:-.}/tests/lib.sh"

data=$top_srcdir/tests/compare/data
golden=$top_srcdir/tests/golden
mkrec=$top_builddir/tests/compare/mkrec
base="6.18.0-vanilla=$data/base-1.txt,$data/base-2.txt,$data/base-3.txt"
patched="6.18.0-patched=$data/patched-1.txt,$data/patched-2.txt,$data/patched-3.txt"
single="6.18.0-rc3-single=$data/single-1.txt"

# check NAME ARGS...: the output of "mmscope compare ARGS" is golden/compare-NAME.txt
check() {
	name=$1
	shift
	"$MMSCOPE" compare "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
	rc=$?
	[ "$rc" -eq "${want_rc:-0}" ] ||
		{ fail "$name: exit $rc ($(cat "$scratch/$name.err"))"; return; }
	# file names in the output (JSON has none, text none) are not expected
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$scratch/$name.out" "$golden/compare-$name.txt"
	fi
	if cmp -s "$scratch/$name.out" "$golden/compare-$name.txt"; then
		ok "$name"
	else
		diff -u "$golden/compare-$name.txt" "$scratch/$name.out" >&2
		fail "$name differs from tests/golden/compare-$name.txt"
	fi
}

check mmtests --dialect mmtests "$base" "$patched" "$single"
check mmtests-nomonitor --dialect mmtests --no-monitor --stats min,mean,stddev,max \
	--metrics compaction,stall,user "$base" "$patched"
check mmtests-narrow --dialect mmtests --width 60 --stats mean,stddev --metrics user "$base" "$patched" "$single"
check plain --dialect plain --stats mean,stddev "$base" "$patched" "$single"
check plain-zero --dialect plain --stats mean,median,p95,samples \
	"base=$data/zero-base.txt" "new=$data/zero-new.txt"
check mmtests-zero --dialect mmtests --stats mean,max "base=$data/zero-base.txt" "new=$data/zero-new.txt"
check json --dialect mmtests --format json --stats mean,stddev --metrics user,compaction "$base" "$patched" "$single"

# JSON is well-formed (when python3 is there to say so)
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys; json.load(sys.stdin)' <"$scratch/json.out" &&
		ok "json parses" || fail "json does not parse"
fi

# Findings that appear, vanish or change between columns: the OOM kill
# and the memcg stalls of oom-6.18 are not in quiet-6.18 (rule ran: '-');
# a column of two runs lists each run's count ('-': not in that run).
rep=$top_srcdir/tests/data/report
check findings --width 80 --metrics oom "quiet=$rep/quiet-6.18.dat" "oom=$rep/oom-6.18.dat"
check findings-runs --width 80 --metrics oom "mixed=$rep/quiet-6.18.dat,$rep/oom-6.18.dat" \
	"oom=$rep/oom-6.18.dat"
check findings-json --format json --metrics oom "quiet=$rep/quiet-6.18.dat" \
	"oom=$rep/oom-6.18.dat"
# the plain dialect's findings lines fit 72 columns
cat "$scratch/findings.out" "$scratch/findings-runs.out" | sed -n '/^Findings/,/^$/p' |
	awk 'length > 72 { bad = 1 } END { exit bad }' && ok "findings lines fit 72 columns" ||
	fail "a findings line is wider than 72 columns"

# A published mmtests row (anchors.md, section 5 (b)), character for character.
want='Amean     fault-both-3      3024.41 (   0.00%)     3200.68 (  -5.83%)'
got=$("$MMSCOPE" compare -d mmtests "5.15.0-rc1-vanilla=$data/anchor-base.txt" \
	"5.15.0-rc1-patched=$data/anchor-new.txt" | grep '^Amean  *fault-both-3 ')
[ "$got" = "$want" ] && ok "published mmtests row reproduced" ||
	fail "published row: got '$got', want '$want'"
hdr=$("$MMSCOPE" compare -d mmtests "5.15.0-rc1-vanilla=$data/anchor-base.txt" \
	"5.15.0-rc1-patched=$data/anchor-new.txt" | head -2)
[ "$hdr" = "$(printf '%23s%23s%23s\n%23s%23s%23s' '' 5.15.0-rc1 5.15.0-rc1 \
	'' vanilla patched)" ] &&
	ok "mmtests header split after -rcN" || fail "header: '$hdr'"

# Recordings: counter deltas between the first and last complete sample sets.
if [ -x "$mkrec" ]; then
	"$mkrec" "$scratch/a1.dat" <"$data/rec-a.lines" &&
	"$mkrec" "$scratch/a2.dat" <"$data/rec-a.lines" &&
	"$mkrec" "$scratch/b1.dat" <"$data/rec-b.lines" &&
	"$mkrec" "$scratch/b2.dat" <"$data/rec-b.lines" || fail "mkrec failed"
	check recording --dialect plain "a=$scratch/a1.dat,$scratch/a2.dat" \
		"b=$scratch/b1.dat,$scratch/b2.dat"
	printf '1000 mms1 vmstat 0 pgfault=1\n2000 mms1 end 0 us=1\n' | "$mkrec" "$scratch/one.dat"
	"$MMSCOPE" compare "x=$scratch/one.dat" >/dev/null 2>"$scratch/err"
	[ $? -eq 1 ] && grep -q "1 complete counter sample set" "$scratch/err" &&
		ok "one sample set is an error" || fail "one sample set: $(cat "$scratch/err")"
else
	echo "mkrec not built: recording cases skipped"
fi

# Real recordings (samples/, made by trace-cmd, no counter samples): the
# trace-derived metrics only.
samples=$top_srcdir/samples
if [ -f "$samples/memcg-swap-6.18.dat" ] && [ -f "$samples/mthp-swap-6.18.dat" ]; then
	check samples --dialect plain --stats mean,max --width 100 \
		"memcg=$samples/memcg-swap-6.18.dat" "mthp=$samples/mthp-swap-6.18.dat"
fi

# Real recordings made on this host (tests/data/compare/README.md): a
# memcg-limited swapping workload, five runs with a 176 MB limit and five
# with 40 MB. The default table at 80 columns: both runs on each row, a
# unit column, rows zero everywhere hidden (and counted), n/a for a ratio
# over nothing.
rec=$top_srcdir/tests/data/compare
big="big=$rec/limit176-1.dat,$rec/limit176-2.dat,$rec/limit176-3.dat,$rec/limit176-4.dat,$rec/limit176-5.dat"
small="small=$rec/limit40-1.dat,$rec/limit40-2.dat,$rec/limit40-3.dat,$rec/limit40-4.dat,$rec/limit40-5.dat"
check memcg-limit --width 80 "$big" "$small"
# mmtests at the default width (80 off a terminal): baseline and new side
# by side in every block, rows zero everywhere hidden and counted
check mmtests-limit -d mmtests "$big" "$small"
awk 'length > 80 { bad = 1 } END { exit bad }' "$scratch/mmtests-limit.out" &&
	grep -q "^ *big  *small$" "$scratch/mmtests-limit.out" &&
	[ "$(sed '/^Findings/,$d' "$scratch/mmtests-limit.out" | grep -c "big")" -eq 2 ] &&
	! grep -Eq "^Ops .* 0\.00 +0\.00$" "$scratch/mmtests-limit.out" &&
	grep -q "^(99 rows zero or absent in every column not shown" "$scratch/mmtests-limit.out" &&
	ok "mmtests: side by side at 80 columns, zero rows hidden" ||
	fail "mmtests at 80 columns: $(head -3 "$scratch/mmtests-limit.out")"
check memcg-limit-all --width 80 --all --metrics reclaim "$big" "$small"
check memcg-limit-one --width 80 "a=$rec/limit176-1.dat" "b=$rec/limit40-1.dat"
check memcg-limit-narrow --width 44 --metrics stall "$big" "$small" "c=$rec/limit176-1.dat,$rec/limit176-2.dat"
# Run context (issue 18): Duration and memcg rows, and the settings that
# differ (swappiness 60 against 100); a recording without context is named
check settings --width 80 "s60=$rec/swappiness60.dat" "s100=$rec/swappiness100.dat"
# columns that ran different commands are named (a memcg workload against
# the clock-step guest's script), within 72 columns; the same command in
# every column says nothing
"$MMSCOPE" compare --width 80 --metrics duration "a=$rec/swappiness60.dat" \
	"b=$top_srcdir/tests/data/report/clock-step-6.12.dat" >"$scratch/cmds.out"
grep -q "^The columns ran different commands:$" "$scratch/cmds.out" &&
	grep -q "^  b: sh -c churn() { dd if=/dev/zero" "$scratch/cmds.out" &&
	grep -q "^  a: sh -c echo" "$scratch/cmds.out" &&
	sed -n '/^The columns/,/^$/p' "$scratch/cmds.out" |
	awk 'length > 72 { bad = 1 } END { exit bad }' &&
	! grep -q "different commands" "$scratch/settings.out" &&
	"$MMSCOPE" compare --format json --metrics duration "a=$rec/swappiness60.dat" |
	grep -q '"command": "sh -c echo' &&
	ok "columns that ran different commands are named" ||
	fail "different commands: $(cat "$scratch/cmds.out")"
check settings-none --width 80 --metrics duration "s60=$rec/swappiness60.dat" \
	"old=$rec/limit176-1.dat"
awk 'length > 80 { bad = 1 } END { exit bad }' "$scratch/memcg-limit.out" "$scratch/memcg-limit-one.out" &&
	ok "80 columns" || fail "a line is wider than 80 columns"
# a directory stands for its *.dat files; one thread loads the same
mkdir "$scratch/d176" "$scratch/d40"
cp "$rec"/limit176-*.dat "$scratch/d176/" && cp "$rec"/limit40-*.dat "$scratch/d40/"
"$MMSCOPE" compare --width 80 "big=$scratch/d176/" "small=$scratch/d40" >"$scratch/dir.out" &&
	cmp -s "$scratch/dir.out" "$scratch/memcg-limit.out" && ok "a directory is its *.dat files" ||
	fail "directory: $(diff "$scratch/dir.out" "$scratch/memcg-limit.out" | head -5)"
"$MMSCOPE" compare --jobs 1 --width 80 "$big" "$small" >"$scratch/j1.out" &&
	cmp -s "$scratch/j1.out" "$scratch/memcg-limit.out" && ok "--jobs 1 = all CPUs" ||
	fail "--jobs 1 differs"
mkdir "$scratch/empty"
"$MMSCOPE" compare "a=$scratch/empty" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "a directory with no .dat file" "$scratch/err" && ok "empty directory: exit 1" ||
	fail "empty directory: $(cat "$scratch/err")"

# 7.2+ counts memcg limit reclaim in pgscan_direct/pgsteal_direct: the
# same memcg-only workload on 6.12 and 7.3 (no allocation entered direct
# reclaim on either) has no direct reclaim on either side, and a note
# says where 7.3's 51,537 pages went; a 7.2 recording without memcg
# reclaim events shows the counters as direct+memcg rows, no direct rows
# (the table and its notes: the settings block after them is not this
# test's)
"$MMSCOPE" compare --width 80 --metrics reclaim "6.12=$rec/memcg-6.12.dat" \
	"7.3=$rec/memcg-7.3.dat" | sed '/^Settings that differ/,$d' >"$scratch/memcg-kernels.out"
[ -z "$MMSCOPE_UPDATE_GOLDEN" ] || cp "$scratch/memcg-kernels.out" "$golden/compare-memcg-kernels.txt"
cmp -s "$scratch/memcg-kernels.out" "$golden/compare-memcg-kernels.txt" && ok "memcg-kernels" ||
	fail "memcg-kernels: $(diff "$golden/compare-memcg-kernels.txt" "$scratch/memcg-kernels.out")"
v=$("$MMSCOPE" compare --format json --metrics direct-scanned,direct-scan-pct \
	"7.3=$rec/memcg-7.3.dat" | grep -o '"values": \[[0-9.]*\]' | tr '\n' ' ')
[ "$v" = '"values": [0] "values": [0] ' ] &&
	! grep -q "^Pages direct scanned" "$scratch/memcg-kernels.out" &&
	grep -q "no allocstall, so their 51537/41056" "$scratch/memcg-kernels.out" &&
	ok "7.3 memcg reclaim is not direct reclaim" ||
	fail "7.3 memcg reclaim counted as direct: $v $(cat "$scratch/memcg-kernels.out")"
# direct and memcg reclaim at once on 7.3: the memcg reclaim events'
# pages come out of pgscan_direct/pgsteal_direct (174517 = 147521 +
# 26996, as the report's consistency section holds the sum to the events)
"$MMSCOPE" compare --width 80 --metrics direct-scanned,direct-reclaimed \
	"g=$rec/memcg-global-7.3.dat" >"$scratch/mg.out"
"$MMSCOPE" report --section consistency "$rec/memcg-global-7.3.dat" >"$scratch/mg.cons"
grep -q "^Pages direct scanned  *pages  *147521$" "$scratch/mg.out" &&
	grep -q "^Pages direct reclaimed  *pages  *122709$" "$scratch/mg.out" &&
	grep -q "its 26996/23798 pages (memcg reclaim events)" "$scratch/mg.out" &&
	grep -q "^direct scanned  *174517  = pgscan_direct  *174517 agree" "$scratch/mg.cons" &&
	grep -q "^direct reclaimed  *146507  = pgsteal_direct  *146507 agree" "$scratch/mg.cons" &&
	ok "7.3 direct and memcg reclaim: the memcg events' part taken out" ||
	fail "7.3 direct+memcg split: $(cat "$scratch/mg.out")"
"$MMSCOPE" compare --width 80 --metrics reclaim \
	"72=$top_srcdir/tests/data/report/global-pressure-7.2.dat" >"$scratch/gp72.out"
grep -q "^Pages direct+memcg scanned  *pages  *17664$" "$scratch/gp72.out" &&
	! grep -q "^Pages direct scanned" "$scratch/gp72.out" &&
	! grep -q "^Percentage direct scans" "$scratch/gp72.out" &&
	grep -q "no memcg reclaim events" "$scratch/gp72.out" &&
	ok "7.2 without memcg reclaim events: direct+memcg rows" ||
	fail "7.2 direct+memcg: $(cat "$scratch/gp72.out")"

# Rows from the models: handoff outcomes (wake here, pick with
# defrag_mode), OOM kills (counter and trace), stall p50/p99/max.
report=$top_srcdir/tests/data/report
check rows --width 80 --metrics kswapd,oom,stall "oom=$report/oom-6.18.dat" \
	"gp=$report/global-pressure-7.2.dat" "defrag=$report/global-pressure-defrag-7.2.dat"

# Phases: anon-touch marks pass-1, pass-2 and pageout (mmscope phase NAME
# in the recorder's trace_marker); the report lists them, --phase compares
# one: counters from the sets begun in it against the last set before it.
ph176="big=$rec/phases176-1.dat,$rec/phases176-2.dat"
ph40="small=$rec/phases40-1.dat,$rec/phases40-2.dat"
check phase-pass-1 --width 80 --phase pass-1 "$ph176" "$ph40"
check phase-pageout --width 80 --phase pageout "$ph176" "$ph40"
# the phase's own length is a row, the report's duration of that phase
want=$("$MMSCOPE" report --format json --section phases "$rec/phases40-1.dat" | tr -d ' \n' |
	sed -n 's/.*"name":"pageout","start_s":[0-9.]*,"duration_s":\([0-9.]*\).*/\1/p')
got=$("$MMSCOPE" compare --format json --metrics phase-duration --phase pageout \
	"a=$rec/phases40-1.dat" | sed -n 's/.*"values": \[\([0-9.e-]*\)\].*/\1/p')
[ -n "$want" ] && awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' &&
	grep -q "^Phase duration  *s " "$scratch/phase-pageout.out" &&
	ok "--phase: Phase duration $got s = the report's $want s" ||
	fail "--phase: phase duration '$got', the report's '$want'"
# no file-page writes derived over a phase: nr_vmscan_write (a node
# counter folded from per-CPU deltas) lags pswpout (summed when read)
! grep -q "^Page writes file" "$scratch/phase-pageout.out" &&
	"$MMSCOPE" compare --format json --metrics page-writes-file "a=$rec/phases40-1.dat" |
	grep -q '"page-writes-file"' &&
	! "$MMSCOPE" compare --format json --phase pageout "a=$rec/phases40-1.dat" |
	grep -q '"page-writes-file"' &&
	ok "--phase: no Page writes file (whole runs keep it)" ||
	fail "--phase: Page writes file derived over a phase"
"$MMSCOPE" report --section phases "$rec/phases40-1.dat" >"$scratch/phases.out"
if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
	cp "$scratch/phases.out" "$golden/compare-phases-report.txt"
fi
cmp -s "$scratch/phases.out" "$golden/compare-phases-report.txt" && ok "report --section phases" ||
	fail "report phases: $(diff "$golden/compare-phases-report.txt" "$scratch/phases.out")"
"$MMSCOPE" report --format json --section phases "$rec/phases40-1.dat" |
	grep -q '"name": "pass-2"' && ok "report json phases" || fail "report json phases"
"$MMSCOPE" report "$rec/limit40-1.dat" | grep -q '^Phases$' &&
	fail "a report without phase markers has a phases section" ||
	ok "no phases section without markers"
"$MMSCOPE" compare --phase nosuch "a=$rec/phases40-1.dat" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "no phase 'nosuch' in this recording (its phases: pass-1, pass-2, pageout)" \
	"$scratch/err" && ok "--phase: an unknown phase names those there are" ||
	fail "--phase nosuch: $(cat "$scratch/err")"
"$MMSCOPE" compare --phase pass-1 "a=$rec/limit40-1.dat" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "it marks no phase" "$scratch/err" &&
	ok "--phase: a recording without markers" || fail "--phase, no markers: $(cat "$scratch/err")"
"$MMSCOPE" compare --phase pass-1 "a=$data/base-1.txt" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && ok "--phase: a metrics file is an error" || fail "--phase on a metrics file"
# the phases add up: pgfault over pass-1, pass-2 and pageout is the
# whole run's from the set before pass-1 on (no set begins before it
# but the first)
sum=0
for p in pass-1 pass-2 pageout; do
	v=$("$MMSCOPE" compare --format json --metrics major-faults --phase $p \
		"a=$rec/phases40-1.dat" | sed -n 's/.*"values": \[\([0-9.]*\)\].*/\1/p')
	sum=$((sum + ${v:-0}))
done
whole=$("$MMSCOPE" compare --format json --metrics major-faults "a=$rec/phases40-1.dat" |
	sed -n 's/.*"values": \[\([0-9.]*\)\].*/\1/p')
[ "$sum" -gt 0 ] && [ "$sum" -le "${whole:-0}" ] && ok "phases: major faults $sum of $whole" ||
	fail "phases: major faults add up to $sum, the whole run $whole"

# The regression gate: the smaller limit makes memcg reclaim stalls
# significantly worse (exit 3, the offending rows listed); the same
# setting against itself passes (exit 0), split either way.
"$MMSCOPE" compare --fail-on-regression --metrics stall "$big" "$small" >"$scratch/gate.out"
[ $? -eq 3 ] && grep -A1 "^  Time memcg reclaim stalled, small: 379.14 -> 601.19 ms$" \
	"$scratch/gate.out" | grep -q "^ *58.6% worse (lower is better), p=0.032$" &&
	ok "gate: worse stalls exit 3" || fail "gate: $(cat "$scratch/gate.out")"
want_rc=3
check gate --width 80 --fail-on-regression=10 "$big" "$small"
want_rc=0
# the regression list stays within 72 columns (issue 32 item 22)
sed -n '/^Regressions/,$p' "$scratch/gate.out" | awk 'length > 72 { bad = 1 } END { exit bad }' &&
	ok "gate: the regression list within 72 columns" ||
	fail "gate: a regression line past 72 columns"
# p is printed with the digits that keep it below alpha: 0.0497, not 0.05
# two runs a side from one file each: a copy, since a file named twice is
# refused as such
for f in p-base p-new nochange-base nochange-new; do cp "$data/$f.txt" "$scratch/$f-2.txt"; done
"$MMSCOPE" compare --fail-on-regression "a=$data/p-base.txt,$scratch/p-base-2.txt" \
	"b=$data/p-new.txt,$scratch/p-new-2.txt" >"$scratch/p.out"
[ $? -eq 3 ] && grep -q "p=0.0497$" "$scratch/p.out" && ! grep -q "p=0.05$" "$scratch/p.out" &&
	ok "gate: p=0.0497 printed below alpha 0.05" || fail "gate: p: $(cat "$scratch/p.out")"
# a count of failures is gated as its rate of attempts (issue 44 item 5):
# 64kB mTHP never (no attempts, fallback 0) against always (3400 of
# 16320 faults fell back) is no regression of "fault fallback 0 -> 3400"
# but a rate the baseline has none of, said so; a worse rate fails
never="never=$data/mthp-never-1.txt,$data/mthp-never-2.txt"
always="always=$data/mthp-always-1.txt,$data/mthp-always-2.txt"
worse="worse=$data/mthp-worse-1.txt,$data/mthp-worse-2.txt"
"$MMSCOPE" compare --fail-on-regression "$never" "$always" >"$scratch/rate.out" 2>&1
rc=$?
tr -s ' \n' '  ' <"$scratch/rate.out" >"$scratch/rate.flat"
[ $rc -eq 0 ] && ! grep -q '^Regressions' "$scratch/rate.out" &&
	grep -q 'mTHP 64kB fault fallback, always: 0 -> 3399.50 events; never has no mTHP 64kB fault fallback % (no attempts)' "$scratch/rate.flat" &&
	ok "gate: a fallback count from a baseline without attempts is not gated, said so" ||
	fail "gate: never -> always: exit $rc, $(cat "$scratch/rate.out")"
"$MMSCOPE" compare --fail-on-regression "$always" "$worse" >"$scratch/rate.out" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q '^  mTHP 64kB fault fallback %, worse: 20.83 -> 31.37 %' "$scratch/rate.out" &&
	! grep -q '^  mTHP 64kB fault fallback, worse' "$scratch/rate.out" &&
	ok "gate: a worse fallback rate fails, as the rate" ||
	fail "gate: always -> worse: exit $rc, $(cat "$scratch/rate.out")"
# the practical threshold (issue 44 item 6): a 0.3% change the t-test
# finds (p 0.0008) gets no star and no colour; a count from a mean of 0.5
# gets no percentage (+25700%), n/a, in text, HTML and JSON
sm="a=$data/small-base-1.txt,$data/small-base-2.txt b=$data/small-new-1.txt,$data/small-new-2.txt"
# shellcheck disable=SC2086 # two words
"$MMSCOPE" compare $sm >"$scratch/sm.out" 2>&1
grep -q '^Swap in  *pages  *100005  *100306  *+0.3% *$' "$scratch/sm.out" &&
	grep -q '^Major Faults  *events  *0.50  *129  *n/a\*$' "$scratch/sm.out" &&
	ok "text: +0.3% without a star, no percentage from 0.50" || fail "text: $(cat "$scratch/sm.out")"
# shellcheck disable=SC2086 # two words
"$MMSCOPE" compare -f html $sm >"$scratch/sm.html" 2>&1
grep -q '<td>100306</td><td class="">+0.3%</td>' "$scratch/sm.html" &&
	grep -q '<td>129</td><td>n/a</td>' "$scratch/sm.html" && ! grep -q '25700' "$scratch/sm.html" &&
	ok "html: +0.3% neither red nor bold, n/a from 0.50" ||
	fail "html: $(grep -E 'Swap in|Major Faults' "$scratch/sm.html")"
# shellcheck disable=SC2086 # two words
"$MMSCOPE" compare -f json $sm | grep -q '"values": \[128, 130\], "stats": {"mean": {"value": 129, "change_pct": null}}' &&
	ok "json: change_pct null from 0.50" || fail "json: a change_pct from 0.50"
# no star on a change that prints as none (+0.0%), in either dialect
nc="a=$data/nochange-base.txt,$scratch/nochange-base-2.txt b=$data/nochange-new.txt,$scratch/nochange-new-2.txt"
# shellcheck disable=SC2086 # two words
"$MMSCOPE" compare $nc >"$scratch/nc.out" &&
	"$MMSCOPE" compare -d mmtests --stats mean $nc >>"$scratch/nc.out" &&
	grep -q "+0.0% *$" "$scratch/nc.out" && grep -q "(  -0.00%)$" "$scratch/nc.out" &&
	! grep -q '\*' "$scratch/nc.out" && ok "no star on a change that prints as zero" ||
	fail "stars on no change: $(cat "$scratch/nc.out")"
for split in "1 2:3 4 5" "1 2 3:4 5" "1 3 5:2 4"; do
	a=$(for i in ${split%:*}; do printf '%s,' "$rec/limit176-$i.dat"; done)
	b=$(for i in ${split#*:}; do printf '%s,' "$rec/limit176-$i.dat"; done)
	"$MMSCOPE" compare --fail-on-regression "a=${a%,}" "b=${b%,}" >"$scratch/same.out"
	[ $? -eq 0 ] && ! grep -q Regressions "$scratch/same.out" &&
		ok "gate: same setting ($split) exits 0" || fail "gate: same setting ($split): $(cat "$scratch/same.out")"
done
"$MMSCOPE" compare --format json --fail-on-regression --metrics stall "$big" "$small" \
	>"$scratch/gate.json" 2>"$scratch/gate.err"
[ $? -eq 3 ] && grep -q "Time memcg reclaim stalled" "$scratch/gate.err" &&
	{ ! command -v python3 >/dev/null ||
	  python3 -c 'import json, sys; json.load(sys.stdin)' <"$scratch/gate.json"; } &&
	ok "gate with JSON: exit 3, the list on stderr, stdout one document" ||
	fail "gate with JSON: $(cat "$scratch/gate.err")"
"$MMSCOPE" compare --fail-on-regression=200 --metrics stall "$big" "$small" >/dev/null
[ $? -eq 0 ] && ok "gate: a threshold above the change exits 0" || fail "gate: --fail-on-regression=200"
# one run a side: nothing can be tested; it says so and exits 4, not 0
"$MMSCOPE" compare --fail-on-regression "a=$rec/limit176-1.dat" "b=$rec/limit40-1.dat" \
	>"$scratch/one.out"
[ $? -eq 4 ] && grep -q "^Regression gate: no row could be tested (a: 1 run, b: 1 run):" \
	"$scratch/one.out" && ok "gate: one run a side: no row tested, exit 4" ||
	fail "gate: one run a side: $(tail -3 "$scratch/one.out")"
"$MMSCOPE" compare --fail-on-regression "a=$rec/limit176-1.dat,$rec/limit176-2.dat" \
	>"$scratch/base.out"
[ $? -eq 4 ] && grep -q "^Regression gate: no row could be tested: a baseline only" \
	"$scratch/base.out" && ok "gate: a baseline alone tests nothing, exit 4" ||
	fail "gate: baseline alone: $(tail -3 "$scratch/base.out")"
# a column of one run among tested ones is named, the gate still decides
"$MMSCOPE" compare --fail-on-regression=200 --metrics stall "$big" "$small" \
	"c=$rec/limit40-1.dat" >"$scratch/some.out"
[ $? -eq 0 ] && grep -q "columns not tested (c: 1 run)" "$scratch/some.out" &&
	ok "gate: a one-run column is named as not tested" ||
	fail "gate: one-run column: $(tail -3 "$scratch/some.out")"
"$MMSCOPE" compare --fail-on-regression=x "$big" >/dev/null 2>&1
[ $? -eq 2 ] && ok "gate: bad percentage is a usage error" || fail "gate: bad percentage"

# Errors: runtime errors exit 1, usage errors 2.
"$MMSCOPE" compare "a=$data/nonexistent.txt" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "nonexistent.txt" "$scratch/err" && ok "missing file: exit 1" ||
	fail "missing file: $(cat "$scratch/err")"
"$MMSCOPE" compare "a=$data/bad.txt" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "line 1: 'twelve' is not a number" "$scratch/err" &&
	ok "bad metrics file: exit 1" || fail "bad metrics file: $(cat "$scratch/err")"
"$MMSCOPE" compare "$data/no-such-run.dat" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "neither a file nor NAME=FILE" "$scratch/err" &&
	ok "neither a file nor NAME=: exit 2" || fail "a missing bare file: $(cat "$scratch/err")"
# a bare FILE is a column called after it: the same table as NAME=FILE
"$MMSCOPE" compare --width 80 "$rec/swappiness60.dat" "$rec/swappiness100.dat" \
	>"$scratch/bare" 2>&1
"$MMSCOPE" compare --width 80 "swappiness60=$rec/swappiness60.dat" \
	"swappiness100=$rec/swappiness100.dat" >"$scratch/named" 2>&1
cmp -s "$scratch/bare" "$scratch/named" && grep -q swappiness100 "$scratch/bare" &&
	ok "bare FILEs: columns called after them" ||
	fail "bare FILEs differ from NAME=FILE: $(diff "$scratch/bare" "$scratch/named" | head -5)"
"$MMSCOPE" compare --width 80 --metrics duration "$rec/" "x=$rec/swappiness60.dat" 2>&1 |
	grep -q " unit  *compare  *x$" && ok "a bare DIR/ is a column called after the directory" ||
	fail "bare DIR: $("$MMSCOPE" compare --width 80 --metrics duration "$rec/" "x=$rec/swappiness60.dat" 2>&1 | head -3)"
"$MMSCOPE" compare --stats mean,p0 "a=$data/base-1.txt" >/dev/null 2>&1
[ $? -eq 2 ] && ok "bad --stats: exit 2" || fail "bad --stats is not a usage error"
"$MMSCOPE" compare --list-metrics | grep -q '^kswapd-efficiency .*pct(@kswapd-reclaimed' &&
	ok "--list-metrics" || fail "--list-metrics"
finish
