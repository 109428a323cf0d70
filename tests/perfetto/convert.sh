#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mmscope convert -o OUT.pftrace: for every real recording (samples/ and
# tests/data/report/), the Perfetto trace decodes with protoc against
# Perfetto's own schema (tests/data/perfetto/), and tests/perfetto/check.py
# holds it to the format's rules (time order, slices ended on their track,
# flows) and to the report's JSON and the recording's zoneinfo samples.
. "${top_srcdir:-.}/tests/lib.sh"

command -v protoc >/dev/null || skip "no protoc (Debian's protobuf-compiler)"
command -v python3 >/dev/null || skip "no python3"
schema="$top_srcdir/tests/data/perfetto"

decode() {	# TRACE OUT.txt
	protoc --decode=perfetto.protos.Trace -I "$schema" perfetto_trace.proto \
		<"$1" >"$2" 2>"$scratch/protoc.err"
}

# The zoneinfo lines of complete sample sets: "NODE ZONE KEY TS VALUE".
zones() {
	"$MMSCOPE" dump "$1" 2>/dev/null | awk '
	/ mms1 zone / {
		for (i = 1; i <= NF; i++) if ($i == "zone" && $(i - 1) == "mms1") seq = $(i + 1)
		node = zone = ""
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "node") node = kv[2]
			if (kv[1] == "zone") zone = kv[2]
			if (kv[1] == "free" || kv[1] == "min" || kv[1] == "low" || kv[1] == "high")
				val[kv[1]] = kv[2]
		}
		n++
		set[n] = seq; line[n] = node " " zone
		for (k in val) v[n, k] = val[k]
		next
	}
	/ mms1 end / {
		for (i = 1; i <= NF; i++) if ($i == "end" && $(i - 1) == "mms1") ended[$(i + 1)] = 1
	}
	END {
		for (i = 1; i <= n; i++) {
			if (!(set[i] in ended)) continue
			split("free min low high", keys, " ")
			for (k = 1; k <= 4; k++) print line[i], keys[k], set[i], v[i, keys[k]]
		}
	}'
}

for f in "$top_srcdir"/samples/*.dat "$top_srcdir"/tests/data/report/*.dat \
	"$top_srcdir"/tests/data/perfetto/*.dat; do
	name=$(basename "$f" .dat)
	out="$scratch/$name.pftrace"
	if ! "$MMSCOPE" convert "$f" -o "$out" 2>"$scratch/err"; then
		fail "$name: convert: $(head -1 "$scratch/err")"
		continue
	fi
	if ! decode "$out" "$scratch/$name.txt"; then
		fail "$name: protoc cannot decode it: $(head -1 "$scratch/protoc.err")"
		continue
	fi
	"$MMSCOPE" report --format json "$f" >"$scratch/$name.json" ||
		{ fail "$name: report --format json"; continue; }
	zones "$f" >"$scratch/$name.zones"
	"$MMSCOPE" dump --info "$f" | sed 's/^ *//' >"$scratch/$name.info"
	phases=$("$MMSCOPE" dump "$f" 2>/dev/null | grep -c ': mmscope phase ')
	if python3 "$top_srcdir/tests/perfetto/check.py" "$scratch/$name.txt" \
		"$scratch/$name.json" "$scratch/$name.zones" "$scratch/$name.info" \
		"$phases" >"$scratch/check" 2>&1; then
		ok "$name: $(tail -1 "$scratch/check")"
	else
		fail "$name: $(head -5 "$scratch/check" | tr '\n' ';')"
	fi
done

# the kills: oom-6.18's memcg OOM kill is on the kills track, its dossier
# in its arguments (check.py held every kill above to .oom.kills[]; here
# that the check saw the kill and the JSON has it)
t=$scratch/oom-6.18.txt
[ "$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["oom"]["kills"]))' \
	<"$scratch/oom-6.18.json")" = 1 ] &&
	grep -q 'name: "kill: memcg-oom victim [0-9]* ' "$t" &&
	grep -q 'name: "memcg_stalls"' "$t" && grep -q 'name: "psi_some_avg10"' "$t" &&
	ok "oom-6.18: its kill on the kills track with the dossier as arguments" ||
	fail "oom-6.18: no kill instant with its dossier"

# --format perfetto whatever the name; the same bytes as by extension
f="$top_srcdir/samples/global-pressure-6.12.dat"
"$MMSCOPE" convert --format perfetto "$f" -o "$scratch/gp.trace" ||
	fail "--format perfetto"
cmp -s "$scratch/gp.trace" "$scratch/global-pressure-6.12.pftrace" &&
	ok "--format perfetto writes what .pftrace does" ||
	fail "--format perfetto and .pftrace differ"
