#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# trace-cmd as an independent oracle for our reader and writer:
#  1. on every real fixture, "mmscope dump" prints the same events as
#     "trace-cmd report" (same lines, whitespace and the system: prefix
#     aside) and "dump --stat" counts the same number per event;
#  2. files trace-cmd converts (v6; v7 none) read the same with mmscope;
#  3. files mmscope converts (v7 zstd/none/zlib; v6) read the same with
#     mmscope, and trace-cmd reads them the same (zlib only when this
#     trace-cmd was built with zlib; Debian's is not).
. "${top_srcdir:-.}/tests/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
tc_zlib=no
trace-cmd list -c 2>/dev/null | grep -q zlib && tc_zlib=yes

# trace-cmd report, normalized: no "cpus=" line, single spaces.
tc_report() { trace-cmd report "$1" 2>/dev/null | grep -v '^cpus=' | sed -E 's/ +/ /g'; }
# mmscope dump, normalized the same way, without the "system:" prefix.
ms_dump() { "$MMSCOPE" dump "$1" | sed -E 's/ [a-z0-9_]+:([a-z0-9_]+:)/ \1/; s/ +/ /g'; }

for f in $(fixtures); do
	name=$(basename "$f" .dat)
	tc_report "$f" >"$scratch/$name.tc"
	[ -s "$scratch/$name.tc" ] || { fail "$name: trace-cmd printed nothing"; continue; }
	ms_dump "$f" >"$scratch/$name.ms" || fail "$name: mmscope dump failed"
	if cmp -s "$scratch/$name.tc" "$scratch/$name.ms"; then
		ok "$name: $(wc -l <"$scratch/$name.ms") events identical to trace-cmd report"
	else
		fail "$name: dump differs from trace-cmd report"
		diff "$scratch/$name.tc" "$scratch/$name.ms" | head -5 >&2
	fi

	# per-event counts: --stat against trace-cmd's lines
	awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i+1); break }}' \
		"$scratch/$name.tc" | sed 's/:$//' | sort | uniq -c | awk '{print $2, $1}' \
		>"$scratch/$name.tc.count"
	"$MMSCOPE" dump --stat "$f" | awk '$2 ~ /:/ && $1 ~ /^[0-9]+$/ {sub(/^[^:]*:/, "", $2); print $2, $1}' \
		| sort >"$scratch/$name.ms.count"
	if cmp -s "$scratch/$name.tc.count" "$scratch/$name.ms.count"; then
		ok "$name: per-event counts agree"
	else
		fail "$name: per-event counts differ"
		diff "$scratch/$name.tc.count" "$scratch/$name.ms.count" >&2
	fi

	# trace-cmd's own conversions, read by us
	for v in "6 none" "7 none"; do
		set -- $v
		out="$scratch/$name.tc-v$1-$2.dat"
		if trace-cmd convert -i "$f" -o "$out" --file-version "$1" --compression "$2" >/dev/null 2>&1; then
			ms_dump "$out" >"$scratch/x" && cmp -s "$scratch/x" "$scratch/$name.ms" \
				&& ok "$name: trace-cmd v$1/$2 conversion reads the same" \
				|| fail "$name: trace-cmd v$1/$2 conversion reads differently"
		else
			fail "$name: trace-cmd convert v$1/$2 failed"
		fi
	done

	# our conversions, read by us and by trace-cmd
	for v in "7 zstd" "7 none" "7 zlib" "6 none"; do
		set -- $v
		out="$scratch/$name.ms-v$1-$2.dat"
		"$MMSCOPE" convert "$f" -o "$out" --file-version "$1" --compression "$2" \
			|| { fail "$name: mmscope convert v$1/$2 failed"; continue; }
		ms_dump "$out" >"$scratch/x" && cmp -s "$scratch/x" "$scratch/$name.ms" \
			&& ok "$name: mmscope v$1/$2 reads back the same" \
			|| fail "$name: mmscope v$1/$2 reads back differently"
		if [ "$2" = zlib ] && [ "$tc_zlib" = no ]; then
			trace-cmd report "$out" >/dev/null 2>&1 \
				&& fail "$name: this trace-cmd claims no zlib but read a zlib file"
			continue
		fi
		tc_report "$out" >"$scratch/y"
		cmp -s "$scratch/y" "$scratch/$name.tc" \
			&& ok "$name: trace-cmd reads mmscope v$1/$2 the same" \
			|| fail "$name: trace-cmd reads mmscope v$1/$2 differently"
	done
	rm -f "$scratch"/*.dat
done
finish
