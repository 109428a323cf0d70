# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs automake's test driver (the rest of the command line) and appends
# the test's wall time and the CPU time of its processes to its log:
# "test time: 12.345 s (cpu 10.20 s)". The CPU time hardly depends on the
# machine's load, the wall time does. make test-times lists them, slowest
# first.
log=
prev=
for a in "$@"; do
	[ "$prev" = --log-file ] && log=$a
	[ "$a" = -- ] && break
	prev=$a
done
start=$(date +%s%N)
"$@"
rc=$?
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
# times: the shell's user and system time, then its children's (in this
# shell: a pipe or $(...) would run it in a subshell without children)
cpu=
if tf=$(mktemp 2>/dev/null); then
	times >"$tf"
	cpu=$(awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) { split($i, p, "m"); n += p[1] * 60 + p[2] }
		printf "%.2f", n }' "$tf")
	rm -f "$tf"
fi
[ -n "$log" ] && [ -f "$log" ] &&
	printf 'test time: %d.%03d s (cpu %s s)\n' $((ms / 1000)) $((ms % 1000)) "${cpu:-?}" >>"$log"
exit $rc
