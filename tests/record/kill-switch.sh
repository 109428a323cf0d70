#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Live: a --switch-output run killed (SIGKILL) in the middle of a part.
# The parts it finished stay whole; the part it was writing is a spool
# that "mmscope recover" (with the ring the dead recorder left) turns into
# that part's file; the parts and the
# recovered one are still one recording (one run id), read as one by
# report; the recovered part says it was recovered, starts with every
# vmstat field as the first part does, and every CPU's events go on from
# one part into the next without overlap.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/record/lib-live.sh"

live_require trace-cmd
EV="-e kmem:mm_page_alloc -e kmem:mm_page_free"

load() {	# load SECONDS: page allocations (lib-live.sh)
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		churn_round
	done
}
# vmkeys FILE: the vmstat keys of the file's first sample set
vmkeys() {
	trace-cmd report "$1" 2>/dev/null | awk '
		match($0, /mms1 vmstat [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), w, " ")
			if (seq == "") seq = w[3]
			if (w[3] != seq) exit
			n = split(substr($0, RSTART + RLENGTH), kv, " ")
			for (i = 1; i <= n; i++) if (kv[i] ~ /=/) { sub(/=.*/, "", kv[i]); k[kv[i]] = 1 }
		}
		END { for (x in k) print x }' | sort
}
# span FILE: "CPU FIRST LAST" of every CPU's events (trace-cmd's seconds)
span() {
	trace-cmd report "$1" 2>/dev/null | awk '
		/^CPU:?[0-9]+ \[/ { next }
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART + 1, RLENGTH - 2); split(s, p, "]")
			c = p[1] + 0; t = p[2]; gsub(/[ :]/, "", t)
			if (!(c in f)) f[c] = t
			l[c] = t }
		END { for (c in f) print c, f[c], l[c] }' | sort -n
}

mkdir "$scratch/run"
out="$scratch/run/ks.dat"
# shellcheck disable=SC2086
"$MMSCOPE" record -q --switch-output 4M --interval 200 --duration 60 -o "$out" $EV \
	2>"$scratch/err" &
pid=$!
LIVE_PIDS="$LIVE_PIDS $pid"
# load until two parts are finished, then kill in the middle of a later one
i=0
while [ ! -e "$scratch/run/ks-2.dat" ] && [ $i -lt 30 ]; do
	load 1
	i=$((i + 1))
