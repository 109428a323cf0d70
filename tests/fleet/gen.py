# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes a fleet's tables from real recordings' tables (tests/fleet/bench.sh,
cluster.sh): reads an `mmscope export --csv-null '\\N'` directory SRC and
writes into OUT the same tables (same files, same columns, CSV with \\N)
for N recordings of N hosts. Recording i is source recording i mod M (of
the M in SRC) with every row of it, under a new recording id, host and
machine id, a kernel of the same series with another patch level
(i mod 3 added to it), and a wall-clock start spread over DAYS days; its
other figures are the source's, so every query answers what real
recordings say, N / M times over.

usage: gen.py SRC OUT N [DAYS]
Prints "rows=R recordings=N" (R: every row written, recordings included)."""
import csv, hashlib, io, os, re, sys

src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
days = int(sys.argv[4]) if len(sys.argv) > 4 else 7
csv.field_size_limit(1 << 30)
os.makedirs(out, exist_ok=True)
BASE_NS = 1795996800 * 10**9          # 2026-12-01T00:00:00Z

def h16(*parts):
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]

def kernel_of(k, i):
    m = re.match(r"^(\d+)\.(\d+)\.(\d+)(.*)$", k)
    if m:
        return "%s.%s.%d%s" % (m.group(1), m.group(2), int(m.group(3)) + i % 3, m.group(4))
    m = re.match(r"^(\d+)\.(\d+)(.*)$", k)
    return "%s.%s.%d%s" % (m.group(1), m.group(2), i % 3, m.group(3)) if m else k

# the recordings, in the order of the file
with open(os.path.join(src, "recordings.csv"), newline="") as f:
    rd = csv.reader(f)
    head = next(rd)
    recs = list(rd)
col = {c: j for j, c in enumerate(head)}
ids = [r[0] for r in recs]
m = len(ids)
if m == 0:
    sys.exit("gen.py: no recordings in " + src)

new_ids = []
buf = io.StringIO()
w = csv.writer(buf, lineterminator="\n")
w.writerow(head)
span = days * 86400 * 10**9
for i in range(n):
    r = list(recs[i % m])
    host = "fleet-%04d" % i
    rid = h16(host, r[0])
    new_ids.append(rid)
    r[0] = rid
    r[col["file"]] = "%s/mm-%d.dat" % (host, i // m)
    r[col["host"]] = host
    r[col["kernel"]] = kernel_of(r[col["kernel"]], i)
    r[col["machine_id"]] = h16(host, "machine") * 2
    r[col["boot_id"]] = h16(host, "boot") * 2
    if r[col["run_id"]] != "\\N":
        r[col["run_id"]] = h16(host, "run", r[col["run_id"]])
    r[col["start_unix_ns"]] = str(BASE_NS + span * i // n)
    w.writerow(r)
total = n
with open(os.path.join(out, "recordings.csv"), "w", newline="") as f:
    f.write(buf.getvalue())

# every other table: each source row once per recording made from it
for name in sorted(os.listdir(src)):
    if not name.endswith(".csv") or name == "recordings.csv":
        continue
    rows = {rid: [] for rid in ids}
    with open(os.path.join(src, name), newline="") as f:
        rd = csv.reader(f)
        head = next(rd)
        for r in rd:
            b = io.StringIO()
            csv.writer(b, lineterminator="\n").writerow(r[1:])
            rows[r[0]].append("," + b.getvalue())
    with open(os.path.join(out, name), "w", newline="") as f:
        f.write(",".join(head) + "\n")
        for i in range(n):
            rid = new_ids[i]
            rr = rows[ids[i % m]]
            if rr:
                f.write("".join(rid + x for x in rr))
                total += len(rr)
print("rows=%d recordings=%d" % (total, n))
