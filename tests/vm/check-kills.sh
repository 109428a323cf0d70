#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-kills.sh [KERNEL]: every kill, whoever the killer (issue 41), on
# real killers in a guest (default 6.12): the kills scenario
# (tests/vm/scenarios/kills.sh: a memcg OOM kill, a kill -9 from a shell,
# Debian's earlyoom, a global kernel OOM, in that order, in one
# recording), then on the host each kill of `mmscope report -f json
# --dossier-window 5` held to the text of `trace-cmd report -t` of the
# same file by tests/vm/kills-oracle.py (killer, victim, sender, time,
# every figure of the window before it, the candidates), and to what the
# scenario says it did; the oracle's self-test makes each figure wrong in
# turn and wants a failed check for each. earlyoom comes from
# fetch-earlyoom.sh (cached beside the kernels). `make check-vm` runs it
# after check-cgroups.sh, `make check-vm-kills` alone, or by hand:
# `MMSCOPE=build/mmscope tests/vm/check-kills.sh 6.12`.
# Exit 0, 1, or 77 (no qemu, trace-cmd, python3, kernel or earlyoom).
HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$HERE/../..}
. "$top_srcdir/tests/lib.sh"
KERNEL=${1:-6.12}
WINDOW=5
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
command -v python3 >/dev/null || skip "python3 not installed"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
CACHE=${MMSCOPE_VM_CACHE:-$top_srcdir/build/vm-cache}
rc=0
EARLYOOM=$(bash "$HERE/fetch-earlyoom.sh" "$CACHE" 2>"$scratch/fetch.log") || rc=$?
[ "$rc" -eq 0 ] || {
	[ "$rc" -eq 77 ] && skip "no earlyoom: $(tail -1 "$scratch/fetch.log")"
	cat "$scratch/fetch.log" >&2
	fail "fetch-earlyoom.sh exit $rc"
	finish
}
out="$scratch/vm"
run() {
	rm -rf "$out"
	mkdir -p "$out"
	rc=0
	MMSCOPE_VM_BINARIES=$EARLYOOM bash "$HERE/check-scenario.sh" "$KERNEL" kills --out "$out" \
		>"$scratch/vm.log" 2>&1 || rc=$?
}
t0=$(date +%s)
run
# 3: the guest died or hung outside mmscope's work (its kernel died under
# TCG before any check), the lab's failure, not mmscope's: tried once
# more, as check-matrix.sh does, and the first try's log is shown; twice
# is a skip
if [ "$rc" -eq 3 ]; then
	echo "the guest gave no status; its log, then one more try:" >&2
	sed 's/^/  | /' "$scratch/vm.log" >&2
	run
fi
echo "guest: $(sed -n 's/^  time: //p' "$scratch/vm.log" | head -1) (check-scenario: $(($(date +%s) - t0)) s)"
[ -s "$out/rec.dat" ] && [ -s "$out/kills.txt" ] || {
	tail -20 "$scratch/vm.log" >&2
	[ "$rc" -eq 77 ] && skip "no guest: $(tail -1 "$scratch/vm.log")"
	[ "$rc" -eq 3 ] && skip "the guest died twice outside mmscope's work;" \
		"$(sed -n 's/^  guest fault: //p' "$scratch/vm.log" | tail -n 1)"
	fail "the guest left no recording (check-scenario exit $rc)"
	finish
}
# check-scenario's own checks are for the counter scenarios (no probes
# here): its exit says nothing; the scenario's status does
st=$(cat "$out/status" 2>/dev/null)
[ "$st" = 0 ] && ok "the scenario ended with status 0" ||
	{ fail "the scenario ended with status '${st:-none}'"; tail -15 "$out/log" >&2; }
sed 's/^/  kills.txt: /' "$out/kills.txt"
# each victim died of SIGKILL (wait status 137)
awk '$5 != 137 { print "FAIL: " $1 ": victim " $2 " exited " $5 ", not 137 (SIGKILL)"; b++ }
	END { exit b > 0 }' "$out/kills.txt" && ok "every victim ended by SIGKILL (137)" ||
	fails=$((fails + 1))

