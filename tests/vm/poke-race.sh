#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/poke-race.awk tells qemu TCG's text-poke race (an int3 oops
# at code that holds no int3 any more: the lab's fault, check-scenario.sh
# exit 3) from every other guest oops (a FAIL when the guest died in
# mmscope's work). The race's console is the one the 7.x guest printed
# in a CI run (its addresses as they were); the others change one thing.
. "${top_srcdir:-.}/tests/lib.sh"

AWK="$top_srcdir/tests/vm/poke-race.awk"
race() { printf '%s\r\n' "$@" >"$scratch/console"; awk -f "$AWK" "$scratch/console"; }

OOPS='[   37.661936] Oops: int3: 0000 [#1] SMP NOPTI'
CPU='[   37.663443] CPU: 1 UID: 0 PID: 403 Comm: mmscope Not tainted 7.3.4+deb13-amd64 #1 PREEMPT(lazy)  Debian 7.3.4-1~bpo13+1'
CODE='[   37.664764] Code: 00 80 f9 02 0f 44 d0 e8 ab f9 ff ff c6 43 35 01 44 89 e2 48 89 de 48 89 ef e8 d9 fe ff ff c6 43 36 00 c7 43 18 00 00 00 00 66 <90> 48 8b 83 18 04 00 00 48 83 78 60 00 74 36 83 bd a0 0f 00 00 02'
PANIC='[   37.674068] Kernel panic - not syncing: Fatal exception in interrupt'

race 'mmscope-vm: alive uptime=30' "$OOPS" "$CPU" "$CODE" "$PANIC" &&
	ok "the 7.x guest's int3 oops at a patched nop: the race" ||
	fail "the 7.x guest's int3 oops at a patched nop not told as the race"
race "$OOPS" "$CPU" "$(echo "$CODE" | sed 's/<90>/<cc>/')" "$PANIC" &&
	fail "an int3 oops where the int3 is still there taken as the race" ||
	ok "an int3 oops at a real int3: not the race"
race '[   12.1] general protection fault, probably for non-canonical address' "$CPU" "$CODE" "$PANIC" &&
	fail "a general protection fault taken as the race" || ok "a general protection fault: not the race"
race '[   11.0] BUG: kernel NULL pointer dereference, address: 0000000000000008' "$OOPS" "$CPU" "$CODE" &&
	fail "an int3 oops after an earlier BUG taken as the race" ||
	ok "the first oops is what counts: a BUG, then the int3: not the race"
race "$OOPS" "$CPU" "$PANIC" && fail "an int3 oops without its Code: line taken as the race" ||
	ok "an int3 oops without a Code: line: not the race"
race 'mmscope-vm: alive uptime=30' "$PANIC" && fail "a panic alone taken as the race" ||
	ok "a panic without an oops: not the race"
finish
