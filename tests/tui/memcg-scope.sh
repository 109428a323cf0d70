#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Memory cgroup paths and scopes (issue 44 item 4), on two recordings of
# tests/data/cgroups: cgroups-root-6.18.dat, made with `record --cgroups
# /` by a recorder that wrote the root's children as "//nc4a", and
# cgroup-one-6.18.dat, made with `record --cgroup PATH` (one cgroup).
# - no path reads "//": the report's memcg section, its JSON, the TUI;
# - the TUI's memcg view counts a cgroup's stalls as report -s cgroups
#   does (it said 0 of /nc4a's 100: "//nc4a" matched no task's cgroup);
# - report --cgroup /nc4a lists /nc4a alone in the memcg section, and
#   says it is 1 of the 7 sampled;
# - the TUI's memcg view shows record --cgroup's one cgroup, with its
#   tasks' stalls (it said "needs --cgroups").
. "${top_srcdir:-.}/tests/lib.sh"

d=$top_srcdir/tests/data/cgroups
root=$d/cgroups-root-6.18.dat
one=$d/cgroup-one-6.18.dat

tui() {	# FILE KEYS: the screen, 100x30
	MMSCOPE_TUI_HEADLESS=1 LINES=30 COLUMNS=100 MMSCOPE_TUI_KEYS="$2" \
		MMSCOPE_TUI_DUMP="$scratch/t.txt" "$MMSCOPE" tui "$1" >/dev/null 2>"$scratch/e" ||
		fail "tui $(basename "$1") $2: $(cat "$scratch/e")"
}

stalls_of() {	# FILE CGROUP: its memcg stalls in report -s cgroups
	"$MMSCOPE" report -f json -s cgroups "$1" | python3 -c '
import json, sys
rep = json.load(sys.stdin)
for g in rep["cgroups"]["rows"]:
    if g["path"] == sys.argv[1]:
        print(g["stalls"]["direct"]["count"] + g["stalls"]["memcg"]["count"])
' "$2"
}

"$MMSCOPE" report -s memcg "$root" >"$scratch/m.txt" || fail "report -s memcg"
"$MMSCOPE" report -f json -s memcg "$root" >"$scratch/m.json" || fail "report -f json -s memcg"
if grep -q '//' "$scratch/m.txt" || grep -q '"path": "//' "$scratch/m.json"; then
	fail "a path with '//': $(grep '//' "$scratch/m.txt" "$scratch/m.json" | head -3)"
else
	grep -q '^/nc4a  ' "$scratch/m.txt" && ok "memcg section: /nc4a, no '//'" ||
		fail "memcg section: no /nc4a: $(cat "$scratch/m.txt")"
fi

want=$(stalls_of "$root" /nc4a)
[ -n "$want" ] && [ "$want" -gt 0 ] || fail "report -s cgroups: no stalls of /nc4a ('$want')"
tui "$root" "7 Down Down Down Down Down Down"
if grep -q '^memcg 7/7 /nc4a ' "$scratch/t.txt" && grep -q "^$want stalls of its tasks and below" "$scratch/t.txt"; then
	ok "tui memcg view: /nc4a, $want stalls as report -s cgroups counts"
else
	fail "tui memcg view: $(sed -n '2p;/stalls of/p' "$scratch/t.txt"), report $want"
fi
! grep -q '//' "$scratch/t.txt" && ok "tui: no '//'" || fail "tui: $(grep '//' "$scratch/t.txt")"

"$MMSCOPE" report -s memcg --cgroup /nc4a "$root" >"$scratch/s.txt" 2>&1 || fail "report --cgroup /nc4a"
rows=$(awk '/^cgroup  /{on=1; next} on && /^\//' "$scratch/s.txt")
[ "$rows" = "$(grep '^/nc4a ' "$scratch/s.txt")" ] && [ -n "$rows" ] &&
	grep -q '^--cgroup /nc4a: 1 of the 7 cgroups sampled, it and those below$' "$scratch/s.txt" &&
	ok "report --cgroup /nc4a: the memcg section lists /nc4a alone, 1 of 7" ||
	fail "report --cgroup /nc4a: $(cat "$scratch/s.txt")"
"$MMSCOPE" report -f json -s memcg --cgroup /nc4a "$root" | python3 -c '
import json, sys
m = json.load(sys.stdin)["memcg"]
sys.exit(0 if m["scope"] == "/nc4a" and [g["path"] for g in m["cgroups"]] == ["/nc4a"] else 1)' &&
	ok "JSON: scope /nc4a, one cgroup" || fail "JSON --cgroup /nc4a: not /nc4a alone"

want=$(stalls_of "$one" /nc4b)
tui "$one" 7
if grep -q '^memcg /nc4b  (record --cgroup)' "$scratch/t.txt" &&
   grep -q "^$want stalls of its tasks and below" "$scratch/t.txt" && [ "$want" -gt 0 ]; then
	ok "tui memcg view: record --cgroup's /nc4b, $want stalls"
else
	fail "tui memcg view of --cgroup: $(sed -n '2p;/stalls/p;/Needs/p' "$scratch/t.txt"), report $want"
fi
grep -q 'limit' "$scratch/t.txt" && ok "its 16 MiB limit drawn" || fail "no limit line"
finish
