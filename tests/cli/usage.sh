#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The command line: exit 0 / 1 / 2 and git-style one-line errors.
. "${top_srcdir:-.}/tests/lib.sh"

# expect STATUS STDERR-REGEX -- ARGS...
expect() {
	want=$1 re=$2; shift 3
	"$MMSCOPE" "$@" >"$scratch/out" 2>"$scratch/err"
	got=$?
	[ "$got" = "$want" ] || { fail "mmscope $*: exit $got, want $want"; return; }
	if [ -n "$re" ]; then
		head -1 "$scratch/err" | grep -Eq "$re" \
			|| fail "mmscope $*: stderr '$(head -1 "$scratch/err")' does not match '$re'"
	fi
	ok "mmscope $*: exit $want"
}
f="$top_srcdir/samples/compaction-6.18.dat"

expect 0 '' -- --version
expect 0 '' -- --help
expect 2 '' --
expect 2 "^error: 'frobnicate' is not an mmscope command" -- frobnicate
expect 2 "^error: unknown option '--bogus'" -- --bogus
expect 2 '^error: no recording given' -- dump
expect 1 "^error: $f: given twice" -- dump "$f" "$f"
expect 2 "^error: option '--nope' is unknown" -- dump --nope "$f"
expect 2 "^error: bad CPU list 'x'" -- dump --cpu x "$f"
expect 2 "^error: option '--cpu' is unknown or needs a value" -- dump "$f" --cpu
expect 2 "^error: option '-e' is unknown or needs a value" -- dump "$f" -e
expect 2 "^error: option '-Z' is unknown or needs a value" -- dump -Z "$f"
expect 1 "^error: $scratch/none.dat: No such file or directory$" -- dump "$scratch/none.dat"
expect 1 "^error: $scratch: a directory with no .dat file$" -- dump "$scratch"
expect 1 "^error: $f: no event matches 'nosuch:event'" -- dump -e nosuch:event "$f"
expect 2 '^error: no output file given' -- convert "$f"
expect 2 "^error: unknown compression 'lz4'" -- convert "$f" -o "$scratch/x.dat" --compression lz4
expect 2 '^error: version 6 files cannot be compressed' -- convert "$f" -o "$scratch/x.dat" --file-version 6 --compression zstd
: >"$scratch/empty.dat"
expect 1 "^error: $scratch/empty.dat: empty file$" -- dump "$scratch/empty.dat"
echo "hello" >"$scratch/text.dat"
expect 1 "^error: $scratch/text.dat: not a trace.dat file" -- dump "$scratch/text.dat"

# convert never overwrites without --force, and never through a symlink
expect 0 '' -- convert "$f" -o "$scratch/c.dat"
expect 1 "^error: $scratch/c.dat: already exists" -- convert "$f" -o "$scratch/c.dat"
expect 0 '' -- convert -f "$f" -o "$scratch/c.dat"
ln -s "$scratch/target" "$scratch/link.dat"
expect 1 "^error: $scratch/link.dat: is a symbolic link" -- convert "$f" -o "$scratch/link.dat"
[ -e "$scratch/target" ] && fail "convert wrote through a symlink"
[ "$(stat -c %a "$scratch/c.dat")" = 600 ] || fail "convert output is not mode 0600"
ls -a "$scratch" | grep -q '\.tmp$' && fail "convert left a temporary file"

# filters: the counts of a filtered --stat add up
all=$("$MMSCOPE" dump --stat "$f" | awk '$2 == "total" {print $1}')
c0=$("$MMSCOPE" dump --stat --cpu 0 "$f" | awk '$2 == "total" {print $1}')
c1=$("$MMSCOPE" dump --stat --cpu 1 "$f" | awk '$2 == "total" {print $1}')
[ $((c0 + c1)) -eq "$all" ] && [ "$c0" -gt 0 ] && [ "$c1" -gt 0 ] \
	&& ok "--cpu 0 ($c0) + --cpu 1 ($c1) = all ($all)" || fail "--cpu filter: $c0 + $c1 != $all"
n=$("$MMSCOPE" dump -e compaction:mm_compaction_begin "$f" | wc -l)
s=$("$MMSCOPE" dump --stat "$f" | awk '$2 == "compaction:mm_compaction_begin" {print $1}')
[ "$n" -eq "$s" ] && [ "$n" -gt 0 ] && ok "-e selects exactly the $n begin events" \
	|| fail "-e gave $n lines, --stat says $s"
first=$("$MMSCOPE" dump "$f" | sed -n '100p' | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {sub(/:$/, "", $i); print $i; exit}}')
before=$("$MMSCOPE" dump --until "@$first" "$f" | wc -l)
after=$("$MMSCOPE" dump --since "@$first" "$f" | wc -l)
[ "$before" -ge 100 ] && [ "$after" -gt 0 ] && [ $((before + after)) -ge "$all" ] \
	&& ok "--since/--until split at $first" || fail "--since/--until: $before + $after vs $all"
finish
