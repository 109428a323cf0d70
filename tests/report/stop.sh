#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 31 items 3 and 4: how a recording ended, from the recorder's
# metadata (mmscope-recording(5)), in the report's header and Run
# section, its JSON and export's recordings table: a full filesystem, a
# recovered spool with where each CPU's data ends, a killed recorder, a
# trigger with every key, a run of two files (the last one's stop), and
# a file without the keys, which says nothing. Issue 40.4: the files of
# this mmscope state the command's outcome where the recorder knew it
# (a full disk: from the metadata), or precisely why it is unknown (a
# recorder killed while recording or while stopping, a part, the last
# flight file of --max-triggers), in text, JSON and export. The real flight-recorder
# file is in the goldens (tests/report/golden.sh), the TUI's status line
# and mark in tests/unit/test-tui-views.c, plot's in tests/plot/charts.sh.
. "${top_srcdir:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || { fail "tests/compare/mkrec not built"; finish; }

# rec NAME T META: a recording with a run context, no outcome line, two
# events 0.5 s apart, the first at T s (so each has its own recording id)
rec() {
	printf '%s\n' "${2}000000000 mms1 ctx 0 at=start vm.swappiness=60" "${2}500000000 hello" |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=17962811823007224%s\n%s\n' $2 "$3")" \
		"$mkrec" "$scratch/$1.dat" || fail "mkrec $1"
}
rec disk 1 "$(printf 'command=stress-ng --vm 1\nstop_reason=filesystem full\nstop_detail=4096 bytes left on /var')"
rec recovered 2 "$(printf 'command=stress-ng --vm 1\nstop_reason=recovered\nstop_detail=from the spool of a recorder that did not finish (it said: running)\ncpu_end_ns=0:2400000000,1:-')"
rec killed 3 "$(printf 'command=stress-ng --vm 1\nstop_reason=running')"
rec trig 4 "$(printf 'mode=flight-recorder\ntrigger=reclaim stall of 73.2 ms by pid 4242\ntrigger_name=reclaim-stall>50\ntrigger_realtime_ns=1796281182800722402\ntrigger_ns=4500000000\ntrigger_kind=reclaim-stall\ntrigger_unit=ms\ntrigger_threshold=50\ntrigger_value=73.2\ntrigger_pid=4242\ntrigger_comm=stress ng\nstop_reason=trigger:reclaim-stall>50')"
rec old 5 ""

has() {	# NAME PATTERN: the text report of NAME has a line matching PATTERN
	"$MMSCOPE" report -s header -s run "$scratch/$1.dat" >"$scratch/$1.txt" 2>&1 ||
		fail "$1: report exited $?"
	grep -q "$2" "$scratch/$1.txt" && ok "$1: $2" ||
		{ cat "$scratch/$1.txt" >&2; fail "$1: no line '$2'"; }
}
has disk '^stopped   filesystem full (4096 bytes left on /var): the recording ended$'
has disk '^command   stress-ng --vm 1$'
has disk '^outcome   - (not recorded: its line came after the recording stopped$'
has recovered '^stopped   recovered by mmscope recover: the recorder was killed while$'
has recovered '^data ends CPU 0 at 0.400 s, CPU 1 - (no events)$'
has killed '^stopped   the recorder was killed, recovered from its spool: the data$'
has trig '^trigger   reclaim-stall>50 at 0.500 s (@4.500000); reclaim-stall; value$'
has trig '^          73.2 ms, threshold 50 ms; task 4242 (stress ng)$'
has trig '^stopped   trigger reclaim-stall>50 fired$'
for f in disk recovered killed trig old; do
	"$MMSCOPE" report -s header -s run "$scratch/$f.dat" >"$scratch/$f.txt"
	! grep -q 'a --duration or signal ended the run' "$scratch/$f.txt" ||
		fail "$f: still claims a --duration or signal ended the run"
