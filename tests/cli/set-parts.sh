#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# How the parts of one recording are opened (tracedat-set.h): only the
# first part's formats are parsed, and a part whose format sections are
# the first's byte for byte is decoded with them. Checked here on parts
# made by tests/compare/mkrec: each part keeps its own task names in
# dump (a pid reused over a day is named as its part saw it: trace-cmd,
# reading each part alone, is the oracle); a part whose format text
# differs in bytes but not in ids and names is read with its own formats
# (the same lines); a part whose print event has another id, or whose
# saved cmdlines are damaged, is refused with one line; report and dump agree with the old whole-part reading
# on a window that skips the first part.
. "${top_srcdir:-.}/tests/lib.sh"

mkrec=$top_builddir/tests/compare/mkrec
[ -x "$mkrec" ] || skip "tests/compare/mkrec not built"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"

# seg FILE N START_NS T0 T1...: part N of run r, one print per time (END1:
# more metadata lines)
seg() {
	f=$1 n=$2 start=$3; shift 3
	for t in "$@"; do echo "$t part $n at $t"; done |
		MKREC_META="$(printf 'mmscope=test\nrun_id=feed%s\nstart_realtime_ns=%s\nswitch_output=%s\ncpustat=window\n%s' \
			"${RUN:-1}" "$start" "$n" "${END1:-}")" "$mkrec" "$f" || fail "mkrec $f"
}
# the task of each printed line: "COMM-PID" of dump's and trace-cmd's lines
tasks() { sed -n 's/^ *\([^ ]*-[0-9]*\) .*part \([0-9]*\) at.*/\2 \1/p'; }

# 1. one pid, named alpha in part 1 and beta in part 2
mkdir "$scratch/names"
MKREC_CMDLINES="4242 alpha
7 other" seg "$scratch/names/r-1.dat" 1 1000 1000000000 1100000000
MKREC_CMDLINES="4242 beta" seg "$scratch/names/r-2.dat" 2 2000 1200000000 1300000000
"$MMSCOPE" dump "$scratch/names" >"$scratch/dump" 2>"$scratch/e" || fail "dump: $(cat "$scratch/e")"
tasks <"$scratch/dump" >"$scratch/got"
for n in 1 2; do trace-cmd report "$scratch/names/r-$n.dat" 2>/dev/null; done | tasks >"$scratch/want"
[ "$(wc -l <"$scratch/want")" = 4 ] || fail "trace-cmd: $(cat "$scratch/want")"
cmp -s "$scratch/got" "$scratch/want" &&
	ok "dump DIR: each part's events named from its own cmdlines, as trace-cmd names them ($(sort -u "$scratch/got" | cut -d' ' -f2 | tr '\n' ' '))" ||
	fail "dump DIR names: got '$(cat "$scratch/got")', trace-cmd '$(cat "$scratch/want")'"

# 2. part 2's print format in other bytes (a blank line after it), the
# same id and name: read with its own formats, the same lines
mkdir "$scratch/tail"
seg "$scratch/tail/r-1.dat" 1 1000 1000000000 1100000000
MKREC_FORMAT_TAIL='
' seg "$scratch/tail/r-2.dat" 2 2000 1200000000 1300000000
"$MMSCOPE" dump "$scratch/tail" >"$scratch/dump2" 2>"$scratch/e" || fail "dump, other bytes: $(cat "$scratch/e")"
sed 's/.*part \([0-9]*\) at \([0-9]*\).*/\1 \2/' "$scratch/dump2" | tr '\n' ' ' >"$scratch/got"
[ "$(cat "$scratch/got")" = "1 1000000000 1 1100000000 2 1200000000 2 1300000000 " ] &&
	ok "a part whose format text differs in bytes only: read, 4 events in order" ||
	fail "format bytes differ: '$(cat "$scratch/got")'"
[ "$("$MMSCOPE" report -s header -f json "$scratch/tail" | sed -n 's/^ *"events": \([0-9]*\),$/\1/p')" = 4 ] &&
	ok "report of it: 4 events" || fail "report of a part with other format bytes"

# refused_both DIR PATTERN WHAT: dump and report of DIR refuse it in one
# line matching PATTERN, exit 1
refused_both() {
	for cmd in dump report; do
		"$MMSCOPE" $cmd "$1" >/dev/null 2>"$scratch/e"
		rc=$?
		[ $rc -eq 1 ] && [ "$(wc -l <"$scratch/e")" = 1 ] && grep -q "$2" "$scratch/e" &&
			ok "$cmd: $3 refused: $(cat "$scratch/e")" ||
			fail "$cmd, $3: exit $rc: $(cat "$scratch/e")"
	done
}

