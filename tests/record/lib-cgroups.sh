# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the cgroups tests (tests/record/cgroups.sh on this host,
# tests/vm/check-cgroups.sh on a cgroup v2 guest's recording): cg_check
# holds a recording of two workloads in memory cgroups a and b and a task
# moved from a to b to `trace-cmd report` of the same file.
# cg_check FILE WA WB MOVER RA RB PARENT: the pids of a's workload, b's
# and the mover; a's and b's paths as /proc/PID/cgroup gives them; a
# --cgroup path of their parent.
cg_check() {
CGF=$1 WA=$2 WB=$3 MOVER=$4 RA=$5 RB=$6 PARENT=$7
trace-cmd report "$CGF" >"$scratch/tc.txt" 2>/dev/null || fail "trace-cmd report failed"

# the oracle: per cgroup, memcg stalls (count), and begin events (for dump)
python3 - "$scratch/tc.txt" "$WA" "$WB" "$MOVER" "$RB" >"$scratch/oracle" <<'EOF' ||
import re, sys
path, wa, wb, mover, rb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ev = re.compile(r"^\s*\S.*?-(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s*(.*)$")
moved_at = None
open_ = {}
stalls = {"a": 0, "b": 0}
begins = {"a": 0, "b": 0}
mover_sides = {"a": 0, "b": 0}
def side(pid, ts):
    if pid == wa:
        return "a"
    if pid == wb:
        return "b"
    if pid == mover:
        return "b" if moved_at is not None and ts >= moved_at else "a"
    return None
for line in open(path):
    m = ev.match(line)
    if not m:
        continue
    pid, ts, name, rest = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
    if name == "cgroup_attach_task":
        f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
        if int(f.get("pid", -1)) == mover and f.get("dst_path") == rb:
            moved_at = ts
    elif name == "mm_vmscan_memcg_reclaim_begin":
        s = side(pid, ts)
        if s:
            begins[s] += 1
        open_[pid] = s
    elif name == "mm_vmscan_memcg_reclaim_end":
        s = open_.pop(pid, None)
        if s:
            stalls[s] += 1
            if pid == mover:
                mover_sides[s] += 1
print(stalls["a"], stalls["b"], begins["a"], begins["b"], mover_sides["a"], mover_sides["b"],
      1 if moved_at is not None else 0)
EOF
	fail "the oracle failed"
read OA OB BA BB MA MB MOVED <"$scratch/oracle"
echo "oracle: memcg stalls a $OA, b $OB; begins a $BA, b $BB; mover a $MA, b $MB"
[ "$MOVED" = 1 ] || fail "trace-cmd shows no cgroup_attach_task of the mover into $RB"
[ "$OA" -gt 0 ] && [ "$OB" -gt 0 ] || fail "no memcg stalls in a ($OA) or b ($OB): no pressure"
[ "$MA" -gt 0 ] && [ "$MB" -gt 0 ] ||
	fail "the mover did not stall on both sides of its move (a $MA, b $MB)"

# the cgroups section, JSON: each cgroup's memcg stall count
"$MMSCOPE" report -f json --section cgroups "$CGF" >"$scratch/cg.json" ||
	fail "report --section cgroups -f json failed"
count() {	# JSON FILE, PATH: the memcg count of its row (0 when no row)
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["cgroups"]
rows = [r for r in d["rows"] if r["path"] == sys.argv[2]]
print(rows[0]["stalls"]["memcg"]["count"] if rows else 0)
EOF
}
[ "$(count "$scratch/cg.json" "$RA")" = "$OA" ] && ok "JSON cgroups: a has $OA memcg stalls, as trace-cmd" ||
	fail "JSON cgroups: a has $(count "$scratch/cg.json" "$RA") memcg stalls, trace-cmd $OA"
[ "$(count "$scratch/cg.json" "$RB")" = "$OB" ] && ok "JSON cgroups: b has $OB memcg stalls, as trace-cmd" ||
	fail "JSON cgroups: b has $(count "$scratch/cg.json" "$RB") memcg stalls, trace-cmd $OB"

# the text: the count under each cgroup's path
"$MMSCOPE" report --section cgroups "$CGF" >"$scratch/cg.txt" || fail "report text failed"
tcount() {
	awk -v p="$1" '$0 == p { on = 1; next } on && $1 == "memcg" && $2 ~ /^[0-9]+$/ { print $2; exit }
		on && /^[^ ]/ { exit }' "$scratch/cg.txt"
}
[ "$(tcount "$RA")" = "$OA" ] && [ "$(tcount "$RB")" = "$OB" ] &&
	ok "text cgroups: a $OA, b $OB memcg stalls" ||
	fail "text cgroups: a '$(tcount "$RA")', b '$(tcount "$RB")', trace-cmd $OA, $OB"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$scratch/cg.txt" ||
	fail "the cgroups section has lines over 72 columns"

# --cgroup: report (the stalls section), a parent with both below it
scoped() {	# PATH: the stalls section's memcg count under --cgroup PATH
	"$MMSCOPE" report -f json --section stalls --cgroup "$1" "$CGF" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["stalls"]["memcg"]["count"])'
}
[ "$(scoped "$RA")" = "$OA" ] && ok "report --cgroup a: $OA memcg stalls" ||
	fail "report --cgroup a: $(scoped "$RA") memcg stalls, trace-cmd $OA"
