#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fleet benchmark (issue 42; not part of make check): the bundled
# recordings (samples/, tests/data) exported once, made into the rows of
# FLEET_HOSTS (default 1000) hosts' recordings by tests/fleet/gen.py
# (distinct host and recording ids, kernels, wall-clock starts), then
#  - ClickHouse: two clickhouse-server processes on loopback ports (their
#    configs written here, a remote_servers cluster "fleet" of two shards),
#    the tables of `mmscope export --schema clickhouse --cluster fleet`,
#    every table's CSV inserted through its Distributed table (synchronous:
#    the time includes the rows reaching both shards): ingest rows/s; the
#    shards' compression (system.columns: uncompressed / compressed bytes
#    of every column of every local table); each query of
#    samples/queries/clickhouse run 3 times, the longest of all times
#    clickhouse-client --time gives (the query's, not the client's start);
#  - SQLite: the same CSV loaded as mmscope-export(5) shows, each query of
#    samples/queries/sqlite run once, the longest wall time (sqlite3 with
#    the query).
# Both dialects' answers are compared (a difference is said on stderr and
# fails the run). Prints one line:
#   fleet: recordings=N shards=S ingest_rows_per_s=R compression=C query_max_s=Q sqlite_query_max_s=Q2
# The data goes to a directory under /var/tmp (FLEET_TMP), removed at the
# end with the servers stopped, whatever ends the script.
# usage: tests/fleet/bench.sh   (MMSCOPE: the binary, default ./mmscope)
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
MMSCOPE=${MMSCOPE:-./mmscope}
. "$top_srcdir/tests/export/fleet-queries.sh"
. "$top_srcdir/tests/fleet/lib-ch.sh"
. "$top_srcdir/tests/fleet/lib-load.sh"
export LC_ALL=C
hosts=${FLEET_HOSTS:-1000}
die() { echo "bench.sh: $*" >&2; exit 1; }
ch_have || die "clickhouse-server/clickhouse-client not installed (tests/install-deps.sh --ci)"
command -v sqlite3 >/dev/null && command -v python3 >/dev/null || die "needs sqlite3 and python3"
[ -x "$MMSCOPE" ] || die "no mmscope at $MMSCOPE (set MMSCOPE)"
w=$(mktemp -d "${FLEET_TMP:-/var/tmp}/mmscope-fleet.XXXXXX") || die "no directory under /var/tmp"
trap 'ch_stop_all; rm -rf "$w"' EXIT
trap 'exit 1' INT TERM
now() { date +%s.%N; }
qd="$top_srcdir/samples/queries"

# shellcheck disable=SC2086
"$MMSCOPE" export --csv-null '\N' -o "$w/src" $recs 2>"$w/export.err" || die "export failed"
python3 "$top_srcdir/tests/fleet/gen.py" "$w/src" "$w/fleet" "$hosts" >"$w/gen" || die "gen.py failed"
rows=$(sed -n 's/^rows=\([0-9]*\) .*/\1/p' "$w/gen")
echo "bench.sh: $rows rows of $hosts recordings ($(du -sh "$w/fleet" | cut -f1) of CSV)" >&2

# two shards
set -- $(ch_ports 2)
ch_shards="$1 $2"
CH_NOWAIT=1 ch_start a "$w/a" fleet "$1" && CH_NOWAIT=1 ch_start b "$w/b" fleet "$2" &&
	ch_wait a && ch_wait b || die "the servers did not start"
"$MMSCOPE" export --schema clickhouse --cluster fleet >"$w/cluster.sql" || die "--schema failed"
for s in a b; do
	ch_schema_each $s "$w/cluster.sql" || die "the schema does not load on $s"
done
t0=$(now)
ch_load a "$w/fleet" || die "insert failed"
t1=$(now)
n=$(ch_q a -q "SELECT count() FROM recordings")
[ "$n" -eq "$hosts" ] || die "$n recordings in ClickHouse, not $hosts"
shards=$(ch_q a -q "SELECT count() FROM system.clusters WHERE cluster = 'fleet'")
for s in a b; do
	[ "$(ch_q $s -q 'SELECT count() FROM recordings_local')" -gt 0 ] || die "shard $s holds nothing"
done
ingest=$(python3 -c "import sys; print(round(int(sys.argv[1]) / (float(sys.argv[3]) - float(sys.argv[2]))))" \
	"$rows" "$t0" "$t1")
comp=$( (ch_q a -q "SELECT sum(data_uncompressed_bytes), sum(data_compressed_bytes) FROM system.columns WHERE database = 'default'"
	 ch_q b -q "SELECT sum(data_uncompressed_bytes), sum(data_compressed_bytes) FROM system.columns WHERE database = 'default'") |
	awk '{ u += $1; c += $2 } END { printf "%.1f", u / c }')

mkdir -p "$w/ch" "$w/sq"
# each query 3 times; its time is the client's --time (the query's, from
# sending it to its last row; the client's own start, 0.1-0.5 s, is not)
qmax=0
for f in "$qd"/clickhouse/*.sql; do
	q=$(basename "$f")
	for _ in 1 2 3; do
		ch_q a --time --multiquery <"$f" >"$w/ch/$q" 2>"$w/err" || die "ClickHouse: $q: $(head -c 400 "$w/err")"
		t=$(tail -1 "$w/err")
		qmax=$(python3 -c "import sys; print('%.3f' % max(float(sys.argv[1]), float(sys.argv[2])))" "$qmax" "$t")
		echo "bench.sh: clickhouse $q $t s, $(wc -l <"$w/ch/$q") rows" >&2
	done
done
ch_stop_all

db="$w/fleet.db"
t0=$(now)
sqlite_load "$db" "$w/fleet" || die "loading SQLite failed"
t1=$(now)
echo "bench.sh: SQLite loaded in $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1") s" >&2
smax=0
bad=0
for f in "$qd"/sqlite/*.sql; do
	q=$(basename "$f")
	t0=$(now)
	sqlite_run "$db" "$f" >"$w/sq/$q" 2>"$w/err" || die "SQLite: $q: $(head -c 400 "$w/err")"
	t1=$(now)
	smax=$(python3 -c "import sys; print('%.3f' % max(float(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2])))" "$smax" "$t0" "$t1")
	echo "bench.sh: sqlite $q $(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1") s" >&2
	python3 "$top_srcdir/tests/fleet/results.py" "$w/sq/$q" "$w/ch/$q" "$q" || bad=1
done
[ $bad -eq 0 ] || die "SQLite and ClickHouse answered differently"
echo "bench.sh: $(du -sh "$w" | cut -f1) in $w (removed now)" >&2
echo "fleet: recordings=$n shards=$shards ingest_rows_per_s=$ingest compression=$comp query_max_s=$qmax sqlite_query_max_s=$smax"
