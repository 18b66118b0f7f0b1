#!/usr/bin/python3
"""copy_stall.py -- a COPY FROM STDIN whose client stops sending (psycopg 3).

Usage: copy_stall.py CONNINFO

With statement_timeout 1s, the client starts COPY ... FROM STDIN, sends
nothing for 4 s, then one row and the end: the COPY fails with 57014
"canceling statement due to statement timeout", nothing is committed and
the connection goes on.  Meanwhile another connection's SELECT finishes
within 3 s (floe runs statements one at a time: a stalled COPY must not
hold the others past its timeout).  Prints one line, the same against
PostgreSQL 15: "copy_canceled:statement timeout rows:0 other:fast after:ok".
"""
import sys
import threading
import time

import psycopg

ci = sys.argv[1]
out = []
c = psycopg.connect(ci, autocommit=True)
c.execute("DROP TABLE IF EXISTS copy_stall")
c.execute("CREATE TABLE copy_stall (a int)")
c.execute("SET statement_timeout = '1s'")
other = {}


def other_query():
    time.sleep(0.3)
    t0 = time.time()
    with psycopg.connect(ci, autocommit=True) as o:
        o.execute("SELECT 1").fetchone()
    other["secs"] = time.time() - t0


th = threading.Thread(target=other_query)
th.start()
try:
    with c.cursor().copy("COPY copy_stall FROM STDIN") as cp:
        time.sleep(4.0)
        cp.write("1\n")
    out.append("copy_ok")
except psycopg.errors.QueryCanceled as e:
    out.append("copy_canceled:" + ("statement timeout" if "statement timeout" in str(e) else str(e)))
th.join()
c.execute("SET statement_timeout = 0")
out.append("rows:%d" % c.execute("SELECT count(*) FROM copy_stall").fetchone()[0])
out.append("other:" + ("fast" if other.get("secs", 99) < 3 else "slow %s" % other.get("secs")))
out.append("after:" + ("ok" if c.execute("SELECT 2").fetchone()[0] == 2 else "bad"))
c.execute("DROP TABLE copy_stall")
print(" ".join(out))
