#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-cgroups.sh [KERNEL]: the cgroups scenario (tests/vm/scenarios/
# cgroups.sh) on a cgroup v2 guest (default 6.12), then its recording held
# to `trace-cmd report` on the host as tests/record/cgroups.sh holds this
# host's (tests/record/lib-cgroups.sh: per-cgroup stall counts in the
# report's text and JSON, --cgroup in report, dump and export, the moved
# task on each side of its move). Not one of the matrix's scenarios
# (check-scenario.sh's generic checks are for the counter scenarios):
# `make check-vm` runs it after the matrix, or by hand:
# `MMSCOPE=build/mmscope tests/vm/check-cgroups.sh 6.12` (39 s here).
# Exit 0, 1, or 77 (no qemu, trace-cmd or kernel).
HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$HERE/../..}
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/record/lib-cgroups.sh"
KERNEL=${1:-6.12}
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
command -v python3 >/dev/null || skip "python3 not installed"
out="$scratch/vm"
mkdir -p "$out"
rc=0
bash "$HERE/check-scenario.sh" "$KERNEL" cgroups --out "$out" \
	>"$scratch/vm.log" 2>&1 || rc=$?
# 3: the guest died or hung outside mmscope's work (its kernel died under
# TCG: a panic "in interrupt" about once in 30 runs here, before any
# check), the lab's failure, not mmscope's: tried once more, as
# check-matrix.sh does, and the first try's oops is shown; twice is a skip
if [ "$rc" -eq 3 ]; then
	echo "the guest gave no status; its log, then one more try:" >&2
	sed 's/^/  | /' "$scratch/vm.log" >&2
	rm -rf "$out"
	mkdir -p "$out"
	rc=0
	bash "$HERE/check-scenario.sh" "$KERNEL" cgroups --out "$out" \
		>"$scratch/vm.log" 2>&1 || rc=$?
fi
[ -s "$out/rec.dat" ] && [ -s "$out/pids" ] || {
	tail -20 "$scratch/vm.log" >&2
	[ "$rc" -eq 77 ] && skip "no guest: $(tail -1 "$scratch/vm.log")"
	# twice dead outside mmscope's work: the lab's fault (a death while
	# mmscope recorded is check-scenario's exit 1, a failure)
	[ "$rc" -eq 3 ] && skip "the guest died twice outside mmscope's work;" \
		"$(sed -n 's/^  guest fault: //p' "$scratch/vm.log" | tail -n 1)"
	fail "the guest left no recording (check-scenario exit $rc)"
	finish
}
read -r WA WB MOVER <"$out/pids"
cg_check "$out/rec.dat" "$WA" "$WB" "$MOVER" /mmscope-cg/a /mmscope-cg/b /mmscope-cg
grep -q 'mode=v2' "$scratch/tc.txt" && ok "the list says cgroup v2" || fail "no mode=v2 in the list"
finish