done
[ -e "$scratch/run/ks-2.dat" ] || { kill -KILL "$pid"; fail "no second part after 30 s: $(ls "$scratch/run" | tr '\n' ' ')"; finish; }
churn_round
kill -KILL "$pid"
wait "$pid" 2>/dev/null
ls "$scratch/run"
# the spool of the part being written; a spool is made under a temporary
# name (.spool.new) and renamed once complete, so a kill at a switch never
# leaves a spool recover refuses
ls -d "$scratch"/run/*.new 2>/dev/null
spools=$(ls -d "$scratch"/run/ks-*.dat.spool 2>/dev/null | sort -t- -k2 -n)
[ -n "$spools" ] || { fail "SIGKILL: no spool of the part being written"; finish; }
n_done=$(ls "$scratch"/run/ks-*.dat | wc -l)
[ "$n_done" -ge 2 ] && ok "SIGKILL: $n_done finished parts and the spools of $(echo "$spools" | xargs -n1 basename | tr '\n' ' ')" ||
	fail "only $n_done finished parts"
part=""
for spool in $spools; do
	p=${spool%.spool}
	if [ -e "$p" ]; then
		# killed after the part was renamed into place, before its
		# spool was removed: recover says so and leaves the ring (the
		# next part's pages) to the next spool; killed while removing
		# that spool (its layout gone first), recover says that instead
		"$MMSCOPE" recover --remove "$spool" -o "$p" >"$scratch/rec" 2>&1 &&
			grep -q -e 'already written from this spool before the recorder died' \
				-e 'a spool being removed when the recorder died' "$scratch/rec" &&
			[ ! -e "$spool" ] &&
			ok "SIGKILL after $(basename "$p") was written: recover says so and removes its spool" ||
			fail "SIGKILL: $p and its spool both there; recover: $(cat "$scratch/rec")"
		continue
	fi
	# with what the dead recorder left in its instance's ring (the part's
	# newest pages, its sample sets among them), as after a crash
	if "$MMSCOPE" recover "$spool" -o "$p" >"$scratch/rec" 2>&1; then
		part=$p
		rm -rf "$spool"	# recover keeps it; the directory holds the parts only
	else
		fail "recover $(basename "$spool") failed: $(cat "$scratch/rec")"
	fi
done
for d in "$scratch"/run/*.new; do
	[ -e "$d" ] || continue
	"$MMSCOPE" recover --remove "$d" >/dev/null 2>&1 && [ ! -e "$d" ] &&
		ok "recover --remove: $(basename "$d"), the unused next spool, removed" ||
		fail "recover --remove $(basename "$d") failed"
done
[ -n "$part" ] || { fail "no part recovered"; finish; }
n=$(ls "$scratch"/run/ks-*.dat | wc -l)

# every part, the recovered one too: trace-cmd reads it, one run id
ids=""
for f in "$scratch"/run/ks-*.dat; do
	trace-cmd report "$f" >/dev/null 2>&1 || fail "trace-cmd cannot read $(basename "$f")"
	id=$("$MMSCOPE" dump --info "$f" | sed -n 's/^ *run_id=//p')
	[ -n "$id" ] || fail "$(basename "$f"): no run_id"
	ids="$ids $id"
done
[ "$(echo "$ids" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" -eq 1 ] &&
	ok "all $n parts carry one run id" || fail "run ids of the parts: $ids"
"$MMSCOPE" dump --info "$part" | grep -qx '  stop_reason=recovered' &&
	ok "$(basename "$part"): stop_reason=recovered" ||
	fail "$(basename "$part"): $("$MMSCOPE" dump --info "$part" | grep stop_reason)"

# one recording: report reads the directory as the run's n parts
"$MMSCOPE" report -f json -s header "$scratch/run" >"$scratch/j" 2>"$scratch/e" ||
	fail "report DIR: $(cat "$scratch/e")"
python3 - "$scratch/j" "$n" <<'EOF' && ok "report DIR: one recording of $n files" || fail "report DIR is not one recording of $n files"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
assert isinstance(d, dict), "an array: several recordings"
assert ("(%s files)" % sys.argv[2]) in text, "not named as N files"
EOF

# the recovered part counts alone: its first set has the first part's keys
vmkeys "$scratch/run/ks-1.dat" >"$scratch/k1"
vmkeys "$part" >"$scratch/kp"
if [ -s "$scratch/kp" ]; then
	[ -s "$scratch/k1" ] && cmp -s "$scratch/k1" "$scratch/kp" &&
		ok "$(basename "$part"): its first sample set has all $(wc -l <"$scratch/k1") vmstat keys of the first part" ||
		fail "$(basename "$part"): first set has $(wc -l <"$scratch/kp") vmstat keys, the first part $(wc -l <"$scratch/k1")"
else	# killed at the switch before the part's first set: no counter
	# figure, said so (never a delta from another part's values)
	"$MMSCOPE" report -s counters "$part" | grep -q '^counters: needs counter samples' &&
		ok "$(basename "$part"): killed before its first sample set, its counters said to be missing" ||
		fail "$(basename "$part"): no sample set, yet the counters section does not say so"
fi

# each CPU goes on from one part into the next, no overlap
: >"$scratch/prev"
for k in $(seq 1 "$n"); do
	f="$scratch/run/ks-$k.dat"
	span "$f" >"$scratch/span"
	if [ -s "$scratch/prev" ]; then
		bad=$(awk 'NR == FNR { last[$1] = $3; next }
			($1 in last) && last[$1] > $2 { printf " cpu%s: %s then %s", $1, last[$1], $2 }' \
			"$scratch/prev" "$scratch/span")
		[ -z "$bad" ] || fail "ks-$k.dat overlaps the part before:$bad"
	fi
	cp "$scratch/span" "$scratch/prev"
done
ok "every CPU goes on from part to part without overlap, the recovered one too"
finish
