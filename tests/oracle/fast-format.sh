#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dump's own formatters (src/event-fast.c, the kmem page alloc/free
# events', string fields, %ps and ftrace:kernel_stack's handler included)
# against libtraceevent, line by line, on
# every real recording: MMSCOPE_FAST_FORMAT=0 prints every event through
# tep_print_event. (tests/oracle/trace-cmd.sh holds both to trace-cmd.)
# The fast path must also be taken: a formatter that turned itself off
# everywhere would pass the comparison and help nobody.
. "${top_srcdir:-.}/tests/lib.sh"

fast_on=0
for f in $(fixtures) "$top_srcdir"/tests/data/report/*.dat "$top_srcdir"/tests/data/swap/*.dat \
	"$top_srcdir"/tests/data/dump/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .dat)
	MMSCOPE_FAST_FORMAT_REPORT=1 "$MMSCOPE" dump "$f" >"$scratch/$name.fast" \
		2>"$scratch/$name.report" || { fail "$name: dump failed"; continue; }
	MMSCOPE_FAST_FORMAT=0 "$MMSCOPE" dump "$f" >"$scratch/$name.tep" ||
		{ fail "$name: dump through libtraceevent failed"; continue; }
	if cmp -s "$scratch/$name.fast" "$scratch/$name.tep"; then
		ok "$name: $(wc -l <"$scratch/$name.tep") lines identical to libtraceevent's"
	else
		fail "$name: own formatting differs from libtraceevent"
		diff "$scratch/$name.tep" "$scratch/$name.fast" | head -6 >&2
	fi
	n=$(grep -c '^fast-format .* on ' "$scratch/$name.report")
	fast_on=$((fast_on + n))
done

# the events these recordings are full of must be formatted here
for ev in vmscan:mm_vmscan_lru_isolate vmscan:mm_vmscan_lru_shrink_inactive \
	vmscan:mm_vmscan_memcg_reclaim_begin compaction:mm_compaction_isolate_migratepages \
	compaction:mm_compaction_migratepages kmem:mm_page_alloc kmem:mm_page_free \
	ftrace:kernel_stack ftrace:print task:task_newtask task:task_rename; do
	cat "$scratch"/*.report | grep -q "^fast-format $ev on " ||
		fail "$ev never took the fast path"
done
[ "$fast_on" -gt 0 ] && ok "$fast_on events formatted without libtraceevent" ||
	fail "no event took the fast path"
finish
