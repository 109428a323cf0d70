#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What mmscope plot reads and writes: a directory, '-', the parts of one
# switch-output run (made with tests/compare/mkrec) as one recording; a
# window (--since/--until) whose charts span the window and hold only its
# events, on real recordings; --pid/--comm stalls as the report counts
# them; two unrelated recordings (two hosts' histories) refused (exit 2)
# with a line saying so and a line per run naming its file; -o written as convert writes (no symlink followed, no file
# replaced without --force).
. "${top_srcdir:-.}/tests/lib.sh"

S=$top_srcdir/samples
R=$top_srcdir/tests/data/report
comp=$S/compaction-6.18.dat
gp=$S/global-pressure-6.12.dat

# texts: the <text> contents of an SVG, one a line
texts() { sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"; }

# ---- a directory, '-' ----
mkdir "$scratch/one" "$scratch/two"
cp "$comp" "$scratch/one/"
"$MMSCOPE" plot "$comp" >"$scratch/file.svg" || fail "plot FILE"
"$MMSCOPE" plot "$scratch/one" >"$scratch/dir.svg" 2>"$scratch/err" ||
	fail "plot DIR: $(cat "$scratch/err")"
cmp -s "$scratch/file.svg" "$scratch/dir.svg" && ok "plot DIR (one recording) draws what plot FILE draws" ||
	fail "plot DIR differs from plot FILE"
"$MMSCOPE" plot - <"$comp" >"$scratch/stdin.svg" 2>"$scratch/err" || fail "plot -: $(cat "$scratch/err")"
sed 's/>(stdin): />compaction-6.18.dat: /' "$scratch/stdin.svg" | cmp -s - "$scratch/file.svg" &&
	ok "plot - reads standard input" || fail "plot - differs from plot FILE"
"$MMSCOPE" plot - "$comp" >/dev/null 2>&1
[ $? -eq 2 ] && ok "'-' with another file: exit 2" || fail "'-' with another file: not exit 2"

# ---- two unrelated recordings: refused, a line per run, both named ----
cp "$comp" "$R/oom-6.18.dat" "$scratch/two/"
refused() {	# refused WHAT ARGS...
	what=$1; shift
	"$MMSCOPE" plot "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 3 ] && [ ! -s "$scratch/out" ] &&
	   grep -q 'the recordings of 2 hosts' "$scratch/err" &&
	   grep -q 'compaction-6.18.dat' "$scratch/err" && grep -q 'oom-6.18.dat' "$scratch/err"; then
		ok "$what: exit 2: $(sed "s|$scratch/||g" "$scratch/err")"
	else
		fail "$what: exit $rc: $(cat "$scratch/err")"
	fi
}
refused "a directory of two recordings" "$scratch/two"
refused "two recordings named" "$comp" "$R/oom-6.18.dat"

# ---- the parts of one switch-output run: one recording ----
mkrec=$top_builddir/tests/compare/mkrec
if [ -x "$mkrec" ]; then
	# part N: zone sample sets SEQ at the times given (ns), free pages
	# falling 9000, 8000, ...
	part() {
		f=$1 n=$2; shift 2
		for seq in "$@"; do
			t=$((1000000000 + seq * 500000000))
			echo "$t mms1 zone $seq node=0 zone=Normal free=$((9000 - seq * 1000)) min=1000 low=2000 high=3000 managed=10000 spanned=10000"
			echo "$((t + 1000)) mms1 end $seq us=1"
		done | MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\nswitch_output=%s\ncpustat=window\n' "$n" "$n")" \
			"$mkrec" "$f" || fail "mkrec $f"
	}
	mkdir "$scratch/run"
	part "$scratch/run/r-1.dat" 1 0 1
	part "$scratch/run/r-2.dat" 2 2 3
	part "$scratch/run/r-3.dat" 3 4
	# the free line: a path through every sample of the three parts
	npts() { grep 'stroke="#1f77b4" stroke-width="2.5"' "$1" | grep -o '[ML][0-9.]* [0-9.]*' | wc -l; }
	"$MMSCOPE" plot -w watermarks "$scratch/run" >"$scratch/set.svg" 2>"$scratch/err" ||
		fail "plot of a run's parts: $(cat "$scratch/err")"
	[ "$(npts "$scratch/set.svg")" -eq 5 ] && texts "$scratch/set.svg" | grep -q '^run (3 files): .*, 2.0 s$' &&
		ok "a directory of one run's 3 parts: one recording, 5 samples over 2.0 s" ||
		fail "a run's parts: $(npts "$scratch/set.svg") samples, $(texts "$scratch/set.svg" | head -1)"
	"$MMSCOPE" plot -w watermarks "$scratch/run/r-3.dat" "$scratch/run/r-2.dat" >"$scratch/set2.svg" ||
		fail "plot of two parts named"
	[ "$(npts "$scratch/set2.svg")" -eq 3 ] && ok "two parts named: one recording of 3 samples" ||
		fail "two parts named: $(npts "$scratch/set2.svg") samples"
	# a window of the set, across its switch: sets 1 (0.5 s) .. 3 (1.5 s)
	"$MMSCOPE" plot -w watermarks --since 0.4 --until 1.6 "$scratch/run" >"$scratch/setw.svg" ||
		fail "plot --since/--until of a run's parts"
	[ "$(npts "$scratch/setw.svg")" -eq 3 ] && texts "$scratch/setw.svg" | grep -q 'window 0.400 .. 1.600 s$' &&
		ok "a window of the run's parts: its 3 samples" ||
		fail "window of a run's parts: $(npts "$scratch/setw.svg") samples; $(texts "$scratch/setw.svg" | head -1)"
else
	fail "tests/compare/mkrec not built: the sets cannot be tested"
fi

# ---- a window on a real recording ----
"$MMSCOPE" plot --since 5 --until 7 "$gp" >"$scratch/win.svg" 2>"$scratch/err" ||
	fail "plot --since 5 --until 7: $(cat "$scratch/err")"
texts "$scratch/win.svg" | head -1 | grep -q 'window 5.000 .. 7.000 s$' ||
	fail "window: the title does not state it: $(texts "$scratch/win.svg" | head -1)"
# every panel's x axis runs from 4 to 7 s: its first and last tick
python3 - "$scratch/win.svg" <<'EOF' || fail "window: the x axes do not span 5 .. 7 s"
import re, sys
svg = open(sys.argv[1]).read()
# tick labels are 12 px texts 16 px under a frame's bottom
ticks = re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)" text-anchor="middle" font-size="12">([0-9.]+)</text>', svg)
rows = {}
for x, y, v in ticks:
    rows.setdefault(y, []).append((float(x), float(v)))
