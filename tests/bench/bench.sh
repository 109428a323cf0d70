#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh: mmscope's reader, report and dump against trace-cmd report on
# the same large recordings, in the same run (issue 9). Not a test: it
# prints tables and says which targets are met; timings on a shared
# machine are not pass/fail material.
#
# usage: tests/bench/bench.sh [BUILDDIR]
#   BENCH_DIR     where recordings live (default /var/tmp/mmscope-bench)
#   BENCH_SIZES   sizes of uncompressed pages (default "512M 1G 2G"; set
#                 and empty: no trace-cmd tables, e.g. for the TUI part alone)
#   BENCH_REPEAT  runs per tool and file, best wall time kept (default 3)
#   BENCH_MIXED_SIZE  size of the page-allocator-heavy recording (default
#                 1G; empty: none): kmem page alloc/free/free_batched beside
#                 vmscan, compaction and kswapd, a page-cache reader in a
#                 128 MiB memcg and anon churn (mixed-SIZE.dat)
#   BENCH_LONG_SIZE  size of the production-like recording (default 2G;
#                 empty: none): the default groups with the page allocator's
#                 events at ~200 k/s, minutes long (long-SIZE.dat), where a
#                 10 s window is a small part of the recording
#   BENCH_SAMPLE_SIZE  size of the sample-heavy recording (default 8M;
#                 empty: none): counter samples every 10 ms (sample-SIZE.dat)
#   BENCH_STACK_SIZE  size of the stack-heavy recording (default 256M;
#                 empty: none): a kernel stack with every page allocation
#   BENCH_SCALE=  (empty) skip the switch-output sets read as 1, 4 and 16
#                 parts (set-churn/, set-sample/; BENCH_SET_PART, default
#                 16M, and BENCH_SET_SAMPLE_PART, default 1M, per part)
#   BENCH_MAKE_ONLY=1  make the missing recordings and sets, then stop
#   BENCH_NO_DUMP=1  skip the dump rows
#   BENCH_MANY=0  skip many.sh (compare and export of 24 lab recordings,
#                 one core against all; BENCH_MANY_REPEAT rounds, default 5)
#   BENCH_TUI     recordings for the TUI targets (default: the 2G churn
#                 file, if in BENCH_SIZES, and samples/global-pressure-6.12.dat);
#                 BENCH_TUI=none skips them; BENCH_TUI_REPEAT runs of
#                 the index and report per file (default BENCH_REPEAT)
#
# The recordings are real: `mmscope record -e kmem:mm_page_alloc -e
# kmem:mm_page_free` (plus the default groups and counter samples) around
# two loops of anon-touch churning 64 MiB each, stopped by --max-size at
# the wanted amount of pages. Making them needs root; once made they are
# reused (delete the directory to make new ones).
#
# Each repetition runs every tool back to back, so a busy neighbour slows
# trace-cmd and mmscope alike and the ratios stay meaningful; the best of
# BENCH_REPEAT runs is kept per tool. "1 core" rows run under taskset -c 0.
set -u
B=$(cd "${1:-$(pwd)}" && pwd)
D=${BENCH_DIR:-/var/tmp/mmscope-bench}
SIZES=${BENCH_SIZES-512M 1G 2G}
REPEAT=${BENCH_REPEAT:-3}
MMSCOPE=$B/mmscope
WALK=$B/tests/bench/td-walk
TUI=$B/tests/bench/tui-bench
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ANON=$B/samples/workloads/anon-touch
TIME=/usr/bin/time

for x in "$MMSCOPE" "$WALK" "$TUI"; do
	[ -x "$x" ] || { echo "bench: $x missing (make bench builds it)" >&2; exit 1; }
