#!/usr/bin/python3
"""ingest_groupcommit.py -- group commit of concurrent appends (tests/suites/ingest.sh).

Usage: ingest_groupcommit.py PORT      (a floe serve on 127.0.0.1:PORT, user tester)

CLIENTS sessions, released together by a barrier, each run ROUNDS
INSERT ... SELECT statements (never buffered: the direct path) into one
table; every statement must be acknowledged, every row must be there exactly
once, and the table must have fewer snapshots than statements (concurrent
appends coalesced into shared commits).  A second table gets the same
statements one at a time: one snapshot each (nothing to coalesce).
Prints "ok NAME" / "not ok NAME: why"; the last line is the table name.
"""
import sys
import threading

import psycopg

port = sys.argv[1]
ci = "host=127.0.0.1 port=%s user=tester dbname=floe" % port
CLIENTS, ROUNDS, ROWS = 12, 3, 200
fails = 0


def check(ok, name, why=""):
    global fails
    print(("ok %s" % name) if ok else ("not ok %s: %s" % (name, why)))
    if not ok:
        fails += 1


admin = psycopg.connect(ci, autocommit=True)
admin.execute("CREATE TABLE gc (client int, round int, n int)")
admin.execute("CREATE TABLE gc_serial (client int, round int, n int)")
errs = []
barrier = threading.Barrier(CLIENTS)


def stmt(table, i, r):
    return ("INSERT INTO %s SELECT %d, %d, g FROM generate_series(1, %d) AS s(g)"
            % (table, i, r, ROWS))


def client(i):
    conn = psycopg.connect(ci, autocommit=True)
    for r in range(ROUNDS):
        try:
            barrier.wait(timeout=60)
            cur = conn.execute(stmt("gc", i, r))
            if cur.rowcount != ROWS:
                errs.append(("rowcount", cur.rowcount))
        except Exception as e:      # psycopg.Error or a broken barrier
            errs.append((getattr(e, "sqlstate", None), str(e).splitlines()[0] if str(e) else repr(e)))
    conn.close()


threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
n = CLIENTS * ROUNDS
check(not errs, "every_statement_acknowledged", errs[:5])
got = admin.execute("SELECT (SELECT count(*) FROM gc), "
                    "(SELECT count(*) FROM (SELECT DISTINCT client, round, n FROM gc) AS d)").fetchone()
check(tuple(got) == (n * ROWS, n * ROWS), "rows_exactly_once", got)
per = admin.execute("SELECT client, round, count(*) FROM gc GROUP BY 1, 2 HAVING count(*) <> %d" % ROWS).fetchall()
check(not per, "each_statement_whole", per[:5])
snaps = admin.execute("SELECT count(*) FROM gc$snapshots").fetchone()[0]
check(0 < snaps < n, "fewer_snapshots_than_statements (%d statements, %d snapshots)" % (n, snaps), snaps)
for r in range(2):
    admin.execute(stmt("gc_serial", 0, r))
ss = admin.execute("SELECT count(*) FROM gc_serial$snapshots").fetchone()[0]
check(ss == 2, "one_at_a_time_one_snapshot_each", ss)
admin.close()
print("gc")
sys.exit(1 if fails else 0)