assert rows, "no ticks"
for y, r in rows.items():
    r.sort()
    assert r[0] == (90.0, 5.0), (y, r[0])
    assert abs(r[-1][1] - 7.0) < 1e-9, (y, r[-1])
EOF
# the stalls of the window are the report's
want=$("$MMSCOPE" report -s stalls -f json --since 5 --until 7 "$gp" | sed -n 's/^ *"count": \([0-9]*\),$/\1/p' | head -1)
all=$("$MMSCOPE" report -s stalls -f json "$gp" | sed -n 's/^ *"count": \([0-9]*\),$/\1/p' | head -1)
texts "$scratch/win.svg" | grep -q "^reclaim stalls: $want, " && [ "$want" -lt "$all" ] &&
	ok "plot --since 5 --until 7: x axes 5 .. 7 s, $want of $all stalls (as report)" ||
	fail "window stalls: plot '$(texts "$scratch/win.svg" | grep '^reclaim stalls')', report $want of $all"
# every dot of the window's stalls lies inside its axis
python3 - "$scratch/win.svg" <<'EOF' || fail "window: a stall drawn outside the axis"
import re, sys
svg = open(sys.argv[1]).read()
for d in re.findall(r'stroke-opacity="0.6" stroke-linecap="round" d="([^"]*)"', svg):
    for x in re.findall(r'M([0-9.]+) ', d):
        assert 90.0 < float(x) < 950.0, x
EOF
"$MMSCOPE" plot --since 7 --until 4 "$gp" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--since after --until: not exit 2"
"$MMSCOPE" plot --since 100 "$gp" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] && grep -q 'no event in the window' "$scratch/err" ||
	fail "an empty window: $(cat "$scratch/err")"
ok "--since after --until exits 2; an empty window is one line, exit 1"

# ---- --pid/--comm: the stalls of those tasks, as the report counts ----
for scope in "--comm pressure" "--pid 168"; do
	# shellcheck disable=SC2086
	want=$("$MMSCOPE" report -s stalls -f json $scope "$gp" | sed -n 's/^ *"count": \([0-9]*\),$/\1/p' | head -1)
	# shellcheck disable=SC2086
	"$MMSCOPE" plot -w stalls $scope "$gp" >"$scratch/t.svg" 2>"$scratch/err" ||
		{ fail "plot $scope: $(cat "$scratch/err")"; continue; }
	name=${scope#--}
	texts "$scratch/t.svg" | grep -q "^reclaim stalls: $want, " && [ "$want" -lt "$all" ] &&
		texts "$scratch/t.svg" | grep -q "stalls and OOM kills of ${name% *} ${name#* }" &&
		ok "plot $scope: $want of $all stalls, as report; the scope stated" ||
		fail "plot $scope: '$(texts "$scratch/t.svg" | sed -n 2,3p | tr '\n' ' ')', report $want"
done

# ---- -o: no symlink followed, no file replaced without --force ----
echo keep >"$scratch/target"
ln -s "$scratch/target" "$scratch/link.svg"
"$MMSCOPE" plot -o "$scratch/link.svg" "$comp" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$scratch/target")" = keep ] && [ -L "$scratch/link.svg" ] &&
	grep -q 'symbolic link' "$scratch/err" && ok "-o through a symlink: refused, exit 1, target kept" ||
	fail "-o through a symlink: exit $rc, target '$(head -c 40 "$scratch/target")': $(cat "$scratch/err")"
echo old >"$scratch/old.svg"
"$MMSCOPE" plot -o "$scratch/old.svg" "$comp" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$scratch/old.svg")" = old ] && grep -q 'already exists' "$scratch/err" &&
	ok "-o over an existing file: refused, exit 1, file kept" ||
	fail "-o over an existing file: exit $rc: $(cat "$scratch/err")"
"$MMSCOPE" plot -f -o "$scratch/old.svg" "$comp" 2>"$scratch/err" &&
	cmp -s "$scratch/old.svg" "$scratch/file.svg" && ok "-o with --force replaces it" ||
	fail "-o with --force: $(cat "$scratch/err")"
ls -a "$scratch" | grep -q '^\..*\.tmp$' && fail "a temporary file was left behind"
finish
