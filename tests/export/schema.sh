#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope export: the man page mmscope-export(5) and the writer agree
# (tables, columns and their order, types, which may be null) in CSV,
# JSON Lines and --schema; appending writes the header once, skips a
# recording already there, refuses a table with other columns (one line,
# exit 1, nothing written); bad command lines exit 2.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"

man="$top_srcdir/man/mmscope-export.5"
s1="$top_srcdir/samples/global-pressure-6.12.dat"
s2="$top_srcdir/tests/data/report/oom-6.18.dat"

"$MMSCOPE" export -o "$scratch/csv" "$s1" "$s2" || fail "export csv failed"
"$MMSCOPE" export -f jsonl -o "$scratch/jsonl" "$s1" "$s2" || fail "export jsonl failed"
"$MMSCOPE" export --schema sqlite >"$scratch/sqlite.sql" || fail "--schema sqlite failed"
"$MMSCOPE" export --schema clickhouse >"$scratch/ch.sql" || fail "--schema clickhouse failed"
"$MMSCOPE" export --schema clickhouse --cluster fleet_2 >"$scratch/cluster.sql" ||
	fail "--schema clickhouse --cluster failed"

python3 - "$man" "$scratch" <<'PY' || fail "the man page and the writer disagree"
import json, os, re, sys
man, d = sys.argv[1], sys.argv[2]
# the man page: .SS TABLE under .SH TABLES, then ".TP / .B column / type: ..."
tables, cur, in_tables, lines = [], None, False, open(man).read().split("\n")
for i, l in enumerate(lines):
    if l.startswith(".SH"):
        in_tables = l.strip() == ".SH TABLES"
    elif in_tables and l.startswith(".SS "):
        cur = (l[4:].strip(), [])
        tables.append(cur)
    elif in_tables and l == ".TP" and lines[i + 1].startswith(".B "):
        ty = lines[i + 2].split(":")[0]
        cur[1].append((lines[i + 1][3:].strip(), ty))
bad = []
names = [t for t, _ in tables]
# --schema sqlite: CREATE TABLE IF NOT EXISTS t ( "col" TYPE [NOT NULL], ...
sq = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\);", open(d + "/sqlite.sql").read(), re.S)
if [t for t, _ in sq] != names:
    bad.append("tables: man %s, --schema %s" % (names, [t for t, _ in sq]))
tymap = {"INTEGER": "integer", "REAL": "real", "TEXT": "text"}
for (t, body), (mt, mcols) in zip(sq, tables):
    cols = []
    for c in body.strip().split(",\n"):
        m = re.match(r'\s*"(\w+)" (\w+)( NOT NULL)?', c)
        cols.append((m.group(1), tymap[m.group(2)] + ("" if m.group(3) else ", null")))
    if cols != mcols:
        bad.append("%s: man %s\n  --schema %s" % (t, mcols, cols))
ch = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\) ENGINE = MergeTree", open(d + "/ch.sql").read(), re.S)
for (t, body), (mt, mcols) in zip(ch, tables):
    cols = [re.match(r"\s*`(\w+)`", c).group(1) for c in body.strip().split(",\n")]
    if cols != [c for c, _ in mcols]:
        bad.append("%s: clickhouse columns %s" % (t, cols))
# keys (issue 42): an index per SQLite table; ClickHouse sorted by the
# recording first (but recordings: kernel, host, start, by month), and
# with --cluster each table local ON CLUSTER plus a Distributed table over
# it, sharded by the recording so that a recording's rows share a shard
sqs = open(d + "/sqlite.sql").read()
chs = open(d + "/ch.sql").read()
cls = open(d + "/cluster.sql").read()
for t in names:
    if not re.search(r"CREATE INDEX IF NOT EXISTS %s_key ON %s \(" % (t, t), sqs):
        bad.append("%s: no SQLite index" % t)
    m = re.search(r"CREATE TABLE IF NOT EXISTS %s \(.*?\) ENGINE = MergeTree(.*?);" % t, chs, re.S)
    keys = m.group(1) if m else ""
    want = " PARTITION BY toYYYYMM(" if t == "recordings" else " ORDER BY (recording_id"
    if want not in keys:
        bad.append("%s: ClickHouse keys %r" % (t, keys))
    if not re.search(r"CREATE TABLE IF NOT EXISTS %s_local ON CLUSTER fleet_2 \(.*?\) "
                     r"ENGINE = MergeTree%s;" % (t, re.escape(keys)), cls, re.S):
        bad.append("%s: no %s_local ON CLUSTER with the same keys" % (t, t))
    if ("CREATE TABLE IF NOT EXISTS %s ON CLUSTER fleet_2 AS %s_local\n  ENGINE = Distributed("
        "fleet_2, currentDatabase(), %s_local, cityHash64(recording_id));" % (t, t, t)) not in cls:
        bad.append("%s: no Distributed table over %s_local" % (t, t))
