#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: every kill, whoever the killer, with what led to it (issue 41).
# record -g oom,reclaim,compaction,tasks around two kills: anon-touch
# maps 256 MiB in a 48 MiB memory cgroup that may not swap (v1: memsw
# limited to the same 48 MiB and swappiness 0; v2: memory.swap.max 0;
# another swap device on the machine would take the pages), so the memcg
# OOM killer kills it; then a sh sends SIGKILL to a sleep the test
# started; a swap device of the test's own stays on meanwhile. The report
# must name the first memcg-oom, with a dossier
# (before{} not null, its memcg stalls counted, at least one candidate
# of the task snapshot), the kernel's kill once only (its SIGKILL and its
# mark_victim are one kill), and the second other:sh. The dossier's
# figures are held against trace-cmd report of the same file: the memcg
# and direct stalls with time in the 10 s before the kill (paired per
# task from the begin and end events), the PSI some avg10 of the last
# psi sample line before it, the swap free of the last complete set's
# swap lines before it, and the largest task of the last complete tasks
# set before it.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd python3
# a swap device of ours, which the cgroup may not use: the dossier's swap
# free is then a figure to check
live_swap 64
live_cgroup_noswap 48

out="$scratch/kills.dat"
"$MMSCOPE" record -g oom,reclaim,compaction,tasks --interval 200 -o "$out" \
	2>"$scratch/rec.err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
live_wait 60 "the recorder tracing" recording "$out" || { cat "$scratch/rec.err"; finish; }

# the memcg OOM kill: anon-touch dies of it (status 137)
sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 256 -N -s 3 -q" \
	>/dev/null 2>&1
st=$?
[ $st -eq 137 ] || fail "anon-touch ended with status $st, not killed (137)"
# a SIGKILL from a shell to a task of ours
sleep 300 &	# not a wait: the task the shell kills
victim=$!
LIVE_PIDS="$LIVE_PIDS $victim"
sh -c "kill -9 $victim"
wait "$victim" 2>/dev/null
# a sample set after both kills, so that the file's end is past them
sleep 0.5	# not a wait: two sample intervals after the kills
kill -INT "$rec"
wait "$rec"
rc=$?
[ $rc -eq 0 ] || { cat "$scratch/rec.err"; fail "record exited $rc"; finish; }

"$MMSCOPE" report -f json "$out" >"$scratch/r.json" 2>"$scratch/r.err" ||
	{ cat "$scratch/r.err"; fail "report -f json failed"; finish; }
"$MMSCOPE" report -s kills "$out" >"$scratch/r.txt" 2>&1 || fail "report -s kills failed"
cat "$scratch/r.txt"
trace-cmd report "$out" >"$scratch/tc.txt" 2>/dev/null || fail "trace-cmd report failed"

python3 - "$scratch/r.json" "$scratch/tc.txt" "$victim" <<'PY' || fail "the kills (above)"
import json, re, sys
rep = json.load(open(sys.argv[1]))
tc = open(sys.argv[2]).read().splitlines()
victim = int(sys.argv[3])
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        bad.append(what)

kills = rep["oom"]["kills"]
oom = [k for k in kills if k["victim"]["comm"] == "anon-touch"]
check(len(oom) == 1, "one kill of anon-touch (its SIGKILL and mark_victim are one): %d" % len(oom))
check(kills and kills[0]["killer"] == "memcg-oom" and kills[0]["victim"]["comm"] == "anon-touch",
      ".oom.kills[0] is memcg-oom of anon-touch: %s" % (kills[0] if kills else None))
k = oom[0] if oom else {}
b = k.get("before")
check(b is not None and b["memcg_stalls"] is not None, "before{} and its memcg stalls known")
check(bool(k.get("candidates")), "at least one candidate: %s" % k.get("candidates"))
check(k.get("oom_killer") is True and k.get("signal_seen") is True,
      "the OOM killer's, its own SIGKILL matched to it")
