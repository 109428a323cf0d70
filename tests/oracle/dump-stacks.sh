#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel stacks (record -T) in dump, against trace-cmd: on a real
# recording with ftrace:kernel_stack events, "mmscope dump" prints every
# line "trace-cmd report" prints (normalized as in trace-cmd.sh), so each
# stack is "<stack trace >" and one "=> FUNC (ADDR)" line per frame, named
# from the file's kallsyms; after "mmscope convert" (our writer) both
# tools still name every frame: the kallsyms went into the new file.
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
rec="$top_srcdir/tests/data/report/stacks-memcg-6.18.dat"

tc_report() { trace-cmd report "$1" 2>/dev/null | grep -v '^cpus=' | sed -E 's/ +/ /g'; }
ms_dump() { "$MMSCOPE" dump "$1" | sed -E 's/ [a-z0-9_]+:([a-z0-9_]+:)/ \1/; s/ +/ /g'; }

tc_report "$rec" >"$scratch/tc"
ms_dump "$rec" >"$scratch/ms" || fail "mmscope dump failed"
stacks=$(grep -c ' kernel_stack: <stack trace >$' "$scratch/tc")
named=$(grep -c '^=> [a-z_][a-z0-9_.]* ([0-9a-f]*)$' "$scratch/tc")
bare=$(grep -c '^=> [0-9a-f]*$' "$scratch/tc")
[ "$stacks" -gt 0 ] && [ "$named" -ge "$stacks" ] && [ "$bare" -eq 0 ] &&
	ok "trace-cmd: $stacks stacks, $named frames, every one named" ||
	fail "trace-cmd: $stacks stacks, $named named frames, $bare without a name"
if cmp -s "$scratch/tc" "$scratch/ms"; then
	ok "dump prints the same $(wc -l <"$scratch/ms") lines as trace-cmd report"
else
	diff "$scratch/tc" "$scratch/ms" | head -8 >&2
	fail "dump differs from trace-cmd report"
fi
"$MMSCOPE" dump -e ftrace:kernel_stack "$rec" >"$scratch/only"
[ "$(grep -c 'ftrace:kernel_stack: <stack trace >$' "$scratch/only")" = "$stacks" ] &&
	ok "dump -e ftrace:kernel_stack: the $stacks stacks" ||
	fail "dump -e ftrace:kernel_stack: $(grep -c kernel_stack "$scratch/only") stacks"

for v in "7 zstd" "6 none"; do
	set -- $v
	out="$scratch/conv-v$1.dat"
	"$MMSCOPE" convert "$rec" -o "$out" --file-version "$1" --compression "$2" ||
		{ fail "convert v$1/$2 failed"; continue; }
	tc_report "$out" >"$scratch/tc2"
	cmp -s "$scratch/tc2" "$scratch/tc" &&
		ok "trace-cmd reads our v$1/$2 copy the same, frames named (kallsyms kept)" ||
		fail "trace-cmd reads our v$1/$2 copy differently"
	ms_dump "$out" >"$scratch/ms2"
	cmp -s "$scratch/ms2" "$scratch/ms" && ok "dump reads our v$1/$2 copy the same" ||
		fail "dump reads our v$1/$2 copy differently"
done
finish
