#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The findings section (issue 33): it opens the report (after the header,
# before Run) in at most 10 lines of at most 72 columns; "--section
# findings" alone prints every finding in full, as
# tests/golden/report-findings-NAME.txt holds; each finding's count is the
# figure of the JSON section it comes from (tests/oracle/findings.py), on
# every real recording; and the quiet recording (record -- sleep 2) yields
# no warning or critical finding.
# MMSCOPE_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed"
golden="$top_srcdir/tests/golden"
data="$top_srcdir/tests/data"

# the section in full, on a recording per kind of finding
for f in "$data/report/global-pressure-reclaim-6.1.dat" "$data/report/oom-6.18.dat" \
	"$data/report/quiet-6.18.dat" "$top_srcdir/samples/zswap-6.12.dat" \
	"$data/swap/mthp-frag-6.12.dat" "$data/report/lossy-6.18.dat" \
	"$data/report/mthp-fallback-6.18.dat" "$data/report/memcg-rounding-6.18.dat"; do
	name=$(basename "$f" .dat)
	want="$golden/report-findings-$name.txt"
	"$MMSCOPE" report --section findings "$f" >"$scratch/$name.txt" ||
		{ fail "$name: report --section findings exited $?"; continue; }
	if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
		cp "$scratch/$name.txt" "$want"
		ok "$name: golden updated"
	elif diff -u "$want" "$scratch/$name.txt" >&2; then
		ok "$name: findings section matches"
	else
		fail "$name: findings section differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
	fi
	awk 'length > 72 { bad = 1 } END { exit bad }' "$scratch/$name.txt" ||
		fail "$name: --section findings lines wider than 72 columns"
done

