# SPDX-License-Identifier: GPL-2.0-or-later
"""Inserts the tables of an `mmscope export --csv-null '\\N'` directory into
a ClickHouse server through its HTTP interface (INSERT INTO DB.TABLE FORMAT
CSVWithNames, the file as the request's body, streamed): what
clickhouse-client does, without starting a client per table (half a
second each on a loaded machine). Files without rows are skipped.

usage: ch-insert.py HTTP_PORT DB DIR     exit 1 on the first refused insert"""
import os, sys, urllib.parse, urllib.request

port, db, d = sys.argv[1:4]
for name in sorted(os.listdir(d)):
    if not name.endswith(".csv"):
        continue
    path = os.path.join(d, name)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if not f.readline() or f.tell() == size:
            continue            # no rows
        f.seek(0)
        q = "INSERT INTO %s.%s FORMAT CSVWithNames" % (db, name[:-4])
        req = urllib.request.Request(
            "http://127.0.0.1:%s/?%s" % (port, urllib.parse.urlencode({"query": q})),
            data=f, method="POST", headers={"Content-Length": str(size)})
        try:
            urllib.request.urlopen(req, timeout=600).read()
        except urllib.error.HTTPError as e:
            sys.exit("%s: %s" % (q, e.read().decode(errors="replace").strip()[:500]))
