#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --cgroups ROOT and --cgroups-max N are parsed by one function
# (parse_cgroups_opt) for record and sample: both commands accept and
# refuse the same values with the same one-line error, exit 2. An
# accepted value is followed by a bad --interval, so that the command
# stops at that error and neither records nor samples anything; a value
# refused is followed, should it be taken, by a command record cannot
# run (refused before tracing starts) and sample's --count 1 --stdout.
. "${top_srcdir:-.}/tests/lib.sh"

max=$(sed -n 's/^#define SAMPLER_CGROUPS_MAX_MAX[ \t]*\([0-9]*\).*/\1/p' \
	"$top_srcdir/src/sampler.h")
[ -n "$max" ] || fail "no SAMPLER_CGROUPS_MAX_MAX in src/sampler.h"

# run CMD ARGS...: the command with its tail, should it take ARGS
run() {
	cmd=$1
	shift
	# the timeout: a command that wrongly accepts may run on
	case $cmd in
	record) timeout 20 "$MMSCOPE" record "$@" -- "$scratch/no-such-command" ;;
	sample) timeout 20 "$MMSCOPE" sample "$@" --count 1 --stdout ;;
	esac
}
# both RE ARGS...: exit 2 and the same first line of stderr from each
both() {
	re=$1
	shift
	for cmd in record sample; do
		run "$cmd" "$@" >"$scratch/out" 2>"$scratch/err.$cmd" </dev/null
		got=$?
		[ "$got" = 2 ] || fail "mmscope $cmd $*: exit $got, want 2"
		head -1 "$scratch/err.$cmd" | grep -Eq "$re" ||
			fail "mmscope $cmd $*: '$(head -1 "$scratch/err.$cmd")' does not match '$re'"
	done
	head -1 "$scratch/err.record" >"$scratch/r"
	head -1 "$scratch/err.sample" >"$scratch/s"
	cmp -s "$scratch/r" "$scratch/s" && ok "record and sample $*: $(cat "$scratch/r")" ||
		fail "record and sample $*: '$(cat "$scratch/r")' against '$(cat "$scratch/s")'"
}

for v in 0 -1 abc '' 1x 0x10 $((max + 1)) 18446744073709551617; do
	both "^error: bad --cgroups-max '$v' \\(1\\.\\.$max\\)" --cgroups /x --cgroups-max "$v"
done
both "^error: bad --cgroups ''" --cgroups ''
both '^error: --cgroups-max needs --cgroups' --cgroups-max 3
for v in 1 64 "$max" " 5"; do
	both "^error: bad --interval '0'" --cgroups /sys/fs/cgroup/memory --cgroups-max "$v" --interval 0
done
both "^error: bad --interval '0'" --cgroups relative/dir --interval 0
finish
