#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed input (issue 2): cut each fixture variant at every region
# boundary and at ~100 other offsets (inside sections, chunk tables and
# chunks), and flip bytes in the header, options, section and chunk
# headers and in compressed and raw data. td-layout (built alongside)
# maps each file and says, per flipped byte, what must happen:
#   1    `mmscope dump` and `dump --stat` exit 1 with one "error: FILE:" line
#   0    the byte is not used for events: exit 0, same --stat as the original
#   any  either of the above (data bytes that may still decode, e.g. a
#        zstd frame, which has no checksum, or an event's field value)
# A cut file must fail unless only unused bytes (STRINGS) were cut.
. "$top_srcdir/tests/malformed/lib.sh"

layout="$top_builddir/tests/malformed/td-layout"
[ -x "$layout" ] || { echo "SKIP: $layout not built"; exit 77; }
corpus="$top_srcdir/tests/fuzz/corpus"
# v6, v7 none and v7 zstd from trace-cmd convert; zlib (and a v6 and a
# zstd file) from our writer, since Debian's trace-cmd has no zlib.
variants="tc-memcg-swap-v6-none tc-memcg-swap-v7-none tc-memcg-swap-v7-zstd
	memcg-swap-v7-zlib memcg-swap-v6-none"

# check NAME FILE EXPECT REF_STAT
check() {
	local name=$1 file=$2 expect=$3 ref=$4 rc
	case $expect in
	1)
		expect_error "$name" "$file" "" dump "$file"
		expect_error "$name --stat" "$file" "" dump --stat "$file"
		;;
	0)
		expect_ok "$name" dump "$file"
		if expect_ok "$name --stat" dump --stat "$file" &&
		   ! diff -q <(tail -n +2 "$TMPD/out") <(tail -n +2 "$ref") >/dev/null; then
			fail "$name: --stat differs from the intact file's"
		fi
		;;
	any)
		for args in "dump" "dump --stat"; do
			run_mm "$TMPD/out" "$TMPD/err" $args "$file"
			rc=$?
			if [ "$rc" -eq 0 ] && [ ! -s "$TMPD/err" ]; then
				npass=$((npass + 1))
			elif [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
			     grep -q "^error: $file: ." "$TMPD/err"; then
				npass=$((npass + 1))
			else
				fail "$name ($args): exit $rc: $(head -c 300 "$TMPD/err")"
			fi
		done
		;;
	esac
}

for v in $variants; do
	src="$corpus/$v.dat"
	[ -f "$src" ] || { fail "missing fixture $src"; continue; }
	size=$(stat -c %s "$src")
	"$layout" "$src" >"$TMPD/layout" || { fail "$v: td-layout failed"; continue; }
	run_mm "$TMPD/ref" "$TMPD/err" dump --stat "$src" ||
		{ fail "$v: the intact file does not read: $(cat "$TMPD/err")"; continue; }

	# Cut points: every region start and end, ~100 spread offsets, and
	# the middle of each chunk and section payload.
	{
		awk '$1 == "R" { print $2; if ($5 ~ /chunk-data|page-data/) print $2 + int($3 / 2) }' "$TMPD/layout"
		awk -v n="$size" 'BEGIN { for (i = 1; i < 100; i++) print int(n * i / 100) + (i % 7) }'
	} | sort -n -u | awk -v n="$size" '$1 >= 0 && $1 < n' >"$TMPD/cuts"
	ncut=0
	while read -r at; do
		# only unused regions past the cut: the file still reads
		expect=$(awk -v at="$at" '$1 == "R" && $4 == 1 && $2 + $3 > at { bad = 1 }
			END { print bad ? 1 : 0 }' "$TMPD/layout")
		f="$TMPD/$v-cut$at.dat"
		head -c "$at" "$src" >"$f"
		check "$v cut at $at" "$f" "$expect" "$TMPD/ref"
		rm -f "$f"
		ncut=$((ncut + 1))
	done <"$TMPD/cuts"

	nflip=0
	while read -r tag at expect kind; do
		[ "$tag" = F ] || continue
		[ "$at" -lt "$size" ] || continue
		f="$TMPD/$v-flip$at.dat"
		# a new file, writable whatever the source's mode (distcheck's
		# sources are read-only, and cp would copy that)
		cat "$src" >"$f"
		b=$(od -An -tu1 -j "$at" -N1 "$f" | tr -d ' ')
		printf "\\$(printf %03o $((b ^ 255)))" |
			dd of="$f" bs=1 seek="$at" conv=notrunc status=none
		check "$v flip $kind at $at" "$f" "$expect" "$TMPD/ref"
		rm -f "$f"
		nflip=$((nflip + 1))
	done <"$TMPD/layout"
	echo "$v: $ncut cuts, $nflip flips"
done
finish
