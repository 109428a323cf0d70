#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: the event and memcg triggers fire on a real OOM kill and real memcg
# reclaim. anon-touch maps 256 MiB in a 48 MiB memory cgroup that may not
# swap, whatever swap devices the machine has on (another's device would
# take the pages instead of the OOM kill): v1 limits memory+swap to the
# same 48 MiB where the kernel accounts swap and sets the cgroup's
# swappiness to 0, v2 sets memory.swap.max to 0. The cgroup reclaims,
# then OOM-kills it. Each run is a
# flight recorder with one trigger and --max-triggers 1, so it ends by
# itself after the file that trigger wrote; the file names the trigger
# and its values, and says it was the run's last ("then max-triggers
# reached", issue 40.4). Nothing (neither the instance nor its trigger watch
# mmscope-PID-w) is left in tracefs.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
live_cgroup_noswap 48

# run TRIGGER NAME [ARGS]: record with that trigger while the hog runs
run() {
	trig=$1 name=$2
	shift 2
	out="$scratch/$name.dat"
	"$MMSCOPE" record --flight-recorder --trigger "$trig" --max-triggers 1 --interval 200 \
		--buffer-kb 1024 -g reclaim,oom -o "$out" "$@" 2>"$scratch/$name.err" &
	rec=$!
	LIVE_PIDS="$LIVE_PIDS $rec"
	# ready when it says so (slow under sanitizers)
	i=0
	while ! grep -q 'flight recorder started' "$scratch/$name.err" && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -d "$TRACEFS/instances/mmscope-$rec-w" ] || [ "$watch" = no ] ||
		fail "$trig: no trigger watch instance mmscope-$rec-w while recording"
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 256 -N -s 3 -q" \
		>/dev/null 2>&1
	i=0
	while kill -0 "$rec" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -TERM "$rec" 2>/dev/null
	wait "$rec"
	rc=$?
	cat "$scratch/$name.err"
	f="$scratch/$name-1.dat"
	# status 4: stopped at --max-triggers (a service restarts from it)
	if [ $rc -eq 4 ] && [ -f "$f" ] && grep -q 'stopped (max-triggers reached)' "$scratch/$name.err"
	then
		ok "$trig fired and ended the run: $(strings "$f" | grep '^trigger=')"
	else
		fail "$trig: exit $rc, file $([ -f "$f" ] && echo written || echo missing)"
		return
	fi
	# the run's last file (issue 40.4): the report says the run stopped after it
	strings "$f" | grep -q "^stop_reason=trigger:$trig, then max-triggers reached\$" ||
		fail "$trig: no stop_reason=trigger:$trig, then max-triggers reached"
	"$MMSCOPE" report -s header "$f" | tr '\n' ' ' | sed 's/  */ /g' |
		grep -q "stopped trigger $trig fired, then --max-triggers reached (1 file) " ||
		fail "$trig: the report does not say the run stopped after this file"
	trace-cmd report "$f" >/dev/null 2>&1 || fail "$trig: trace-cmd cannot read $f"
	[ -d "$TRACEFS/instances/mmscope-$rec-w" ] && fail "$trig: trigger watch instance left"
}

watch=yes
run oom oom
strings "$scratch/oom-1.dat" | grep -q '^trigger=OOM kill of pid [0-9]* (anon-touch)' ||
	fail "oom: the trigger does not name the victim"
# the trigger key by key (mmscope-recording(5)): the pid of the text
pid=$(strings "$scratch/oom-1.dat" | sed -n 's/^trigger=OOM kill of pid \([0-9]*\) .*/\1/p')
strings "$scratch/oom-1.dat" | grep -q '^trigger_kind=oom$' &&
	strings "$scratch/oom-1.dat" | grep -q "^trigger_pid=$pid\$" &&
	strings "$scratch/oom-1.dat" | grep -q '^trigger_comm=anon-touch$' &&
	ok "oom: trigger_kind, trigger_pid $pid and trigger_comm in the metadata" ||
	fail "oom: $(strings "$scratch/oom-1.dat" | grep '^trigger_' | tr '\n' ' ')"
run 'reclaim-stall>0' stall
strings "$scratch/stall-1.dat" | grep -Eq '^trigger=(direct|memcg) reclaim [0-9.]* ms in pid [0-9]*' ||
	fail "reclaim-stall: no duration and pid in the trigger"
strings "$scratch/stall-1.dat" | grep '^trigger_' | tr '\n' ' ' >"$scratch/keys"
grep -Eq 'trigger_kind=reclaim-stall trigger_unit=ms trigger_threshold=0 trigger_value=[0-9.e+-]+ trigger_pid=[1-9][0-9]* ' \
	"$scratch/keys" && ok "reclaim-stall: $(cat "$scratch/keys")" ||
	fail "reclaim-stall: the trigger's keys: $(cat "$scratch/keys")"
watch=no
run memcg-oom memcg --cgroup "$LIVE_TAG"
strings "$scratch/memcg-1.dat" | grep -q '^trigger=memcg oom_kill +[1-9][0-9]* in one interval > 0$' ||
	fail "memcg-oom: no oom_kill growth in the trigger"
strings "$scratch/memcg-1.dat" | grep -q '^trigger_value=[1-9][0-9]*$' &&
	strings "$scratch/memcg-1.dat" | grep -q '^trigger_unit=events$' &&
	ok "memcg-oom: trigger_value and trigger_unit=events" || fail "memcg-oom: no trigger_value"
# memcg triggers need --cgroup; memcg-high has nothing to read on v1
"$MMSCOPE" record --flight-recorder --trigger memcg-max -o "$scratch/x.dat" 2>"$scratch/e"
[ $? -eq 2 ] && grep -q "needs --cgroup" "$scratch/e" && ok "memcg-max without --cgroup: exit 2" ||
	fail "memcg-max without --cgroup not refused"
if [ "$LIVE_CG_V2" -eq 0 ]; then
	"$MMSCOPE" record --flight-recorder --trigger memcg-high --cgroup "$LIVE_TAG" \
		-o "$scratch/x.dat" 2>"$scratch/e"
	[ $? -eq 2 ] && grep -q "cgroup v1 has no memory.high" "$scratch/e" &&
		ok "memcg-high on cgroup v1: exit 2" || fail "memcg-high on v1 not refused"
fi
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
ls "$TRACEFS/instances" | grep -q -- '-w$' && fail "a trigger watch instance is left"
finish
