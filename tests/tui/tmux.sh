#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Drives the real binary in a real terminal: a detached tmux server at
# 80x24 (tmux's own regress method), keys through send-keys, the screen
# through capture-pane. Checks the views, a resize, that 'q' exits 0 and
# that SIGTERM leaves the terminal usable. Skips without tmux.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null || skip "tmux is not installed"
f="$top_srcdir/samples/memcg-swap-6.18.dat"
sock="mmscope-test-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$scratch"' EXIT

# Waits until the pane shows $1 (a grep -E pattern), up to ~60 s (an
# ASan build on a loaded 2-core machine opens files slowly).
wait_for() {
	i=0
	while [ $i -lt 600 ]; do
		T capture-pane -p -t t >"$scratch/screen" 2>/dev/null
		grep -Eq -- "$1" "$scratch/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for '$1'; screen:
$(cat "$scratch/screen")"
	return 1
}

# The pane runs a shell that starts mmscope, then prints its exit status
# and whether the terminal is back in canonical (cooked) mode.
T new-session -d -s t -x 80 -y 24 \
	"env TERM=screen-256color '$MMSCOPE' tui '$f'; echo EXIT=\$?; stty -a | grep -Eo '(^| )-?icanon'; sleep 300" ||
	skip "tmux cannot start a server here"
wait_for ' mmscope  1 timeline 2 swap' && ok "title bar (at 80 columns the tabs before the file's name)"
wait_for '^ *[0-9]+\.[0-9]{6} s ' && ok "status bar with the cursor time"

T send-keys -t t 5
wait_for 'events at ' && ok "5: events view"
wait_for 'mm_vmscan_memcg_reclaim_begin' && ok "events view lists the recording's events"

T send-keys -t t '?'
wait_for 'zoom in around the cursor' && ok "?: help from the key table"
T send-keys -t t q
wait_for 'events at ' && ok "q in help goes back"

T resize-window -t t -x 120 -y 30 2>/dev/null
wait_for 'vmscan:mm_vmscan' && ok "resize to 120 columns: full dump lines"
[ "$(wc -l <"$scratch/screen")" -ge 30 ] || fail "resize: screen has $(wc -l <"$scratch/screen") rows"

T send-keys -t t 1 Right Right +
wait_for '1 timeline' && ok "1: timeline view after keys"

T send-keys -t t 6
wait_for 'findings: [0-9]+, critical first' && ok "6: findings view"
wait_for 'memcg-reclaim-stalls' && ok "findings view lists the memcg reclaim stalls"
T send-keys -t t Enter
wait_for 'stalls from .*\(selection\)' && ok "Enter: the stalls view, the finding's span selected"
wait_for 'memcg-reclaim-stalls at [0-9.]+ s \(stalls\)' && ok "the status line says where"

T send-keys -t t q
wait_for '^EXIT=0' && ok "q exits 0"
# the stty line comes a moment after the EXIT line: wait for it too
wait_for '(^| )-?icanon'
grep -Eq '(^| )icanon' "$scratch/screen" && ok "q: terminal back in canonical mode" ||
	fail "terminal left in raw mode after q"

# SIGTERM: the handler restores the terminal, then dies of the signal.
T kill-session -t t
# a server of its own: the first one exits once its last session is gone,
# and a new-session racing that exit on the same socket fails ("server
# exited unexpectedly", seen under dpkg-buildpackage's make -j2 check)
sock="mmscope-test-$$-b"
T new-session -d -s t -x 80 -y 24 \
	"env TERM=screen-256color '$MMSCOPE' tui '$f'; echo EXIT=\$?; stty -a | grep -Eo '(^| )-?icanon'; sleep 300"
wait_for ' mmscope  1 timeline 2 swap'
shell=$(T display -p -t t '#{pane_pid}')
pid=$(ps -o pid= --ppid "$shell" | tr -d ' ' | head -1)
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	wait_for '^EXIT=143' && ok "SIGTERM: exit status 143"
	wait_for '(^| )-?icanon'
	grep -Eq '(^| )icanon' "$scratch/screen" && ok "SIGTERM: terminal back in canonical mode" ||
		fail "terminal left in raw mode after SIGTERM"
else
	fail "cannot find the mmscope process under the pane's shell"
fi
finish