[ "$(scoped "$RB")" = "$OB" ] && ok "report --cgroup b: $OB memcg stalls" ||
	fail "report --cgroup b: $(scoped "$RB") memcg stalls, trace-cmd $OB"
[ "$(scoped "$PARENT")" = "$((OA + OB))" ] &&
	ok "report --cgroup of the parent (its mount path): a and b below it, $((OA + OB))" ||
	fail "report --cgroup parent: $(scoped "$PARENT"), trace-cmd $((OA + OB))"

# dump: the begin events of the cgroup's tasks at the time
dcount() {
	"$MMSCOPE" dump --cgroup "$1" -e vmscan:mm_vmscan_memcg_reclaim_begin "$CGF" |
		wc -l
}
[ "$(dcount "$RA")" -eq "$BA" ] && [ "$(dcount "$RB")" -eq "$BB" ] &&
	ok "dump --cgroup: a $BA, b $BB memcg reclaim begins, as trace-cmd" ||
	fail "dump --cgroup: a $(dcount "$RA"), b $(dcount "$RB") begins, trace-cmd $BA, $BB"

# export: the stalls table's memcg rows
ecount() {
	rm -rf "$scratch/ex"
	"$MMSCOPE" export --cgroup "$1" -o "$scratch/ex" "$CGF" >/dev/null &&
		awk -F, 'NR > 1 && $2 == "memcg"' "$scratch/ex/stalls.csv" | wc -l
}
[ "$(ecount "$RA")" -eq "$OA" ] && [ "$(ecount "$RB")" -eq "$OB" ] &&
	ok "export --cgroup: a $OA, b $OB memcg stall rows" ||
	fail "export --cgroup: a $(ecount "$RA"), b $(ecount "$RB") rows, trace-cmd $OA, $OB"
rm -rf "$scratch/ex"
"$MMSCOPE" export -o "$scratch/ex" "$CGF" >/dev/null || fail "export failed"
grep -q "^[^,]*,$RA," "$scratch/ex/cgroups.csv" && ok "export: a row of a in cgroups.csv" ||
	fail "export: no row of $RA in cgroups.csv"

# the recorder's list: its cost, said by its end line
us=$(grep -o 'mms1 cgtasks [0-9]* done=1 .*' "$scratch/tc.txt" | head -1)
echo "start list: $us"
[ -n "$us" ] && ok "the start list's end line is in the file" || fail "no cgtasks end line"
}
