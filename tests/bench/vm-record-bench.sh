#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vm-record-bench.sh: `mmscope record` against `trace-cmd record` on the
# same page churn in one kernel-matrix guest (issue 9). Not a test: it
# prints a table and the ratios. Under qemu TCG the absolute rates mean
# nothing; only the ratios between tools in the same guest do.
#
# usage: tests/bench/vm-record-bench.sh [BUILDDIR] [KERNEL]
#   KERNEL default 6.12; RB_SECS, RB_REPS, RB_WORKERS and RB_ROTATE are
#   passed to the guest (tests/vm/scenarios/record-bench.sh, which says
#   what it runs). RB_ROTATE: the --switch-output size of the
#   "mmscope-rotate" runs (default 3M: 5-6 parts of 6 s of the churn),
#   "off" leaves them out (a quarter of the time).
#   MMSCOPE_VM_CACHE as for tests/vm/run-vm.sh (default here:
#   /var/cache/mmscope-vm when it exists). RB_KEEP=DIR keeps the guest
#   output; RB_REUSE=DIR prints the table of a kept output again.
#
# The guest gets the built mmscope, a static anon-touch and the host's
# trace-cmd (run-vm.sh --binary copies its shared libraries). Events are
# counted here with `mmscope dump --stat` on every file, trace-cmd's too.
# CPU is each recorder's user+system time including the processes it
# waited for, over the whole run (start-up and the final write included)
# and in a steady window while recording (the guest scenario says how).
# A rotating run's parts are counted as one recording (dump --stat DIR).
# events/s is over trace_s, the time tracing was on (the guest polls it),
# SECS when the guest did not say.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
B=$(cd "${1:-$(pwd)}" && pwd)
KERNEL=${2:-6.12}
MMSCOPE=$B/mmscope
[ -x "$MMSCOPE" ] || { echo "vm-record-bench: $MMSCOPE missing" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "vm-record-bench: needs trace-cmd on the host" >&2; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "vm-record-bench: needs qemu-system-x86_64" >&2; exit 1; }
if [ -z "${MMSCOPE_VM_CACHE:-}" ] && [ -d /var/cache/mmscope-vm ]; then
	export MMSCOPE_VM_CACHE=/var/cache/mmscope-vm
