#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record --switch-output makes the next part's spool as PART.spool.new and
# renames it once complete; a recorder stopped in between leaves it, with
# no page in it. `recover` names what it is and exits 1; `recover
# --remove` (no -o needed) removes it; a .spool.new that holds pages is
# not taken for one (it goes the usual way).
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

# pages in it: not an unused one; without -o, the usual usage error
leftover "$new" 4096
"$MMSCOPE" recover --remove "$new" >"$scratch/out" 2>"$scratch/err"
st=$?
[ "$st" = 2 ] && [ -d "$new" ] && grep -q 'no output file given' "$scratch/err" &&
	ok "a .spool.new with pages is not taken for an unused one (exit 2 without -o, kept)" ||
	fail "recover --remove of a .spool.new with pages: exit $st: $(cat "$scratch/err")"
finish
