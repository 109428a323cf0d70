#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tasks to memory cgroups on a real recording (tests/data/cgroups): the
# cgroups section and the stalls table's cgroup column against their
# golden text (MMSCOPE_UPDATE_GOLDEN=1 rewrites it), the per-cgroup memcg
# stall counts and --cgroup in report, dump and export against a map
# rebuilt from `trace-cmd report` of the same file (its mms1 cgtasks
# lines, task_newtask and cgroup_attach_task); and recordings without the
# tasks' cgroups say "cgroups not recorded" and refuse --cgroup.
. "$(dirname "$0")/../lib.sh"

f="$top_srcdir/tests/data/cgroups/cgroups-6.18.dat"
want="$top_srcdir/tests/golden/cgroups-6.18.txt"

"$MMSCOPE" report --section stalls --section cgroups "$f" >"$scratch/text" ||
	fail "report --section stalls --section cgroups failed"
if [ -n "$MMSCOPE_UPDATE_GOLDEN" ]; then
	cp "$scratch/text" "$want"
	ok "golden updated"
elif diff -u "$want" "$scratch/text" >&2; then
	ok "the cgroups section and the stalls table match their golden text"
else
	fail "text differs (MMSCOPE_UPDATE_GOLDEN=1 to accept)"
fi
awk 'length > 72 { bad = 1 } END { exit bad }' "$scratch/text" || fail "lines over 72 columns"

