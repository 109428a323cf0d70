#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fleet queries under a cluster (issue 42): two clickhouse-server
# processes of the test's own on loopback ports are the two shards of
# cluster "fleet", loaded with `mmscope export --schema clickhouse
# --cluster fleet` (TABLE_local on each, TABLE Distributed over them) and
# rows for 60 hosts made from the bundled recordings (tests/fleet/gen.py),
# inserted through the Distributed tables; the first server also holds
# every row in plain tables of database "whole". Every query of
# samples/queries/clickhouse gives the same rows from the Distributed
# tables as from "whole", both shards hold rows, and each shard holds the
# recordings row of every event row it holds (the sharding keeps a
# recording together, so joins are answered per shard). The servers are
# stopped on any exit. Skips, saying why, without clickhouse-server.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/export/fleet-queries.sh"
. "$top_srcdir/tests/fleet/lib-ch.sh"
. "$top_srcdir/tests/fleet/lib-load.sh"
command -v python3 >/dev/null || skip "python3 not installed"
ch_have || skip "clickhouse-server/clickhouse-client not installed (tests/install-deps.sh --ci installs them)"
trap 'ch_stop_all; rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM
qd="$top_srcdir/samples/queries/clickhouse"
hosts=60

# shellcheck disable=SC2086
"$MMSCOPE" export --csv-null '\N' -o "$scratch/src" $recs || fail "export failed"
python3 "$top_srcdir/tests/fleet/gen.py" "$scratch/src" "$scratch/fleet" $hosts >"$scratch/gen" ||
	fail "gen.py failed"
rows=$(sed -n 's/^rows=\([0-9]*\) .*/\1/p' "$scratch/gen")

# the shards' ports first: each server's config names both
set -- $(ch_ports 2)
ch_shards="$1 $2"
# both start at once
CH_NOWAIT=1 ch_start a "$scratch/a" fleet "$1" && CH_NOWAIT=1 ch_start b "$scratch/b" fleet "$2" &&
	ch_wait a && ch_wait b || { fail "the servers did not start"; finish; }
"$MMSCOPE" export --schema clickhouse --cluster fleet >"$scratch/cluster.sql" ||
	fail "--schema clickhouse --cluster failed"
for s in a b; do
	ch_schema_each $s "$scratch/cluster.sql" || fail "the cluster schema does not load on $s"
done
ch_q a -q "CREATE DATABASE whole" || fail "CREATE DATABASE whole failed"
"$MMSCOPE" export --schema clickhouse | ch_q a --database whole --multiquery ||
	fail "the schema does not load into whole"
ch_load a "$scratch/fleet" || fail "inserting through the Distributed tables failed"
ch_load a "$scratch/fleet" whole || fail "inserting into whole failed"

# every row arrived, on both shards, a recording's rows on one shard
rows_of() {	# SERVER DB: "table rows" of its active parts
	ch_q "$1" -q "SELECT table, sum(rows) FROM system.parts
		WHERE active AND database = '$2' GROUP BY table ORDER BY table"
}
rows_of a default | sed 's/_local	/	/' >"$scratch/na"
rows_of b default | sed 's/_local	/	/' >"$scratch/nb"
rows_of a whole >"$scratch/nw"
python3 - "$scratch/na" "$scratch/nb" "$scratch/nw" "$scratch/fleet" <<'PY' || fail "rows lost or not sharded"
import csv, os, sys
na, nb, nw = ({t: int(n) for t, n in (l.split("\t") for l in open(p))} for p in sys.argv[1:4])
d, bad = sys.argv[4], []
for f in sorted(os.listdir(d)):
    t = f[:-4]
    want = sum(1 for _ in csv.reader(open(os.path.join(d, f), newline=""))) - 1
    a, b, w = na.get(t, 0), nb.get(t, 0), nw.get(t, 0)
    if a + b != want or w != want:
        bad.append("%s: %d + %d rows on the shards, %d in whole, %d in the CSV" % (t, a, b, w, want))
if not na.get("recordings") or not nb.get("recordings"):
    bad.append("recordings: %s and %s on the shards" % (na.get("recordings"), nb.get("recordings")))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# each shard holds the recording of each row it holds
sql=""
for f in "$scratch"/fleet/*.csv; do
	t=$(basename "$f" .csv)
	[ "$t" = recordings ] && continue
	sql="$sql${sql:+ UNION ALL }SELECT '$t', count() FROM ${t}_local
		WHERE recording_id NOT IN (SELECT recording_id FROM recordings_local)"
done
for s in a b; do
	ch_q $s -q "$sql" >"$scratch/orphans" || fail "the orphan query failed on $s"
	awk '$2 != 0' "$scratch/orphans" | grep . &&
		fail "rows on shard $s without their recording there"
done
ok "$rows rows of $hosts hosts on 2 shards ($(grep -w recordings "$scratch/nb" | cut -f2) recordings on the second), each recording on one"

# the queries: the Distributed tables answer as one server holding all
mkdir -p "$scratch/d" "$scratch/w"
n=0
for f in "$qd"/*.sql; do
	q=$(basename "$f")
	ch_q a --multiquery <"$f" >"$scratch/d/$q" 2>"$scratch/err" ||
		{ fail "Distributed: $q: $(head -c 600 "$scratch/err")"; continue; }
	ch_q a --database whole --multiquery <"$f" >"$scratch/w/$q" 2>"$scratch/err" ||
		{ fail "whole: $q: $(head -c 600 "$scratch/err")"; continue; }
	python3 "$top_srcdir/tests/fleet/results.py" "$scratch/w/$q" "$scratch/d/$q" "$q" ||
		fail "$q: the Distributed tables and one server answer differently"
	n=$((n + 1))
done
[ "$(cat "$scratch"/w/*.sql | wc -l)" -gt 0 ] || fail "no query had rows"
ok "$n queries: the Distributed tables over 2 shards answer as one server with every row ($(cat "$scratch"/w/*.sql | wc -l) rows)"
ch_stop_all
for s in a b; do
	kill -0 "$(eval echo "\$ch_pid_$s")" 2>/dev/null && fail "server $s still runs"
done
finish
