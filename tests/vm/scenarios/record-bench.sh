#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scenario record-bench (issue 9; not part of the check matrix): the same
# page churn recorded by `mmscope record` and by `trace-cmd record`, one
# after the other in the same guest, alternating, REPS times each for SECS
# seconds (tests/bench/vm-record-bench.sh sets both). Both record only
# kmem:mm_page_alloc and kmem:mm_page_free into a 16 MiB ring per CPU
# (mmscope's default; trace-cmd -b 16384), and both write zstd files
# (trace-cmd 3.1 writes version 7 compressed by default). The churn is
# WORKERS loops of `anon-touch -m 32 -N` (base pages: this kernel's THP
# default is "always", which makes 1 event per 2 MiB). mmscope also runs
# as "mmscope-nosamp" with --interval 3600000: counter samples only at
# the start and the end, to tell the sampler's share from the reading.
# With ROTATE a size (3M unless the host side says otherwise; "off":
# not run) it runs a third time as "mmscope-rotate", with
# --switch-output ROTATE: a new part every ROTATE of ring-buffer pages,
# each finished part compressed and written by the recording loop while
# the kernel goes on filling the rings (issue 36 item 5). Its parts are
# copied to the directory $OUT/mmscope-rotate-N, one recording for
# `mmscope dump --stat`; its rec_cpu_s includes writing every part but
# the last (that is the cost of rotating), as the other tools' leave
# out their one final write.
#
# For every run it writes a line to $OUT/bench.txt:
#   tool=T rep=N secs=S cpu_ticks=C hz=H win_s=W win_cpu_s=X rec_cpu_s=R
#   trace_s=D file=F
# (F a directory of parts for mmscope-rotate)
# trace_s: from the events and tracing on until they were off again (to
# 0.1 s, as polled here): what was recorded, which is not always SECS
# (mmscope checks --duration between the parts it writes).
# cpu_ticks: user+system of the recorder and of every process it waited
# for (trace-cmd's per-CPU readers), from the stat of the shell that ran
# it (cutime+cstime): the whole run, with start-up (both read kallsyms,
# which is slow under TCG) and the final write. win_cpu_s: the CPU
# (schedstat) of the recorder's whole process tree during win_s seconds
# of steady recording, from 1 s after the event and tracing were on to 1 s
# before the end. rec_cpu_s: the CPU of the reading itself, from tracing
# on until every event was read, start-up and the output write left out:
# mmscope's from MMSCOPE_RECORD_CPU (its own rusage at those points);
# trace-cmd's is the CPU of its per-CPU reader processes (its cutime once
# it has reaped them, before it writes its file). The window above
# misses what trace-cmd reads after it: its readers block until the ring
# is buffer_percent (50%) full, so at a low event rate they read little
# or nothing before the end. The files are copied to $OUT; events and
# losses are counted on the host from them. $OUT/kallsyms.txt: the CPU
# (s) of reading /proc/kallsyms once with cat, which both recorders do at
# start-up and mmscope again for every part it starts.
# Needs: mmscope, anon-touch, trace-cmd (run-vm.sh --binary).
# vm-mem: 1024
# vm-timeout: 900
set -eu
# shellcheck disable=SC3040 # busybox ash has pipefail
(set -o pipefail) 2>/dev/null && set -o pipefail

OUT=${MMSCOPE_OUT:-/out}
SECS=${RB_SECS:-12}
REPS=${RB_REPS:-2}
WORKERS=${RB_WORKERS:-2}
ROTATE=${RB_ROTATE:-3M}
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
T=/sys/kernel/tracing
say() { echo "record-bench: [$(cut -d' ' -f1 /proc/uptime)] $*"; }

command -v trace-cmd >/dev/null || { echo "record-bench: no trace-cmd in the guest" >&2; exit 1; }
command -v mmscope >/dev/null || { echo "record-bench: no mmscope in the guest" >&2; exit 1; }
uname -r > "$OUT/uname-r.txt"
: > "$OUT/bench.txt"

PIDS=""
churn_start() {
	i=0
	while [ $i -lt "$WORKERS" ]; do
		sh -c 'while :; do anon-touch -m 32 -N -q; done' &
		PIDS="$PIDS $!"
		i=$((i + 1))
	done
	sleep 1
}
churn_stop() {
	for p in $PIDS; do
		pkill -P "$p" 2>/dev/null || true
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	PIDS=""
}

# ticks: utime+stime+cutime+cstime of a stat line
ticks() { awk '{ print $14 + $15 + $16 + $17 }'; }

