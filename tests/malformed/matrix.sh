#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 10's bad-input matrix, each row with its exact stderr line.
# Files: empty, not a trace.dat, future version, truncated at every
# section boundary, wrong page size, zero and huge CPU counts, chunk sizes
# beyond the file, corrupt zstd and zlib data, an event format that does
# not parse, events whose fields are missing for our parsers (report).
# Commands: unknown option, missing arguments, a directory,
# an unreadable file, an unwritable output path, a full filesystem.
#
# The damaged files are made from the committed seeds in
# tests/fuzz/corpus; the offsets and lines below are those files'. If a
# seed is remade, rerun this test and update the table from its output.
. "$top_srcdir/tests/malformed/lib.sh"

layout="$top_builddir/tests/malformed/td-layout"
[ -x "$layout" ] || { echo "SKIP: $layout not built"; exit 77; }
C="$top_srcdir/tests/fuzz/corpus"
V7ZSTD="$C/tc-memcg-swap-v7-zstd.dat"	# trace-cmd's layout, zstd
V6="$C/tc-memcg-swap-v6-none.dat"	# trace-cmd's v6
V7ZLIB="$C/memcg-swap-v7-zlib.dat"	# ours (Debian's trace-cmd has no zlib)
F="$TMPD/bad.dat"

# put FILE OFFSET NBYTES VALUE: store VALUE little-endian
put() {
	local f=$1 off=$2 n=$3 v=$4 i s=""
	for ((i = 0; i < n; i++)); do
		s="$s\\$(printf %03o $(((v >> (8 * i)) & 255)))"
	done
	printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

# where KIND FILE: offset of the first region of that kind
where() {
	"$layout" "$2" | awk -v k="$1" '$1 == "R" && $5 == k { print $2; exit }'
}

# row NAME EXPECTED_REASON: the damaged $F must fail dump and dump --stat
row() {
	expect_error "$1" "$F" "error: $F: $2" dump "$F"
	expect_error "$1 (--stat)" "$F" "error: $F: $2" dump --stat "$F"
}

# ---- files ----

: >"$F"
row "empty file" "empty file"

echo "short" >"$F"
row "short text file" "not a trace.dat file (too short)"
head -c 4096 "$top_srcdir/tests/malformed/matrix.sh" >"$F"
row "not a trace.dat" "not a trace.dat file (bad magic)"

{ printf '\027\010\104tracing8\0'; tail -c +13 "$V7ZSTD"; } >"$F"
row "future version 8" "unsupported trace.dat version 8 (this reader knows 6 and 7)"
{ printf '\027\010\104tracing12345\0'; tail -c +13 "$V7ZSTD"; } >"$F"
row "future version 12345" "unsupported trace.dat version (too large) (this reader knows 6 and 7)"

# truncated at every section boundary (v7: sections; v6: parts)
while IFS='|' read -r file at reason; do
	[ -n "$file" ] || continue
	head -c "$at" "$C/$file" >"$F"
	row "$file cut at $at" "$reason"
done <<'EOT'
tc-memcg-swap-v7-zstd.dat|29|truncated: options offset at offset 29 needs 8 bytes, file has 29
tc-memcg-swap-v7-zstd.dat|37|truncated: section header at offset 2738 needs 16 bytes, file has 37
tc-memcg-swap-v7-zstd.dat|314|truncated: section header at offset 2738 needs 16 bytes, file has 314
tc-memcg-swap-v7-zstd.dat|351|truncated: section header at offset 2738 needs 16 bytes, file has 351
tc-memcg-swap-v7-zstd.dat|1821|truncated: section header at offset 2738 needs 16 bytes, file has 1821
tc-memcg-swap-v7-zstd.dat|2359|truncated: section header at offset 2738 needs 16 bytes, file has 2359
tc-memcg-swap-v7-zstd.dat|2396|truncated: section header at offset 2738 needs 16 bytes, file has 2396
tc-memcg-swap-v7-zstd.dat|2738|truncated: section header at offset 2738 needs 16 bytes, file has 2738
tc-memcg-swap-v7-zstd.dat|3507|truncated: section header at offset 3507 needs 16 bytes, file has 3507
tc-memcg-swap-v7-zstd.dat|3631|truncated: section header at offset 4759 needs 16 bytes, file has 3631
tc-memcg-swap-v7-zstd.dat|4096|truncated: section header at offset 4759 needs 16 bytes, file has 4096
tc-memcg-swap-v7-zstd.dat|4759|truncated: section header at offset 4759 needs 16 bytes, file has 4759
tc-memcg-swap-v6-none.dat|18|truncated: header_page at offset 18 needs 12 bytes, file has 18
tc-memcg-swap-v6-none.dat|243|truncated: header_event at offset 243 needs 13 bytes, file has 243
tc-memcg-swap-v6-none.dat|469|truncated: ftrace formats at offset 469 needs 4 bytes, file has 469
tc-memcg-swap-v6-none.dat|473|truncated: event systems at offset 473 needs 4 bytes, file has 473
tc-memcg-swap-v6-none.dat|484|truncated: event formats at offset 484 needs 4 bytes, file has 484
tc-memcg-swap-v6-none.dat|7893|truncated: event formats at offset 7893 needs 4 bytes, file has 7893
tc-memcg-swap-v6-none.dat|10507|truncated: CPU count at offset 10507 needs 4 bytes, file has 10507
tc-memcg-swap-v6-none.dat|10511|truncated: options or data tag at offset 10511 needs 10 bytes, file has 10511
tc-memcg-swap-v6-none.dat|11295|truncated: option id at offset 11295 needs 2 bytes, file has 11295
tc-memcg-swap-v6-none.dat|11297|truncated: data tag at offset 11297 needs 10 bytes, file has 11297
tc-memcg-swap-v6-none.dat|11307|CPU table of 2 CPUs runs past the end of the file
tc-memcg-swap-v6-none.dat|11354|truncated: flyrecord at offset 11354 needs 10 bytes, file has 11354
tc-memcg-swap-v6-none.dat|11364|CPU table of 2 CPUs runs past the end of the file
tc-memcg-swap-v6-none.dat|12288|cpu 0 data of buffer 'mmscope-fixture-9059' (offset 12288, size 8192) lies beyond the end of the file (12288 bytes)
EOT
# Cutting only the trailing STRINGS section (never read) leaves a good file.
head -c 4858 "$V7ZSTD" >"$F"
expect_ok "v7 without its trailing STRINGS" dump --stat "$F"

# wrong page size: not a power of two, or not the page header's
ps=$(where page-size "$V7ZSTD")
cp "$V7ZSTD" "$F"; put "$F" "$ps" 4 1000
row "page size 1000" "bad page size 1000 in header"
cp "$V7ZSTD" "$F"; put "$F" "$ps" 4 8192
row "page size 8192 on 4096-byte pages" \
	"page size 8192 in the file header does not match the ring-buffer page header (4096)"
cp "$V7ZSTD" "$F"; put "$F" "$ps" 4 2048
row "page size 2048 on 4096-byte pages" \
	"page size 2048 in the file header does not match the ring-buffer page header (4096)"

# long size: the header's is user space's; pages follow the kernel's
# (the page header's commit field), so a 32-bit trace-cmd's file reads
cp "$V7ZSTD" "$F"; put "$F" 13 1 4
expect_ok "long size 4 in the header (32-bit user space)" dump --stat "$F"
grep -q "^ *103  total$" "$TMPD/out" || fail "long size 4: not the 103 events: $(cat "$TMPD/out")"
cp "$V7ZSTD" "$F"; put "$F" 13 1 3
row "long size 3" "bad long size 3 in header"

# zero and huge CPU counts (v6 header field; v7 CPUCOUNT option)
cc=$(where cpu-count "$V6")
cp "$V6" "$F"; put "$F" "$cc" 4 0
row "v6 zero CPUs" "CPU count is 0"
cp "$V6" "$F"; put "$F" "$cc" 4 4294967295
row "v6 4294967295 CPUs" "CPU count 4294967295 out of range"
cp "$V6" "$F"; put "$F" "$cc" 4 9000
row "v6 9000 CPUs" "CPU count 9000 out of range"
# the CPUCOUNT option (id 8) of the v7 file
cpucount_opt=$("$layout" "$V7ZSTD" | awk '$1 == "F" && $4 == "cpucount" { print $2 - 3; exit }')
cp "$V7ZSTD" "$F"; put "$F" "$cpucount_opt" 4 0
row "v7 CPUCOUNT 0" "CPU count is 0"
cp "$V7ZSTD" "$F"; put "$F" "$cpucount_opt" 4 100000
row "v7 CPUCOUNT 100000" "CPU count 100000 out of range"

# chunk sizes beyond the file, and impossible chunk counts
ch=$(where chunk-header "$V7ZSTD")
cp "$V7ZSTD" "$F"; put "$F" "$ch" 4 2147483647
row "chunk csize beyond the file" \
	"cpu 0: chunk of 2147483647 compressed bytes runs past the end of the file"
cp "$V7ZSTD" "$F"; put "$F" $((ch + 4)) 4 2147483648
row "chunk usize 2 GiB" \
	"cpu 0: chunk of 2147483648 bytes is not a whole number of 4096-byte pages (or too large)"
cp "$V7ZSTD" "$F"; put "$F" $((ch + 4)) 4 4095
row "chunk usize not a page multiple" \
	"cpu 0: chunk of 4095 bytes is not a whole number of 4096-byte pages (or too large)"
cc=$(where chunk-count "$V7ZSTD")
cp "$V7ZSTD" "$F"; put "$F" "$cc" 4 100000
row "100000 chunks" "cpu 0: 100000 chunks cannot fit in the rest of the file"

# a decompression bomb: cpu 0 moved to a new chunk at the end of the file,
# one zstd frame of 512 RLE blocks (2 KiB) that inflates to 64 MiB
data0=$(where chunk-count "$V7ZSTD")
perl -e '
	my ($in, $out, $ps, $x) = @ARGV;
	open(my $f, "<:raw", $in) or die; local $/; my $d = <$f>; close $f;
	# the BUFFER option entry: page size, 1 CPU, cpu 0 at offset $x
	my $key = pack("VVVQ<", $ps, 1, 0, $x);
	my $i = index($d, $key); die "no BUFFER entry" if $i < 0;
	my $y = (int((length($d) + $ps - 1) / $ps)) * $ps;
	substr($d, $i + 12, 8) = pack("Q<", $y);
	$d .= "\0" x ($y - length($d));
	my $frame = "\x28\xb5\x2f\xfd\x00\x38";
	for my $b (1 .. 512) {
		my $h = (131072 << 3) | (1 << 1) | ($b == 512 ? 1 : 0);
		$frame .= substr(pack("V", $h), 0, 3) . "\0";	# header, the byte
	}
	$d .= pack("VVV", 1, length($frame), 64 << 20) . $frame;
	open(my $o, ">:raw", $out) or die; print $o $d; close $o;
' "$V7ZSTD" "$F" 4096 "$data0"
row "zstd decompression bomb" \
	"cpu 0: chunks decompress to 67108864 bytes from 2062 (more than 256x): corrupt or a decompression bomb"

# corrupt compressed data: the frame header, then the middle of a frame
cp "$V7ZSTD" "$F"; put "$F" $((ch + 8)) 1 0
row "corrupt zstd frame header" "cpu 0: corrupt zstd data (Unknown frame descriptor)"
cp "$V7ZSTD" "$F"; put "$F" $((ch + 20)) 1 255
row "corrupt zstd data" "cpu 0: corrupt zstd data (Data corruption detected)"
zc=$(where chunk-header "$V7ZLIB")
cp "$V7ZLIB" "$F"; put "$F" $((zc + 8)) 1 0
row "corrupt zlib stream header" "cpu 0: corrupt zlib data (data error)"
cp "$V7ZLIB" "$F"; put "$F" $((zc + 30)) 1 255
row "corrupt zlib data" "cpu 0: corrupt zlib data (data error)"
# a compressed metadata section (EVENT_FORMATS) that does not inflate
ef=$("$layout" "$V7ZSTD" | awk '$1 == "R" && $5 == "event-formats" { print $2; exit }')
cp "$V7ZSTD" "$F"; put "$F" "$ef" 1 0
row "corrupt zstd metadata" "section 18: corrupt zstd data (Unknown frame descriptor)"

# An event format that does not parse, for an event the data holds:
# libtraceevent rejects "field:" lines it cannot read; the print fmt
# naming an undeclared field is refused by us (libtraceevent 1.7.1
# crashes on it). Same-length edits keep every size in the v6 file valid.
cp "$V6" "$F"
perl -0777 -pi -e 's/REC->order, \(REC->gfp_flags\)/REC->ordeX, (REC->gfp_flags)/' "$F"
expect_error "print fmt names a missing field" "$F" \
	"error: $F: cpu 0: no format for event id 636 (1 event format in the file did not parse)" \
	dump "$F"
cp "$V6" "$F"
perl -0777 -pi -e 's/(name: mm_vmscan_memcg_reclaim_begin\n)ID:/$1XD:/' "$F"
expect_error "format without its ID line" "$F" \
	"error: $F: cpu 0: no format for event id 636 (1 event format in the file did not parse)" \
	dump --stat "$F"

# Events whose fields are missing for our parsers: lru_shrink_inactive
# without nr_reclaimed (renamed in its format and print fmt, same length,
# so the format still parses and dump prints the events). report must
# exit 0, say which field is missing in a note, and print "not measured"
# where reclaim efficiency would be, never the 0 the field reads as.
cp "$V6" "$F"
perl -0777 -pi -e 's/(name: mm_vmscan_lru_shrink_inactive\n.*?print fmt:[^\n]*\n)/
	my $b = $1; $b =~ s{nr_reclaimed;}{nr_reclaimeX;}; $b =~ s{REC->nr_reclaimed}{REC->nr_reclaimeX}; $b/se' "$F"
cmp -s "$V6" "$F" && fail "missing field: the perl edit changed nothing"
expect_ok "missing field: dump" dump "$F"
[ "$(grep -c 'vmscan:mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=' "$TMPD/out")" -eq 50 ] ||
	fail "missing field: dump does not print the 50 shrink_inactive events"
missing_row() {
	local name=$1
	shift
	if ! expect_ok "$name" "$@"; then
		return
	fi
	while IFS= read -r line; do
		grep -qxF -- "$line" "$TMPD/out" || fail "$name: no line '$line' in: $(head -c 1500 "$TMPD/out")"
	done
}
missing_row "missing field: report" report "$F" <<'EOT'
note      vmscan:mm_vmscan_lru_shrink_inactive has no field
          'nr_reclaimed': reclaim efficiency not measured
kswapd      pages scanned/reclaimed not measured (see note)
efficiency (shrink_inactive: reclaimed/scanned): not measured
  (the event's format lacks a field; see the note above)
EOT
awk 'length > 72 { bad = 1 } END { exit !bad }' "$TMPD/out" &&
	fail "missing field: report wider than 72 columns"
grep -qE "all [0-9.]+%|reclaimed +[0-9.]+%" "$TMPD/out" &&
	fail "missing field: report prints an efficiency: $(grep -E "all [0-9.]+%|reclaimed +[0-9.]+%" "$TMPD/out" | head -3)"
missing_row "missing field: report --format json" report --format json "$F" <<'EOT'
    "vmscan:mm_vmscan_lru_shrink_inactive has no field 'nr_reclaimed': reclaim efficiency not measured"
EOT

# The same for direct_reclaim_end without nr_reclaimed, on a real
# recording with 148 direct reclaims (made v6 uncompressed for the edit):
# no page count in the summary, "-" in the stalls table.
GP="$top_srcdir/tests/data/report/global-pressure-reclaim-6.12.dat"
if run_mm "$TMPD/out" "$TMPD/err" convert "$GP" -o "$TMPD/gp.dat" --file-version 6 --compression none; then
	perl -0777 -pe 's/(name: mm_vmscan_direct_reclaim_end\n.*?print fmt:[^\n]*\n)/
		my $b = $1; $b =~ s{nr_reclaimed;}{nr_reclaimeX;}; $b =~ s{REC->nr_reclaimed}{REC->nr_reclaimeX}; $b/se' \
		"$TMPD/gp.dat" >"$F"
	missing_row "missing field: direct_reclaim_end" report "$F" <<'EOT'
note      vmscan:mm_vmscan_direct_reclaim_end has no field
          'nr_reclaimed': pages reclaimed per reclaim not measured
direct      148 reclaims, p99 60.817 ms, max 167.967 ms
direct       148    2.753   11.010   60.817  167.967    0.938         -
EOT
	awk 'length > 72 { bad = 1 } END { exit !bad }' "$TMPD/out" &&
		fail "missing field: direct_reclaim_end: report wider than 72 columns"
else
	fail "missing field: cannot convert $GP: $(cat "$TMPD/err")"
fi

# convert of a bad file: one error line, exit 1, and no output left
# behind (neither OUT nor its temporary file)
mkdir "$TMPD/conv"
head -c 4500 "$V7ZSTD" >"$F"
expect_error "convert: truncated input" "$F" \
	"error: $F: truncated: section header at offset 4759 needs 16 bytes, file has 4500" \
	convert "$F" -o "$TMPD/conv/out.dat"
cp "$V7ZSTD" "$F"; put "$F" $((ch + 20)) 1 255
# the error is found while writing, but it is the input's: it is named
expect_error "convert: corrupt chunk" "$F" "" \
	convert "$F" -o "$TMPD/conv/out.dat"
[ -z "$(ls -A "$TMPD/conv")" ] || fail "convert left files behind: $(ls -A "$TMPD/conv")"

# ---- commands ----

# usage errors: exit 2, git-style "error:" line first, then the usage
usage_row() {
	local name=$1 first=$2 rc
	shift 2
	run_mm "$TMPD/out" "$TMPD/err" "$@"
	rc=$?
	if [ "$rc" -ne 2 ]; then
		fail "$name: exit $rc, expected 2: $(head -c 300 "$TMPD/err")"
	elif [ "$(head -n 1 "$TMPD/err")" != "$first" ]; then
		fail "$name: got '$(head -n 1 "$TMPD/err")', expected '$first'"
	else
		npass=$((npass + 1))
	fi
}
usage_row "dump: unknown option" "error: option '--bogus' is unknown or needs a value" \
	dump --bogus "$V7ZSTD"
usage_row "convert: unknown option" "error: option '--bogus' is unknown or needs a value" \
	convert --bogus "$V7ZSTD" -o "$TMPD/x.dat"
usage_row "unknown command" "error: 'bogus' is not an mmscope command; see 'mmscope --help'" \
	bogus
usage_row "dump: no file" "error: no recording given" dump
usage_row "convert: no -o" "error: no output file given (-o OUT)" convert "$V7ZSTD"
usage_row "convert: -o without a value" "error: option '-o' is unknown or needs a value" \
	convert "$V7ZSTD" -o
# A long option missing its value: cli.c's bad_option() prints optopt
# (the option's val, > 255 for long-only options) as a character, so the
# name comes out garbled; only the shape of the line is checked here.
run_mm "$TMPD/out" "$TMPD/err" dump --cpu
if [ $? -eq 2 ] && head -n 1 "$TMPD/err" | grep -aq "^error: option '.*' is unknown or needs a value$"; then
	npass=$((npass + 1))
else
	fail "dump --cpu without a value: $(head -c 300 "$TMPD/err")"
fi

mkdir "$TMPD/dir"
expect_error "dump: a directory without recordings" "$TMPD/dir" "error: $TMPD/dir: a directory with no .dat file" dump "$TMPD/dir"
expect_error "convert: a directory" "$TMPD/dir" "error: $TMPD/dir: is a directory" \
	convert "$TMPD/dir" -o "$TMPD/x.dat"
expect_error "dump: no such file" "$TMPD/nope.dat" \
	"error: $TMPD/nope.dat: No such file or directory" dump "$TMPD/nope.dat"

# output path not writable
expect_error "convert: output in a missing directory" "$TMPD/nodir/x.dat" \
	"error: $TMPD/nodir/x.dat: cannot create a file in '$TMPD/nodir': No such file or directory" \
	convert "$V7ZSTD" -o "$TMPD/nodir/x.dat"
expect_error "convert: output is a directory" "$TMPD/dir" \
	"error: $TMPD/dir: is a directory" convert "$V7ZSTD" -o "$TMPD/dir"

# unreadable input and unwritable output directory need a non-root user
# (root reads and writes through permission bits)
as_user=""
if [ "$(id -u)" -ne 0 ]; then
	as_user="env"
elif command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
     setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups true 2>/dev/null; then
	as_user="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
fi
if [ -n "$as_user" ] &&
   $as_user test -x "$MMSCOPE" 2>/dev/null && $as_user test -r "$V7ZSTD" 2>/dev/null; then
	pub=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-matrix-pub.XXXXXX")
	chmod 755 "$pub"
	cp "$V7ZSTD" "$pub/secret.dat"
	chmod 000 "$pub/secret.dat"
	mkdir "$pub/ro" && chmod 555 "$pub/ro"
	$as_user "$MMSCOPE" dump "$pub/secret.dat" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$TMPD/err")" = "error: $pub/secret.dat: Permission denied" ]; then
		npass=$((npass + 1))
	else
		fail "unreadable file: exit $rc: $(cat "$TMPD/err")"
	fi
	$as_user "$MMSCOPE" convert "$V7ZSTD" -o "$pub/ro/x.dat" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$TMPD/err")" = "error: $pub/ro/x.dat: cannot create a file in '$pub/ro': Permission denied" ]; then
		npass=$((npass + 1))
	else
		fail "read-only output directory: exit $rc: $(cat "$TMPD/err")"
	fi
	chmod -R u+rwx "$pub"; rm -rf "$pub"
