#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: systemd-oomd's kill pattern, made on this host (issue 41). The
# busybox guests cannot run systemd-oomd (it needs systemd as PID 1 and
# cgroup v2 units), so this test does what it does to a cgroup, with
# this kernel's real signals and cgroup xattrs: add 1 to the cgroup's
# user.oomd_ooms, SIGKILL its processes, then add their number to its
# user.oomd_kill (systemd's oomd_cgroup_kill; its kill is recursive),
# all in one process as oomd does (oomd.py). Five kills of sleeps in a
# memory cgroup CG, one of them in CG/leaf, recorded with -g oom,tasks
# --cgroups CG:
#  1. by a process named systemd-oomd (a copy of python3), with the
#     xattrs: killer systemd-oomd, the xattr's 0 -> 3 on CG as its
#     evidence, for the two sleeps in CG and the one in CG/leaf (whose
#     own xattr never moves: found on its ancestor);
#  2. by python3, with the xattr rising 3 -> 4: systemd-oomd by the
#     xattr alone (a sender named otherwise, as a worker thread would be);
#  3. by python3, no xattr change: other:python3, no evidence.
# Each phase waits until the recorder has taken three sample sets after
# it, so a later kill's "before" sample is past the earlier xattr write
# whatever the load. The xattr values the recording carries (mms1
# memcgs ... oomd_kill=N) and the senders are held against trace-cmd.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd python3
live_cgroup 64
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.mmscope_probe", b"1"); os.removexattr(sys.argv[1], "user.mmscope_probe")' \
	"$LIVE_CG" 2>/dev/null || skip "no user xattrs on $LIVE_CG (this kernel's cgroupfs)"
cg=${LIVE_CG#"$CGV1"}
[ "$LIVE_CG_V2" -eq 1 ] && cg=/$(basename "$LIVE_CG")
# a child, removed before lib-live.sh removes CG (its processes first)
leaf=$LIVE_CG/leaf
mkdir "$leaf" || skip "cannot create $leaf"
trap 'rc0=$?; for p in $(cat "$leaf/cgroup.procs" 2>/dev/null); do kill -KILL "$p"; done
	i=0; while ! rmdir "$leaf" 2>/dev/null && [ -d "$leaf" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	(exit $rc0); live_cleanup' EXIT

# oomd.py CG MARK PID...: SIGKILL the PIDs; with MARK 1, as oomd does:
# user.oomd_ooms + 1 before, user.oomd_kill + their number after (an
# absent xattr is 0)
cat >"$scratch/oomd.py" <<'PY'
import os, sys
cg, mark, pids = sys.argv[1], sys.argv[2] == "1", [int(p) for p in sys.argv[3:]]
def add(name, n):
    try:
        v = int(os.getxattr(cg, name))
    except OSError:
        v = 0
    os.setxattr(cg, name, str(v + n).encode())
if mark:
    add("user.oomd_ooms", 1)
for p in pids:
    os.kill(p, 9)
if mark:
    add("user.oomd_kill", len(pids))
PY
# sleeper [DIR]: a sleep in the cgroup (or DIR); its pid on stdout
sleeper() {
	sh -c "echo \$\$ >${1:-$LIVE_CG}/cgroup.procs && exec sleep 300" >/dev/null 2>&1 &	# not a wait: the victim
	echo $!
}
# sets FILE: the recorder's sample sets so far (their distinct numbers)
sets() { cat "$1.spool"/cpu*.raw 2>/dev/null | grep -ao 'mms1 end [0-9]*' | sort -u | wc -l; }
# three_sets_after N: the spool holds three more sets than N
three_sets_after() { [ "$(sets "$out")" -ge $(($1 + 3)) ]; }

# the interpreter itself (python3 may be a wrapper script)
cp "$(readlink -f "$(python3 -c 'import sys; print(sys.executable)')")" "$scratch/systemd-oomd" &&
	"$scratch/systemd-oomd" -c 'import os' || skip "cannot copy python3's interpreter"
s1=$(sleeper) s2=$(sleeper) s3=$(sleeper) s4=$(sleeper) s5=$(sleeper "$leaf")
LIVE_PIDS="$LIVE_PIDS $s1 $s2 $s3 $s4 $s5"
# (cgroupfs files have no size: read them)
live_wait 30 "the sleeps in $LIVE_CG" sh -c "[ \$(wc -l <$LIVE_CG/cgroup.procs) -ge 4 ] && [ \$(wc -l <$leaf/cgroup.procs) -ge 1 ]"

out="$scratch/oomd.dat"
"$MMSCOPE" record -g oom,tasks --cgroups "$LIVE_CG" --interval 100 -o "$out" \
	2>"$scratch/rec.err" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
live_wait 60 "the recorder tracing" recording "$out" || { cat "$scratch/rec.err"; finish; }
n=$(sets "$out")
live_wait 60 "the recorder's first sets" three_sets_after "$n"

# 1: oomd's pattern, by a process named systemd-oomd
"$scratch/systemd-oomd" "$scratch/oomd.py" "$LIVE_CG" 1 "$s1" "$s2" "$s5" ||
	fail "systemd-oomd (oomd.py) failed"
n=$(sets "$out")
live_wait 60 "three sets after the first kills" three_sets_after "$n"
# 2: the xattr alone names it
python3 "$scratch/oomd.py" "$LIVE_CG" 1 "$s3" || fail "oomd.py $s3 failed"
n=$(sets "$out")
live_wait 60 "three sets after the second kill" three_sets_after "$n"
# 3: no xattr change
python3 "$scratch/oomd.py" "$LIVE_CG" 0 "$s4" || fail "oomd.py $s4 failed"
n=$(sets "$out")
live_wait 60 "three sets after the third kill" three_sets_after "$n"
kill -INT "$rec"
wait "$rec"
rc=$?
[ $rc -eq 0 ] || { cat "$scratch/rec.err"; fail "record exited $rc"; finish; }

"$MMSCOPE" report -f json "$out" >"$scratch/r.json" 2>"$scratch/r.err" ||
	{ cat "$scratch/r.err"; fail "report -f json failed"; finish; }
"$MMSCOPE" report -s kills "$out" >"$scratch/r.txt" 2>&1 || fail "report -s kills failed"
cat "$scratch/r.txt"
trace-cmd report "$out" >"$scratch/tc.txt" 2>/dev/null || fail "trace-cmd report failed"

python3 - "$scratch/r.json" "$scratch/tc.txt" "$cg" "$s1" "$s2" "$s3" "$s4" "$s5" <<'PY' || fail "the kills (above)"
import json, re, sys
rep = json.load(open(sys.argv[1]))
tc = open(sys.argv[2]).read().splitlines()
cg = sys.argv[3]
s1, s2, s3, s4, s5 = (int(x) for x in sys.argv[4:9])
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        bad.append(what)

kills = {k["victim"]["pid"]: k for k in rep["oom"]["kills"]}
check(all(p in kills for p in (s1, s2, s3, s4, s5)), "the five kills: %s" % sorted(kills))

# trace-cmd: the senders, and the xattr as the sampler wrote it
ev = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\S+):\s*(.*)$')
sent, oomd = {}, []
for line in tc:
    m = ev.match(line)
    if not m:
        continue
    ts, comm, name, rest = float(m.group(4)), m.group(1).strip(), m.group(5), m.group(6)
    if name.endswith("signal_generate") and "sig=9 " in rest:
        p = re.search(r'pid=(\d+)', rest)
        if p:
            sent[int(p.group(1))] = comm
    if "mms1 memcgs " in rest and (" path=%s " % cg) in rest:
        v = re.search(r' oomd_kill=(\d+)', rest)
        oomd.append((ts, int(v.group(1)) if v else 0))
check(all(sent.get(p) == "systemd-oomd" for p in (s1, s2, s5)),
      "trace-cmd: sleeps 1, 2, 5 killed by systemd-oomd: %s" % [sent.get(p) for p in (s1, s2, s5)])
check(sent.get(s3) == "python3" and sent.get(s4) == "python3",
      "trace-cmd: sleeps 3, 4 killed by python3: %s %s" % (sent.get(s3), sent.get(s4)))
vals = sorted(set(v for _, v in oomd))
check(vals == [0, 3, 4], "trace-cmd: the cgroup's oomd_kill went 0, 3, 4: %s" % vals)

for pid, killer, sender, ev_before, ev_after in (
        (s1, "systemd-oomd", "systemd-oomd", 0, 3), (s2, "systemd-oomd", "systemd-oomd", 0, 3),
        (s5, "systemd-oomd", "systemd-oomd", 0, 3),
        (s3, "systemd-oomd", "python3", 3, 4), (s4, "other:python3", "python3", None, None)):
    k = kills.get(pid)
    if not k:
        continue
    check(k["killer"] == killer and k["sender"]["comm"] == sender,
          "sleep %d: killer %s, sender %s (want %s, %s)"
          % (pid, k["killer"], k["sender"]["comm"], killer, sender))
    x = k.get("oomd_xattr")
    if ev_before is None:
        check(x is None, "sleep %d: no xattr evidence: %s" % (pid, x))
    else:
        check(x is not None and x["before"] == ev_before and x["after"] == ev_after and
              x["path"] == cg, "sleep %d: the xattr's %s -> %s on %s: %s"
              % (pid, ev_before, ev_after, cg, x))
    own = cg + "/leaf" if pid == s5 else cg
    vc = k.get("victim_cgroup")
    check(vc is not None and vc["path"] == own and vc["found_by"] == "tasks",
          "sleep %d: its cgroup %s sampled: %s" % (pid, own, vc and vc["path"]))
    check(k["victim"]["cgroup"] == own, "sleep %d: victim cgroup %s" % (pid, k["victim"]["cgroup"]))
    if x is not None:
        # the evidence's value is one the recording's samples have
        check(any(v == x["after"] for _, v in oomd), "sleep %d: %d is a sampled value" % (pid, x["after"]))
sys.exit(1 if bad else 0)
PY
grep -q 'systemd-oomd' "$scratch/r.txt" || fail "the Kills section does not name systemd-oomd"
finish
