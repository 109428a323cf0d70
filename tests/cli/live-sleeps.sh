#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No live test waits for a fixed time (issue 45 item 4): a live test (one
# that sources lib-live.sh) waits for what it needs (a recorder tracing,
# a file or a part written, a switch done, a command started) with a
# bound: live_wait in lib-live.sh, or a loop of its own on the condition.
# So every "sleep N" in a live test and in lib-live.sh is
#  - inside a poll loop: a while or until loop, or a for loop that breaks
#    out (a bounded retry), or
#  - marked "# not a wait: WHY" on its line, or on a comment line just
#    above it: part of the workload's shape (the recorded command, a pause
#    between two phases of it) or of a time the test measures, which the
#    checks do not take to be exact.
# Anything else is listed as FILE:LINE. The checker is tried on made-up
# scripts first: it must find each fixed sleep in one, none in the other.
. "${top_srcdir:-.}/tests/lib.sh"

# fixed_sleeps FILE...: "FILE:LINE: TEXT" for each sleep that is neither.
# A rough reading of sh, enough for these scripts: a comment is a # at a
# line's start or after a blank; a command goes on over lines that end
# in a backslash, and the mark may be on any of its lines; the loop words
# count where a command begins (after ; & | ( { ! or do/then/else, or a
# line's start); a here-document's lines are only searched for sleeps.
fixed_sleeps() {
	awk '
	function flush(d) {
		for (d = 0; d <= depth; d++)
			printf "%s", pend[d]
		depth = 0; inpoll = 0; opener = ""; heredoc = ""; prevmark = 0
		cont = 0; cmdbuf = ""; cmdmark = 0
		split("", pend); split("", kind); split("", brk)
	}
	function strip(s) {
		return match(s, /(^|[ \t])#/) ? substr(s, 1, RSTART - 1) : s
	}
	function cmdpos(pre, w) {
		sub(/[ \t]+$/, "", pre)
		if (pre == "")
			return 1
		if (w == "do")
			return pre ~ /;$/
		if (w == "done")
			return pre ~ /[;&]$/
		return pre ~ /[;&|({!]$/ || pre ~ /(^|[^A-Za-z0-9_])(do|then|else|elif)$/
	}
	function found() {
		if (inpoll)
			return
		if (cmdbuf == "")
			cmdd = depth
		cmdbuf = cmdbuf FILENAME ":" FNR ": " line "\n"
	}
	# the end of a command: its sleeps are fixed unless it is marked
	function endcmd() {
		if (!cmdmark && cmdbuf != "") {
			if (cmdd > depth)
				cmdd = depth
			pend[cmdd] = pend[cmdd] cmdbuf
		}
		cmdbuf = ""
		cmdmark = 0
	}
	FNR == 1 { flush() }
	{
		line = $0
		sub(/^[ \t]+/, "", line)
		if (!cont)
			cmdmark = prevmark
		if (index($0, "# not a wait"))
			cmdmark = 1
		prevmark = $0 ~ /^[ \t]*#/ && index($0, "# not a wait")
		code = strip($0)
	}
	heredoc != "" {
		if ($0 ~ ("^\t*" heredoc "$"))
			heredoc = ""
		else if (code ~ /(^|[^A-Za-z0-9_.$-])sleep[ \t]+[0-9][0-9.]*[smhd]?([^A-Za-z0-9_.=-]|$)/)
			found()
		endcmd()
		next
	}
	{
		rest = code
		off = 0
		while (match(rest, /(^|[^A-Za-z0-9_.$-])(do|done|break|while|until|for|sleep[ \t]+[0-9][0-9.]*[smhd]?)([^A-Za-z0-9_.=-]|$)/)) {
			s = RSTART; l = RLENGTH; w = substr(rest, s, l)
			if (w !~ /^[a-z]/) { s++; l--; w = substr(w, 2) }
			if (w ~ /[^A-Za-z0-9.]$/) { l--; w = substr(w, 1, l) }
			pre = substr(code, 1, off + s - 1)
			off += s + l - 1
			rest = substr(rest, s + l)
			if (w ~ /^sleep/)
				found()
			else if (!cmdpos(pre, w))
				continue
			else if (w == "while" || w == "until")
				opener = "poll"
			else if (w == "for")
				opener = "for"
			else if (w == "do") {
				depth++
				kind[depth] = opener == "" ? "for" : opener
				brk[depth] = 0
				pend[depth] = ""
				if (kind[depth] == "poll")
					inpoll++
				opener = ""
			} else if (w == "done" && depth > 0) {
				if (kind[depth] == "poll")
					inpoll--
				else if (!brk[depth])
					pend[depth - 1] = pend[depth - 1] pend[depth]
				depth--
			} else if (w == "break" && depth > 0)
				brk[depth] = 1
		}
		if (match(code, /<<-?[ \t]*[\\'"'"'"]?[A-Za-z_][A-Za-z0-9_]*/)) {
			heredoc = substr(code, RSTART, RLENGTH)
			sub(/^<<-?[ \t]*[\\'"'"'"]?/, "", heredoc)
		}
		cont = code ~ /\\[ \t]*$/
		if (!cont)
			endcmd()
	}
	END { flush() }' "$@"
}

# 1. the checker, on made-up scripts
cat >"$scratch/bad.sh" <<'EOF'
sleep 2
x && sleep 0.5
sh -c 'work; sleep 1' &
for i in 1 2 3; do
	kill -USR1 "$p"
	sleep 1.5
done
cat <<EOS >"$scratch/w.sh"
sleep 0.5
EOS
fail "killed while stopping"
sleep 3
# not a wait: this comment is not just above the sleep
x=1
sleep 1s
"$MMSCOPE" record -o x -- sleep 300 \
	2>err &
EOF
cat >"$scratch/good.sh" <<'EOF'
while ! grep -q x f && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
until [ -e f ]; do
	sleep 0.1
done
for i in 1 2 3; do
	rmdir d && break
	sleep 0.3
done
while [ "$(date +%s)" -lt "$end" ] &&
	[ -e f ]; do
	for n in 1 2; do
		sleep 0.2
	done
done
sleep 300 &	# not a wait: the recorded command
"$MMSCOPE" record -o x -- sleep 300 \
	2>err &	# not a wait: the recorded command
# not a wait: a pause between two phases
sleep 1
sh -c "x && while [ ! -e f ]; do sleep 0.1; done && y"
cat <<'EOS' >"$scratch/w.sh"
for x in a b:
    pass
EOS
live_wait 30 "x" test -e f
EOF
(cd "$scratch" && fixed_sleeps bad.sh) >"$scratch/bad.out"
want="bad.sh:1 bad.sh:2 bad.sh:3 bad.sh:6 bad.sh:9 bad.sh:12 bad.sh:15 bad.sh:16"
got=$(cut -d: -f1,2 "$scratch/bad.out" | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] && ok "the checker finds each fixed sleep of a made-up script" ||
	fail "the checker found '$got' in bad.sh, not '$want'"
(cd "$scratch" && fixed_sleeps good.sh) >"$scratch/good.out"
[ ! -s "$scratch/good.out" ] && ok "the checker passes polls and marked sleeps" ||
	fail "the checker found in good.sh: $(cat "$scratch/good.out")"

# 2. the live tests, as 'make print-live-tests' finds them (a test that
# sources the library), and the library itself
lib=record/lib-live.sh
cd "$top_srcdir" || fail "cannot cd to $top_srcdir"
files=$(find tests -name '*.sh' -type f | sort | while read -r f; do
	grep -q "tests/$lib" "$f" && echo "$f"
done)
n=$(echo "$files" | grep -c .)
[ "$n" -ge 20 ] || fail "found only $n live tests"
# shellcheck disable=SC2086
fixed_sleeps "tests/$lib" $files >"$scratch/found"
if [ -s "$scratch/found" ]; then
	fail "$(wc -l <"$scratch/found") fixed sleep(s) in the live tests: wait for the condition" \
		"(live_wait, lib-live.sh), or say why it is not a wait ('# not a wait: ...'):
$(cat "$scratch/found")"
else
	ok "$n live tests and lib-live.sh: every sleep polls or says why it is not a wait"
fi
finish
