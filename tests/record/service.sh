#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The service: systemd/mmscope-recorder.service (made from its template
# with this build's binary and a scratch config directory) passes
# `systemd-analyze verify`; the example config systemd/recorder.conf runs
# the flight recorder, which logs one-line messages and stops cleanly on
# SIGTERM (status 0, nothing left in tracefs); a config with an unknown
# key stops it with one line and status 2 (which the unit does not
# restart on). The unit makes the example's output directory
# (StateDirectory=), and restarts a recorder that stopped at max-triggers
# (status 4, with a line in the journal), which numbers its files on.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

command -v systemd-analyze >/dev/null 2>&1 ||
	skip "systemd-analyze not installed (sh tests/install-deps.sh: systemd)"
tmpl="$top_srcdir/systemd/mmscope-recorder.service.in"
conf="$top_srcdir/systemd/recorder.conf"

mkdir -p "$scratch/etc/mmscope" "$scratch/unit"
unit="$scratch/unit/mmscope-recorder.service"
sed -e "s|@bindir@|$top_builddir|g" -e "s|@sysconfdir@|$scratch/etc|g" "$tmpl" >"$unit"
grep -q '@' "$unit" && fail "the unit has an unsubstituted @...@"
cp "$conf" "$scratch/etc/mmscope/recorder.conf"
# verify prints problems of other units on a busy host too: only ours count
# --man=no: the man page is not installed while testing the build
systemd-analyze verify --man=no "$unit" >"$scratch/verify" 2>&1
rc=$?
grep "mmscope-recorder" "$scratch/verify" >"$scratch/ours"
if [ $rc -eq 0 ] && [ ! -s "$scratch/ours" ]; then
	ok "systemd-analyze verify: the unit is clean"
else
	cat "$scratch/verify"
	fail "systemd-analyze verify: exit $rc"
fi
if [ -f "$top_builddir/systemd/mmscope-recorder.service" ]; then
	grep -q "^ExecStart=.*/mmscope record --config .*/mmscope/recorder.conf$" \
		"$top_builddir/systemd/mmscope-recorder.service" &&
		ok "the built unit runs record --config" || fail "the built unit's ExecStart is wrong"
fi

# a bad config: one line, exit 2, before anything is traced
printf 'flight-recorder = yes\nbufer-kb = 1024\n' >"$scratch/bad.conf"
"$top_builddir/mmscope" record --config "$scratch/bad.conf" 2>"$scratch/e"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$scratch/e")" = 1 ] &&
	ok "unknown key: exit 2: $(cat "$scratch/e")" || fail "unknown key: exit $rc: $(cat "$scratch/e")"
grep -q "RestartPreventExitStatus=2" "$unit" || fail "the unit would restart on a bad config"
# the example config's output directory is the one the unit makes
# (StateDirectory= is below /var/lib), and --max-triggers' status 4 is one
# the unit restarts from: a host never records nothing silently
outdir=$(sed -n 's/^output *= *\(.*\)\/[^/]*$/\1/p' "$conf")
state=$(sed -n 's/^StateDirectory=//p' "$unit")
[ -n "$state" ] && [ "$outdir" = "/var/lib/$state" ] &&
	ok "the unit makes the example's output directory $outdir (StateDirectory=$state)" ||
	fail "the example writes to $outdir, the unit makes '/var/lib/$state'"
grep -q '^Restart=on-failure$' "$unit" &&
	! grep -Eq '^RestartPreventExitStatus=.*\<4\>' "$unit" &&
	ok "the unit restarts after --max-triggers (exit 4)" ||
	fail "the unit does not restart after --max-triggers"

live_require
# the example config, its output moved into the scratch directory
mkdir -p "$scratch/var"
"$top_builddir/mmscope" record --config "$scratch/etc/mmscope/recorder.conf" \
	-o "$scratch/var/incident.dat" 2>"$scratch/log" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
i=0
while ! grep -q 'flight recorder started' "$scratch/log" && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -USR1 "$rec"
# SIGTERM within the post-trigger time (10 s), once it began (SIGUSR1's,
# or a trigger's that fired first: psi-some>20 on a busy machine)
live_wait 60 "the post-trigger time's start" grep -q ': recording 10.0 s more into' "$scratch/log"
kill -TERM "$rec"
i=0
while kill -0 "$rec" 2>/dev/null && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
wait "$rec"
rc=$?
cat "$scratch/log"
[ $rc -eq 0 ] && ok "SIGTERM: the service's recorder stopped with status 0" ||
	fail "SIGTERM: status $rc"
# a post-trigger file cut short by the stop is still written whole
[ -f "$scratch/var/incident-1.dat" ] && trace-cmd report "$scratch/var/incident-1.dat" \
	>/dev/null 2>&1 && ok "the SIGUSR1 file is complete" || fail "no readable incident-1.dat"
bad=$(grep -v '^mmscope: \|^warning: ' "$scratch/log")
[ -z "$bad" ] && ok "every message is one line prefixed mmscope:/warning:" ||
	fail "messages not in one-line form: $bad"
ls "$scratch/var" | grep -q spool && fail "a spool is left"
# restarted (as the unit does) with max-triggers reached at its first file:
# it goes on at incident-2.dat, says it stops recording, and exits 4
"$top_builddir/mmscope" record --config "$scratch/etc/mmscope/recorder.conf" \
	-o "$scratch/var/incident.dat" --max-triggers 1 --post-trigger 500ms 2>"$scratch/log2" &
rec=$!
LIVE_PIDS="$LIVE_PIDS $rec"
i=0
while ! grep -q 'flight recorder started' "$scratch/log2" && [ "$i" -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -USR1 "$rec"
i=0
while kill -0 "$rec" 2>/dev/null && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
wait "$rec"
rc=$?
cat "$scratch/log2"
[ $rc -eq 4 ] && [ -f "$scratch/var/incident-2.dat" ] &&
	grep -q '^mmscope: --max-triggers 1 reached: the flight recorder no longer records' \
		"$scratch/log2" &&
	ok "max-triggers: incident-2.dat after the earlier run's, a line, exit 4 (restarted)" ||
	fail "max-triggers: exit $rc, incident-2.dat $([ -f "$scratch/var/incident-2.dat" ] || echo missing)"
left=$(instances_left)
[ -z "$left" ] && ok "no instance left" || fail "instances left: $left"
finish
