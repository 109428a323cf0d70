# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the fleet tests and bench.sh: loading an export's tables.
#   sqlite_load DB DIR     the schema (mmscope export --schema sqlite), then
#                          each DIR/TABLE.csv (written with --csv-null '\N')
#                          by .import, then \N made NULL in every nullable
#                          column, as mmscope-export(5) shows for ''
#   sqlite_run DB FILE     the query in FILE, rows tab-separated, \N for null
#   ch_load NAME DIR [DB]  each DIR/TABLE.csv into server NAME's tables
#                          (INSERT ... FORMAT CSVWithNames, over HTTP:
#                          tests/fleet/ch-insert.py)
sqlite_load() {
	"$MMSCOPE" export --schema sqlite | sqlite3 "$1" || return 1
	for _f in "$2"/*.csv; do
		sqlite3 "$1" ".import --csv --skip 1 $_f $(basename "$_f" .csv)" || return 1
	done
	"$MMSCOPE" export --schema sqlite | awk '
		/^CREATE TABLE/ { t = $6 }
		/^  "/ && !/NOT NULL/ { printf "UPDATE %s SET %s = NULL WHERE %s = \x27\\N\x27;\n", t, $1, $1 }' |
		sqlite3 "$1"
}

sqlite_run() {
	sqlite3 -bail -batch -noheader -separator '	' -nullvalue '\N' "$1" <"$2"
}

ch_load() {
	python3 "$top_srcdir/tests/fleet/ch-insert.py" "$(eval echo "\$ch_http_$1")" "${3:-default}" "$2"
}