for t, mcols in tables:
    want = [c for c, _ in mcols]
    with open("%s/csv/%s.csv" % (d, t)) as f:
        head = f.readline().rstrip("\n").split(",")
    if head != want:
        bad.append("%s.csv header %s, man %s" % (t, head, want))
    rows = [json.loads(l) for l in open("%s/jsonl/%s.jsonl" % (d, t))]
    for r in rows:
        if list(r.keys()) != want:
            bad.append("%s.jsonl keys %s" % (t, list(r.keys())))
            break
        for c, ty in mcols:
            if r[c] is None and "null" not in ty:
                bad.append("%s.%s is null but not nullable" % (t, c))
    if len(rows) + 1 != sum(1 for _ in open("%s/csv/%s.csv" % (d, t))):
        bad.append("%s: CSV and JSON Lines row counts differ" % t)
for f in os.listdir(d + "/csv"):
    if f[:-4] not in names:
        bad.append("%s is not in the man page" % f)
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
ok "man page, --schema, CSV headers and JSON Lines keys agree"

# --csv-null '\N': the cells that say \N are exactly JSON Lines' nulls, and
# the other values are the same (CSV parsed as RFC 4180)
"$MMSCOPE" export --csv-null '\N' -o "$scratch/csvn" "$s1" "$s2" || fail "export --csv-null failed"
python3 - "$scratch" <<'PY' || fail "CSV (with \\N) and JSON Lines disagree"
import csv, json, os, sys
d, bad = sys.argv[1], []
for f in sorted(os.listdir(d + "/csvn")):
    t = f[:-4]
    rows = list(csv.reader(open("%s/csvn/%s" % (d, f), newline="", encoding="utf-8")))
    js = [json.loads(l) for l in open("%s/jsonl/%s.jsonl" % (d, t), encoding="utf-8")]
    head = rows[0]
    if len(rows) - 1 != len(js):
        bad.append("%s: %d CSV rows, %d JSON lines" % (t, len(rows) - 1, len(js)))
        continue
    for r, j in zip(rows[1:], js):
        if len(r) != len(head):
            bad.append("%s: a row of %d fields: %s" % (t, len(r), r))
            break
        for c, v in zip(head, r):
            w = j[c]
            if (v == "\\N") != (w is None):
                bad.append("%s.%s: CSV %r, JSON %r" % (t, c, v, w))
            elif w is not None and not (v == str(w) or (isinstance(w, float) and float(v) == w)):
                bad.append("%s.%s: CSV %r, JSON %r" % (t, c, v, w))
        if len(bad) > 5:
            break
