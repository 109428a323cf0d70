#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fleet queries of samples/queries/ (issue 42): every SQLite query runs
# as it is on an export of the bundled recordings (samples/, tests/data),
# every ClickHouse one on a server of the test's own (tests/fleet/lib-ch.sh)
# loaded with the same export, and both dialects of each query give the
# same rows (tests/fleet/results.py); a query gives rows where the
# recordings hold what it asks about. Each file starts with its SPDX line
# and one comment line saying what it answers; the two folders name the
# same queries. README.md's example queries run as written in both
# dialects with the same answers, and the README's fleet queries are the
# files' own text. Without clickhouse-server the ClickHouse half cannot
# run, and the test skips after the SQLite half, saying so.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/export/fleet-queries.sh"
. "$top_srcdir/tests/fleet/lib-ch.sh"
. "$top_srcdir/tests/fleet/lib-load.sh"
command -v python3 >/dev/null || skip "python3 not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 not installed (tests/install-deps.sh)"
qd="$top_srcdir/samples/queries"
trap 'ch_stop_all; rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM

# the files: named alike in both folders, each with its two header lines
names=$(cd "$qd/sqlite" && ls *.sql)
[ "$names" = "$(cd "$qd/clickhouse" && ls *.sql)" ] ||
	fail "samples/queries/sqlite and clickhouse name different queries"
