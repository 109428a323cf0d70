#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario clock-step (not in the matrix; made tests/data/report/
# clock-step-6.12.dat): the wall clock is stepped during a recording, as
# chrony's makestep does after a recorder that started at boot: +30 s
# after 2 s, then -10 s after 2 s more. mmscope record reads the wall and
# trace clocks at every sample set (200 ms) and keeps the segments in step
# (wall_segments); the events are the sample sets and a page-cache reader's
# page allocations.
# Needs: mmscope (run-vm.sh --binary).
# vm-mem: 512
# vm-timeout: 120
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
. /usr/local/lib/scenario-lib.sh

dump_state before
date -u > "$OUT/date.before"
MMSCOPE_INTERVAL=200 record_run -g kswapd,compaction -e kmem:mm_page_alloc -- sh -c '
	churn() { dd if=/dev/zero bs=1M count=20 2>/dev/null | cat > /dev/null; }
	churn; sleep 2; churn
	date -u -s @$(($(date +%s) + 30)) > /out/date.step1
	churn; sleep 2; churn
	date -u -s @$(($(date +%s) - 10)) > /out/date.step2
	churn; sleep 2; churn'
date -u > "$OUT/date.after"
dump_state after
finish
