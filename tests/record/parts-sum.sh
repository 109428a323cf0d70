#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live (issue 40): the parts of one --switch-output run add up to the
# run. A run of at least 10 parts (--switch-output 2s) is recorded with
# every group, page allocator events and every memory cgroup under the
# test's (--cgroups) while a task reclaims and swaps in a 128 MiB memory
# cgroup (swap on a loop device) and, on cgroup v1, another is OOM-killed
# in a 16 MiB one without swap, again and again; the load goes on until
# the switches have happened (at most 150 s), then SIGINT. Each part is
# reported alone (-f json) and the directory as the run, and
# tests/record/parts-sum.py holds every figure that is a sum over time
# (counter deltas, stalls, their time, LRU pages per kind, compaction,
# swap-outs, kills, events...) to: the sum over the parts is the run's.
# The files' boundaries are one: each file's switch_cut_ns is the next
# one's switch_from_ns, and the next one's first sample set repeats the
# last one's readings.
#
# A stall longer than a part may span one with no record in it (man
# mmscope-report, PARTS OF A RUN): the run's longest must be shorter
# than the shortest part, else the stall figures cannot be held exactly
# and the test skips, saying so. Ring losses make pairs unknowable: the
# 64 MiB rings must lose nothing.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

command -v python3 >/dev/null || skip "python3 not installed"
live_require
live_swap 1024
PARTS=10

# the cgroups: on v1 a root with two children, swap (128 MiB) and oom
# (16 MiB, swappiness 0, memory+swap 32 MiB: it never swaps, its task is
# killed); v2: one 128 MiB cgroup (lib-live.sh), no OOM child
OOM=""
if [ -f "$CGV1/memory.usage_in_bytes" ]; then
	LIVE_CG="$CGV1/$LIVE_TAG"
	mkdir "$LIVE_CG" || skip "cannot create $LIVE_CG"
	cleanup_kids() {
		for k in swap oom; do
			d="$LIVE_CG/$k"
			[ -d "$d" ] || continue
			for i in 1 2 3 4 5 6 7 8 9 10; do
				pids=$(cat "$d/cgroup.procs" 2>/dev/null)
				[ -z "$pids" ] && break
				kill -KILL $pids 2>/dev/null
				sleep 0.3
			done
			rmdir "$d" 2>/dev/null
		done
	}
	trap 'rc=$?; cleanup_kids; (exit $rc); live_cleanup' EXIT
	mkdir "$LIVE_CG/swap" "$LIVE_CG/oom" || fail "cannot make the children"
	echo $((128 << 20)) >"$LIVE_CG/swap/memory.limit_in_bytes" || fail "cannot limit swap"
	echo 0 >"$LIVE_CG/oom/memory.swappiness" || fail "cannot set oom's swappiness"
	echo $((16 << 20)) >"$LIVE_CG/oom/memory.limit_in_bytes" || fail "cannot limit oom"
	[ ! -f "$LIVE_CG/oom/memory.memsw.limit_in_bytes" ] ||
		echo $((32 << 20)) >"$LIVE_CG/oom/memory.memsw.limit_in_bytes" ||
		fail "cannot limit oom's memory+swap"
	SWAPCG="$LIVE_CG/swap"
	OOM="$LIVE_CG/oom"
	CGARGS="--cgroup $LIVE_TAG/swap --cgroups $LIVE_CG"
else
	live_cgroup 128
	SWAPCG="$LIVE_CG"
	CGARGS="--cgroup $LIVE_TAG --cgroups $LIVE_CG"
	echo "note: cgroup v2: no OOM child (kills are 0 in every part)"
fi

dir="$scratch/run"
mkdir "$dir"
# shellcheck disable=SC2086
"$MMSCOPE" record --switch-output 2s --interval 200 --buffer-kb 65536 --duration 300 \
	$CGARGS -e kmem:mm_page_alloc -e kmem:mm_page_free -o "$dir/run.dat" \
	2>"$scratch/rec.err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
# a task reclaiming and swapping in its limit, pass after pass (one
# task of twice the limit stalls longest: 5 s of 12 here, a second task
# makes both wait on swap-ins instead)
sh -c "echo \$\$ >$SWAPCG/cgroup.procs && exec $ANON_TOUCH -m 256 -p 1000 -N -q" \
	>/dev/null 2>&1 &
LIVE_PIDS="$LIVE_PIDS $!"
if [ -n "$OOM" ]; then	# one killed every second or so
	sh -c "echo \$\$ >$OOM/cgroup.procs
		while :; do $ANON_TOUCH -m 64 -q >/dev/null 2>&1; sleep 1; done" >/dev/null 2>&1 &	# not a wait: the kills' pace
	LIVE_PIDS="$LIVE_PIDS $!"
fi
# until PARTS - 1 switches are written (the parts are 2 s long, whatever
# the machine's load), at most 150 s
t0=$(date +%s)
while [ "$(grep -c '^mmscope: wrote ' "$scratch/rec.err")" -lt $((PARTS - 1)) ] &&
	[ $(($(date +%s) - t0)) -lt 150 ]; do
	sleep 0.5
done
kill -INT "$rec"
wait "$rec"
rc=$?
for p in $LIVE_PIDS; do	# the load, before the reports
	[ "$p" = "$rec" ] || kill -KILL "$p" 2>/dev/null
done
tail -4 "$scratch/rec.err"
[ $rc -eq 0 ] || fail "record exited $rc"
n=$(ls "$dir" | grep -c '^run-[0-9]*\.dat$')
[ "$n" -ge "$PARTS" ] && ok "$n parts written" ||
	{ fail "only $n parts in 150 s of load: no switches?"; finish; }
