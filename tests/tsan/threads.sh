#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The threaded paths under ThreadSanitizer (`make check-tsan` in a build
# configured with --enable-tsan; .ci/run runs it): compare -j and export -j
# (recordings analysed on worker threads, each with its own reader and
# models) and the read-ahead threads (MMSCOPE_THREADS=1: one inflating
# thread per compressed CPU stream, on any number of CPUs), on the real
# recordings in samples/ and tests/data/report/, and record
# --switch-output's part writer thread (as root). Any ThreadSanitizer
# report fails, as does a run whose output differs from one on a single
# thread. A race shows only when two threads meet at it: the same small
# recording on both workers ends them together (a formatter cache that
# td_close flushed raced there in about half the runs), so those pairs run
# several times.
. "${top_srcdir:-.}/tests/lib.sh"

nm "$MMSCOPE" 2>/dev/null | grep -q __tsan_init ||
	{ echo "FAIL: $MMSCOPE is not built with ThreadSanitizer (configure --enable-tsan)" >&2
	  exit 99; }

d=$top_srcdir/tests/data/report
# every real recording compare takes (one without two complete sample sets
# or any event it compares, as lossy-6.18.dat, is refused by compare itself)
all=$(for f in "$top_srcdir"/samples/*.dat "$d"/*.dat; do
	case $(basename "$f") in lossy-*) ;; *) printf '%s ' "$f" ;; esac
done)
small="$d/oom-6.18.dat $d/khugepaged-6.18.dat $d/run-memcg-6.18.dat"
export TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# Some kernels map memory where this TSan runtime cannot run ("unexpected
# memory mapping"): then without address space randomisation, as its
# message advises.
run=""
if ! "$MMSCOPE" --version >/dev/null 2>"$scratch/probe"; then
	if grep -q "unexpected memory mapping" "$scratch/probe" && command -v setarch >/dev/null; then
		run="setarch $(uname -m) -R"
	else
		cat "$scratch/probe" >&2; exit 99
	fi
fi

n=0
# NAME CMD...: runs CMD with stdout to $scratch/NAME.out; fails on a TSan report
tsan() {
	name=$1; shift
	n=$((n + 1))
	$run "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
	rc=$?
	if grep -q "WARNING: ThreadSanitizer" "$scratch/$name.err" || [ $rc -eq 66 ]; then
		fail "$name: $(grep -c 'WARNING: ThreadSanitizer' "$scratch/$name.err") ThreadSanitizer report(s)"
		grep -A14 "WARNING: ThreadSanitizer" "$scratch/$name.err" | head -60 >&2
	elif [ $rc -ne 0 ]; then
		fail "$name: exit $rc: $(tail -3 "$scratch/$name.err")"
	fi
}

# compare and export over every real recording, two workers
# shellcheck disable=SC2086
tsan compare-all "$MMSCOPE" compare -j 2 --all $all
# shellcheck disable=SC2086
tsan compare-all-1 env MMSCOPE_THREADS=0 "$MMSCOPE" compare -j 1 --all $all
cmp -s "$scratch/compare-all.out" "$scratch/compare-all-1.out" ||
	fail "compare -j 2 differs from -j 1"
# shellcheck disable=SC2086
tsan export-all "$MMSCOPE" export -j 2 -o "$scratch/x2" $all
# shellcheck disable=SC2086
tsan export-all-1 env MMSCOPE_THREADS=0 "$MMSCOPE" export -j 1 -o "$scratch/x1" $all
diff -r "$scratch/x1" "$scratch/x2" >/dev/null || fail "export -j 2 tables differ from -j 1"

# the same recording on both workers, ending together
for i in 1 2 3; do
	for f in $small; do
		b=$(basename "$f" .dat)
		tsan "compare-pair-$b-$i" "$MMSCOPE" compare -j 2 a="$f" b="$f"
		cp "$f" "$scratch/copy.dat"
		tsan "export-pair-$b-$i" "$MMSCOPE" export -j 2 -o "$scratch/xp-$b-$i" "$f" "$scratch/copy.dat"
	done
done

# read-ahead threads: each compressed CPU stream inflated on its own thread
# (every recording here is zstd), in dump (the samples: dumping all of
# them doubles this test's time), report and under compare's and export's
# workers; the output the same as without them
for f in "$top_srcdir"/samples/*.dat; do
	b=$(basename "$f" .dat)
	tsan "dump-ra-$b" env MMSCOPE_THREADS=1 "$MMSCOPE" dump "$f"
	MMSCOPE_THREADS=0 "$MMSCOPE" dump "$f" >"$scratch/dump0-$b.out" 2>/dev/null
	cmp -s "$scratch/dump-ra-$b.out" "$scratch/dump0-$b.out" ||
		fail "$b: dump with read-ahead threads differs from without"
done
# shellcheck disable=SC2086
tsan report-ra env MMSCOPE_THREADS=1 "$MMSCOPE" report $top_srcdir/samples/zswap-6.12.dat
# shellcheck disable=SC2086
tsan compare-ra env MMSCOPE_THREADS=1 "$MMSCOPE" compare -j 2 --all $all
cmp -s "$scratch/compare-all.out" "$scratch/compare-ra.out" ||
	fail "compare -j 2 with read-ahead differs from -j 1"
# shellcheck disable=SC2086
tsan export-ra env MMSCOPE_THREADS=1 "$MMSCOPE" export -j 2 -o "$scratch/xra" $all
diff -r "$scratch/x1" "$scratch/xra" >/dev/null || fail "export -j 2 with read-ahead differs from -j 1"

# record --switch-output: each finished part written by the part writer
# thread while the loop reads the next (src/part-writer.h); the delay
# keeps a write going across several of the loop's reads. Live: as root
# on a kernel with tracefs (CI's case), else said and left out.
if [ "$(id -u)" = 0 ] && { [ -e /sys/kernel/tracing/trace ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	mkdir "$scratch/sw"
	(end=$(($(date +%s) + 4)); while [ "$(date +%s)" -lt "$end" ]; do
		head -c 20000000 /dev/zero | cat >/dev/null; done) &
	tsan record-switch env MMSCOPE_TEST_PART_DELAY_MS=300 "$MMSCOPE" record -q \
		--switch-output 256K --interval 200 --duration 4 -o "$scratch/sw/p.dat" \
		-e kmem:mm_page_alloc -e kmem:mm_page_free
	wait
	parts=$(ls "$scratch/sw" | grep -c '^p-[0-9]*\.dat$')
	[ "$parts" -ge 2 ] || fail "record-switch: $parts part(s), want 2 or more"
	ls "$scratch/sw" | grep -q spool && fail "record-switch: a spool is left"
else
	echo "record --switch-output under ThreadSanitizer left out: not root, or no tracefs"
fi

[ "$fails" -eq 0 ] && ok "$n runs under ThreadSanitizer, no report"
finish
