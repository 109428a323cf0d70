# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/export/sqlite.sh and clickhouse.sh: the recordings of
# several kernels, exported into one directory, and their reports.
# Sets $recs and fills $scratch/out (the tables) and $scratch/reports.
recs="$top_srcdir/samples/*.dat $top_srcdir/tests/data/report/*.dat $top_srcdir/tests/data/cgroups/*.dat"

# csv_rows FILE: its rows (a quoted field, a command line, may hold
# newlines: no line count)
csv_rows() {
	python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' "$1"
}
# csv_cols FILE COL...: those columns of each row, tab-separated
csv_cols() {
	python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("\t".join(r[c] for c in sys.argv[2:]))' "$@"
}

# reports FILE.csv: each recording's JSON report, named by its id
reports() {
	mkdir -p "$scratch/reports"
	csv_cols "$1" recording_id file >"$scratch/ids"
	while IFS='	' read -r id file; do
		"$MMSCOPE" report --format json "$file" >"$scratch/reports/$id.json" ||
			fail "report of $file failed"
	done <"$scratch/ids"
}

export_fleet() {
	# shellcheck disable=SC2086
	"$MMSCOPE" export -o "$scratch/out" $recs || fail "export failed"
	reports "$scratch/out/recordings.csv"
	kernels=$(csv_cols "$scratch/out/recordings.csv" kernel | cut -d. -f1,2 | sort -u |
		  tr '\n' ' ')
	ok "exported $(csv_rows "$scratch/out/recordings.csv") recordings of kernels $kernels"
}