ls "$dir" | grep -q spool && fail "a spool is left: $(ls "$dir" | grep spool)"

# MMSCOPE_KEEP_RUN=DIR: the recording is kept there (to look at a failure)
[ -z "${MMSCOPE_KEEP_RUN:-}" ] || cp -r "$dir" "$MMSCOPE_KEEP_RUN"

# each part alone, and the run
parts=""
for i in $(seq 1 "$n"); do
	f="$dir/run-$i.dat"
	"$MMSCOPE" report -f json "$f" >"$scratch/part-$i.json" 2>"$scratch/e" ||
		fail "report run-$i.dat: $(cat "$scratch/e")"
	"$MMSCOPE" dump --info "$f" >"$scratch/info-$i" 2>&1 || fail "dump --info run-$i.dat"
	parts="$parts $scratch/part-$i.json"
done
"$MMSCOPE" report -f json "$dir" >"$scratch/run.json" 2>"$scratch/e" ||
	fail "report DIR: $(cat "$scratch/e")"

# one boundary between two parts: each file's cut is the next's from,
# and the next's first sample set repeats the readings of the last set
key() { sed -n "s/^ *$1=//p" "$2" | head -1; }
bad=""
for i in $(seq 1 $((n - 1))); do
	cut=$(key switch_cut_ns "$scratch/info-$i")
	from=$(key switch_from_ns "$scratch/info-$((i + 1))")
	[ -n "$cut" ] && [ "$cut" = "$from" ] || bad="$bad run-$i:cut=$cut,run-$((i + 1)):from=$from"
done
[ -z "$(key switch_from_ns "$scratch/info-1")" ] && [ -z "$(key switch_cut_ns "$scratch/info-$n")" ] ||
	bad="$bad (the run's own start or end has a bound)"
[ -z "$bad" ] && ok "each part's switch_cut_ns is the next one's switch_from_ns" ||
	fail "bounds:$bad"
python3 - "$dir" "$n" "$MMSCOPE" <<'PY' && ok "each part starts with its part before's last sample set, repeated" ||
import subprocess, sys
d, n, mm = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def sets(i):
    """The sample sets of part i: [(seq, [lines without their seq], end line)]."""
    out = subprocess.run([mm, "dump", "-e", "ftrace:print", "%s/run-%d.dat" % (d, i)],
                         capture_output=True, text=True, check=True).stdout
    cur, res = {}, []
    for line in out.splitlines():
        at = line.find("mms1 ")
        if at < 0:
            continue
        w = line[at:].split(" ", 3)
        if len(w) < 3 or w[1] in ("cgtasks", "ctx", "outcome", "missing"):
            continue
        seq = int(w[2])
        if w[1] == "end":
            res.append((seq, cur.pop(seq, []), line[at:]))
        else:
            cur.setdefault(seq, []).append(w[1] + " " + (w[3] if len(w) > 3 else ""))
    return res
bad = 0
all_sets = {i: sets(i) for i in range(1, n + 1)}
for i in range(1, n):
    last, first = all_sets[i][-1], all_sets[i + 1][0]
    if first[1] != last[1] or "repeats=%d" % last[0] not in first[2] or first[0] != last[0] + 1:
        print("run-%d's set %d and run-%d's set %d (%s) differ" % (i, last[0], i + 1, first[0], first[2]))
        bad += 1
sys.exit(1 if bad else 0)
PY
	fail "a part's first sample set is not its part before's last"

# losses would make the pairs unknowable; a stall longer than a part may
# span one without a record in it (man mmscope-report): not held then
lost=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["header"]; print(h["lost"] + h["cpustat_lost"])' \
	"$scratch/run.json")
[ "$lost" = 0 ] || fail "the rings lost $lost events (64 MiB per CPU): the pairs cannot be held"
span=$(python3 - "$scratch/run.json" $parts <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
longest = max((k.get("max_ns") or 0) for k in run["stalls"].values() if isinstance(k, dict))
shortest = min((json.load(open(p))["header"]["last_s"] - json.load(open(p))["header"]["first_s"])
               for p in sys.argv[2:-1])	# the last part: however long SIGINT left it
print("%d %d" % (longest, int(shortest * 1e9)))
PY
)
set -- $span
echo "longest stall $(($1 / 1000)) us, shortest part $(($2 / 1000000)) ms"
[ "$1" -lt "$2" ] ||
	skip "a stall of $(($1 / 1000000)) ms, longer than a part ($(($2 / 1000000)) ms): it may span one with no record in it (the machine is too loaded for 2 s parts)"

python3 "$top_srcdir/tests/record/parts-sum.py" "$scratch/run.json" $parts >"$scratch/sum" 2>&1
st=$?
cat "$scratch/sum"
[ $st -eq 0 ] && ok "the $n parts add up to the run: $(tail -1 "$scratch/sum")" ||
	fail "the parts do not add up to the run"
# what the test went through: stalls cut at a part's end, kills
python3 - "$scratch/run.json" $parts <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
parts = [json.load(open(p)) for p in sys.argv[2:]]
cut = sum(p["stalls"][k].get("cut") or 0 for p in parts for k in ("direct", "memcg"))
print("the run: %d memcg stalls (%.3f s), %d cut at a part's end; %d OOM kills; "
      "%d counters" % (run["stalls"]["memcg"]["count"], run["stalls"]["memcg"]["total_ns"] / 1e9,
                       cut, (run.get("oom") or {}).get("oom_kills") or 0, len(run["counters"] or [])))
PY
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
