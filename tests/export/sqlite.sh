#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export into SQLite (the sqlite3 CLI): the real recordings of
# several kernels exported into one directory, loaded with .import, and
# the fleet queries (kswapd episodes per recording, swap-out fallback per
# order, count, max and p99 of the stalls per kind) agree with what
# `mmscope report --format json` says of each recording (tests/export/fleet.py).
# The example query of every table in mmscope-export(5) runs.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/export/fleet-queries.sh"
command -v python3 >/dev/null || skip "python3 not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 not installed (tests/install-deps.sh)"

export_fleet
db="$scratch/fleet.db"
"$MMSCOPE" export --schema sqlite | sqlite3 "$db" || fail "the schema does not load"
for f in "$scratch"/out/*.csv; do
	t=$(basename "$f" .csv)
	sqlite3 "$db" ".import --csv --skip 1 $f $t" || fail "import of $t failed"
	n=$(sqlite3 "$db" "SELECT count(*) FROM $t")
	want=$(csv_rows "$f")
	[ "$n" -eq "$want" ] || fail "$t: $n rows in the db, not $want"
done
# .import reads an empty field as '': the nullable columns get their NULLs
"$MMSCOPE" export --schema sqlite | awk '
	/^CREATE TABLE/ { t = $6 }
	/^  "/ && !/NOT NULL/ { c = $1; printf "UPDATE %s SET %s = NULL WHERE %s = \x27\x27;\n", t, c, c }' |
	sqlite3 "$db" || fail "setting NULLs failed"
ok "loaded $(ls "$scratch"/out/*.csv | wc -l) tables into SQLite"

q() { sqlite3 -separator '	' -noheader "$db" "$1"; }
q "SELECT recording_id, file FROM recordings" >"$scratch/ids"
q "SELECT r.recording_id, count(e.begin_ns) FROM recordings r
   LEFT JOIN kswapd_episodes e ON e.recording_id = r.recording_id
   GROUP BY r.recording_id" >"$scratch/episodes"
q "SELECT recording_id, alloc_order, sum(tries), sum(fallback), sum(swpout_folios),
          sum(swpout_fallback_folios)
   FROM swap_orders GROUP BY recording_id, alloc_order" >"$scratch/orders"
q "WITH s AS (SELECT recording_id, kind, duration_ns,
                     row_number() OVER (PARTITION BY recording_id, kind ORDER BY duration_ns) AS rn,
                     count(*) OVER (PARTITION BY recording_id, kind) AS n FROM stalls)
   SELECT recording_id, kind, max(n), max(duration_ns),
          max(CASE WHEN rn = (n * 99 + 99) / 100 THEN duration_ns END)
   FROM s GROUP BY recording_id, kind" >"$scratch/stalls"
python3 "$top_srcdir/tests/export/fleet.py" "$scratch/reports" "$scratch/ids" "$scratch/episodes" \
	"$scratch/orders" "$scratch/stalls" || fail "SQLite's answers differ from the reports"
[ "$(wc -l <"$scratch/stalls")" -gt 1 ] || fail "no stalls to compare"
ok "fleet queries in SQLite agree with the reports"

# the man page's example queries run (one per table)
awk '/^\.SH TABLES/ { on = 1 } on && /^\.EX/ { ex = 1; q = ""; next }
     on && /^\.EE/ { ex = 0; print q; next } ex { q = q " " $0 }' \
	"$top_srcdir/man/mmscope-export.5" | sed 's/\\-/-/g; s/\\(aq/'"'"'/g' >"$scratch/examples"
n=0
while IFS= read -r sql; do
	n=$((n + 1))
	q "$sql" >/dev/null 2>"$scratch/err" || fail "example $n: $(cat "$scratch/err"): $sql"
done <"$scratch/examples"
[ $n -eq "$(ls "$scratch"/out/*.csv | wc -l)" ] || fail "$n examples for $(ls "$scratch"/out/*.csv | wc -l) tables"
ok "the $n example queries of mmscope-export(5) run"
finish