fi
RB_ROTATE=${RB_ROTATE:-3M}
[[ $RB_ROTATE =~ ^([0-9]+[KMG]?|off)$ ]] || { echo "vm-record-bench: RB_ROTATE is a size (512K, 3M) or off" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vm-record-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=${RB_KEEP:-$TMP/out}
mkdir -p "$OUT"

cc -static -std=c99 -O2 -Wall -Wextra -o "$TMP/anon-touch" "$REPO/samples/workloads/anon-touch.c" ||
	exit 1
# RB_ICOUNT=SHIFT (default 1; "off": plain TCG): qemu counts instructions
# (-icount shift=SHIFT,sleep=off: every guest instruction is 2^SHIFT ns of
# the guest's clock), so the guest's CPU times are its instruction counts
# and do not depend on the host's load. Without it a vCPU thread the
# host preempts charges the wait to whatever guest task was running, and
# on a busy host the times vary by several times between runs. run-vm.sh
# starts qemu-system-x86_64 from PATH: a wrapper adds the option.
RB_ICOUNT=${RB_ICOUNT:-1}
if [ "$RB_ICOUNT" != off ]; then
	[[ $RB_ICOUNT =~ ^[0-9]+$ ]] || { echo "vm-record-bench: RB_ICOUNT is a shift (0-10) or off" >&2; exit 2; }
	mkdir -p "$TMP/bin"
	printf '#!/bin/sh\nexec %s "$@" -icount shift=%s,sleep=off\n' \
		"$(command -v qemu-system-x86_64)" "$RB_ICOUNT" >"$TMP/bin/qemu-system-x86_64"
	chmod +x "$TMP/bin/qemu-system-x86_64"
	PATH=$TMP/bin:$PATH
fi
echo "vm-record-bench: kernel $KERNEL under qemu TCG, -smp 2 -m 1024, icount shift $RB_ICOUNT; host $(uname -n), $(date -u '+%F %H:%M UTC')"
echo "host load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
RB_SECS=${RB_SECS:-12} RB_REPS=${RB_REPS:-2} RB_WORKERS=${RB_WORKERS:-2}
TOOLS=4
[ "$RB_ROTATE" = off ] && TOOLS=3
# run-vm.sh passes no environment into the guest: bake the settings in
sed -e "s/^SECS=.*/SECS=$RB_SECS/" -e "s/^REPS=.*/REPS=$RB_REPS/" \
	-e "s/^WORKERS=.*/WORKERS=$RB_WORKERS/" -e "s/^ROTATE=.*/ROTATE=$RB_ROTATE/" \
	"$REPO/tests/vm/scenarios/record-bench.sh" >"$TMP/record-bench.sh"
rc=0
if [ -n "${RB_REUSE:-}" ]; then
	OUT=$RB_REUSE
	echo "(not run: the guest output in $OUT is read again)"
else
	"$REPO/tests/vm/run-vm.sh" "$KERNEL" "$TMP/record-bench.sh" "$OUT" --mem 1024 --smp 2 \
		--timeout $((300 + RB_REPS * TOOLS * (RB_SECS * 25 + 150))) \
		--binary "$MMSCOPE:/usr/local/bin/mmscope" --binary "$TMP/anon-touch" \
		--binary "$(command -v trace-cmd)" >"$TMP/run-vm.log" 2>&1 || rc=$?
fi
echo "host load average at end: $(cut -d' ' -f1-3 /proc/loadavg); the VM took $(( $(date +%s) - t0 )) s"
if [ $rc -ne 0 ] || [ ! -s "$OUT/bench.txt" ]; then
	echo "vm-record-bench: the guest failed (exit $rc):" >&2
	tail -5 "$TMP/run-vm.log" >&2
	tail -30 "$OUT/log" 2>/dev/null >&2
	exit 1
fi
echo "guest kernel: $(cat "$OUT/uname-r.txt")"
echo

# one row per run: tool rep secs events lost run_cpu_s win_s win_cpu_s file_B rec_cpu_s trace_s
: >"$TMP/rows"
: >"$TMP/parts"
while read -r line; do
	tool='' rep='' secs='' cpu_ticks='' hz='' win_s='' win_cpu_s='' rec_cpu_s=0 trace_s='' file=''
	for kv in $line; do
		case $kv in
		tool=* | rep=* | secs=* | cpu_ticks=* | hz=* | win_s=* | win_cpu_s=* | rec_cpu_s=* | trace_s=* | file=*)
			eval "${kv%%=*}=\${kv#*=}" ;;
		esac
	done
	# events of the two churn events; lost = lost pages + overrun + dropped
	read -r ev lost < <("$MMSCOPE" dump --stat "$OUT/$file" 2>/dev/null | awk '
		$2 ~ /^kmem:mm_page_(alloc|free)$/ { n += $1 }
		$1 == "cpu" && $2 == "events" { t = 1; next }
		t && $1 ~ /^[0-9]+$/ && NF == 5 { l += $3 + $4 + $5 }
		END { print n + 0, l + 0 }')
	# a rotating run's directory: the bytes of all its parts
	if [ -d "$OUT/$file" ]; then
		size=$(cat "$OUT/$file"/*.dat 2>/dev/null | wc -c)
		echo "$tool rep $rep: $(find "$OUT/$file" -name '*.dat' | wc -l) parts" >>"$TMP/parts"
	else
		size=$(stat -c %s "$OUT/$file" 2>/dev/null || echo 0)
	fi
	echo "$tool $rep $secs ${ev:-0} ${lost:-0} $(awk -v t="$cpu_ticks" -v h="$hz" 'BEGIN { print t / h }') $win_s $win_cpu_s $size $rec_cpu_s ${trace_s:-$secs}" >>"$TMP/rows"
done <"$OUT/bench.txt"

awk '
BEGIN {
	printf "%-14s %3s %10s %9s %6s %8s %8s %9s %8s %9s %10s %7s\n", "tool", "rep", "events",
		"events/s", "lost", "run_cpu", "rec_cpu", "ns/ev_rec", "steady_%", "ns/ev_stdy", "file_B",
		"trace_s"
}
{
	t = $1; ev = $4; secs = $11 > 0 ? $11 : $3; rate = ev / secs
	wev = rate * $7			# events in the steady window, at the run rate
	printf "%-14s %3d %10d %9.0f %6d %8.2f %8.2f %9.0f %7.1f%% %10.0f %10d %7.1f\n", t, $2, ev, rate,
		$5, $6, $10, ev ? 1e9 * $10 / ev : 0, 100 * $8 / $7, wev ? 1e9 * $8 / wev : 0, $9, secs
	E[t] += ev; S[t] += secs; L[t] += $5; C[t] += $6; W[t] += $8; WE[t] += wev; R[t] += $10
	if (!(t in seen)) { seen[t] = 1; order[++n] = t }
}
END {
	print ""
	print "totals over all reps (CPU ns per event recorded):"
	for (i = 1; i <= n; i++) {
		t = order[i]
		printf "  %-14s %10d events %8.0f events/s %6d lost  whole run %6.0f  recording %6.0f  steady window %6.0f ns/event\n",
			t, E[t], E[t] / S[t], L[t], 1e9 * C[t] / E[t], 1e9 * R[t] / E[t],
			WE[t] ? 1e9 * W[t] / WE[t] : 0
	}
	m = "mmscope"; tc = "trace-cmd"; ns = "mmscope-nosamp"; ro = "mmscope-rotate"
	if (E[m] && E[tc] && C[tc] > 0) {
		print "ratios, mmscope / trace-cmd (CPU: above 1 = mmscope costs more):"
		if (R[tc] > 0) {
			printf "  CPU per event while recording (tracing on until every event read): %.2fx\n",
				(R[m] / E[m]) / (R[tc] / E[tc])
			if (R[ns] > 0)
				printf "  the same, mmscope without counter sampling: %.2fx\n",
					(R[ns] / E[ns]) / (R[tc] / E[tc])
			if (R[ro] > 0 && E[ro])
				printf "  the same, mmscope with rotation (parts written while recording): %.2fx\n",
					(R[ro] / E[ro]) / (R[tc] / E[tc])
		}
		if (W[tc] > 0)
			printf "  CPU per event in the steady window (misses trace-cmd reading later): %.2fx\n",
				(W[m] / WE[m]) / (W[tc] / WE[tc])
		printf "  CPU per event over the whole run (start-up, final write): %.2fx\n",
			(C[m] / E[m]) / (C[tc] / E[tc])
		printf "  events/s recorded of the same churn: %.2fx (lost: %d vs %d)\n",
			(E[m] / S[m]) / (E[tc] / S[tc]), L[m], L[tc]
		if (E[ro])
			printf "  the same, mmscope with rotation: %.2fx (lost: %d)\n",
				(E[ro] / S[ro]) / (E[tc] / S[tc]), L[ro]
	}
}' "$TMP/rows"
if [ -s "$TMP/parts" ]; then
	echo "mmscope-rotate (--switch-output), the parts counted as one recording:"
	sed 's/^/  /' "$TMP/parts"
fi
if [ -s "$OUT/kallsyms.txt" ]; then
	echo "reading /proc/kallsyms once in the guest (cat): $(sed -n 's/^kallsyms_cpu_s=//p' "$OUT/kallsyms.txt") s CPU"
fi
