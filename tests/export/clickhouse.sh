#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export into a real ClickHouse server (Debian's 18.16): the test
# starts its own on free ports of 127.0.0.1 with a private data directory
# (clickhouse-server --config-file, a small config written here), creates
# the tables from `mmscope export --schema clickhouse` (MergeTree), loads
# the CSV tables (--csv-null '\N', INSERT ... FORMAT CSVWithNames) and the
# JSON Lines ones (FORMAT JSONEachRow, into a second database), runs the
# fleet queries and holds them to `mmscope report --format json` of each
# recording (tests/export/fleet.py); the server is stopped by its PID.
# Skips only when the clickhouse packages are missing and cannot be
# installed (tests/install-deps.sh --ci installs them).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/export/fleet-queries.sh"
command -v python3 >/dev/null || skip "python3 not installed"

if ! command -v clickhouse-server >/dev/null || ! command -v clickhouse-client >/dev/null; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			-o DPkg::Lock::Timeout=300 clickhouse-server clickhouse-client \
			>"$scratch/apt.log" 2>&1
	fi
	command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null ||
		skip "clickhouse-server/clickhouse-client not installed and not installable here" \
			"($(tail -1 "$scratch/apt.log" 2>/dev/null))"
fi

# two free ports (tcp, http): bound by the kernel, released, then taken
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
tcp=$1 http=$2
ch="$scratch/ch"
mkdir -p "$ch/data" "$ch/tmp" "$ch/user_files" "$ch/format_schemas"
cat >"$ch/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
XML
cat >"$ch/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$ch/server.log</log>
    <errorlog>$ch/server.err</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$tcp</tcp_port>
  <http_port>$http</http_port>
  <path>$ch/data/</path>
  <tmp_path>$ch/tmp/</tmp_path>
  <user_files_path>$ch/user_files/</user_files_path>
  <format_schema_path>$ch/format_schemas/</format_schema_path>
  <users_config>$ch/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
</yandex>
XML
clickhouse-server --config-file="$ch/config.xml" >"$ch/stdout" 2>&1 &
pid=$!
stop_server() {
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -9 "$pid" 2>/dev/null
}
trap 'stop_server; rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM
q() { clickhouse-client --host 127.0.0.1 --port "$tcp" "$@"; }
for _ in $(seq 150); do
	q -q "SELECT 1" >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.2
done
q -q "SELECT 1" >/dev/null 2>&1 ||
	{ fail "the server did not start: $(tail -3 "$ch/server.err" "$ch/stdout" 2>/dev/null)"; finish; }
ok "ClickHouse $(q -q 'SELECT version()') on port $tcp, data in the test's directory"

