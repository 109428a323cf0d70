#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report's run section on real recordings: one made with the run's
# context (tests/data/report/run-memcg-6.18.dat, README there) gives in
# JSON what the cgroup and /proc said (limit, kernel peak, failcnt as read
# after the run; swappiness), null for what the kernel lacks (MGLRU, v1's
# pgscan); recordings without context give one line of text, and null or
# only their memcg in JSON.
. "$(dirname "$0")/../lib.sh"

data="$top_srcdir/tests/data/report"
"$MMSCOPE" report -f json --section run "$data/run-memcg-6.18.dat" >"$scratch/run.json" ||
	fail "report --section run -f json failed"
python3 - "$scratch/run.json" <<'PY' && ok "run-memcg-6.18: outcome, memcg and settings in JSON" ||
	fail "run-memcg-6.18: JSON figures differ"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
o, m, s = run["outcome"], run["memcg"], run["settings"]
want = [
    (o["exit"], 0), (o["signal"], None), (o["stopped_by_recorder"], False),
    (o["max_rss_kb"], 66608), (o["elapsed_s"], 3.193657),
    (run["command"][0], "sh"), (len(run["command"]), 3),
    (m["cgroup_version"], 1), (m["limits_bytes"]["limit"], 67108864),
    (m["limits_bytes"]["memsw_limit"], "max"),
    (m["usage_bytes"]["kernel_peak"], 67108864), (m["events_delta"]["failcnt"], 33563),
    (m["events_delta"]["oom_kill"], 0), (m["events_delta"]["max"], None),
    (m["memory_stat_delta_pages"]["pgscan_anon"], None),
    (s["vm.swappiness"], "60"), (s["thp.enabled"], "madvise"),
    (s["lru_gen.enabled"], None), (s["zswap.zpool"], None),
    (s["swap.0.dev"], "/dev/loop0"), (s["swap.0.clusters"], "128"),
    (run["changed"], []),
]
bad = [(i, g, w) for i, (g, w) in enumerate(want) if g != w]
for b in bad:
    print("item %d: got %r, want %r" % b)
sys.exit(1 if bad else 0)
PY

# no context: one line; JSON null, or only the memcg an older mmscope sampled
"$MMSCOPE" report --section run "$top_srcdir/samples/compaction-6.18.dat" >"$scratch/none.txt" ||
	fail "report --section run failed"
[ "$(sed -n 3p "$scratch/none.txt")" = "context   none in this file (older mmscope, or trace-cmd)" ] &&
	[ "$(wc -l <"$scratch/none.txt")" -eq 3 ] && ok "no context: one line" ||
	fail "no context: $(cat "$scratch/none.txt")"
"$MMSCOPE" report -f json --section run "$top_srcdir/samples/compaction-6.18.dat" |
	grep -qx '"run": null,' && ok "no context: JSON null" || fail "no context: JSON run not null"
"$MMSCOPE" report -f json --section run "$data/oom-6.18.dat" >"$scratch/oom.json"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["run"]
sys.exit(not (r["settings"] is None and r["outcome"] is None and r["command"] is None
              and r["memcg"]["limits_bytes"]["limit"] == 67108864))' "$scratch/oom.json" &&
	ok "older mmscope with --cgroup: settings and outcome null, memcg kept" ||
	fail "older mmscope with --cgroup: $(cat "$scratch/oom.json")"
finish
