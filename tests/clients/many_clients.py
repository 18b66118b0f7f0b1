#!/usr/bin/python3
"""many_clients.py -- many connections at once against `floe serve`.

Usage: many_clients.py CONNINFO NCONN NROWS

NCONN connections (threads, psycopg 3), each inserting NROWS rows into one
shared table (one statement per row, each acknowledged by the server) and
reading the table between inserts.  At the end every acknowledged row must
be present exactly once.  Prints "ok NAME" / "not ok NAME: why".
"""
import sys
import threading

import psycopg

conninfo, nconn, nrows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
acked = []
errors = []
lock = threading.Lock()


def worker(k):
    try:
        with psycopg.connect(conninfo, autocommit=True) as c:
            for i in range(nrows):
                v = k * 100000 + i
                c.execute("INSERT INTO conc VALUES (%s, %s)", (v, "w%d" % k))
                with lock:
                    acked.append(v)
                c.execute("SELECT count(*) FROM conc WHERE w = %s", ("w%d" % k,)).fetchone()
    except Exception as e:  # noqa: BLE001 - report any failure
        with lock:
            errors.append("%d: %s" % (k, e))


with psycopg.connect(conninfo, autocommit=True) as c:
    c.execute("CREATE TABLE conc (v bigint, w text)")
threads = [threading.Thread(target=worker, args=(k,)) for k in range(nconn)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with psycopg.connect(conninfo, autocommit=True) as c:
    rows = [r[0] for r in c.execute("SELECT v FROM conc").fetchall()]
    c.execute("DROP TABLE conc")
ok = not errors and sorted(rows) == sorted(acked) and len(acked) == nconn * nrows
print(("ok" if ok else "not ok") + " concurrent_%dx%d: %d acknowledged, %d present, %d distinct, errors %s"
      % (nconn, nrows, len(acked), len(rows), len(set(rows)), errors[:3]))
sys.exit(0 if ok else 1)
