#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mmscope's metadata as text. Recorders before 6f7d664 (strbuf_detach of
# a strbuf never written returned an uninitialized buffer; test-util holds
# that fix) wrote "probe_reason=" plus heap bytes when every probe
# installed: global-pressure-reclaim-6.1.dat holds 81 b6 d1 66 2f 56.
# dump --info shows such bytes as \xNN, never raw to the terminal, and
# report/export read the reason as the empty one it was meant to be (no
# probe_reason setting row), not as text.
. "$(dirname "$0")/../lib.sh"

f="$top_srcdir/tests/data/report/global-pressure-reclaim-6.1.dat"
raw=$(python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
i = d.find(b'probe_reason=') + 13
print(d[i:d.index(b'\n', i)].hex())" "$f")
[ "$raw" = "81b6d1662f56" ] ||
	fail "6.1 fixture: probe_reason bytes are $raw, not the old recorder's 81b6d1662f56: this test tests nothing"

"$MMSCOPE" dump --info "$f" > "$scratch/info" || fail "dump --info exited $?"
grep -qx '  probe_reason=\\x81\\xb6\\xd1f/V' "$scratch/info" &&
	ok "dump --info: the garbage bytes shown as \\xNN" ||
	fail "dump --info: probe_reason line: $(grep probe_reason "$scratch/info" | od -c | head -3)"

# every fixture's --info is text: valid UTF-8 without control bytes
for d in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	"$top_srcdir"/tests/data/swap/*.dat; do
	[ -f "$d" ] || continue
	"$MMSCOPE" dump --info "$d" | python3 -c "
import sys
t = sys.stdin.buffer.read().decode('utf-8')	# raises on invalid UTF-8
bad = [c for c in t if ord(c) < 0x20 and c != '\n' or ord(c) == 0x7f]
sys.exit(1 if bad else 0)" 2>/dev/null &&
		ok "$(basename "$d"): dump --info is text" ||
		fail "$(basename "$d"): dump --info sends non-text bytes"
done

"$MMSCOPE" export -o "$scratch/x" "$f" > /dev/null 2>&1 || fail "export exited $?"
if grep -q ',probe_set,6.1,' "$scratch/x/settings.csv"; then
	grep -q ',probe_reason,' "$scratch/x/settings.csv" &&
		fail "export: a probe_reason row from the uninitialized bytes: $(grep -a probe_reason "$scratch/x/settings.csv")" ||
		ok "export: no probe_reason row (every probe installed)"
else
	fail "export: no probe_set 6.1 row: settings.csv changed shape"
fi
finish
