#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record --switch-output makes the next part's spool as PART.spool.new and
# renames it once complete; a recorder stopped in between leaves it, with
# no page in it. `recover` names what it is and exits 1; `recover
# --remove` (no -o needed) removes it; a .spool.new that holds pages is
# not taken for one (it goes the usual way). A part's spool the recorder
# was removing when it died (its layout gone, the part written and whole):
# nothing to recover, said, exit 0, removed with --remove.
. "${top_srcdir:-.}/tests/lib.sh"

mkdir -p "$scratch/run"
leftover() {	# leftover DIR CPU0-BYTES: a spool as the recorder makes it
	mkdir "$1"
	printf 'mmscope-spool 1\n' >"$1/layout"
	printf 'run_id=0123456789abcdef0123456789abcdef\n' >"$1/meta.private"
	head -c "$2" /dev/zero >"$1/cpu0"
	: >"$1/cpu1"
}
new=$scratch/run/r-3.dat.spool.new
leftover "$new" 0

"$MMSCOPE" recover "$new" >"$scratch/out" 2>"$scratch/err"
st=$?
[ "$st" = 1 ] && [ "$(wc -l <"$scratch/err")" = 1 ] &&
	grep -q "spool.new: the spool made for the next part at a file switch, never used" "$scratch/err" &&
	grep -q 'remove it with --remove' "$scratch/err" &&
	ok "recover of an unused next-part spool: exit 1, one line naming it" ||
	fail "recover $new: exit $st: $(cat "$scratch/err")"
[ -d "$new" ] || fail "recover without --remove removed $new"

"$MMSCOPE" recover --remove "$new/" >"$scratch/out" 2>"$scratch/err"
st=$?
[ "$st" = 0 ] && [ ! -e "$new" ] && grep -q 'no events): removed$' "$scratch/out" &&
	ok "recover --remove: the unused spool removed, exit 0" ||
	fail "recover --remove $new: exit $st, $(cat "$scratch/out" "$scratch/err"), $(ls "$scratch/run")"

# killed while the layout was being written: only its temporary there
mkdir "$new"
printf 'mmscope-spool 1\n' >"$new/.layout.tmp"
"$MMSCOPE" recover --remove "$new" >"$scratch/out" 2>"$scratch/err"
st=$?
[ "$st" = 0 ] && [ ! -e "$new" ] &&
	ok "recover --remove: a next spool killed while its layout was written (.layout.tmp), removed" ||
	fail "recover --remove of a spool with .layout.tmp: exit $st: $(cat "$scratch/out" "$scratch/err")"

# pages in it: not an unused one; without -o, the usual usage error
leftover "$new" 4096
"$MMSCOPE" recover --remove "$new" >"$scratch/out" 2>"$scratch/err"
st=$?
[ "$st" = 2 ] && [ -d "$new" ] && grep -q 'no output file given' "$scratch/err" &&
	ok "a .spool.new with pages is not taken for an unused one (exit 2 without -o, kept)" ||
	fail "recover --remove of a .spool.new with pages: exit $st: $(cat "$scratch/err")"

# a recorder killed after it renamed part 3 into place and before it
# removed part 3's spool: the part is whole; recover says there is
# nothing to recover (and leaves the dead recorder's ring alone: it holds
# the next part's pages), --remove removes the spool; a file of another
# run or part at the output is refused as before, with --force to replace
mkrec=$top_builddir/tests/compare/mkrec
if [ -x "$mkrec" ]; then
	sp=$scratch/run/r-3.dat.spool
	leftover "$sp" 4096
	printf 'mmscope=test\nrun_id=0123456789abcdef0123456789abcdef\nswitch_output=3\n' >"$sp/meta.mmscope"
	mkfile() {	# mkfile RUN_ID PART
		echo "1000 x" | MKREC_META="$(printf 'mmscope=test\nrun_id=%s\nstart_realtime_ns=1\nswitch_output=%s\n' "$1" "$2")" \
			"$mkrec" "$scratch/run/r-3.dat" || fail "mkrec"
	}
	mkfile 0123456789abcdef0123456789abcdef 3
	"$MMSCOPE" recover "$sp" -o "$scratch/run/r-3.dat" >"$scratch/out" 2>"$scratch/err"
	st=$?
	[ "$st" = 0 ] && [ -d "$sp" ] &&
		grep -q 'r-3.dat: already written from this spool before the recorder died (the same run id and part 3): nothing to recover; --remove removes the spool$' "$scratch/out" &&
		ok "recover of a part already written from the spool: exit 0, said, the spool kept" ||
		fail "recover of a written part: exit $st: $(cat "$scratch/out" "$scratch/err")"
	"$MMSCOPE" recover --remove "$sp" -o "$scratch/run/r-3.dat" >"$scratch/out" 2>"$scratch/err"
	st=$?
	[ "$st" = 0 ] && [ ! -e "$sp" ] && grep -q 'the spool is removed$' "$scratch/out" &&
		ok "recover --remove of it: the spool removed, the part kept" ||
		fail "recover --remove of a written part: exit $st: $(cat "$scratch/out" "$scratch/err")"
	leftover "$sp" 4096
	printf 'mmscope=test\nrun_id=0123456789abcdef0123456789abcdef\nswitch_output=3\n' >"$sp/meta.mmscope"
	for other in "0123456789abcdef0123456789abcdef 4" "fedcba9876543210fedcba9876543210 3"; do
		mkfile $other
		"$MMSCOPE" recover "$sp" -o "$scratch/run/r-3.dat" >"$scratch/out" 2>"$scratch/err"
		st=$?
		[ "$st" = 1 ] && [ "$(wc -l <"$scratch/err")" = 1 ] &&
			grep -q 'r-3.dat: already exists (use --force to replace it)' "$scratch/err" &&
			ok "recover onto a file of another run or part ($other): refused, exit 1" ||
			fail "recover onto another file ($other): exit $st: $(cat "$scratch/out" "$scratch/err")"
	done
fi
# a part's spool half removed: the part is whole
cp "$top_srcdir/tests/data/report/oom-6.18.dat" "$scratch/run/p-2.dat"
mkdir "$scratch/run/p-2.dat.spool"
: >"$scratch/run/p-2.dat.spool/cpu0.raw"
"$MMSCOPE" recover "$scratch/run/p-2.dat.spool" -o "$scratch/run/p-2.dat" >"$scratch/out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q 'a spool being removed when the recorder died.*nothing to recover; --remove removes it' "$scratch/out" &&
	[ -d "$scratch/run/p-2.dat.spool" ] && ok "a half-removed spool beside its part: nothing to recover, exit 0" ||
	fail "half-removed spool: exit $st: $(cat "$scratch/out")"
"$MMSCOPE" recover --remove "$scratch/run/p-2.dat.spool" -o "$scratch/run/p-2.dat" >"$scratch/out" 2>&1 &&
	[ ! -e "$scratch/run/p-2.dat.spool" ] && cmp -s "$scratch/run/p-2.dat" "$top_srcdir/tests/data/report/oom-6.18.dat" &&
	ok "recover --remove: the half-removed spool removed, the part untouched" ||
	fail "recover --remove of a half-removed spool: $(cat "$scratch/out")"
finish