[ "$(echo "$names" | wc -l)" -ge 7 ] || fail "fewer than 7 queries: $names"
for f in "$qd"/sqlite/*.sql "$qd"/clickhouse/*.sql; do
	[ "$(sed -n 1p "$f")" = "-- SPDX-License-Identifier: GPL-2.0-or-later" ] ||
		fail "$f: no SPDX line first"
	sed -n 2p "$f" | grep -q '^-- [A-Z].*?$' || fail "$f: line 2 is not the question it answers"
done

# README.md: the example queries (the block after "Then, for example",
# run in both), the fleet queries (blocks headed "-- samples/queries/D/N":
# the file's text, SPDX line aside)
python3 - "$top_srcdir/README.md" "$qd" "$scratch" <<'PY' || fail "README.md's queries"
import os, re, sys
readme, qd, out = sys.argv[1:4]
text = open(readme).read()
m = re.search(r"Then, for\s+example.*?```sql\n(.*?)```", text, re.S)
if not m:
    sys.exit("README.md: no example queries after 'Then, for example'")
qs = [q.strip() + ";" for q in m.group(1).split(";") if q.strip()]
os.makedirs(out + "/readme", exist_ok=True)
for i, q in enumerate(qs):
    open("%s/readme/example-%d.sql" % (out, i + 1), "w").write(q + "\n")
shown = {}
for block in re.findall(r"```sql\n(-- samples/queries/(\w+)/([\w-]+\.sql)\n.*?)```", text, re.S):
    body, d, name = block
    f = os.path.join(qd, d, name)
    want = "".join(open(f).readlines()[1:])
    if body.split("\n", 1)[1] != want:
        sys.exit("README.md's %s/%s is not the file's text" % (d, name))
    shown.setdefault(name, set()).add(d)
both = [n for n, ds in shown.items() if ds == {"sqlite", "clickhouse"}]
if len(both) < 3:
    sys.exit("README.md shows %d fleet queries in both dialects, not 3: %s" % (len(both), shown))
print("README.md: %d example queries, fleet queries %s in both dialects" % (len(qs), sorted(both)))
PY

# shellcheck disable=SC2086
"$MMSCOPE" export --csv-null '\N' -o "$scratch/out" $recs || fail "export failed"
db="$scratch/fleet.db"
sqlite_load "$db" "$scratch/out" || fail "loading SQLite failed"
mkdir -p "$scratch/sqlite" "$scratch/ch"
for n in $names; do
	sqlite_run "$db" "$qd/sqlite/$n" >"$scratch/sqlite/$n" 2>"$scratch/err" ||
		fail "SQLite: $n: $(cat "$scratch/err")"
done
for f in "$scratch"/readme/*.sql; do
	sqlite_run "$db" "$f" >"$scratch/sqlite/readme-$(basename "$f")" 2>"$scratch/err" ||
		fail "SQLite: README.md's $(basename "$f"): $(cat "$scratch/err")"
done

# rows wherever the recordings have what a query asks about: the
# condition in the data, asked of the same database, then the answer's
# rows (kswapd-no-handoff's 10 s, which no bundled recording reaches, is
# tried at 0 s: the query with its threshold lowered)
sed 's/> 10e9/> 0/' "$qd/sqlite/kswapd-no-handoff.sql" >"$scratch/kswapd-any.sql"
sqlite_run "$db" "$scratch/kswapd-any.sql" >"$scratch/sqlite/kswapd-any" ||
	fail "SQLite: kswapd-no-handoff at 0 s failed"
while IFS='|' read -r out cond; do
	have=$(sqlite3 "$db" "$cond")
	got=$(wc -l <"$scratch/sqlite/$out")
	if [ "$have" -gt 0 ] && [ "$got" -eq 0 ]; then
		fail "SQLite: $out has no rows, though the data has $have ($cond)"
	elif [ "$have" -eq 0 ]; then
		fail "the bundled recordings no longer hold what $out asks about ($cond)"
	fi
done <<'EOF2'
kswapd-any|SELECT count(*) FROM kswapd_episodes WHERE handoff = 'none'
stall-p99-by-kernel.sql|SELECT count(*) FROM stalls WHERE kind IN ('direct', 'memcg')
stall-p99-by-cgroup.sql|SELECT count(*) FROM stalls WHERE kind IN ('direct', 'memcg') AND cgroup IS NOT NULL
mthp-fallback-by-kernel.sql|SELECT count(*) FROM swap_orders WHERE alloc_order > 0 AND swpout_folios + swpout_fallback_folios > 0
zswap-refusals-by-host.sql|SELECT count(*) FROM zswap WHERE zswpout_pages > 0
kills-per-killer.sql|SELECT count(*) FROM kills
kernel-changes.sql|SELECT count(DISTINCT CAST(kernel AS INTEGER) || '.' || CAST(substr(kernel, instr(kernel, '.') + 1) AS INTEGER)) - 1 FROM recordings
EOF2
ok "$(echo $names | wc -w) SQLite queries and README.md's examples ran; rows:$(
	for n in $names; do printf ' %s=%s' "${n%.sql}" "$(wc -l <"$scratch/sqlite/$n")"; done)"

if ! ch_have; then
	skip "the ClickHouse half: clickhouse-server/clickhouse-client not installed" \
		"(tests/install-deps.sh --ci installs them)"
fi
ch_start one "$scratch/server" || { fail "the ClickHouse server did not start"; finish; }
"$MMSCOPE" export --schema clickhouse | ch_q one --multiquery || fail "the schema does not load"
ch_load one "$scratch/out" || fail "loading ClickHouse failed"
for n in $names kswapd-any; do
	f="$qd/clickhouse/$n"
	if [ "$n" = kswapd-any ]; then
		f="$scratch/kswapd-any-ch.sql"
		sed 's/> 10e9/> 0/' "$qd/clickhouse/kswapd-no-handoff.sql" >"$f"
	fi
	ch_q one --multiquery <"$f" >"$scratch/ch/$n" 2>"$scratch/err" ||
		{ fail "ClickHouse: $n: $(head -c 600 "$scratch/err")"; continue; }
	python3 "$top_srcdir/tests/fleet/results.py" "$scratch/sqlite/$n" "$scratch/ch/$n" "$n" ||
		fail "$n: SQLite and ClickHouse answer differently"
done
for f in "$scratch"/readme/*.sql; do
	n=readme-$(basename "$f")
	ch_q one --multiquery <"$f" >"$scratch/ch/$n" 2>"$scratch/err" ||
		{ fail "ClickHouse: README.md's $(basename "$f"): $(head -c 600 "$scratch/err")"; continue; }
	[ -s "$scratch/ch/$n" ] || fail "README.md's $(basename "$f") has no rows"
	python3 "$top_srcdir/tests/fleet/results.py" "$scratch/sqlite/$n" "$scratch/ch/$n" "$n" ||
		fail "README.md's $(basename "$f"): SQLite and ClickHouse answer differently"
done
ok "ClickHouse $(ch_q one -q 'SELECT version()'): every query and README.md's examples answer as in SQLite"
ch_stop_all
finish