done
[ -x "$TIME" ] || { echo "bench: needs $TIME (GNU time) for peak RSS" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "bench: needs trace-cmd" >&2; exit 1; }
command -v taskset >/dev/null || { echo "bench: needs taskset" >&2; exit 1; }
mkdir -p "$D" || exit 1
TMP=$(mktemp -d /tmp/mmscope-bench.XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Stop the churn loops a recording was made around.
stop_loops() {
	for p in $PIDS; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	PIDS=""
}

# The page-allocator-heavy kind (issue 23): the kmem page events beside
# vmscan, compaction and kswapd, with a page-cache reader inside a memory
# cgroup small enough to reclaim all the time, and the same churn outside.
make_mixed() { # SIZE FILE
	[ "$(id -u)" -eq 0 ] || { echo "bench: $2 missing and recording needs root" >&2; return 1; }
	[ -x "$ANON" ] || { echo "bench: $ANON missing (make check builds it)" >&2; return 1; }
	local cg=/sys/fs/cgroup/memory/mmscope-bench cgv=1 big=$D/page-cache.file rc
	[ -d /sys/fs/cgroup/memory ] || { cg=/sys/fs/cgroup/mmscope-bench; cgv=2; }
	echo "making $2: churn and a page-cache reader in a 128 MiB memcg, kmem page events with reclaim, compaction and kswapd, until $1 of pages"
	[ -s "$big" ] || dd if=/dev/urandom of="$big" bs=1M count=512 status=none || return 1
	mkdir -p "$cg" || return 1
	if [ $cgv = 1 ]; then echo 128M >"$cg/memory.limit_in_bytes"; else echo 128M >"$cg/memory.max"; fi
	for _ in 1 2; do
		bash -c "while :; do '$ANON' -m 64 -q; done" &
		PIDS="$PIDS $!"
	done
	bash -c "echo \$\$ > '$cg/cgroup.procs'; while :; do cat '$big' >/dev/null; done" &
	PIDS="$PIDS $!"
	sleep 0.3
	"$MMSCOPE" record -q -f -o "$2.tmp" -g reclaim,compaction,kswapd \
		-e kmem:mm_page_alloc -e kmem:mm_page_free -e kmem:mm_page_free_batched \
		--max-size "$1" --duration 900
	rc=$?
	stop_loops
	# the killed reader may not have left the cgroup yet (rmdir: busy)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$cg" 2>/dev/null && break
		sleep 0.3
	done
	[ -d "$cg" ] && echo "bench: could not remove $cg" >&2
	[ $rc -eq 0 ] && mv "$2.tmp" "$2"
}

# churn SIZE FILE LOOPS REST DURATION WHAT: the kmem page events (and the
# default groups) around LOOPS churn loops of anon-touch -m 64, each
# resting REST seconds between runs, until SIZE of pages.
churn() {
	[ "$(id -u)" -eq 0 ] || { echo "bench: $2 missing and recording needs root" >&2; return 1; }
	[ -x "$ANON" ] || { echo "bench: $ANON missing (make check builds it)" >&2; return 1; }
	echo "making $2: $6 until $1 of pages"
	for _ in $(seq "$3"); do
		bash -c "while :; do '$ANON' -m 64 -q; sleep $4; done" &
		PIDS="$PIDS $!"
	done
	sleep 0.3
	"$MMSCOPE" record -q -f -o "$2.tmp" -e kmem:mm_page_alloc -e kmem:mm_page_free \
		--max-size "$1" --duration "$5"
	local rc=$?
	stop_loops
	[ $rc -eq 0 ] && mv "$2.tmp" "$2"
}

# The sample-heavy kind (issue 36): counter samples every 10 ms (the
# shortest interval record takes) beside the default groups and a paced
# churn loop without the page allocator's events, so that most events are
# the sampler's ftrace:print lines.
make_sample() { # SIZE FILE
	[ "$(id -u)" -eq 0 ] || { echo "bench: $2 missing and recording needs root" >&2; return 1; }
	[ -x "$ANON" ] || { echo "bench: $ANON missing (make check builds it)" >&2; return 1; }
	echo "making $2: counter samples every 10 ms beside the default groups and a paced churn, until $1 of pages"
	bash -c "while :; do '$ANON' -m 64 -q; sleep 0.15; done" &
	PIDS="$PIDS $!"
	sleep 0.3
	"$MMSCOPE" record -q -f -o "$2.tmp" --interval 10 --max-size "$1" --duration 900
	local rc=$?
	stop_loops
	[ $rc -eq 0 ] && mv "$2.tmp" "$2"
}

# The stack-heavy kind (issue 36): a kernel stack with every page
# allocation (--stacktrace kmem:mm_page_alloc) around one churn loop, so
# that half the events are ftrace:kernel_stack records of 10+ frames that
# dump resolves through the recording's kallsyms.
make_stack() { # SIZE FILE
	[ "$(id -u)" -eq 0 ] || { echo "bench: $2 missing and recording needs root" >&2; return 1; }
	[ -x "$ANON" ] || { echo "bench: $ANON missing (make check builds it)" >&2; return 1; }
	echo "making $2: a kernel stack with every kmem:mm_page_alloc around one churn loop, until $1 of pages"
	bash -c "while :; do '$ANON' -m 64 -q; done" &
	PIDS="$PIDS $!"
	sleep 0.3
	"$MMSCOPE" record -q -f -o "$2.tmp" -g none -e kmem:mm_page_alloc \
		--stacktrace kmem:mm_page_alloc --max-size "$1" --duration 900
	local rc=$?
	stop_loops
	[ $rc -eq 0 ] && mv "$2.tmp" "$2"
}

make_recording() { # SIZE FILE
	churn "$1" "$2" 2 0 900 "churn with kmem:mm_page_alloc/free"
}

# The production kind (issue 23's windows): what a recorder left running
# on a host holds, the default groups and counter samples with the page
# allocator's events at a moderate rate (one churn loop that rests 0.15 s
# between runs: ~160 k events/s), so that SIZE spans minutes and a 10 s
# window is a small part of it, as around an incident.
make_long() { # SIZE FILE
	churn "$1" "$2" 1 0.15 1800 "paced churn with kmem:mm_page_alloc/free beside the default groups (minutes)"
}

# run NAME COMMAND...: its wall, user and system seconds and peak RSS
# (KB) into $TMP/runs. GNU time counts CPU in 10 ms steps, as large as a
# window of a set or a small file's whole report: the times are bash's
# (milliseconds, GNU time's own ~1 ms included), the peak RSS GNU time's
# (a wrapper that forks itself would count its own image: exec keeps the
# old image's peak in the child's maxrss).
run() {
	local name=$1 t rc
	shift
	t=$( { TIMEFORMAT='%3R %3U %3S'; time "$TIME" -f '%M' -o "$TMP/t" "$@" >/dev/null 2>"$TMP/err"; } 2>&1 )
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$TMP/t" ]; then
		echo "$name $t $(tail -1 "$TMP/t")" >>"$TMP/runs"
	else
		echo "  ($name failed: $(head -c 300 "$TMP/err"))" >&2
	fi
}

# window_share FILE SINCE UNTIL EVENTS: the events of FILE's window as a
# fraction of EVENTS (report's header counts the window's events)
window_share() {
	"$MMSCOPE" report -s header -f json --since "$2" --until "$3" "$1" |
		sed -n 's/^  "events": \([0-9]*\),*$/\1/p' | awk -v n="$4" '{ printf "%.6f", $1 / n }'
}

echo "mmscope bench: $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(date -u '+%F %H:%M UTC')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); best of $REPEAT"
echo

MIXED=${BENCH_MIXED_SIZE-1G}
SAMPLE=${BENCH_SAMPLE_SIZE-8M}
STACK=${BENCH_STACK_SIZE-256M}
LONG=${BENCH_LONG_SIZE-2G}
FILES=""
for sz in $SIZES; do FILES="$FILES churn:$sz"; done
[ -n "$SIZES" ] && [ -n "$MIXED" ] && FILES="$FILES mixed:$MIXED"
[ -n "$SIZES" ] && [ -n "$SAMPLE" ] && FILES="$FILES sample:$SAMPLE"
[ -n "$SIZES" ] && [ -n "$STACK" ] && FILES="$FILES stack:$STACK"
[ -n "$SIZES" ] && [ -n "$LONG" ] && FILES="$FILES long:$LONG"
for kind_sz in $FILES; do
	kind=${kind_sz%%:*} sz=${kind_sz#*:}
	f=$D/$kind-$sz.dat
	if [ ! -s "$f" ]; then
		if [ "$kind" = mixed ]; then
			make_mixed "$sz" "$f" || continue
		elif [ "$kind" = sample ]; then
			make_sample "$sz" "$f" || continue
		elif [ "$kind" = stack ]; then
			make_stack "$sz" "$f" || continue
		elif [ "$kind" = long ]; then
			make_long "$sz" "$f" || continue
		else
			make_recording "$sz" "$f" || continue
		fi
	fi
	[ -n "${BENCH_MAKE_ONLY:-}" ] && continue
	# events and pages from the reader itself (trace-cmd counts the same;
	# tests/oracle/trace-cmd.sh checks that)
	ev=$("$WALK" walk "$f" | sed -n 's/.*events=\([0-9]*\).*/\1/p')
	pg=$("$WALK" pages "$f" | sed -n 's/.*bytes=\([0-9]*\).*/\1/p')
	[ -n "$ev" ] && [ -n "$pg" ] || { echo "bench: cannot read $f" >&2; continue; }
	# windows (issue 18): 10 s and 1 s from the middle of the recording,
	# read through the page index, against the full pass
	read -r first last <<<"$("$MMSCOPE" report -s header -f json "$f" |
		sed -n 's/.*"first_s": \([0-9.]*\).*/\1/p; s/.*"last_s": \([0-9.]*\).*/\1/p' | tr '\n' ' ')"
	mid=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) / 2 }')
	end10=$(awk -v m="$mid" 'BEGIN { printf "%.6f", m + 10 }')
	end1=$(awk -v m="$mid" 'BEGIN { printf "%.6f", m + 1 }')
	# f: the window's share of the events (the report's own count)
	f10=$(window_share "$f" "$mid" "$end10" "$ev")
	f1=$(window_share "$f" "$mid" "$end1" "$ev")
	: >"$TMP/runs"
	for _ in $(seq "$REPEAT"); do
		run window10-1core taskset -c 0 "$MMSCOPE" report --since "$mid" --until "$end10" "$f"
		run window1-1core taskset -c 0 "$MMSCOPE" report --since "$mid" --until "$end1" "$f"
		run trace-cmd taskset -c 0 trace-cmd report "$f"
		run report-1core taskset -c 0 "$MMSCOPE" report "$f"
		run report-2core "$MMSCOPE" report "$f"
		run convert-1core taskset -c 0 "$MMSCOPE" convert -f "$f" -o "$TMP/x.pftrace"
		run html-1core taskset -c 0 "$MMSCOPE" report --format html "$f"
		run walk-1core taskset -c 0 "$WALK" walk "$f"
		run pages-1core taskset -c 0 "$WALK" pages "$f"
		[ -n "${BENCH_NO_DUMP:-}" ] || run dump-1core taskset -c 0 "$MMSCOPE" dump "$f"
		[ -n "${BENCH_NO_DUMP:-}" ] ||
			run dwindow10-1core taskset -c 0 "$MMSCOPE" dump --since "$mid" --until "$end10" "$f"
		rm -rf "$TMP/x" "$TMP/xw"
		run export-1core taskset -c 0 "$MMSCOPE" export -o "$TMP/x" "$f"
		run xwindow10-1core taskset -c 0 "$MMSCOPE" export --since "$mid" --until "$end10" -o "$TMP/xw" "$f"
	done
	echo "== $f: $(awk -v b="$pg" 'BEGIN { printf "%.2f GB", b / 1e9 }') of pages, $(stat -c %s "$f" | awk '{ printf "%.0f MB", $1 / 1e6 }') on disk, $ev events"
	awk -v ev="$ev" -v sz="$sz" -v mid="$mid" -v f10="$f10" -v f1="$f1" '
	function win(name, full, tool, secs, f,   pc) {
		if (!(name in cpu) || !(full in cpu) || cpu[full] <= 0 || f == "")
			return
		pc = 100 * cpu[name] / cpu[full]
		printf "%s --since %s --until +%d s: f = %.1f%% of the events; %.2f s wall, %.2f s CPU = %.1f%% of a full %s (%.2f s), window/full %.2f f; target <= f + 3%%: %s\n",
			tool, mid, secs, 100 * f, wall[name], cpu[name], pc, tool, cpu[full],
			(f > 0 ? pc / (100 * f) : 0), (pc <= 100 * f + 3 ? "MET" : "NOT MET")
	}
	{
		if (!($1 in wall) || $2 < wall[$1]) {
			wall[$1] = $2; cpu[$1] = $3 + $4
		}
		if ($5 > rss[$1])
			rss[$1] = $5
	}
	END {
		order = "trace-cmd report-1core report-2core html-1core convert-1core walk-1core pages-1core dump-1core"
		label["html-1core"] = "report --format html (1 core)"
		label["trace-cmd"] = "trace-cmd report (1 core)"
		label["report-1core"] = "mmscope report (1 core)"
		label["report-2core"] = "mmscope report (2 cores)"
		label["convert-1core"] = "convert to Perfetto (1 core)"
		label["walk-1core"] = "decompress+page walk (1 core)"
		label["pages-1core"] = "decompress only (1 core)"
		label["dump-1core"] = "mmscope dump (1 core)"
		printf "%-32s %11s %8s %8s %10s %8s %8s %9s\n", "tool", "events",
			"wall_s", "cpu_s", "events/s", "ratio", "cpu_rat", "peak_MB"
		n = split(order, o, " ")
		tc = ("trace-cmd" in wall) ? ev / wall["trace-cmd"] : 0
		tcc = ("trace-cmd" in cpu && cpu["trace-cmd"] > 0) ? ev / cpu["trace-cmd"] : 0
		for (i = 1; i <= n; i++) {
			k = o[i]
			if (!(k in wall))
				continue
			w = wall[k] > 0 ? wall[k] : 0.01
			c = cpu[k] > 0 ? cpu[k] : 0.01
			printf "%-32s %11d %8.2f %8.2f %10.0f %7.1fx %7.1fx %9.1f\n", label[k],
				k == "pages-1core" ? 0 : ev, w, c, ev / w,
				tc ? ev / w / tc : 0, tcc ? ev / c / tcc : 0, rss[k] / 1024
		}
		# CPU time decides (the load of a shared machine moves wall time)
		if ("report-1core" in wall && "walk-1core" in wall && cpu["report-1core"] > 0) {
			lim = 100 * cpu["walk-1core"] / cpu["report-1core"]
			printf "report / practical limit (walk): %.0f%% of its throughput in CPU time (%.0f%% wall); target >= 80%%: %s\n",
				lim, 100 * wall["walk-1core"] / wall["report-1core"], (lim >= 80 ? "MET" : "NOT MET")
		}
		if (tc) {
			r1 = ev / wall["report-1core"] / tc
			r2 = ev / wall["report-2core"] / tc
			printf "target report 1 core >= 30x: %.1fx %s\n", r1, (r1 >= 30 ? "MET" : "NOT MET")
			printf "target report 2 cores >= 50x: %.1fx %s\n", r2, (r2 >= 50 ? "MET" : "NOT MET")
			if ("dump-1core" in wall) {
				r3 = ev / wall["dump-1core"] / tc
				c3 = tcc ? ev / (cpu["dump-1core"] > 0 ? cpu["dump-1core"] : 0.01) / tcc : 0
				printf "target dump >= 10x: %.1fx wall, %.1fx CPU %s\n", r3, c3,
					(c3 >= 10 ? "MET" : "NOT MET")
			}
			if ("convert-1core" in cpu && cpu["convert-1core"] > 0) {
				r4 = cpu["trace-cmd"] / cpu["convert-1core"]
				printf "target convert -o X.pftrace faster than trace-cmd report: %.1fx (CPU), peak %.1f MB %s\n",
					r4, rss["convert-1core"] / 1024, (r4 > 1 ? "MET" : "NOT MET")
			}
		}
		if ("html-1core" in cpu && "report-1core" in cpu && cpu["report-1core"] > 0) {
			r5 = cpu["html-1core"] / cpu["report-1core"]
			printf "target report --format html within 1.5x of the text report: %.2fx (CPU %.2f s against %.2f s) %s\n",
				r5, cpu["html-1core"], cpu["report-1core"], (r5 <= 1.5 ? "MET" : "NOT MET")
		}
		# windows (issue 36): CPU time against the full pass of the same
		# tool, beside f, the share of the events in the window; target f + 3%
		win("window10-1core", "report-1core", "report", 10, f10)
		win("window1-1core", "report-1core", "report", 1, f1)
		win("dwindow10-1core", "dump-1core", "dump", 10, f10)
		win("xwindow10-1core", "export-1core", "export", 10, f10)
		if (sz == "2G") {
			m = (rss["report-2core"] > rss["report-1core"]) ? rss["report-2core"] : rss["report-1core"]
			printf "target report peak RSS <= 64 MB on 2 GB: %.1f MB %s\n", m / 1024,
				(m <= 65536 ? "MET" : "NOT MET")
		}
	}' "$TMP/runs"
	echo
