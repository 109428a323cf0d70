#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: record a swapping workload in a cgroup v1 memory limit (swap on a
# loop device, both made and removed here). trace-cmd report must open the
# file; vmscan events and samples must be there; the number of anon
# mm_vmscan_write_folio events between the first and the last sample set
# must match the pswpout + swpout_zero delta of those sets (zero-filled
# pages get a write_folio event but no I/O: they count in swpout_zero)
# within the events the ring lost; no instance may remain. Events and
# counters are system-wide: a large folio another process swaps out
# meanwhile is one event but several pages of pswpout, so the per-size
# mTHP swpout deltas (also in the samples) are taken off.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
live_swap 1024
live_cgroup 128

out="$scratch/live.dat"
"$MMSCOPE" record -o "$out" -g reclaim,kswapd --interval 200 --cgroup "$LIVE_TAG" -- \
	sh -c "echo \$\$ >$LIVE_CG/cgroup.procs && exec $ANON_TOUCH -m 256 -p 2 -N -q" \
	>"$scratch/stdout" 2>"$scratch/summary"
rc=$?
cat "$scratch/summary"
[ $rc -eq 0 ] || fail "record exited $rc"
[ -f "$out" ] || { fail "no output file"; finish; }
mode=$(stat -c %a "$out")
[ "$mode" = 600 ] && ok "file mode 0600" || fail "file mode $mode, not 600"
[ -z "$(instances_left)" ] && ok "no instance left" || fail "instances left: $(instances_left)"
[ ! -e "$out.spool" ] && ok "spool removed" || fail "spool $out.spool left"

trace-cmd report "$out" >"$scratch/report" 2>"$scratch/report.err" ||
	{ fail "trace-cmd report failed: $(head -3 "$scratch/report.err")"; finish; }
ok "trace-cmd report opens the file ($(wc -l <"$scratch/report") lines)"
"$MMSCOPE" dump "$out" >"$scratch/dump" 2>&1 || fail "mmscope dump failed"
nsamples=$(grep -c 'mms1 end ' "$scratch/report")
[ "$nsamples" -ge 2 ] && ok "$nsamples sample sets" || fail "only $nsamples sample sets"
grep -q "mms1 memcg 0 path=$LIVE_TAG .*limit=$((128 << 20))" "$scratch/report" &&
	ok "--cgroup: memcg lines with the limit" || fail "--cgroup: no memcg line with limit=$((128 << 20))"

# Count anon write_folio events between the first and the last vmstat line
# that carries pswpout (later sets carry changed fields only), and take
# pswpout and swpout_zero at both ends.
awk '
	/tracing_mark_write: mms1 vmstat / {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "pswpout") {
				if (!np++) { p0 = kv[2]; w0 = writes }
				p1 = kv[2]; w1 = writes
			}
			if (kv[1] == "swpout_zero") {
				if (!nz++) z0 = kv[2]
				z1 = kv[2]
			}
		}
		next
	}
	/tracing_mark_write: mms1 mthp / {
		size = 0
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "size") size = kv[2]
			if (kv[1] == "swpout" && size) {
				if (!(size in m0)) m0[size] = kv[2]
				m1[size] = kv[2]
			}
		}
		next
	}
	/mm_vmscan_write_folio:/ && /ANON/ { writes++ }
	END {
		# a large folio is one write_folio event but size/4 pages of pswpout
		for (sz in m1) extra += (sz / 4 - 1) * (m1[sz] - m0[sz])
		printf "window_writes=%d pswpout_delta=%d swpout_zero_delta=%d large_folio_extra=%d\n",
			w1 - w0, p1 - p0, z1 - z0, extra
	}' "$scratch/report" >"$scratch/cmp"
cat "$scratch/cmp"
eval "$(cat "$scratch/cmp")"
lost=$(awk '$1 == "mmscope:" && $2 == "all" { print $6 }' "$scratch/summary")
: "${lost:=0}"
[ "$window_writes" -gt 1000 ] && ok "$window_writes anon write_folio events" ||
	fail "only $window_writes anon write_folio events: no swapping?"
expect=$((pswpout_delta + swpout_zero_delta - large_folio_extra))
diff=$((window_writes - expect))
[ $diff -lt 0 ] && diff=$((-diff))
# one page may be in flight across each window edge
if [ $diff -le $((lost + 2)) ]; then
	ok "write_folio $window_writes vs pswpout+swpout_zero-large_folio_extra $expect (diff $diff, lost $lost)"
else
	fail "write_folio $window_writes vs pswpout+swpout_zero-large_folio_extra $expect: diff $diff > lost $lost + 2"
fi
grep -q 'probe_set' "$scratch/dump" 2>/dev/null || true
finish
