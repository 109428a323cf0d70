#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 44.3: a kcompactd pickup goes to the first kswapd episode awake
# since the request could have been made, never to a later one, and an
# episode waiting out its pickup window keeps waiting when the next one
# sleeps. tests/data/report/pickup-first-awake-6.12.dat, hand-made by
# tests/report/mkevents from the .events file beside it (6.12 formats):
#   1. kcompactd's idle sleep at 14.181 inside episode A (13.900-15.400);
#      B (15.700-15.800) and C (16.100-16.200) follow; an order-9 wake
#      without a wakeup event at 16.399050, at once after the sleep that
#      ends kcompactd's proactive compaction, runs a request made at or
#      after 14.181: A's window is over and it may predate B and C, so
#      all three are "none" (C was "pick 9", A "none");
#   2. the idle sleep at 17.901 inside D (17.000-18.000); E (18.100-
#      18.200); the wake at 18.401, in D's window: D "pick 9", E "none"
#      (E was "pick 9", D "none", its window ended by E's sleep).
# The file must be what mkevents makes of the .events file, and
# trace-cmd must show the pattern, so the checks are not vacuous.
. "$(dirname "$0")/../lib.sh"

d=$top_srcdir/tests/data/report
f=$d/pickup-first-awake-6.12.dat
[ -f "$f" ] || { fail "missing recording $f"; finish; }

mk=$top_builddir/tests/report/mkevents
if [ -x "$mk" ]; then
	MKEVENTS_UNAME="Linux mmscope-vm 6.12.117+deb12-amd64 x86_64" "$mk" \
		"$top_srcdir/tests/data/kernels/6.12.117+deb12-amd64/events" "$scratch/made.dat" \
		< "$d/pickup-first-awake-6.12.events" || fail "mkevents failed"
	cmp -s "$scratch/made.dat" "$f" && ok "the recording is mkevents' of its .events file" ||
		fail "$f is not what mkevents makes of pickup-first-awake-6.12.events"
fi

# the evidence in trace-cmd's decoding: an idle kcompactd sleep (a sleep
# after a sleep) while kswapd is awake, two episodes after that one, then
# kcompactd's order-9 wake without a wakeup event
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$f" 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i + 0; ev = $(i + 1); break } }
		ev == "mm_vmscan_kswapd_wake:" { awake = 1; if (idle) eps++ }
		ev == "mm_vmscan_kswapd_sleep:" { awake = 0 }
		ev == "mm_compaction_wakeup_kcompactd:" { wk = 1 }
		ev == "mm_compaction_kcompactd_sleep:" { if (slept && awake) { idle = ts; eps = 0 } slept = 1 }
		ev == "mm_compaction_kcompactd_wake:" {
			if (/order=9/ && !wk && idle) printf "%.6f %d %.6f\n", idle, eps, ts
			slept = 0; wk = 0; idle = 0 }' > "$scratch/tc"
	[ "$(cat "$scratch/tc")" = "14.181000 2 16.399050
17.901000 1 18.401000" ] &&
		ok "trace-cmd: idle sleeps inside an episode, episodes after, order-9 wakes" ||
		fail "trace-cmd: not the pattern: $(cat "$scratch/tc")"
fi

"$MMSCOPE" report -f json -s handoff "$f" > "$scratch/j" || fail "report failed"
python3 - "$scratch/j" > "$scratch/out" 2>&1 <<'EOF' && ok "$(cat "$scratch/out")" || fail "$(cat "$scratch/out")"
import json, sys
h = json.load(open(sys.argv[1]))["handoff"][0]
t0 = 13.681    # the first event: JSON times are relative to it
want = [(13.900, "none"), (15.700, "none"), (16.100, "none"),
        (17.000, "pickup"), (18.100, "none")]
have = [(round(e["t"] + t0, 3), e["handoff"]) for e in h["kswapd_episodes"]]
bad = []
if have != want:
    bad.append("episodes %s, want %s" % (have, want))
d = [e for e in h["kswapd_episodes"] if abs(e["t"] + t0 - 17.000) < 1e-6]
if d and d[0]["handoff"] == "pickup" and (d[0]["handoff_order"] != 9 or
                                          abs(d[0]["handoff_t"] + t0 - 18.401) > 1e-6):
    bad.append("D's pickup: order %s at %s, want 9 at 18.401"
               % (d[0]["handoff_order"], d[0]["handoff_t"]))
kc = [(round(k["t"] + t0, 6), k["via"], k["for_kswapd"]) for k in h["kcompactd_requests"]]
if kc != [(16.39905, "pickup", 0), (18.401, "pickup", 1)]:
    bad.append("kcompactd requests %s" % kc)
if bad:
    sys.exit("; ".join(bad))
print("A, B, C none (the request may predate B and C); D pick 9 at 18.401, E none")
EOF
# the text says so too
"$MMSCOPE" report -s handoff "$f" > "$scratch/txt" || fail "text report failed"
grep -Eq '^ +2\.419 +100\.0 +9 .* none ' "$scratch/txt" ||
	fail "text: episode C (2.419 s) is not 'none'"
grep -Eq '^ +3\.319 +1000\.0 +9 .* pick 9 ' "$scratch/txt" ||
	fail "text: episode D (3.319 s) is not 'pick 9'"
finish