print("\n".join(bad[:10]), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
ok "CSV with --csv-null and JSON Lines hold the same values and nulls"

# every table has rows from these two recordings where they have data
for t in recordings kswapd_episodes kcompactd_requests stalls swap_orders swap_clusters zswap \
	counters oom_kills settings kills; do
	[ "$(wc -l <"$scratch/csv/$t.csv")" -gt 1 ] || fail "$t.csv has no rows"
done

# appending: the same recording again is skipped, another one appended
# below the one header
cp -r "$scratch/csv" "$scratch/before"
"$MMSCOPE" export -o "$scratch/csv" "$s1" 2>"$scratch/err" || fail "re-export failed"
grep -q "already in" "$scratch/err" || fail "re-export did not say it skipped: $(cat "$scratch/err")"
diff -r "$scratch/before" "$scratch/csv" >/dev/null || fail "re-export changed the tables"
"$MMSCOPE" export -o "$scratch/csv" "$top_srcdir/samples/zswap-6.12.dat" || fail "append failed"
[ "$(grep -c '^recording_id,' "$scratch/csv/recordings.csv")" -eq 1 ] || fail "header written twice"
[ "$(wc -l <"$scratch/csv/recordings.csv")" -eq 4 ] || fail "recordings.csv: not 3 rows"
# the same in JSON Lines (the first record's keys are the schema)
"$MMSCOPE" export -f jsonl -o "$scratch/jsonl" "$s2" 2>"$scratch/err" &&
	grep -q "already in" "$scratch/err" || fail "jsonl re-export not skipped"
"$MMSCOPE" export -f jsonl -o "$scratch/jsonl" "$top_srcdir/samples/zswap-6.12.dat" ||
	fail "jsonl append failed"
[ "$(wc -l <"$scratch/jsonl/recordings.jsonl")" -eq 3 ] || fail "recordings.jsonl: not 3 rows"
ok "append: one header, a recording already there skipped"

# a quoted text field may hold newlines (clock-step-6.12's command is a
# multi-line sh -c script): a line inside it that starts with another
# recording's id is no row of it, so that recording is not "already in"
rm -rf "$scratch/ml" "$scratch/zs"
"$MMSCOPE" export -o "$scratch/zs" "$top_srcdir/samples/zswap-6.12.dat" &&
	"$MMSCOPE" export -o "$scratch/ml" "$top_srcdir/tests/data/report/clock-step-6.12.dat" ||
	fail "export for the multi-line check failed"
zid=$(sed -n 2p "$scratch/zs/recordings.csv" | cut -d, -f1)
python3 - "$scratch/ml/recordings.csv" "$zid" <<'PY' || fail "no multi-line command to edit"
import sys
p, zid = sys.argv[1], sys.argv[2]
s = open(p).read()
i = s.index('"sh -c \n')
assert i > 0
s = s[:i] + '"sh -c \n' + zid + ',x\n' + s[i + len('"sh -c \n'):]
open(p, "w").write(s)
PY
"$MMSCOPE" export -o "$scratch/ml" "$top_srcdir/samples/zswap-6.12.dat" 2>"$scratch/err" ||
	fail "append after a multi-line row failed"
rows=$(python3 -c 'import csv, sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' \
	"$scratch/ml/recordings.csv")
! grep -q "already in" "$scratch/err" && [ "$rows" = 2 ] &&
	ok "a newline in a quoted field starts no row: the next recording is appended (2 rows)" ||
	fail "after a multi-line row: $rows rows, $(cat "$scratch/err")"

# the same recording gives the same id, whatever the file is called
cp "$s1" "$scratch/renamed.dat"
"$MMSCOPE" export -o "$scratch/again" "$scratch/renamed.dat" || fail "export of the copy failed"
a=$(sed -n 2p "$scratch/again/recordings.csv" | cut -d, -f1)
b=$(grep -F "$s1" "$scratch/csv/recordings.csv" | cut -d, -f1)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "ids differ for the same recording: $a $b"

# a table with other columns: one line, exit 1, nothing written
mkdir "$scratch/mismatch"
echo "recording_id,kind,pid" >"$scratch/mismatch/stalls.csv"
"$MMSCOPE" export -o "$scratch/mismatch" "$s1" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] || fail "schema mismatch: exit $rc, not 1"
[ "$(wc -l <"$scratch/err")" -eq 1 ] && grep -q "stalls.csv" "$scratch/err" ||
	fail "schema mismatch: not one line naming the file: $(cat "$scratch/err")"
[ "$(ls "$scratch/mismatch")" = stalls.csv ] || fail "schema mismatch: files were written"
ok "a table with other columns is refused"

# bad input
"$MMSCOPE" export -o "$scratch/x" "$scratch/missing.dat" 2>"$scratch/err"
[ $? -eq 1 ] || fail "missing recording: not exit 1"
[ "$(wc -l <"$scratch/err")" -eq 1 ] || fail "missing recording: not one line"
for args in "-f xml -o $scratch/x $s1" "$s1" "-o $scratch/x" "--schema mysql" "--schema sqlite $s1" \
	"--csv-null , -o $scratch/x $s1" "--schema sqlite --cluster c" "--cluster c -o $scratch/x $s1" \
	"--schema clickhouse --cluster a-b" "--schema clickhouse --cluster 1c"; do
	# shellcheck disable=SC2086
	"$MMSCOPE" export $args >/dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "export $args: exit $rc, not 2"
done
ok "bad command lines exit 2, a bad recording 1"
finish
