# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/export/sqlite.sh and clickhouse.sh: the recordings of
# several kernels, exported into one directory, and their reports.
# Sets $recs and fills $scratch/out (the tables) and $scratch/reports.
recs="$top_srcdir/samples/*.dat $top_srcdir/tests/data/report/*.dat"

export_fleet() {
	# shellcheck disable=SC2086
	"$MMSCOPE" export -o "$scratch/out" $recs || fail "export failed"
	mkdir -p "$scratch/reports"
	tail -n +2 "$scratch/out/recordings.csv" | cut -d, -f1,2 | while IFS=, read -r id file; do
		"$MMSCOPE" report --format json "$file" >"$scratch/reports/$id.json" ||
			fail "report of $file failed"
	done
	kernels=$(tail -n +2 "$scratch/out/recordings.csv" | cut -d, -f4 | cut -d. -f1,2 | sort -u |
		  tr '\n' ' ')
	ok "exported $(($(wc -l <"$scratch/out/recordings.csv") - 1)) recordings of kernels $kernels"
}
