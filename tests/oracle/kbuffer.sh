#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The reader walks ring-buffer pages with its own fast loop (issue 9);
# libtraceevent's kbuffer stays as the reference (MMSCOPE_KBUFFER=1).
# Both walks, with and without the read-ahead threads, must print the
# same events on every real recording we keep.
. "${top_srcdir:-.}/tests/lib.sh"

n=0
for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	 "$top_srcdir"/tests/data/swap/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	"$MMSCOPE" dump "$f" >"$scratch/fast" || { fail "$name: dump failed"; continue; }
	MMSCOPE_KBUFFER=1 "$MMSCOPE" dump "$f" >"$scratch/kbuf" || fail "$name: kbuffer dump failed"
	MMSCOPE_THREADS=0 "$MMSCOPE" dump "$f" >"$scratch/nothr" || fail "$name: unthreaded dump failed"
	if cmp -s "$scratch/fast" "$scratch/kbuf" && cmp -s "$scratch/fast" "$scratch/nothr"; then
		ok "$name: $(wc -l <"$scratch/fast") lines, the same with kbuffer and without threads"
	else
		fail "$name: the fast page walk and kbuffer (or threads) differ"
	fi
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n recordings found"
finish
