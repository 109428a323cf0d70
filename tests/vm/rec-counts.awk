# SPDX-License-Identifier: GPL-2.0-or-later
#
# rec-counts.awk: summarise `trace-cmd report FILE` output of an mmscope
# recording for tests/vm/check-scenario.sh (POSIX awk; mawk is enough).
#
# Prints, one per line:
#   ev NAME N                 events of NAME (tracepoint or kprobe name)
#   ev NAME.FIELD=VALUE N     events of NAME with that value, for the
#                             fields ret, order, nr, ord, type, forder, and
#                             found/entry as 0 or ok
#   evw KEY N                 the same, only events between the first and
#                             the last complete sample set (what the
#                             counter deltas cover)
#   sum NAME.FIELD S          sum of FIELD (nr) over NAME's events
#   sum NAME.nr.type=T S      the same over the events of swap device type T
#   ctr KEY FIRST LAST        a sampled counter in the first and the last
#                             complete sample set (KEY: vmstat name,
#                             mthp<SIZE>.<stat>, zswap.<name>)
#   fld NAME FIELD            NAME's events print FIELD=...
#   sets N  seqgap N  first_ts T  last_ts T  before N  after N
#                             complete sample sets, missing SEQ numbers,
#                             events before the first / after the last set
#   ev NAME.orderO.ret=V N    events with both order and ret (get_swap_pages)
# forder = folio order from pflags (PG_head bit: -v head_bit=N) and fl1
# (folio->_flags_1) or ord (6.1: _folio_order, from the entry probe "fas",
# carried to the next fas_r of the same task); fas_r also gives
# okforder/errforder: the allocation succeeded (ret 0 / entry != 0) or not.
function note(name, f, v) { cnt[name "." f "=" v]++ }
{
	ts = ""; name = ""
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			ts = substr($i, 1, length($i) - 1); name = $(i + 1); start = i + 2
			task = $(i - 2)
			break
		}
	if (name == "") next
	sub(/:$/, "", name)
	if (name == "print") {
		if ($(start) != "tracing_mark_write:" || $(start + 1) != "mms1") next
		src = $(start + 2); seq = $(start + 3) + 0
		if (src == "end") {
			if (seq != snapseq) next	# a set without vmstat lines
			if (nsets > 0 && seq != lastseq + 1) gap += seq - lastseq - 1
			lastseq = seq; nsets++
			if (nsets == 1) {
				first_ts = ts
				for (k in cur) first[k] = cur[k]
				for (k in snap) base[k] = snap[k]
			}
			for (k in cur) last[k] = cur[k]
			delete top
			for (k in snap) top[k] = snap[k]
			last_ts = ts; after = 0
			next
		}
		# events are counted up to the first vmstat line of each set: the
		# counters of that set were read just before it
		if (src == "vmstat" && seq != snapseq) {
			snapseq = seq
			delete snap
			for (k in cnt) snap[k] = cnt[k]
		}
		pre = ""
		if (src == "mthp" || src == "zswap") pre = src
		if (src != "vmstat" && src != "mthp" && src != "zswap") next
		for (i = start + 4; i <= NF; i++) {
			eq = index($i, "="); if (!eq) continue
			k = substr($i, 1, eq - 1); v = substr($i, eq + 1)
			if (src == "mthp" && k == "size") { pre = "mthp" v "."; continue }
			if (src == "zswap") { cur["zswap." k] = v; continue }
			cur[pre k] = v
		}
		next
	}
	cnt[name]++
	if (nsets == 0) before++
	else after++
	delete kv
	for (i = start; i <= NF; i++) {
		eq = index($i, "="); if (!eq) continue
		kv[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
	for (f in kv) {
		if (!((name SUBSEP f) in fld)) fld[name, f] = 1
	}
	for (f in kv)
		if (f == "ret" || f == "order" || f == "nr" || f == "ord" || f == "type")
			note(name, f, kv[f])
		else if (f == "found" || f == "entry")
			note(name, f, (kv[f] + 0 == 0 && kv[f] !~ /^0x0*[1-9a-fA-F]/) ? 0 : "ok")
	if ("nr" in kv) sums[name ".nr"] += kv["nr"]
	if (("nr" in kv) && ("type" in kv)) sums[name ".nr.type=" kv["type"]] += kv["nr"]
	if (("order" in kv) && ("ret" in kv)) note(name, "order" kv["order"] ".ret", kv["ret"])
	if (head_bit == "") next
	o = -1
	if (("pflags" in kv) && ("fl1" in kv))
		o = is_head(kv["pflags"]) ? lowbits(kv["fl1"], 256) : 0
	else if (("pflags" in kv) && ("ord" in kv))
		o = is_head(kv["pflags"]) ? kv["ord"] + 0 : 0
	if (name == "fas") { pend[task] = o; next }
	if (name == "fas_r" && o < 0 && (task in pend)) { o = pend[task]; delete pend[task] }
	if (o < 0) next
	note(name, "forder", o)
	if (name == "fas_r") {
		good = ("ret" in kv) ? kv["ret"] == 0 : !(kv["entry"] + 0 == 0 && kv["entry"] !~ /^0x0*[1-9a-fA-F]/)
		note(name, good ? "okforder" : "errforder", o)
	}
}
END {
	for (n in cnt) print "ev", n, cnt[n]
	for (n in cnt) print "evw", n, (n in top ? top[n] : 0) - (n in base ? base[n] : 0)
	for (n in sums) print "sum", n, sums[n]
	for (n in fld) { split(n, nf, SUBSEP); print "fld", nf[1], nf[2] }
	for (k in last) print "ctr", k, (k in first ? first[k] : 0), last[k]
	print "sets", nsets + 0
	print "seqgap", gap + 0
	print "first_ts", first_ts + 0
	print "last_ts", last_ts + 0
	print "before", before + 0
	print "after", after + 0
}

# The value of a decimal or 0x-hex number modulo m, exactly: awk's
# numbers are doubles, and page flags above 2^53 (arm64: node, zone and
# tag bits at the top, 0x2000...) lose their low bits in kv / 2 ^ n
# (arm64 mthp-frag: every order-4 folio read as order 0).
function lowbits(s, m,    r, i, c, hex, d) {
	r = 0
	hex = s ~ /^0[xX]/
	if (hex) s = substr(s, 3)
	for (i = 1; i <= length(s); i++) {
		c = tolower(substr(s, i, 1))
		d = index("0123456789abcdef", c) - 1
		if (d < 0 || (!hex && d > 9)) break
		r = (r * (hex ? 16 : 10) + d) % m
	}
	return r
}
# PG_head (bit head_bit) set in a page flags value
function is_head(s) { return int(lowbits(s, 2 ^ (head_bit + 1)) / 2 ^ head_bit) % 2 }
