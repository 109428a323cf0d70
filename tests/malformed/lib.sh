# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the malformed-input tests (sourced). The contract checked:
# a bad input gives exit status 1 and exactly one stderr line, which is
# "error: FILE: WHAT"; a good one exits 0 with nothing on stderr.

: "${MMSCOPE:?set MMSCOPE to the mmscope binary}"
: "${top_srcdir:?set top_srcdir}"

# libtraceevent leaks inside tep_parse_event (not ours); keep LSan quiet
# about it, including its "Suppressions used" report on stderr.
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/fuzz/lsan.supp:print_suppressions=0"
export LSAN_OPTIONS

nfail=0
npass=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/mmscope-malformed.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}

# run_mm OUT ERR ARGS...: run mmscope, 60 s at most (a hang is a failure).
run_mm() {
	local out=$1 err=$2
	shift 2
	timeout 60 "$MMSCOPE" "$@" >"$out" 2>"$err"
}

# expect_error NAME FILE [EXACT_LINE] -- ARGS...: exit 1, one stderr line
# starting "error: FILE:" (equal to EXACT_LINE when given).
expect_error() {
	local name=$1 file=$2 exact=$3 rc lines
	shift 3
	run_mm "$TMPD/out" "$TMPD/err" "$@"
	rc=$?
	lines=$(wc -l <"$TMPD/err")
	if [ "$rc" -ne 1 ]; then
		fail "$name: exit $rc, expected 1 ($*): $(head -c 300 "$TMPD/err")"
	elif [ "$lines" -ne 1 ]; then
		fail "$name: $lines stderr lines, expected 1 ($*): $(head -c 600 "$TMPD/err")"
	elif [ -n "$exact" ] && [ "$(cat "$TMPD/err")" != "$exact" ]; then
		fail "$name: got '$(cat "$TMPD/err")', expected '$exact'"
	elif [ -z "$exact" ] && ! grep -q "^error: $file: ." "$TMPD/err"; then
		fail "$name: stderr is not 'error: $file: ...': $(cat "$TMPD/err")"
	else
		npass=$((npass + 1))
		return 0
	fi
	return 1
}

# expect_ok NAME ARGS...: exit 0, stderr empty.
expect_ok() {
	local name=$1 rc
	shift
	run_mm "$TMPD/out" "$TMPD/err" "$@"
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$TMPD/err" ]; then
		fail "$name: exit $rc, expected 0 ($*): $(head -c 300 "$TMPD/err")"
		return 1
	fi
	npass=$((npass + 1))
}

finish() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}