if ! trace-cmd report -t "$out/rec.dat" >"$scratch/tc.txt" 2>"$scratch/tc.err"; then
	fail "trace-cmd report cannot read it: $(head -1 "$scratch/tc.err")"
	finish
fi
# self-test of the whole chain: CHECK_VM_MUTATE='s/ earlyoom-/ earlyoo-/'
# (earlyoom's kill then looks like another program's) must FAIL
[ -z "${CHECK_VM_MUTATE:-}" ] || sed -i -e "$CHECK_VM_MUTATE" "$scratch/tc.txt"
if ! "$MMSCOPE" report -f json --dossier-window $WINDOW "$out/rec.dat" >"$scratch/r.json" 2>"$scratch/r.err"; then
	fail "mmscope report -f json: $(head -1 "$scratch/r.err")"
	finish
fi
# the oracle's lines count as this test's checks
python3 "$HERE/kills-oracle.py" --window $WINDOW "$scratch/tc.txt" "$scratch/r.json" "$out/kills.txt" \
	>"$scratch/oracle.txt" 2>&1 || true
cat "$scratch/oracle.txt"
n=$(grep -c '^FAIL:' "$scratch/oracle.txt")
fails=$((fails + n))
grep -q '^ok: ' "$scratch/oracle.txt" || fail "the oracle checked nothing"
python3 "$HERE/kills-oracle.py" --self-test --window $WINDOW "$scratch/tc.txt" "$scratch/r.json" \
	"$out/kills.txt" >"$scratch/self.txt" 2>&1 || true
cat "$scratch/self.txt"
grep -q '^ok: self-test' "$scratch/self.txt" || fail "the oracle's self-test did not pass"

# the kernel's own count: vmstat oom_kill moved by the mark_victim lines
ok_kills=$(awk '$1 == "oom_kill" { v[FILENAME] = $2 } END { print v[ARGV[2]] - v[ARGV[1]] }' \
	"$out/vmstat.before" "$out/vmstat.after")
mv=$(grep -c ' mark_victim: ' "$scratch/tc.txt")
[ "$ok_kills" = "$mv" ] && [ "$mv" = 2 ] &&
	ok "vmstat oom_kill +$ok_kills = $mv mark_victim lines (the memcg and the global OOM kill)" ||
	fail "vmstat oom_kill +$ok_kills, mark_victim lines $mv (want 2 and 2)"
# earlyoom's own word: the pid it says it sent SIGKILL to
eo=$(awk '$1 == "earlyoom" { print $2 }' "$out/kills.txt")
said=$(sed -n 's/^sending SIGKILL to process \([0-9]*\) .*/\1/p' "$out/earlyoom.log" 2>/dev/null | tr '\n' ' ')
[ -n "$eo" ] && [ "$said" = "$eo " ] && ok "earlyoom's log: SIGKILL to $eo, and to no other" ||
	fail "earlyoom's log says SIGKILL to '$said', the scenario's victim '$eo'"
# the text report's kills section: one line per kill, killer and victim
"$MMSCOPE" report -s kills "$out/rec.dat" >"$scratch/r.txt" 2>&1 || fail "mmscope report -s kills failed"
while read -r case vpid vcomm _ _; do
	case $case in memcg) k=memcg-oom ;; shell) k=other:sh ;; earlyoom) k=earlyoom ;; kernel) k=kernel-oom ;; *) k=? ;; esac
	grep -q -E "^ *[0-9]+[.][0-9]+  $k +$vcomm $vpid," "$scratch/r.txt" &&
		ok "the text report: $k killed $vcomm $vpid" ||
		fail "the text report has no line '$k $vcomm $vpid'"
done <"$out/kills.txt"
echo "checks: $(grep -c '^ok: ' "$scratch/oracle.txt") from the oracle; $fails failed"
finish