done

# Linear at scale (issue 36): a switch-output set recorded for real, read
# as its first 1, 4 and 16 parts (1x, 4x, 16x the events): time per event
# and peak RSS of report for each, then a window in the middle of the set
# against the whole set (the set's cursor seeks to the file holding the
# start). Two sets: the page allocator's events with counter samples every
# 100 ms, and a counter-heavy one (samples every 10 ms, the default groups).
make_set() { # DIR PART_SIZE INTERVAL RECORD_ARGS...
	local dir=$1 part=$2 iv=$3 rpid n=0
	shift 3
	[ "$(id -u)" -eq 0 ] || { echo "bench: $dir missing and recording needs root" >&2; return 1; }
	[ -x "$ANON" ] || { echo "bench: $ANON missing (make check builds it)" >&2; return 1; }
	echo "making $dir: 16 parts of $part of pages (--switch-output $part --interval $iv $*) around a paced churn"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || return 1
	bash -c "while :; do '$ANON' -m 64 -q; sleep 0.15; done" &
	PIDS="$PIDS $!"
	sleep 0.3
	"$MMSCOPE" record -q -f -o "$dir.tmp/part.dat" --switch-output "$part" --interval "$iv" \
		--duration 1800 "$@" &
	rpid=$!
	# part-17 begun: parts 1..16 are written (or being renamed into place)
	while kill -0 $rpid 2>/dev/null && [ ! -e "$dir.tmp/part-17.dat.spool" ] &&
		[ ! -e "$dir.tmp/part-17.dat" ]; do
		sleep 1
		n=$((n + 1))
		[ $n -lt 1800 ] || break
	done
	sleep 2
	kill -INT $rpid 2>/dev/null
	wait $rpid
	stop_loops
	for i in $(seq 16); do
		[ -s "$dir.tmp/part-$i.dat" ] || { echo "bench: $dir.tmp/part-$i.dat missing" >&2; return 1; }
	done
	rm -f "$dir.tmp"/part-1[7-9].dat "$dir.tmp"/part-[2-9][0-9].dat
	mv "$dir.tmp" "$dir"
}