# in the full report: right after the header, at most 10 lines
for f in "$top_srcdir"/samples/*.dat "$data"/report/*.dat "$data"/swap/*.dat; do
	name=$(basename "$f" .dat)
	"$MMSCOPE" report "$f" >"$scratch/all.txt" || { fail "$name: report failed"; continue; }
	awk '/^-+$/ { if (prev != "") titles[++n] = prev } { prev = $0 }
	     END { exit !(titles[1] ~ /^mmscope report/ && titles[2] == "Findings" &&
			  titles[3] == "Run") }' "$scratch/all.txt" ||
		fail "$name: Findings is not the section after the header, before Run"
	lines=$(awk '/^Findings$/ { on = 1; getline; next } on && /^$/ { exit } on { n++ }
		     END { print n + 0 }' "$scratch/all.txt")
	[ "$lines" -ge 1 ] && [ "$lines" -le 10 ] ||
		fail "$name: the findings section has $lines lines (1 to 10)"
done
ok "the section opens every report in 1 to 10 lines"

# the negative control: nothing above info on an idle machine
"$MMSCOPE" report --format json --section findings "$data/report/quiet-6.18.dat" \
	>"$scratch/quiet.json" || fail "quiet: json report failed"
python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["findings"]
bad = [x["id"] for x in f if x["severity"] != "info"]
sys.exit("quiet recording: " + ", ".join(bad) if bad else 0)' "$scratch/quiet.json" ||
	fail "the quiet recording has a warning or critical finding"
grep -q '^none: no rule fired' "$scratch/quiet-6.18.txt" ||
	fail "the quiet recording's findings section does not say none fired"

# a positive per id the bundled recordings can give, with its severity
while read -r rec id sev; do
	"$MMSCOPE" report --format json --section findings "$top_srcdir/$rec" >"$scratch/p.json" ||
		{ fail "$rec: report failed"; continue; }
	python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["findings"]
sys.exit(0 if any(x["id"] == sys.argv[2] and x["severity"] == sys.argv[3] for x in f) else 1)' \
		"$scratch/p.json" "$id" "$sev" || fail "$rec: no $sev $id finding"
done <<'LIST'
tests/data/report/oom-6.18.dat oom-kill critical
tests/data/report/lossy-6.18.dat data-loss warning
tests/data/report/mthp-fallback-6.18.dat mthp-fallback critical
samples/mthp-frag-7.3.dat mthp-fallback info
samples/mthp-frag-7.3.dat swap-cluster-exhausted warning
tests/data/report/global-pressure-reclaim-6.1.dat handoff-missing warning
tests/data/report/global-pressure-reclaim-6.1.dat kcompactd-asleep-stalls warning
tests/data/report/global-pressure-reclaim-6.1.dat direct-reclaim-stalls critical
tests/data/report/memcg-rounding-6.18.dat memcg-scan-rounding warning
tests/data/report/mthp-fallback-6.18.dat memcg-scan-rounding warning
samples/zswap-6.12.dat memcg-scan-rounding info
samples/mthp-frag-7.3.dat swap-free-scattered info
tests/data/swap/mthp-frag-6.1.dat swap-free-scattered info
samples/global-pressure-6.12.dat direct-reclaim-stalls warning
samples/zswap-6.12.dat memcg-reclaim-stalls warning
tests/data/report/oom-6.18.dat memcg-reclaim-stalls info
samples/zswap-6.12.dat zswap-writeback warning
samples/zswap-6.12.dat zswap-reject warning
LIST
ok "a positive recording per id the bundled recordings can give"

# counts are the sections' figures, on every real recording
# shellcheck disable=SC2086
python3 "$top_srcdir/tests/oracle/findings.py" json "$MMSCOPE" \
	"$top_srcdir"/samples/*.dat "$data"/report/*.dat "$data"/swap/*.dat \
	"$data"/compare/*.dat >"$scratch/json.out" ||
	{ cat "$scratch/json.out" >&2; fail "a finding's count differs from its section's"; }
# and in a window, and for one task: the findings are of what the scope keeps
FINDINGS_SCOPE="--since 10 --until 12" python3 "$top_srcdir/tests/oracle/findings.py" json \
	"$MMSCOPE" "$data/report/global-pressure-reclaim-6.1.dat" >"$scratch/json.out" ||
	{ cat "$scratch/json.out" >&2; fail "windowed: a finding's count differs from its section's"; }
FINDINGS_SCOPE="--pid 129" python3 "$top_srcdir/tests/oracle/findings.py" json \
	"$MMSCOPE" "$data/report/global-pressure-reclaim-6.1.dat" >"$scratch/json.out" ||
	{ cat "$scratch/json.out" >&2; fail "--pid: a finding's count differs from its section's"; }

# the export's findings table: the report's findings, row for row
for f in "$data/report/global-pressure-reclaim-6.1.dat" "$top_srcdir/samples/zswap-6.12.dat" \
	"$data/report/quiet-6.18.dat"; do
	name=$(basename "$f" .dat)
	rm -rf "$scratch/ex"
	"$MMSCOPE" export -f jsonl -o "$scratch/ex" "$f" || { fail "$name: export failed"; continue; }
	"$MMSCOPE" report --format json --section findings "$f" >"$scratch/r.json" ||
		fail "$name: report failed"
	python3 - "$scratch/ex/findings.jsonl" "$scratch/r.json" <<'PY' ||
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rep = json.load(open(sys.argv[2]))["findings"]
def ns(t):
    return None if t is None else round(t * 1e9)
got = [(r["id"], r["severity"], r["count"], r["node"], r["alloc_order"]) for r in rows]
want = [(f["id"], f["severity"], f["count"], f["node"], f["order"]) for f in rep]
assert got == want, (got, want)
for r, f in zip(rows, rep):
    for k in ("t_start", "t_end"):
        assert (r[k + "_ns"] is None) == (f[k] is None), k
        assert r[k + "_ns"] is None or abs(r[k + "_ns"] - ns(f[k])) <= 1000, k
PY
		fail "$name: export findings differ from the report's"
done
ok "export's findings table holds the report's findings"

# a trace-cmd recording without samples or the oom group: its empty
# findings list stands beside the rules that could not run, by id
"$MMSCOPE" report -f json "$top_srcdir/samples/compaction-6.18.dat" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ids = [r["id"] for r in d["findings_not_run"]]
assert "oom-kill" in ids and "mthp-fallback" in ids, ids
assert all(r["needs"] for r in d["findings_not_run"])
assert not set(ids) & set(f["id"] for f in d["findings"])
' && ok "JSON names the rules that could not run (findings_not_run)" ||
	fail "JSON findings_not_run missing or wrong on compaction-6.18"
finish
