#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 32.14 on a real recording (tests/data/report/proactive-handoff-7.2.dat,
# a 7.2 guest): a write of vm.compaction_proactiveness (wakeup_kcompactd
# order -1) starts proactive compaction, which emits no kcompactd_wake;
# meanwhile kswapd wakes for order 9 and goes to sleep after 200 ms, its
# request left without a wakeup event (kcompactd is not waiting). When
# the proactive run ends, kcompactd's kcompactd_sleep is followed within
# microseconds by kcompactd_wake order 9 with no wakeup event between:
# the request was pending at that sleep, so the episode's handoff is a
# pickup. It was "none" twice over: the sysctl's order -1 wakeup was
# taken as the wakeup of that later wake ("woken"), and without the 32.14
# rule a request picked up after kcompactd's sleep event seemed made
# after the episode had ended.
# trace-cmd shows the pattern is in the file, so the check is not vacuous.
. "$(dirname "$0")/../lib.sh"

f=$top_srcdir/tests/data/report/proactive-handoff-7.2.dat
[ -f "$f" ] || { fail "missing recording $f"; finish; }

# the evidence in trace-cmd's decoding: kswapd's sleep, then kcompactd's
# sleep and, at once, its order-9 wake, no wakeup event in between
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$f" 2>/dev/null | awk '
		function t(s) { sub(/:$/, "", s); return s + 0 }
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = t($i); ev = $(i + 1); break } }
		ev ~ /kswapd_sleep:/ { ks = ts }
		ev ~ /wakeup_kcompactd:/ { wk = 1 }
		ev ~ /kcompactd_sleep:/ { sl = ts; wk = 0 }
		ev ~ /kcompactd_wake:/ && /order=9/ && !wk && sl && ts - sl < 0.01 && ks && ks < sl {
			printf "%.6f %.6f %.6f\n", ks, sl, ts; n++ }
		END { exit !n }' > "$scratch/tc" &&
		ok "trace-cmd: kswapd sleep, kcompactd sleep, wake at once: $(head -1 "$scratch/tc")" ||
		fail "trace-cmd: no kcompactd_sleep followed at once by an order-9 wake"
fi

"$MMSCOPE" report -f json -s handoff "$f" > "$scratch/j" || fail "report failed"
python3 - "$scratch/j" > "$scratch/out" 2>&1 <<'EOF' && ok "$(cat "$scratch/out")" || fail "$(cat "$scratch/out")"
import json, sys
h = json.load(open(sys.argv[1]))["handoff"][0]
ep = [e for e in h["kswapd_episodes"] if abs(e["t"] - 10.625) < 0.001]
kc = [k for k in h["kcompactd_requests"] if abs(k["t"] - 11.003) < 0.001]
if not ep or not kc:
    sys.exit("no episode at 10.625 s or kcompactd request at 11.003 s")
e, k = ep[0], kc[0]
if e["handoff"] != "pickup" or e["handoff_order"] != 9 or abs(e["handoff_t"] - k["t"]) > 1e-6:
    sys.exit("episode at 10.625 s: handoff %s (order %s at %s), want pickup 9 at %.6f"
             % (e["handoff"], e["handoff_order"], e["handoff_t"], k["t"]))
if k["via"] != "pickup" or not k["for_kswapd"]:
    sys.exit("kcompactd at 11.003 s: via %s, for kswapd %s; want a pickup for kswapd"
             % (k["via"], k["for_kswapd"]))
if h["handoff_none"] != 0:
    sys.exit("handoff none %d, want 0" % h["handoff_none"])
print("episode at 10.625 s (200 ms, order 9): pickup by the wake at 11.003 s")
EOF
# the text says so too
"$MMSCOPE" report -s handoff "$f" | grep -Eq '^ +10\.625 +199\.9 +9 .* pick 9 ' ||
	fail "text: the episode at 10.625 s is not 'pick 9'"
finish