if [ -n "${BENCH_SCALE-1}" ]; then
	for kind in churn sample; do
		d=$D/set-$kind
		if [ ! -d "$d" ]; then
			if [ $kind = churn ]; then
				make_set "$d" "${BENCH_SET_PART:-16M}" 100 \
					-e kmem:mm_page_alloc -e kmem:mm_page_free || continue
			else
				make_set "$d" "${BENCH_SET_SAMPLE_PART:-1M}" 10 || continue
			fi
		fi
		[ -n "${BENCH_MAKE_ONLY:-}" ] && continue
		: >"$TMP/runs"
		for n in 1 4 16; do
			parts=()
			for i in $(seq $n); do parts+=("$d/part-$i.dat"); done
			evn=$("$MMSCOPE" report -s header -f json "${parts[@]}" |
				sed -n 's/^  "events": \([0-9]*\),*$/\1/p')
			echo "events-$n $evn" >>"$TMP/events"
			for _ in $(seq "$REPEAT"); do
				run "set-$n" taskset -c 0 "$MMSCOPE" report "${parts[@]}"
			done
		done
		# a window of about one part's time in the middle of the whole set
		read -r first last <<<"$("$MMSCOPE" report -s header -f json "${parts[@]}" |
			sed -n 's/.*"first_s": \([0-9.]*\).*/\1/p; s/.*"last_s": \([0-9.]*\).*/\1/p' | tr '\n' ' ')"
		ws=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) * 9 / 16 }')
		we=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.6f", (b - a) * 10 / 16 }')
		evw=$("$MMSCOPE" report -s header -f json --since "$ws" --until "$we" "${parts[@]}" |
			sed -n 's/^  "events": \([0-9]*\),*$/\1/p')
		for _ in $(seq "$REPEAT"); do
			run set-window taskset -c 0 "$MMSCOPE" report --since "$ws" --until "$we" "${parts[@]}"
		done
		echo "== linear at scale: $d, report (1 core) of its first 1, 4 and 16 parts (load average $(cut -d' ' -f1-3 /proc/loadavg))"
		awk -v evfile="$TMP/events" -v evw="$evw" -v ws="$ws" -v we="$we" '
		BEGIN {
			while ((getline l < evfile) > 0) {
				split(l, a, " ")
				evs[a[1]] = a[2]
			}
		}
		{
			c = $3 + $4
			if (!($1 in cpu) || c < cpu[$1]) { cpu[$1] = c; wall[$1] = $2 }
			if ($5 > rss[$1]) rss[$1] = $5
		}
		END {
			printf "%-6s %11s %8s %8s %12s %12s %9s\n", "parts", "events", "wall_s", "cpu_s",
				"ns/ev(wall)", "ns/ev(cpu)", "peak_MB"
			lo = hi = 0; rlo = rhi = 0
			for (n = 1; n <= 16; n *= 4) {
				k = "set-" n
				e = evs["events-" n]
				if (!(k in cpu) || e <= 0)
					continue
				pe = 1e9 * cpu[k] / e
				printf "%-6d %11d %8.3f %8.3f %12.1f %12.1f %9.1f\n", n, e, wall[k], cpu[k],
					1e9 * wall[k] / e, pe, rss[k] / 1024
				if (!lo || pe < lo) lo = pe
				if (pe > hi) hi = pe
				if (!rlo || rss[k] < rlo) rlo = rss[k]
				if (rss[k] > rhi) rhi = rss[k]
			}
			if (lo > 0)
				printf "target time per event within 10%% across 1x/4x/16x: %.1f to %.1f ns CPU (+%.0f%%) %s\n",
					lo, hi, 100 * (hi - lo) / lo, (hi <= 1.1 * lo ? "MET" : "NOT MET")
			if (rhi > 0)
				printf "target peak RSS flat and under 64 MB: %.1f to %.1f MB %s\n", rlo / 1024,
					rhi / 1024, (rhi <= 65536 && rhi <= 1.1 * rlo ? "MET" : "NOT MET")
			full = "set-16"
			if ("set-window" in cpu && full in cpu && cpu[full] > 0 && evs["events-16"] > 0) {
				f = evw / evs["events-16"]
				pc = 100 * cpu["set-window"] / cpu[full]
				printf "report --since %s --until %s over the 16 parts: f = %.1f%% of the events; %.3f s CPU = %.1f%% of a full pass, window/full %.2f f; target <= f + 3%%: %s\n",
					ws, we, 100 * f, cpu["set-window"], pc, (f > 0 ? pc / (100 * f) : 0),
					(pc <= 100 * f + 3 ? "MET" : "NOT MET")
			}
		}' "$TMP/runs"
		rm -f "$TMP/events"
		echo
	done
