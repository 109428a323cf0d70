#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The SQLite loading example of mmscope-export(5), run as printed on an
# export whose tables include empty ones and null figures: every table
# loads, and every nullable column's empty fields end NULL, not '' (the
# page once fixed one column only). memcg_oom_kills of a cgroup v1
# recording that sampled memory.oom_control is a count, as the page says.
# (The ClickHouse example runs in tests/export/clickhouse.sh.)
. "${top_srcdir:-.}/tests/lib.sh"

command -v sqlite3 >/dev/null || skip "sqlite3 not installed (tests/install-deps.sh)"
command -v python3 >/dev/null || skip "python3 not installed"
man="$top_srcdir/man/mmscope-export.5"

# example N of the Loading section, roff escapes undone
example() {
	awk -v n="$1" '/^\.SS "Loading"/ { on = 1; next } on && /^\.S[HS]/ { exit }
		on && /^\.EX/ { k++; ex = 1; next } on && /^\.EE/ { ex = 0; next }
		on && ex && k == n { print }' "$man" |
		sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g'
}
mkdir -p "$scratch/bin"
ln -s "$(cd "$(dirname "$MMSCOPE")" && pwd)/$(basename "$MMSCOPE")" "$scratch/bin/mmscope"
cd "$scratch" || exit 99
"$MMSCOPE" export -o out "$top_srcdir/tests/data/report/run-memcg-6.18.dat" \
	"$top_srcdir/tests/data/report/oom-6.18.dat" || fail "export failed"
example 1 >sqlite.sh
grep -q 'sqlite3' sqlite.sh || { fail "no SQLite example in the Loading section"; finish; }
PATH="$scratch/bin:$PATH" sh -e sqlite.sh || fail "the SQLite example failed"

# per table and nullable column: NULLs in the db = empty fields in the CSV
python3 - "$scratch" <<'PY' || fail "SQLite: empty fields not NULL"
import csv, glob, os, sqlite3, sys
d = sys.argv[1]
db = sqlite3.connect(os.path.join(d, "fleet.db"))
bad, cols = [], 0
for f in sorted(glob.glob(os.path.join(d, "out", "*.csv"))):
    t = os.path.basename(f)[:-4]
    rows = list(csv.DictReader(open(f, newline="")))
    n = db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0]
    if n != len(rows):
        bad.append("%s: %d rows, CSV %d" % (t, n, len(rows)))
    for cid, name, ty, notnull, dflt, pk in db.execute('PRAGMA table_info("%s")' % t):
        if notnull:
            continue
        cols += 1
        empty = sum(1 for r in rows if r[name] == "")
        nulls, blank = db.execute('SELECT sum("%s" IS NULL), sum("%s" = \'\') FROM "%s"'
                                  % (name, name, t)).fetchone()
        if (nulls or 0) != empty or (blank or 0):
            bad.append("%s.%s: %s NULL, %s '', CSV %d empty" % (t, name, nulls, blank, empty))
if bad:
    print("\n".join(bad[:10]), file=sys.stderr)
    sys.exit(1)
print("ok: SQLite: %d nullable columns, every empty field NULL" % cols)
PY
empty=$(find out -name '*.csv' -size -2k | while read -r f; do [ "$(wc -l <"$f")" -eq 1 ] && echo "$f"; done | wc -l)
[ "$empty" -gt 0 ] && ok "the export had $empty tables without rows" ||
	fail "no empty table: the example was not tried on one"

# memcg_oom_kills on cgroup v1: run-memcg sampled memory.oom_control
python3 - out/recordings.csv <<'PY' || fail "memcg_oom_kills of the v1 recording"
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["file"].endswith("run-memcg-6.18.dat"):
        assert r["memcg_version"] == "1" and r["memcg_oom_kills"] == "0", r["memcg_oom_kills"]
PY
awk '/^\.B memcg_oom_kills/ { on = 1; next } on && /^\.TP/ { exit } on' "$man" | tr '\n' ' ' |
	grep -q 'v1 memory.oom_control' && ok "mmscope-export(5): memcg_oom_kills counted on v1" ||
	fail "mmscope-export(5) does not say memcg_oom_kills is counted on cgroup v1"
finish