sh = [x for x in kills if x["victim"]["pid"] == victim]
check(len(sh) == 1 and sh[0]["killer"] in ("other:sh", "other:bash"),
      "the kill -9 of sleep %d: %s" % (victim, [x["killer"] for x in sh]))

# trace-cmd: "COMM-PID [CPU] TS: EVENT: ..." (Debian 3.1.6 prints bare names)
ev = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\S+):\s*(.*)$')
recs = []
for line in tc:
    m = ev.match(line)
    if m:
        recs.append((float(m.group(4)), int(m.group(2)), m.group(5).split(":")[-1], m.group(6)))
mv = [r for r in recs if r[2] == "mark_victim" and "comm=anon-touch" in r[3]]
check(len(mv) == 1, "trace-cmd: one mark_victim of anon-touch")
sg = [r for r in recs if r[2] == "signal_generate"]
check(any("comm=anon-touch" in r[3] for r in sg) and all("sig=9 " in r[3] for r in sg),
      "trace-cmd: its SIGKILL recorded, and no other signal (the kernel's filter "
      "sig==9; the exits sent SIGCHLDs): %d" % len(sg))
if mv and b:
    T = mv[0][0]
    W = b["window_s"]
    for kind in ("memcg", "direct"):
        begin = {}
        n, ms = 0, 0.0
        for ts, pid, name, rest in recs:
            if name == "mm_vmscan_%s_reclaim_begin" % kind:
                begin[pid] = ts
            elif name == "mm_vmscan_%s_reclaim_end" % kind and pid in begin:
                bts = begin.pop(pid)
                if bts < T and ts > T - W:
                    n += 1
                    ms += (min(ts, T) - max(bts, T - W)) * 1000
        for pid, bts in begin.items():	# open at the end of the file
            if bts < T:
                n += 1
                ms += (T - max(bts, T - W)) * 1000
        got_n, got_ms = b["%s_stalls" % kind], b["%s_stall_ms" % kind]
        check(got_n == n and abs(got_ms - ms) <= 0.002 * max(n, 1) + 0.01,
              "%s stalls in the %g s before: %s (%s ms), trace-cmd %d (%.3f ms)"
              % (kind, W, got_n, got_ms, n, ms))
    psi = [r for r in recs if r[0] < T and "mms1 psi " in r[3]]
    if psi:
        v = float(re.search(r'some_avg10=([0-9.]+)', psi[-1][3]).group(1))
        check(b["psi_some_avg10"] == v, "PSI some avg10 %s, the last psi line's %s"
              % (b["psi_some_avg10"], v))
    else:
        check(b["psi_some_avg10"] is None, "no psi line before the kill: null")
    ends = [int(re.search(r'mms1 end (\d+)', r[3]).group(1)) for r in recs
            if r[0] < T and "mms1 end " in r[3]]
    last = max(ends) if ends else None
    size = sum(int(x) for r in recs if r[0] < T and "mms1 swap %s " % last in r[3]
               for x in re.findall(r' size=(\d+)', r[3]))
    used = sum(int(x) for r in recs if r[0] < T and "mms1 swap %s " % last in r[3]
               for x in re.findall(r' used=(\d+)', r[3]))
    want = 100.0 * (size - used) / size if size else None
    got = b["swap_free_pct"]
    check(size > 0 and got is not None and abs(got - want) < 0.006,
          "swap free %s%% of %s kB, the last complete set's %s%% of %d kB"
          % (got, b["swap_size_kb"], want, size))
    top = None
    for ts, pid, name, rest in recs:
        m = re.search(r'mms1 tasks (\d+) rank=0 pid=(\d+)', rest)
        if m and ts < T and int(m.group(1)) in ends:
            top = int(m.group(2))
    check(top is not None and k["candidates"] and k["candidates"][0]["pid"] == top,
          "the largest task %s, that of the last complete tasks set before: %s"
          % (k["candidates"][0]["pid"] if k.get("candidates") else None, top))
sys.exit(1 if bad else 0)
PY
grep -q 'memcg-oom' "$scratch/r.txt" || fail "the Kills section does not name memcg-oom"
finish