# tree_ns ROOT: schedstat run time (ns) of ROOT and all its descendants,
# every thread of each (/proc/PID/schedstat is the main thread's alone;
# mmscope writes --switch-output parts on a thread of its own)
tree_ns() {
	for p in $({ cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v root="$1" '
	{ pp[$1] = $4; all[$1] = 1 }
	END {
		in_tree[root] = 1
		do {
			changed = 0
			for (p in all)
				if (!(p in in_tree) && (pp[p] in in_tree)) { in_tree[p] = 1; changed = 1 }
		} while (changed)
		for (p in in_tree) print p
	}'); do
		cat /proc/"$p"/task/*/schedstat 2>/dev/null || true
	done | awk '{ ns += $1 } END { printf "%.0f\n", ns }'
}

# enabled: 0 when some kmem:mm_page_alloc enable file (top level or an
# instance) says 1 and that buffer's tracing_on too
enabled() {
	for f in "$T"/events/kmem/mm_page_alloc/enable "$T"/instances/*/events/kmem/mm_page_alloc/enable; do
		[ -r "$f" ] || continue
		read -r v < "$f" || continue
		[ "$v" = 1 ] || continue
		# and tracing on in that buffer: mmscope enables its events
		# before its start-up (metadata, kallsyms), tracing after
		read -r v < "${f%/events/*}/tracing_on" || continue
		[ "$v" = 1 ] && return 0
	done
	return 1
}

up() { cut -d' ' -f1 /proc/uptime; }

# measure TOOL REP FILE CMD: runs CMD (a shell command line) beside the
# churn; FILE is what CMD writes: a file, or a directory of parts
measure() {
	churn_start
	say "$1 rep $2: $4"
	sh -c "$4; cat /proc/\$\$/stat > /tmp/stat" > /tmp/rec.log 2>&1 &
	root=$!
	n=0
	while ! enabled && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	uon=$(up)
	sleep 1
	a=$(tree_ns $root) ua=$(up)
	sleep $((SECS - 3))
	b=$(tree_ns $root) ub=$(up)
	# trace-cmd's per-CPU readers are reaped by trace-cmd before it writes
	# its output file: from then on their CPU is its cutime+cstime
	rec="" uoff=""
	if [ "$1" = trace-cmd ]; then
		# until trace-cmd exits (kill -0 would go on: root stays a zombie)
		while :; do
			# (cat fails on a process gone meanwhile: pipefail is on)
			r=$({ cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v root="$root" \
				'$4 == root && $2 == "(trace-cmd)" { print $16 + $17 }')
			[ -n "$r" ] || break
			rec=$r
			[ -n "$uoff" ] || enabled || uoff=$(up)
			sleep 0.1
		done
		rec=$(awk -v t="${rec:-0}" -v h="$HZ" 'BEGIN { printf "%.3f", t / h }')
	else
		# mmscope removes its instance once every page is read,
		# before it writes its file
		n=0
		while enabled && [ $n -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
		uoff=$(up)
	fi
	[ -n "$uoff" ] || uoff=$(up)
	wait $root || true
	churn_stop
	cat /tmp/rec.log
	# mmscope's: the line MMSCOPE_RECORD_CPU makes it print
	[ -n "$rec" ] || rec=$(awk '$2 == "cpu_ns" { for (i = 3; i <= NF; i++)
		if ($i ~ /^recording=/) { sub(/^recording=/, "", $i); printf "%.3f", $i / 1e9 } }' /tmp/rec.log)
	if [ -d "$3" ]; then
		dest=$1-$2
		mkdir -p "$OUT/$dest"
		cp "$3"/*.dat "$OUT/$dest/"
		rm -rf "$3"
	else
		dest=$1-$2.dat
		cp "$3" "$OUT/$dest"
		rm -f "$3"
	fi
	trs=$(awk -v a="$uon" -v b="$uoff" 'BEGIN { printf "%.1f", b - a }')
	win=$(awk -v a="$ua" -v b="$ub" 'BEGIN { printf "%.2f", b - a }')
	wcpu=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	echo "tool=$1 rep=$2 secs=$SECS cpu_ticks=$(ticks < /tmp/stat) hz=$HZ win_s=$win win_cpu_s=$wcpu rec_cpu_s=${rec:-0} trace_s=$trs file=$dest" >> "$OUT/bench.txt"
}

# cat's CPU (the shell's cutime+cstime once it has waited for it)
sh -c 'cat /proc/kallsyms > /dev/null; cat /proc/$$/stat' |
	awk -v h="$HZ" '{ printf "kallsyms_cpu_s=%.2f\n", ($16 + $17) / h }' > "$OUT/kallsyms.txt"

rep=1
while [ $rep -le "$REPS" ]; do
	measure mmscope $rep /tmp/mm.dat "MMSCOPE_RECORD_CPU=1 mmscope record -f -o /tmp/mm.dat --spool /tmp/mm.spool -g none -e kmem:mm_page_alloc -e kmem:mm_page_free --duration $SECS"
	measure mmscope-nosamp $rep /tmp/mm.dat "MMSCOPE_RECORD_CPU=1 mmscope record -f -o /tmp/mm.dat --spool /tmp/mm.spool -g none -e kmem:mm_page_alloc -e kmem:mm_page_free --interval 3600000 --duration $SECS"
	if [ "$ROTATE" != off ]; then
		rm -rf /tmp/rot && mkdir /tmp/rot
		measure mmscope-rotate $rep /tmp/rot "MMSCOPE_RECORD_CPU=1 mmscope record -f -o /tmp/rot/mm.dat -g none -e kmem:mm_page_alloc -e kmem:mm_page_free --switch-output $ROTATE --duration $SECS"
	fi
	measure trace-cmd $rep /tmp/tc.dat "cd /tmp && trace-cmd record -b 16384 -e kmem:mm_page_alloc -e kmem:mm_page_free -o /tmp/tc.dat sleep $SECS"
	rep=$((rep + 1))
done
cat "$OUT/bench.txt"
say "done"