done
"$MMSCOPE" report -s header -s run "$scratch/old.dat" >"$scratch/old.txt"
grep -q '^trigger\|^stopped\|^data ends' "$scratch/old.txt" &&
	fail "old: a file without the keys got a trigger or stop line" ||
	ok "old: no trigger or stop line without the keys"
grep -q '^outcome   - (no COMMAND recorded)$' "$scratch/old.txt" &&
	ok "old: no COMMAND recorded, and no cause claimed" || fail "old: $(grep '^outcome' "$scratch/old.txt")"

# a run of two files: the stop is the last file's (a signal), not the
# first one's switch-output
for n in 1 2; do
	[ $n = 1 ] && s='stop_reason=switch-output' || s="$(printf 'stop_reason=signal\nstop_detail=SIGINT')"
	printf '%s\n' "${n}000000000 mms1 ctx 0 at=start vm.swappiness=60" "${n}500000000 hello" |
		MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=179628118%s000000000\nrun_id=r1\nswitch_output=%s\ncpustat=window\n%s\n' $n $n "$s")" \
		"$mkrec" "$scratch/run-$n.dat" || fail "mkrec run-$n"
done
mkdir "$scratch/run" && mv "$scratch/run-1.dat" "$scratch/run-2.dat" "$scratch/run/"
"$MMSCOPE" report -s header "$scratch/run" | grep -q '^stopped   a signal (SIGINT)$' &&
	ok "two files: the last one's stop" || fail "two files: $("$MMSCOPE" report -s header "$scratch/run" | grep stopped)"

# Issue 40.4, files of this mmscope: the recorder keeps the command's
# outcome in the metadata (command_*), which a full disk cannot take from
# the file; a recovered file says what its spool said (spool_stop_*,
# spool_state) and what became of the command.
ended='command=sleep 300
command_argv=sleep 300
command_pid=77
command_state=ended
command_signal=15
command_core=0
command_elapsed_us=2500000
command_user_us=1000
command_sys_us=2000
command_maxrss_kb=1800
command_ended_by_recorder=1'
running='command=sleep 300
command_argv=sleep 300
command_pid=79
command_state=running'
rec disk2 6 "$ended
spool_state=complete
stop_reason=filesystem full
stop_detail=4096 bytes left on /var"
rec killed2 7 "$running
spool_state=recording
stop_reason=recovered
stop_detail=from the spool of a recorder that did not finish (it said: running)
spool_stop_reason=running
cpu_end_ns=0:7400000000,1:-"
rec stopping 8 "$running
spool_state=stopping
stop_reason=recovered
stop_detail=from the spool of a recorder that did not finish (it said: signal; Terminated)
spool_stop_reason=signal
spool_stop_detail=Terminated"
rec part 9 "$running
run_id=p9
switch_output=3
spool_state=complete
stop_reason=switch-output"
rec last 10 "$running
mode=flight-recorder
trigger_name=oom
trigger_kind=oom
stop_reason=trigger:oom, then max-triggers reached
stop_detail=2 files"
# the words, unwrapped: NAME PATTERN
says() {
	"$MMSCOPE" report -s header -s run "$scratch/$1.dat" 2>&1 | tr '\n' ' ' | sed 's/  */ /g' >"$scratch/$1.flat"
	grep -q -- "$2" "$scratch/$1.flat" && ok "$1: $2" || { cat "$scratch/$1.flat" >&2; fail "$1: not '$2'"; }
}
says disk2 'stopped filesystem full (4096 bytes left on /var): the recording ended early; mmscope ended the command '
says disk2 'command sleep 300 outcome killed by signal 15 (Terminated): mmscope ended it at the stop (filesystem full); elapsed 2.500 s, user 0.001 s, sys 0.002 s; max RSS 1800 kB '
says killed2 'stopped recovered by mmscope recover: the recorder was killed while recording (SIGKILL, a crash or a power loss: which is not recorded): the data ends where its spool did data ends CPU 0 at 0.400 s'
says killed2 'outcome - (unknown: the recorder was killed while the command (pid 79) ran, and did not end it) '
says stopping 'stopped recovered by mmscope recover: the recorder was killed while stopping after a signal (Terminated), before it read its last pages'
says stopping 'outcome - (unknown: the recorder was killed while the command (pid 79) ran, and may have begun to end it) '
says part 'stopped switch-output: the next file continues the run '
says part 'outcome - (the command (pid 79) was still running at the switch: the next file continues the run) '
says last 'stopped trigger oom fired, then --max-triggers reached (2 files) '
says last 'outcome - (the command (pid 79) was still running when this file was written; mmscope stopped after it (--max-triggers) and ended the command if it still ran) '
for f in disk2 killed2 stopping part last; do
	grep -q 'no outcome recorded' "$scratch/$f.flat" && fail "$f: 'no outcome recorded'"
	"$MMSCOPE" report -s header -s run -f json "$scratch/$f.dat" >"$scratch/$f.json" || fail "$f: json"
