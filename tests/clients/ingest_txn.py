#!/usr/bin/python3
"""ingest_txn.py -- transaction blocks beside the insert buffer (tests/suites/ingest.sh).

Usage: ingest_txn.py PORT      (a floe serve on 127.0.0.1:PORT, user tester)

Session b INSERTs (buffered) and flushes while session a's block runs; what
PostgreSQL 15 lets commit must commit (a flush only appends rows of INSERT
... VALUES, which read nothing), and the block's snapshot stays its own:
  - rr_pinned: REPEATABLE READ reads the same count before and after b's
    buffered INSERT and its flush; after COMMIT the new row is seen;
  - serializable_commits_over_flush: a SERIALIZABLE block that read t and
    writes u commits although b's rows of t were flushed meanwhile;
  - for_update_commits_over_flush: SELECT ... FOR UPDATE of t, b's flush of
    t, then the block's UPDATE of u commits;
  - rc_sees_buffered: READ COMMITTED sees b's buffered row at once.
Prints "ok NAME" / "not ok NAME: why"; exit 1 on any failure.
"""
import sys

import psycopg

port = sys.argv[1]
ci = "host=127.0.0.1 port=%s user=tester dbname=floe" % port
fails = 0


def check(ok, name, why=""):
    global fails
    print(("ok %s" % name) if ok else ("not ok %s: %s" % (name, why)))
    if not ok:
        fails += 1


b = psycopg.connect(ci, autocommit=True)
b.execute("SET floe.insert_buffer_max_staleness = '1h'")
b.execute("CREATE TABLE tx_t (id int, v int)")
b.execute("CREATE TABLE tx_u (id int, v int)")
b.execute("INSERT INTO tx_t VALUES (1, 10), (2, 20)")
b.execute("INSERT INTO tx_u VALUES (1, 0)")


def count(conn):
    return conn.execute("SELECT count(*) FROM tx_t").fetchone()[0]


def run(level, name, body):
    a = psycopg.connect(ci)
    a.isolation_level = level
    try:
        body(a)
        a.commit()
        check(True, name)
    except psycopg.Error as e:
        check(False, name, "%s %s" % (e.sqlstate, str(e).splitlines()[0]))
    return a


def rr(a):
    n0 = count(a)
    b.execute("INSERT INTO tx_t VALUES (3, 30)")
    n1 = count(a)
    b.execute("FLUSH INSERT BUFFER tx_t")
    n2 = count(a)
    check(n0 == n1 == n2, "rr_pinned_count", (n0, n1, n2))
    rr.n0 = n0


a = run(psycopg.IsolationLevel.REPEATABLE_READ, "rr_pinned", rr)
check(count(a) == rr.n0 + 1, "rr_after_commit_sees_row", count(a))
a.close()


def ser(a):
    a.execute("SELECT sum(v) FROM tx_t").fetchone()
    b.execute("INSERT INTO tx_t VALUES (4, 40)")
    b.execute("FLUSH INSERT BUFFER tx_t")
    a.execute("UPDATE tx_u SET v = v + 1")


run(psycopg.IsolationLevel.SERIALIZABLE, "serializable_commits_over_flush", ser).close()


def fu(a):
    a.execute("SELECT * FROM tx_t FOR UPDATE").fetchall()
    b.execute("INSERT INTO tx_t VALUES (5, 50)")
    b.execute("FLUSH INSERT BUFFER tx_t")
    a.execute("UPDATE tx_u SET v = v + 1")


run(psycopg.IsolationLevel.READ_COMMITTED, "for_update_commits_over_flush", fu).close()


def rc(a):
    n0 = count(a)
    b.execute("INSERT INTO tx_t VALUES (6, 60)")
    check(count(a) == n0 + 1, "rc_sees_buffered", (n0, count(a)))


run(psycopg.IsolationLevel.READ_COMMITTED, "rc_block", rc).close()
got = b.execute("SELECT count(*), sum(id) FROM tx_t").fetchone()
check(tuple(got) == (6, 21), "all_rows_once", got)
u = b.execute("SELECT v FROM tx_u").fetchone()[0]
check(u == 2, "both_updates_landed", u)
b.close()
sys.exit(1 if fails else 0)