# 3. part 2's print event under another id: not one recording
mkdir "$scratch/ids"
seg "$scratch/ids/r-1.dat" 1 1000 1000000000
MKREC_PRINT_ID=6 seg "$scratch/ids/r-2.dat" 2 2000 1200000000
refused_both "$scratch/ids" 'r-2.dat: its event formats differ from .*r-1.dat.s: not one recording' \
	"a part with another id for the event"

# 3b. part 2's saved cmdlines damaged (their size word): refused with
# one line naming the part, as when each part was opened whole
mkdir "$scratch/badcl"
MKREC_CMDLINES="4242 alpha" seg "$scratch/badcl/r-1.dat" 1 1000 1000000000
MKREC_CMDLINES="4242 beta" MKREC_CMDLINES_BAD=1 seg "$scratch/badcl/r-2.dat" 2 2000 1200000000
refused_both "$scratch/badcl" 'r-2.dat: saved cmdlines: the size word says 14 bytes, the section holds 9' \
	"a part with damaged saved cmdlines"

# 4. a window after the first part ends: the first part is skipped on
# its last event's time; the lines are the part-2 events in the window
"$MMSCOPE" dump --since 0.2 --until 0.3 "$scratch/names" >"$scratch/w" 2>"$scratch/e" ||
	fail "dump window: $(cat "$scratch/e")"
[ "$(tasks <"$scratch/w" | tr '\n' ' ')" = "2 beta-4242 2 beta-4242 " ] &&
	ok "dump --since 0.2 --until 0.3: part 2's two events, named by part 2" ||
	fail "dump window: $(cat "$scratch/w")"
"$MMSCOPE" dump --since 0.1 --until 0.1 "$scratch/names" >"$scratch/w" 2>"$scratch/e" ||
	fail "dump window at part 1's last event: $(cat "$scratch/e")"
[ "$(tasks <"$scratch/w" | tr '\n' ' ')" = "1 alpha-4242 " ] &&
	ok "dump --since 0.1 --until 0.1: part 1's last event (since = its time: not skipped)" ||
	fail "dump window at part 1's last event: '$(cat "$scratch/w")'"

# 5. parts a switch ended (stop_reason=switch-output) say in their clocks
# (the last wall_segments pair, read after the part's last read of the
# rings) when they end: a window after part 2 reads nothing of it, so
# its damaged saved cmdlines are not met there, while a whole pass
# refuses them. The set's first event is part 1's, without opening the
# others.
mkdir "$scratch/ended"
MKREC_CMDLINES="4242 alpha" seg "$scratch/ended/r-1.dat" 1 1000 1000000000 1100000000
MKREC_CMDLINES="4242 gamma" MKREC_CMDLINES_BAD=1 seg "$scratch/ended/r-2.dat" 2 2000 1150000000 1200000000
MKREC_CMDLINES="4242 beta" seg "$scratch/ended/r-3.dat" 3 3000 1300000000 1400000000
"$MMSCOPE" report -s header -f json --since 0.3 "$scratch/ended" >/dev/null 2>&1 &&
	fail "parts without an end in their clocks: part 2's damaged cmdlines were not read by a window"
# the same parts, ended by switches (the fixture's metadata as the recorder writes it)
mkdir "$scratch/ended2"
END1='stop_reason=switch-output
wall_segments=900000000:1000:1120000000:221000
' MKREC_CMDLINES="4242 alpha" seg "$scratch/ended2/r-1.dat" 1 1000 1000000000 1100000000
END1='stop_reason=switch-output
wall_segments=1120000000:5000:1250000000:135000
' MKREC_CMDLINES="4242 gamma" MKREC_CMDLINES_BAD=1 seg "$scratch/ended2/r-2.dat" 2 2000 1150000000 1200000000
MKREC_CMDLINES="4242 beta" seg "$scratch/ended2/r-3.dat" 3 3000 1300000000 1400000000
got=$("$MMSCOPE" report -s header -f json --since 0.3 "$scratch/ended2" 2>"$scratch/e" |
	sed -n 's/^ *"events": \([0-9]*\),$/\1/p')
[ "$got" = 2 ] && ok "report --since 0.3 over parts ended by switches: part 3's 2 events, part 2 not read" ||
	fail "report window over ended parts: '$got' events: $(cat "$scratch/e")"
"$MMSCOPE" dump --since 0.3 "$scratch/ended2" >"$scratch/w" 2>"$scratch/e" || fail "dump window over ended parts: $(cat "$scratch/e")"
[ "$(tasks <"$scratch/w" | tr '\n' ' ')" = "3 beta-4242 3 beta-4242 " ] &&
	ok "dump --since 0.3 over ended parts: part 3's two events, named by part 3" ||
	fail "dump window over ended parts: '$(cat "$scratch/w")'"
"$MMSCOPE" report -s header "$scratch/ended2" >/dev/null 2>"$scratch/e" &&
	fail "a whole pass read part 2's damaged cmdlines without refusing them" ||
	ok "a whole pass still refuses part 2: $(cat "$scratch/e")"
finish
