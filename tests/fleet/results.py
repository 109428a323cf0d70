# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares two answers to the same query (tab-separated rows, \\N for
null; sqlite3 -separator TAB -nullvalue '\\N' or clickhouse-client's TSV):
equal when they hold the same rows in any order, numbers compared to
nine significant digits (the dialects print the same double differently:
12.0 and 12, 1e-05 and 0.00001).

usage: results.py A B [LABEL]   exit 0 equal, 1 different (what differs on
stderr)"""
import sys

def norm(v):
    if v in ("\\N", "NULL", "nan", "inf", "-inf"):
        return v if v != "NULL" else "\\N"
    try:
        x = float(v)
    except ValueError:
        return v
    if x == int(x) and abs(x) < 2**53:
        return str(int(x))
    return "%.9g" % x

def rows(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        out.append(tuple(norm(v) for v in line.split("\t")))
    return sorted(out)

a, b = rows(sys.argv[1]), rows(sys.argv[2])
label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
if a != b:
    sa, sb = set(a), set(b)
    print("%s: %d rows and %d rows differ; only in the first: %s; only in the second: %s"
          % (label, len(a), len(b), sorted(sa - sb)[:3], sorted(sb - sa)[:3]), file=sys.stderr)
    sys.exit(1)