done
python3 - "$scratch" <<'PY' && ok "JSON: header.stop's ending and run.outcome of this mmscope's files" || fail "JSON: the ending"
import json, sys
d = sys.argv[1]
j = {f: json.load(open("%s/%s.json" % (d, f))) for f in ("disk2", "killed2", "stopping", "part", "last")}
def ending(f):
    s = j[f]["header"]["stop"]
    return s["reason"], s["then"], s["command"], s["ended_command"], s["complete"]
assert ending("disk2") == ("disk-full", None, True, True, True), ending("disk2")
assert ending("killed2") == ("recovered", None, True, False, False), ending("killed2")
assert ending("stopping") == ("recovered", None, True, None, False), ending("stopping")
assert ending("part") == ("switch-output", None, True, False, True), ending("part")
assert ending("last") == ("trigger", "max-triggers", True, None, True), ending("last")
assert j["disk2"]["header"]["stop"]["spool"] is None
assert j["killed2"]["header"]["stop"]["spool"] == {"reason": "killed", "recorded": "running",
    "detail": None, "state": "recording"}, j["killed2"]["header"]["stop"]["spool"]
assert j["stopping"]["header"]["stop"]["spool"] == {"reason": "signal", "recorded": "signal",
    "detail": "Terminated", "state": "stopping"}, j["stopping"]["header"]["stop"]["spool"]
r = j["disk2"]["run"]
assert r["command"] == ["sleep", "300"] and r["outcome_unknown"] is None
assert r["outcome"] == {"exit": None, "signal": 15, "elapsed_s": 2.5, "user_s": 0.001, "sys_s": 0.002,
    "max_rss_kb": 1800, "stopped_by_recorder": True, "state": "killed", "core_dumped": False,
    "pid": 77, "source": "metadata"}, r["outcome"]
for f in ("killed2", "stopping", "part", "last"):
    r = j[f]["run"]
    o = r["outcome"]
    assert o["state"] == "running" and o["pid"] == 79 and o["exit"] is None and o["signal"] is None \
        and o["elapsed_s"] is None and o["stopped_by_recorder"] is None, (f, o)
    assert r["command"] == ["sleep", "300"] and r["outcome_unknown"], (f, r)