else
	echo "SKIP row: unreadable file / read-only directory (no non-root user to run as)"
fi

# output on a full filesystem: a 64 KiB tmpfs, and a 20 KB input that
# converts (uncompressed) to more than that
full="$TMPD/full"
mkdir "$full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k mmscope-full "$full" 2>/dev/null; then
	big="$TMPD/big.dat"
	run_mm "$TMPD/out" "$TMPD/err" convert "$C/compaction-v7-none.dat" -o "$big" --compression none
	# fill the tmpfs but for a little, so the output cannot fit
	head -c $((64 * 1024 - 8192)) /dev/zero >"$full/filler" 2>/dev/null
	run_mm "$TMPD/out" "$TMPD/err" convert "$C/compaction-v7-none.dat" -o "$full/x.dat" --compression none
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
	   grep -q "^error: $full/x.dat: .*No space left on device" "$TMPD/err"; then
		npass=$((npass + 1))
	else
		fail "full filesystem: exit $rc: $(head -c 300 "$TMPD/err")"
	fi
	if ls -A "$full" | grep -qv '^filler$'; then
		fail "full filesystem: left files behind: $(ls -A "$full")"
	fi
	umount "$full"
else
	echo "SKIP row: output on a full filesystem (cannot mount a tmpfs here)"
fi

finish