# without the tasks' cgroups: said, and --cgroup refused in one line
for g in "$top_srcdir/samples/memcg-swap-6.18.dat" "$top_srcdir/tests/data/report/oom-6.18.dat"; do
	"$MMSCOPE" report --section cgroups "$g" | grep -q '^cgroups not recorded' &&
		ok "$(basename "$g"): cgroups not recorded" || fail "$(basename "$g"): no 'not recorded'"
	"$MMSCOPE" report -f json --section cgroups "$g" | grep -q '"cgroups": null' ||
		fail "$(basename "$g"): JSON cgroups not null"
	for cmd in report dump; do
		"$MMSCOPE" $cmd --cgroup /a "$g" >/dev/null 2>"$scratch/err"
		rc=$?
		[ "$rc" -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
			grep -q 'cannot tell which tasks were in a cgroup' "$scratch/err" &&
			ok "$cmd --cgroup refused on $(basename "$g")" ||
			fail "$cmd --cgroup on $(basename "$g"): exit $rc, $(cat "$scratch/err")"
	done
done

command -v trace-cmd >/dev/null || skip "trace-cmd not installed (sh tests/install-deps.sh)"
command -v python3 >/dev/null || skip "python3 not installed"
trace-cmd report "$f" >"$scratch/tc.txt" 2>/dev/null || fail "trace-cmd report failed"

# the oracle's map, from trace-cmd's text alone: per cgroup, the memcg
# stalls (begin .. end of one pid) by the cgroup at the begin, and begins
python3 - "$top_srcdir/tests/oracle" "$scratch/tc.txt" >"$scratch/oracle" <<'EOF' || fail "the oracle failed"
import sys
sys.path.insert(0, sys.argv[1])
from cgmap import replay
stalls, begins, opened = {}, {}, {}
for pid, ts, name, rest, c in replay(sys.argv[2]):
    if name == "mm_vmscan_memcg_reclaim_begin":
        begins[c] = begins.get(c, 0) + 1
        opened[pid] = c
    elif name == "mm_vmscan_memcg_reclaim_end" and pid in opened:
        c = opened.pop(pid)
        stalls[c] = stalls.get(c, 0) + 1
for c in sorted(set(stalls) | set(begins), key=str):
    print(c if c else "-", stalls.get(c, 0), begins.get(c, 0))
EOF
cat "$scratch/oracle"
[ "$(grep -c '^/mmscope-cg/' "$scratch/oracle")" -eq 2 ] || fail "the oracle does not see both cgroups"

"$MMSCOPE" report -f json --section cgroups "$f" >"$scratch/cg.json" || fail "report -f json failed"
while read -r path n b; do
	got=$(python3 - "$scratch/cg.json" "$path" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["cgroups"]["rows"]
p = None if sys.argv[2] == "-" else sys.argv[2]
r = [r for r in rows if r["path"] == p]
print(r[0]["stalls"]["memcg"]["count"] if r else 0)
EOF
)
	[ "$got" = "$n" ] && ok "JSON cgroups $path: $n memcg stalls, as trace-cmd" ||
		fail "JSON cgroups $path: $got memcg stalls, trace-cmd $n"
	[ "$path" = "-" ] && continue
	got=$("$MMSCOPE" report -f json --section stalls --cgroup "$path" "$f" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["stalls"]["memcg"]["count"])')
	[ "$got" = "$n" ] && ok "report --cgroup $path: $n" || fail "report --cgroup $path: $got, trace-cmd $n"
	got=$("$MMSCOPE" dump --cgroup "$path" -e vmscan:mm_vmscan_memcg_reclaim_begin "$f" | wc -l)
	[ "$got" -eq "$b" ] && ok "dump --cgroup $path: $b begins" ||
		fail "dump --cgroup $path: $got begins, trace-cmd $b"
	rm -rf "$scratch/ex"
	"$MMSCOPE" export --cgroup "$path" -o "$scratch/ex" "$f" >/dev/null || fail "export failed"
	got=$(awk -F, 'NR > 1 && $2 == "memcg"' "$scratch/ex/stalls.csv" | wc -l)
	[ "$got" -eq "$n" ] && ok "export --cgroup $path: $n stall rows" ||
		fail "export --cgroup $path: $got rows, trace-cmd $n"
done <"$scratch/oracle"
# the whole recording's export: each memcg stall row names the cgroup its
# task was in when it began, as the oracle counts them (null: unknown)
rm -rf "$scratch/ex"
"$MMSCOPE" export -o "$scratch/ex" "$f" >/dev/null || fail "export failed"
python3 - "$scratch/ex/stalls.csv" >"$scratch/excg" <<'EOF'
import csv, sys
n = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "memcg":
        c = r["cgroup"] or "-"
        n[c] = n.get(c, 0) + 1
for c in sorted(n, key=str):
    print(c, n[c])
EOF
awk '$2 > 0 { print $1, $2 }' "$scratch/oracle" | sort >"$scratch/excg.want"
sort "$scratch/excg" | cmp -s - "$scratch/excg.want" &&
	ok "export stalls.csv: memcg stalls per cgroup column as trace-cmd ($(tr '\n' ' ' <"$scratch/excg"))" ||
	fail "export stalls.csv cgroup column: $(tr '\n' ' ' <"$scratch/excg"), trace-cmd $(tr '\n' ' ' <"$scratch/excg.want")"
# the header names the scope
"$MMSCOPE" report -f json --section header --cgroup /mmscope-cg/a "$f" |
	python3 -c 'import json,sys; t = json.load(sys.stdin)["header"]["tasks"]; sys.exit(t["cgroup"] != "/mmscope-cg/a")' &&
	ok "header: tasks.cgroup names the scope" || fail "header: no tasks.cgroup"
"$MMSCOPE" report --section header --cgroup /mmscope-cg/a "$f" | grep -q 'in memory cgroup /mmscope-cg/a and below' &&
	ok "header text names the cgroup" || fail "header text does not name the cgroup"
# a parent holds its children
all=$(awk '$1 ~ /^\/mmscope-cg\// { n += $2 } END { print n }' "$scratch/oracle")
got=$("$MMSCOPE" report -f json --section stalls --cgroup /sys/fs/cgroup/memory/mmscope-cg "$f" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["stalls"]["memcg"]["count"])')
[ "$got" = "$all" ] && ok "--cgroup of the parent (a mount path): $all" ||
	fail "--cgroup of the parent: $got, trace-cmd $all"
# the rows of a kind add up to the stalls table's count of it
"$MMSCOPE" report -f json --section stalls --section cgroups "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = sum(r["stalls"]["memcg"]["count"] for r in d["cgroups"]["rows"])
sys.exit(rows != d["stalls"]["memcg"]["count"])' &&
	ok "the cgroups rows add up to the stalls table's memcg count" ||
	fail "the cgroups rows do not add up to the stalls table's memcg count"
# plot and compare take --cgroup through the same analysis
"$MMSCOPE" plot --cgroup /mmscope-cg/b -o "$scratch/p.svg" "$f" 2>/dev/null &&
	grep -q 'memory cgroup /mmscope-cg/b' "$scratch/p.svg" && ok "plot --cgroup names its scope" ||
	fail "plot --cgroup"
"$MMSCOPE" compare --format json --cgroup /mmscope-cg/b "x=$f" >"$scratch/cmp.json" 2>"$scratch/cmp.err" &&
	grep -q "stalls of cgroup /mmscope-cg/b only" "$scratch/cmp.err" &&
	ok "compare --cgroup: its note names the cgroup" || fail "compare --cgroup"
# a window: the map still comes from the file's start
got=$("$MMSCOPE" report -f json --section cgroups --since 0.6 "$f" | python3 -c '
import json, sys
print(sum(r["stalls"]["memcg"]["count"] for r in json.load(sys.stdin)["cgroups"]["rows"]
          if r["path"] is None))')
[ "$got" = 0 ] && ok "--since 0.6: no stall of unknown cgroup" ||
	fail "--since 0.6: $got stalls of unknown cgroup (the map lost its start)"
finish