fi

[ -n "${BENCH_MAKE_ONLY:-}" ] && exit 0

# zstd level: size against CPU on the smallest recording's pages
for sz in $SIZES; do
	f=$D/churn-$sz.dat
	[ -s "$f" ] || continue
	echo "== zstd level, recompressing the pages of $f in 64-page chunks"
	"$WALK" levels "$f" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "level %-2s  %6.0f MB -> %6.1f MB (%5.2fx)  compress %6.2f s CPU (%4.0f MB/s)  decompress %5.2f s (%4.0f MB/s)\n",
			v["level"], v["in_bytes"] / 1e6, v["out_bytes"] / 1e6, v["ratio"],
			v["cpu_s"], v["MBps"], v["dcpu_s"], v["dMBps"] }'
	echo "default level in this build: zstd $(grep -o 'ZLIB ? 6 : [0-9]*' "$(dirname "$0")/../../src/codec.c" | awk '{ print $NF }')"
	break
done

# TUI (issue 9): the initial pass of `mmscope tui` against `mmscope report`
# on the same file in the same run (one core, best CPU time of REPEAT),
# then one run of the redraw script (tests/bench/tui-bench.c).
if [ "${BENCH_TUI:-}" != none ]; then
	TUI_FILES=${BENCH_TUI:-}
	if [ -z "$TUI_FILES" ]; then
		case " $SIZES " in *" 2G "*) TUI_FILES="$D/churn-2G.dat" ;; esac
		TUI_FILES="$TUI_FILES $SRC/samples/global-pressure-6.12.dat"
	fi
	for f in $TUI_FILES; do
		[ -s "$f" ] || { echo "bench: $f missing, no TUI numbers for it" >&2; continue; }
		: >"$TMP/runs"
		for _ in $(seq "${BENCH_TUI_REPEAT:-$REPEAT}"); do
			run report-1core taskset -c 0 "$MMSCOPE" report "$f"
			run tui-index-1core taskset -c 0 "$TUI" load "$f"
		done
		echo "== TUI on $f (load average $(cut -d' ' -f1-3 /proc/loadavg))"
		awk '
		{
			c = $3 + $4
			if (!($1 in cpu) || c < cpu[$1]) { cpu[$1] = c; wall[$1] = $2 }
			if ($5 > rss[$1]) rss[$1] = $5
		}
		END {
			printf "%-34s %8s %8s %9s\n", "one pass (1 core, best of runs)", "wall_s", "cpu_s", "peak_MB"
			printf "%-34s %8.2f %8.2f %9.1f\n", "mmscope report", wall["report-1core"], cpu["report-1core"], rss["report-1core"] / 1024
			printf "%-34s %8.2f %8.2f %9.1f\n", "tui index (tui_data_load)", wall["tui-index-1core"], cpu["tui-index-1core"], rss["tui-index-1core"] / 1024
			if (cpu["tui-index-1core"] > 0) {
				r = cpu["report-1core"] / cpu["tui-index-1core"]
				met = r < 0.9 ? "NOT MET" : "MET"
				printf "target TUI index at report speed (>= 0.9x report, CPU time): %.2fx %s\n", r, met
			}
		}' "$TMP/runs"
		"$TUI" redraw "$f" >"$TMP/tui" 2>&1 || { cat "$TMP/tui"; continue; }
		grep -v '^slow redraw:' "$TMP/tui"
		n=$(grep -c '^slow redraw:' "$TMP/tui")
		if [ "$n" -gt 0 ]; then
			echo "$n redraws took 50 ms or more; the slowest:"
			grep '^slow redraw:' "$TMP/tui" | sort -t= -k4 -g -r | head -5
		fi
		awk '/^first screen/ {
				for (i = 1; i <= NF; i++) if ($i ~ /^(wall|cpu)_ms=/) { split($i, a, "="); v[a[1]] = a[2] }
				met = v["wall_ms"] < 50 ? "MET" : "NOT MET"
				printf "target first screen right after the index: %.2f ms wall, %.2f ms CPU %s\n",
					v["wall_ms"], v["cpu_ms"], met
			}
			/^redraw max/ {
				split($0, x, "max wall_ms="); split(x[2], w, " ")
				split($0, y, "max cpu_ms="); split(y[2], c, " ")
				split($0, z, " at="); split(z[2], at, " slow=")
				met = w[1] < 50 ? "MET" : (c[1] < 50 ? "NOT MET on wall time, MET on CPU time (load)" : "NOT MET")
				printf "target every redraw < 50 ms: max %.1f ms wall, %.1f ms CPU (%s) %s\n", w[1], c[1], at[1], met
			}' "$TMP/tui"
		echo
	done
fi

# Many recordings at once (issue 23): compare and export, one core against all.
if [ "${BENCH_MANY:-1}" != 0 ]; then
	echo "== many recordings (many.sh) =="
	BENCH_REPEAT=${BENCH_MANY_REPEAT:-5} bash "$SRC/tests/bench/many.sh" "$B"
fi