assert "was killed while the command (pid 79) ran" in j["killed2"]["run"]["outcome_unknown"]
PY
# export: the outcome columns from the metadata, as the report's
rm -rf "$scratch/x2"
"$MMSCOPE" export -o "$scratch/x2" "$scratch/disk2.dat" "$scratch/killed2.dat" 2>"$scratch/e" || fail "export: $(cat "$scratch/e")"
python3 - "$scratch/x2/recordings.csv" <<'PY' && ok "export: the outcome kept in the metadata" || fail "export: the outcome kept in the metadata"
import csv, os, sys
rows = {os.path.basename(r["file"]).split(".")[0]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows["disk2"]
got = tuple(r[k] for k in ("command", "exit_status", "signal", "elapsed_us", "maxrss_kb", "stopped_by_recorder"))
assert got == ("sleep 300", "", "15", "2500000", "1800", "1"), got
r = rows["killed2"]
assert (r["signal"], r["exit_status"], r["stop_reason"]) == ("", "", "recovered"), r
PY

# JSON: the same, null for what the file does not say
for f in disk recovered killed trig old; do
	"$MMSCOPE" report -s header -f json "$scratch/$f.dat" >"$scratch/$f.json" || fail "$f: json"
done
python3 - "$scratch" <<'PY' && ok "JSON: header.trigger and header.stop" || fail "JSON: header.trigger and header.stop"
import json, sys
d = sys.argv[1]
h = {f: json.load(open("%s/%s.json" % (d, f)))["header"] for f in ("disk", "recovered", "killed", "trig", "old")}
assert h["old"]["trigger"] is None and h["old"]["stop"] is None, h["old"]
s = h["disk"]["stop"]
assert (s["reason"], s["detail"], s["then"]) == ("disk-full", "4096 bytes left on /var", None), s
assert h["disk"]["trigger"] is None
assert h["recovered"]["stop"]["reason"] == "recovered"
assert h["recovered"]["stop"]["cpu_end_s"] == [0.4, None], h["recovered"]["stop"]
assert h["killed"]["stop"]["reason"] == "killed" and h["killed"]["stop"]["recorded"] == "running"
t = h["trig"]["trigger"]
want = {"name": "reclaim-stall>50", "kind": "reclaim-stall", "unit": "ms", "value": 73.2,
        "threshold": 50, "pid": 4242, "comm": "stress ng", "at_s": 0.5, "at_abs_s": 4.5,
        "realtime_ns": 1796281182800722402, "condition": "reclaim stall of 73.2 ms by pid 4242"}
assert t == want, t
assert h["trig"]["stop"]["reason"] == "trigger" and h["trig"]["stop"]["then"] is None
PY

# export: the recordings table's columns, empty (null) when not said
rm -rf "$scratch/x"
"$MMSCOPE" export -o "$scratch/x" "$scratch/disk.dat" "$scratch/recovered.dat" "$scratch/killed.dat" \
	"$scratch/trig.dat" "$scratch/old.dat" "$scratch/run" 2>"$scratch/e" || fail "export: $(cat "$scratch/e")"
python3 - "$scratch/x/recordings.csv" <<'PY' && ok "export: trigger and stop columns" || fail "export: trigger and stop columns"
import csv, os, sys
rows = {os.path.basename(r["file"]).split(".")[0].split(" ")[0]: r for r in csv.DictReader(open(sys.argv[1]))}
def cols(name, *keys):
    return tuple(rows[name][k] for k in keys)
assert cols("disk", "stop_reason", "stop_detail", "trigger_kind") == ("disk-full", "4096 bytes left on /var", ""), rows["disk"]
assert cols("recovered", "stop_reason") == ("recovered",)
assert cols("killed", "stop_reason") == ("killed",)
assert cols("trig", "trigger_name", "trigger_kind", "trigger_value", "trigger_threshold", "trigger_unit",
            "trigger_pid", "trigger_comm", "trigger_ns", "trigger_unix_ns", "stop_reason", "stop_then") == \
    ("reclaim-stall>50", "reclaim-stall", "73.2", "50", "ms", "4242", "stress ng", "4500000000",
     "1796281182800722402", "trigger", ""), rows["trig"]
keys = [k for k in rows["old"] if k.startswith(("trigger_", "stop_"))]
assert len(keys) == 12 and all(rows["old"][k] == "" for k in keys), rows["old"]
assert cols("run", "stop_reason", "stop_detail") == ("signal", "SIGINT"), rows["run"]
PY
finish
