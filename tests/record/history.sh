#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: a host's history as a service leaves it (issue 40). A recorder
# runs with --switch-output into one directory and is stopped by SIGTERM,
# restarted, SIGKILLed (its spool recovered), restarted and stopped again,
# with a flight recorder (--trigger oom) beside it writing an incident at
# each of three memcg OOM kills, each while a continuous run records. Then:
# report (text, JSON, HTML), dump and tui open the directory; the runs are
# in time order, began as start, restart and restart after recover (the
# continuous runs alone: with the two gaps stated); each incident is
# partly inside a run (its ring reaches back into the gap before it) and
# only its own part is its own, so no time is in two runs and the kills
# are counted once; the runs' kills are their parts' kills; an export of
# everything (a part first, the directory twice, a run's files again)
# holds each OOM kill once: as many rows as /proc/vmstat oom_kill moved.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require python3
# no swap for the cgroup, whatever devices are on: the hog is OOM-killed
live_cgroup_noswap 48

d=$scratch/host
mkdir "$d"
oom_kills() { awk '$1 == "oom_kill" { print $2 }' /proc/vmstat; }
# wait_for WHAT SECONDS CMD...: until CMD succeeds, at most SECONDS
wait_for() {
	what=$1 n=$(($2 * 10))
	shift 2
	while ! "$@" && [ "$n" -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	"$@" || { fail "$what: not within $2 s"; return 1; }
}
parts() { ls "$d" | grep -c '^svc-[0-9]*\.dat$'; }
more_parts() { [ "$(parts)" -gt "$1" ]; }
incidents() { ls "$d" | grep -c '^flight-[0-9]*\.dat$'; }
more_incidents() { [ "$(incidents)" -gt "$1" ]; }
said() { grep -q "$2" "$1" 2>/dev/null; }
hog() {
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 256 -N -s 3 -q" \
		>/dev/null 2>&1
}

before=$(oom_kills)
"$MMSCOPE" record --flight-recorder --trigger oom --pre-trigger 1 --post-trigger 0.5 \
	--trigger-cooldown 0 -g reclaim,oom --interval 200 --buffer-kb 1024 \
	-o "$d/flight.dat" 2>"$scratch/flight.err" &
flight=$!
LIVE_PIDS="$LIVE_PIDS $flight"
wait_for "the flight recorder's start" 60 said "$scratch/flight.err" 'flight recorder started'

# run N SIGNAL: a continuous run through one OOM kill, then the signal:
# the kill once a part is written (the incident's second before it is in
# the run), the signal once the incident is written and a part after it
run() {
	p=$(parts) i=$(incidents)
	"$MMSCOPE" record --switch-output 1s -g reclaim,oom --interval 200 -o "$d/svc.dat" \
		2>"$scratch/run$1.err" &
	rec=$!
	LIVE_PIDS="$LIVE_PIDS $rec"
	wait_for "run $1's first part" 60 more_parts "$p" || return
	hog
	wait_for "run $1's incident" 60 more_incidents "$i" || return
	p=$(parts)
	wait_for "run $1's part after the incident" 60 more_parts "$p" || return
	kill -"$2" "$rec"
	wait "$rec"
}
run 1 TERM
run 2 KILL
# the killed run's part being written: recovered before the next start
for spool in "$d"/svc-*.dat.spool; do
	[ -d "$spool" ] || continue
	"$MMSCOPE" recover --remove "$spool" -o "${spool%.spool}" >"$scratch/recover" 2>&1 ||
		fail "recover $spool: $(cat "$scratch/recover")"
done
run 3 TERM
kill -TERM "$flight"
wait "$flight"
moved=$(($(oom_kills) - before))
[ "$moved" -eq 3 ] && ok "3 OOM kills (vmstat oom_kill +3), $(parts) parts, $(incidents) incidents" ||
	fail "vmstat oom_kill moved by $moved, not 3 ($(incidents) incidents)"

# --- report: the history. The flight recorder's rings reach back to its
# last dump: each incident is partly inside a continuous run, and its own
# part (the events it alone holds) lies before that run, in the gap.
"$MMSCOPE" report "$d" >"$scratch/text" 2>"$scratch/e" || fail "report DIR: $(cat "$scratch/e")"
grep -q '^History of host [^ ]*: 6 runs, 0 gaps, 3 partly$' "$scratch/text" &&
	ok "report: $(head -1 "$scratch/text")" || fail "report: $(head -1 "$scratch/text")"
grep -q '^run [0-9]     began: start; ended: a signal' "$scratch/text" &&
	grep -q '^run [0-9]     began: restart; ended: recovered' "$scratch/text" &&
	grep -q '^run [0-9]     began: restart after recover; ended: a signal' "$scratch/text" &&
	[ "$(grep -c '^run [0-9]     began: trigger oom; ended: trigger oom fired; partly inside$' "$scratch/text")" = 3 ] &&
	ok "report: the runs began as start, restart, restart after recover; 3 incidents partly inside them" ||
	fail "report: $(grep '^run [0-9]  ' "$scratch/text")"
# the continuous runs alone: the gaps between them stated
"$MMSCOPE" report "$d"/svc-*.dat >"$scratch/text2" 2>"$scratch/e" || fail "report svc-*: $(cat "$scratch/e")"
[ "$(grep -c '^gap       not recorded: ' "$scratch/text2")" = 2 ] &&
	[ "$(grep -c '^--- not recorded for .*: run [12] ended: .*; run [23] began: restart' "$scratch/text2")" = 2 ] &&
	ok "report of the continuous runs alone: the two gaps stated, with how each run ended and the next began" ||
	fail "report svc-*: gaps: $(grep 'not recorded' "$scratch/text2")"

"$MMSCOPE" report -f json "$d" >"$scratch/json" || fail "report -f json DIR"
got=$(python3 - "$scratch/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["history"]
runs = [r for r in h["runs"] if r["reported"]]
order = [r["first_wall"] for r in h["runs"]]
# no time in two runs: each own span ends before the next begins
own = [(r["own_first_ns"] or r["first_ns"], r["own_last_ns"] or r["last_ns"]) for r in runs]
apart = all(a[1] < b[0] for a, b in zip(own, own[1:]))
print(h["totals"]["oom_kills"], len(runs), order == sorted(order), apart,
      sum(1 for r in h["runs"] if r["relation"] == "partly"))
PY
)
[ "$got" = "$moved 6 True True 3" ] &&
	ok "report -f json: $moved OOM kills over 6 runs in time order, no time in two of them" ||
	fail "report -f json: kills runs ordered apart partly '$got'"

# the runs' kills are their parts' kills
got=$(python3 - "$scratch/json" "$MMSCOPE" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
bad = []
for r in d["history"]["runs"]:
    if not r["reported"] or len(r["files"]) < 2:
        continue
    parts = 0
    for f in r["files"]:
        j = json.loads(subprocess.run([sys.argv[2], "report", "-f", "json", "-s", "oom", f],
                                      capture_output=True, text=True, check=True).stdout)
        parts += j["oom"]["oom_kills"]
    if parts != r["sums"]["oom_kills"]:
        bad.append("run %d: parts %d, run %d" % (r["run"], parts, r["sums"]["oom_kills"]))
print("; ".join(bad) or "ok")
PY
)
[ "$got" = ok ] && ok "each run's OOM kills are its parts' kills" || fail "parts and runs: $got"

# --- the other front ends open it
"$MMSCOPE" dump "$d" >"$scratch/dump" 2>"$scratch/e" && [ "$(grep -c '^=== run ' "$scratch/dump")" = 6 ] &&
	ok "dump DIR: every run under its line" || fail "dump DIR: $(cat "$scratch/e")"
"$MMSCOPE" report -f html -o "$scratch/h.html" "$d" 2>"$scratch/e" && grep -q 'run 3 of 6' "$scratch/h.html" &&
	ok "report -f html DIR: one page" || fail "report -f html DIR: $(cat "$scratch/e")"
MMSCOPE_TUI_HEADLESS=1 MMSCOPE_TUI_KEYS=q "$MMSCOPE" tui "$d" >/dev/null 2>"$scratch/e" &&
	ok "tui DIR: opens" || fail "tui DIR: $(cat "$scratch/e")"

# --- export: each kill once, however it is exported
x=$scratch/db
first=$(ls "$d" | grep '^svc-[0-9]*\.dat$' | sort -t- -k2 -n | head -1)
"$MMSCOPE" export -o "$x" "$d/$first" 2>"$scratch/e" || fail "export a part: $(cat "$scratch/e")"
for i in 1 2; do
	"$MMSCOPE" export -o "$x" "$d" 2>"$scratch/e" || fail "export DIR ($i): $(cat "$scratch/e")"
done
# the last run's files by name
last=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join([r for r in d["history"]["runs"] if r["reported"]][-1]["files"]))' "$scratch/json")
# shellcheck disable=SC2086
"$MMSCOPE" export -o "$x" $last 2>"$scratch/e" || fail "export a run's files: $(cat "$scratch/e")"
rows=$(($(wc -l <"$x/oom_kills.csv") - 1))
[ "$rows" -eq "$moved" ] && ok "export (a part, the directory twice, a run again): $rows OOM kill rows, as vmstat moved" ||
	fail "export: $rows OOM kill rows, vmstat oom_kill moved by $moved"
# the kills table too: its kernel OOM kills once each (a SIGKILL one
# process sent another would be a row of its own)
krows=$(awk -F, 'NR > 1 && ($3 == "kernel-oom" || $3 == "memcg-oom")' "$x/kills.csv" | wc -l)
[ "$krows" -eq "$moved" ] && ok "export: $krows kernel kill rows in the kills table, as vmstat moved" ||
	fail "export: $krows kernel kill rows in the kills table, vmstat oom_kill moved by $moved"
finish