# --format tracedat keeps a trace.dat even under a .pftrace name
"$MMSCOPE" convert --format tracedat "$f" -o "$scratch/td.pftrace" &&
	"$MMSCOPE" dump --stat "$scratch/td.pftrace" >/dev/null &&
	ok "--format tracedat writes a recording" || fail "--format tracedat"
# a window: nothing of the trace after --until
"$MMSCOPE" convert "$f" --until 2 -o "$scratch/w.pftrace" &&
	decode "$scratch/w.pftrace" "$scratch/w.txt" &&
	"$MMSCOPE" report --format json --until 2 "$f" >"$scratch/w.json" &&
	: >"$scratch/none.zones" &&
	python3 "$top_srcdir/tests/perfetto/check.py" "$scratch/w.txt" "$scratch/w.json" \
		"$scratch/none.zones" "$scratch/none.zones" 0 >"$scratch/check" 2>&1 &&
	ok "--until 2: $(tail -1 "$scratch/check")" ||
	fail "--until 2: $(head -3 "$scratch/check" | tr '\n' ';')"
# a task (--pid): its 133 direct reclaim stalls of the 142, kswapd global
"$MMSCOPE" convert "$f" --pid 170 -o "$scratch/p.pftrace" &&
	decode "$scratch/p.pftrace" "$scratch/p.txt" &&
	"$MMSCOPE" report --format json --pid 170 "$f" >"$scratch/p.json" &&
	python3 "$top_srcdir/tests/perfetto/check.py" "$scratch/p.txt" "$scratch/p.json" \
		"$scratch/none.zones" "$scratch/none.zones" 0 >"$scratch/check" 2>&1 &&
	[ "$(grep -c 'name: "direct reclaim"$' "$scratch/p.txt")" -gt 0 ] &&
	[ "$(grep -c 'pid: 168' "$scratch/p.txt")" = 0 ] &&
	ok "--pid 170: $(tail -1 "$scratch/check")" ||
	fail "--pid 170: $(head -3 "$scratch/check" | tr '\n' ';')"
# standard input
"$MMSCOPE" convert - -o "$scratch/stdin.pftrace" <"$f" &&
	cmp -s "$scratch/stdin.pftrace" "$scratch/global-pressure-6.12.pftrace" &&
	ok "from standard input" || fail "from standard input"

# several files of one recording (a directory of record --switch-output's
# parts, made by tests/compare/mkrec): one trace, a phase from each part
mkrec=$top_builddir/tests/compare/mkrec
if [ -x "$mkrec" ]; then
	mkdir "$scratch/set"
	for n in 1 2; do
		echo "${n}000000000 mmscope phase p$n" |
			MKREC_META="$(printf 'mmscope=test\nstart_realtime_ns=%s\nswitch_output=%s\ncpustat=window\n' \
				"${n}000" "$n")" "$mkrec" "$scratch/set/r-$n.dat" || fail "mkrec"
	done
	"$MMSCOPE" convert "$scratch/set" -o "$scratch/set.pftrace" &&
		decode "$scratch/set.pftrace" "$scratch/set.txt" &&
		[ "$(grep -c 'name: "phase p[12]"' "$scratch/set.txt")" = 2 ] &&
		[ "$(grep -c 'name_iid: [12]$' "$scratch/set.txt")" = 2 ] &&
		ok "a directory of two parts: both phases" ||
		fail "a directory of two parts: $(grep 'name: "phase' "$scratch/set.txt" | tr '\n' ' ')"
fi

# errors: one line, exit 2 for the command line, 1 for the input
expect() {	# STATUS REGEX ARGS...
	want=$1 re=$2; shift 2
	"$MMSCOPE" "$@" >/dev/null 2>"$scratch/err"
	got=$?
	[ "$got" = "$want" ] && head -1 "$scratch/err" | grep -Eq "$re" &&
		ok "mmscope $*: exit $want" ||
		fail "mmscope $*: exit $got, stderr '$(head -1 "$scratch/err")'"
}
expect 2 "^error: bad --format 'svg' \(tracedat or perfetto\)" convert "$f" --format svg -o "$scratch/x"
expect 2 "^error: --compression is for trace.dat output, not Perfetto" \
	convert "$f" --compression zstd -o "$scratch/x.pftrace"
expect 2 "^error: no input file given" convert -o "$scratch/x.pftrace"
: >"$scratch/y.pftrace"
expect 1 "^error: $scratch/y.pftrace: already exists" convert "$f" -o "$scratch/y.pftrace"
expect 1 "^error: $scratch/none.dat: " convert "$scratch/none.dat" -o "$scratch/z.pftrace"
[ -e "$scratch/z.pftrace" ] && fail "a failed conversion left its output"
finish
