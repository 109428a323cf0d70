#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Command-line behaviour of record, recover, sample and doctor: usage
# errors exit 2, a COMMAND that cannot run or a --cgroup that does not
# exist is refused before tracing, an existing output is not replaced without --force,
# recover refuses what is not a spool. As root with tracefs also: --clock,
# -g none -e, a refused clock, doctor's verdict, and the default output
# name in the current directory (as a user that part skips and says so).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

expect_rc() { # RC DESCRIPTION CMD...
	want=$1 what=$2
	shift 2
	"$@" >"$scratch/out" 2>&1
	rc=$?
	[ $rc -eq "$want" ] && ok "$what (exit $rc)" || fail "$what: exit $rc, want $want: $(head -2 "$scratch/out")"
}

expect_rc 2 "record: unknown option" "$MMSCOPE" record --bogus
expect_rc 2 "record: bad --interval" "$MMSCOPE" record --interval 0
expect_rc 2 "record: bad --buffer-kb" "$MMSCOPE" record --buffer-kb x
expect_rc 2 "record: bad --max-size" "$MMSCOPE" record --max-size 1
expect_rc 2 "record: --trigger without --flight-recorder" "$MMSCOPE" record --trigger 'psi-some>5'
expect_rc 2 "record: bad --compression" "$MMSCOPE" record --compression lz4
echo keep >"$scratch/exists.dat"
expect_rc 1 "record: an existing output is refused" "$MMSCOPE" record -o "$scratch/exists.dat" --duration 1
grep -q 'already exists' "$scratch/out" || fail "no 'already exists' message"
[ "$(cat "$scratch/exists.dat")" = keep ] && ok "the existing file is untouched" || fail "existing file changed"
expect_rc 2 "recover: no output" "$MMSCOPE" recover "$scratch"
mkdir "$scratch/notaspool"
expect_rc 1 "recover: not a spool" "$MMSCOPE" recover "$scratch/notaspool" -o "$scratch/x.dat"
mkdir "$scratch/empty.spool"
printf 'mmscope-spool 1\nncpus 2\npage_size 4096\n' >"$scratch/empty.spool/layout"
expect_rc 1 "recover: a spool without formats" "$MMSCOPE" recover "$scratch/empty.spool" -o "$scratch/x.dat"
grep -q 'no event formats' "$scratch/out" || fail "no 'no event formats' message"
[ -e "$scratch/x.dat" ] && fail "recover left a file behind after failing"
# refused before tracing starts (issue 18): exit 2, one line, no file
expect_rc 2 "record: a COMMAND that cannot run" "$MMSCOPE" record -o "$scratch/n.dat" -- /nonexistent/cmd
grep -q "^error: cannot run '/nonexistent/cmd'" "$scratch/out" || fail "no 'cannot run' message: $(cat "$scratch/out")"
expect_rc 2 "record: a COMMAND not on PATH" "$MMSCOPE" record -o "$scratch/n.dat" -- mmscope-no-such-command
expect_rc 2 "record: a --cgroup that does not exist" "$MMSCOPE" record -o "$scratch/n.dat" \
	--cgroup mmscope-no-such-cgroup -- true
grep -q "^error: no memory cgroup 'mmscope-no-such-cgroup'" "$scratch/out" || fail "no cgroup message"
[ "$(wc -l <"$scratch/out")" -eq 1 ] || fail "the refusal is not one line: $(cat "$scratch/out")"
[ -e "$scratch/n.dat" ] || [ -e "$scratch/n.dat.spool" ] && fail "a refused record left a file"
expect_rc 2 "record: an unknown --probe-set" "$MMSCOPE" record -o "$scratch/n.dat" --probe-set 6.2 -- true
grep -q "^error: unknown probe set '6.2' (5.10, 6.1, 6.12, 6.18, 7.x)" "$scratch/out" ||
	fail "the unknown probe set and the known ones are not named: $(cat "$scratch/out")"
expect_rc 2 "sample: stray argument" "$MMSCOPE" sample foo
expect_rc 2 "doctor: stray argument" "$MMSCOPE" doctor foo

# the live part: root, tracefs (mounted here if nothing has), the lock
[ "$(id -u)" -eq 0 ] || skip "the live part needs root (the checks above passed)"
live_require trace-cmd

expect_rc 0 "doctor as root" "$MMSCOPE" doctor
grep -q '^verdict        mmscope record can run' "$scratch/out" || fail "doctor: no positive verdict"
for sec in tracefs 'event groups' 'swap/zswap kprobes' 'sample sources'; do
	grep -q "^$sec" "$scratch/out" || fail "doctor: no '$sec' section"
done
expect_rc 1 "record: a clock the kernel refuses" "$MMSCOPE" record -o "$scratch/c.dat" --clock nosuch --duration 1
grep -q "refused trace clock 'nosuch'" "$scratch/out" || fail "no message naming the refused clock"
expect_rc 2 "record: an unknown group" "$MMSCOPE" record -o "$scratch/g.dat" -g nosuch --duration 1
expect_rc 2 "record: an -e event the kernel lacks" "$MMSCOPE" record -o "$scratch/g.dat" -g none -e nosys:noev --duration 1
grep -q "lacks what was asked for: nosys:noev" "$scratch/out" || fail "the missing event is not named"
expect_rc 2 "record: a missing -e beside a real one" "$MMSCOPE" record -o "$scratch/g.dat" -g kswapd \
	-e kmem:mm_page_alloc -e nosys:noev --duration 1
[ -e "$scratch/g.dat" ] || [ -e "$scratch/g.dat.spool" ] && fail "a refused record left a file"
if [ ! -e "$TRACEFS/kprobe_events" ]; then
	expect_rc 2 "record: -g swap without kprobe events" "$MMSCOPE" record -o "$scratch/g.dat" -g swap --duration 1
	grep -q "group swap (no kprobe events" "$scratch/out" || fail "the kprobe-only group is not named"
fi
ls "$TRACEFS/instances" | grep -q "^mmscope-" && fail "a refused record left an instance"
expect_rc 0 "record: --clock global -g none -e" "$MMSCOPE" record -q -o "$scratch/c.dat" --clock global \
	-g none -e kmem:mm_page_alloc --duration 0.5
trace-cmd report "$scratch/c.dat" >"$scratch/r" 2>&1 && grep -q 'mm_page_alloc' "$scratch/r" &&
	! grep -q 'mm_vmscan' "$scratch/r" && ok "only the -e events are recorded" ||
	fail "the -g none -e recording is wrong: $(head -2 "$scratch/r")"
strings "$scratch/c.dat" | grep -q '^clock=global$' && ok "clock=global in the metadata" ||
	fail "no clock=global in the metadata"
strings "$scratch/c.dat" | grep -q '^probe_set=none$' && strings "$scratch/c.dat" | grep -q '^probe_reason=.' &&
	ok "probe_set and probe_reason in the metadata" || fail "no probe_set/probe_reason in the metadata"
(cd "$scratch" && "$MMSCOPE" record -q --duration 0.3 -g compaction) &&
	[ -f "$scratch/mmscope.dat" ] && ok "default output mmscope.dat in the current directory" ||
	fail "no mmscope.dat in the current directory"
finish