# CSV with \N for "not measured" into default, JSON Lines into db jl
# shellcheck disable=SC2086
"$MMSCOPE" export --csv-null '\N' -o "$scratch/out" $recs || fail "export csv failed"
# shellcheck disable=SC2086
"$MMSCOPE" export -f jsonl -o "$scratch/jl" $recs || fail "export jsonl failed"
reports "$scratch/out/recordings.csv"
"$MMSCOPE" export --schema clickhouse >"$scratch/schema.sql"
q --multiquery <"$scratch/schema.sql" || fail "the schema does not load"
q -q "CREATE DATABASE jl" || fail "CREATE DATABASE failed"
q --database jl --multiquery <"$scratch/schema.sql" || fail "the schema does not load in jl"
for f in "$scratch"/out/*.csv; do
	t=$(basename "$f" .csv)
	q -q "INSERT INTO $t FORMAT CSVWithNames" <"$f" || fail "CSV insert into $t failed"
	q --database jl -q "INSERT INTO $t FORMAT JSONEachRow" <"$scratch/jl/$t.jsonl" ||
		fail "JSONEachRow insert into $t failed"
	n=$(q -q "SELECT count() FROM $t")
	want=$(csv_rows "$f")
	[ "$n" -eq "$want" ] || fail "$t: $n rows, not $want"
	# the two formats load the same rows, nulls included
	a=$(q -q "SELECT sum(cityHash64(*)) FROM $t")
	b=$(q --database jl -q "SELECT sum(cityHash64(*)) FROM $t")
	[ "$a" = "$b" ] || fail "$t: CSV and JSON Lines load different rows"
done
ok "loaded $(ls "$scratch"/out/*.csv | wc -l) tables as CSVWithNames and JSONEachRow"
[ "$(q -q "SELECT count() FROM stalls WHERE isNull(comm)")" -eq \
  "$(python3 -c "import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)['comm'] is None))" \
	"$scratch/jl/stalls.jsonl")" ] || fail "nulls did not load as NULL"

q -q "SELECT recording_id, file FROM recordings" >"$scratch/ids"
q -q "SELECT recording_id, n FROM recordings ANY LEFT JOIN
      (SELECT recording_id, count() AS n FROM kswapd_episodes GROUP BY recording_id)
      USING recording_id" >"$scratch/episodes"
q -q "SELECT recording_id, alloc_order, sum(tries), sum(fallback), sum(swpout_folios),
             sum(swpout_fallback_folios)
      FROM swap_orders GROUP BY recording_id, alloc_order" >"$scratch/orders"
q -q "SELECT recording_id, kind, count(), max(duration_ns),
             arraySort(groupArray(duration_ns))[intDiv(count() * 99 + 99, 100)]
      FROM stalls GROUP BY recording_id, kind" >"$scratch/stalls"
python3 "$top_srcdir/tests/export/fleet.py" "$scratch/reports" "$scratch/ids" "$scratch/episodes" \
	"$scratch/orders" "$scratch/stalls" || fail "ClickHouse's answers differ from the reports"
ok "fleet queries in ClickHouse agree with the reports"

# mmscope-export(5)'s JSON Lines loading example, run as printed (roff
# escapes undone) on an export with tables without rows, into database ex
awk '/^\.SS "Loading"/ { on = 1; next } on && /^\.S[HS]/ { exit }
	on && /^\.EX/ { k++; ex = 1; next } on && /^\.EE/ { ex = 0; next }
	on && ex && k == 2 { print }' "$top_srcdir/man/mmscope-export.5" |
	sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g' >"$scratch/ex.sh"
mkdir -p "$scratch/ex/bin"
printf '#!/bin/sh\nexec %s --host 127.0.0.1 --port %s --database ex "$@"\n' \
	"$(command -v clickhouse-client)" "$tcp" >"$scratch/ex/bin/clickhouse-client"
chmod +x "$scratch/ex/bin/clickhouse-client"
ln -s "$(cd "$(dirname "$MMSCOPE")" && pwd)/$(basename "$MMSCOPE")" "$scratch/ex/bin/mmscope"
q -q "CREATE DATABASE ex" || fail "CREATE DATABASE ex failed"
"$MMSCOPE" export -f jsonl -o "$scratch/ex/out" "$top_srcdir/tests/data/report/run-memcg-6.18.dat" ||
	fail "export jsonl of one recording failed"
grep -q 'JSONEachRow' "$scratch/ex.sh" || fail "no JSON Lines example in mmscope-export(5)"
(cd "$scratch/ex" && PATH="$scratch/ex/bin:$PATH" sh -e "$scratch/ex.sh") ||
	fail "mmscope-export(5)'s ClickHouse example failed"
nempty=0
for f in "$scratch"/ex/out/*.jsonl; do
	t=$(basename "$f" .jsonl)
	[ -s "$f" ] || nempty=$((nempty + 1))
	[ "$(q --database ex -q "SELECT count() FROM $t")" -eq "$(wc -l <"$f")" ] ||
		fail "example: $t has not the file's $(wc -l <"$f") rows"
done
[ "$nempty" -gt 0 ] && ok "mmscope-export(5)'s example loads a JSON Lines export with $nempty empty tables" ||
	fail "the example was not tried on an empty table"
stop_server
kill -0 "$pid" 2>/dev/null && fail "the server (pid $pid) did not stop"
finish
