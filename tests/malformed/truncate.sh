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

# The driver is tests/malformed/truncate.py (one process: the shell
# loop spent most of its 145 s of CPU starting awk, od, dd and head).
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
python3 "$top_srcdir/tests/malformed/truncate.py" "$MMSCOPE" "$layout" "$corpus" "$TMPD"
