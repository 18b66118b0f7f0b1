#!/usr/bin/python3
"""ingest_pggroup.py -- group commit of the postgres insert buffer backend
(src/ingest/buffer_pg.c pg_append; tests/suites/ingestpg.sh).

Usage: ingest_pggroup.py FLOE_BIN WAREHOUSE PG_CONNINFO

WAREHOUSE/catalog-uri names the PostgreSQL catalog (PG_CONNINFO, the same
database); one floe serve node with FLOE_INSERT_BUFFER_BACKEND=postgres and
staleness 1h (nothing is flushed).  Each append statement is one PostgreSQL
transaction, so the entries one statement committed share an xmin in
floe_insert_buffer: count(DISTINCT xmin) is the number of statements.  A
session of this client holds the table's floe_insert_buffer_seq row (SELECT
... FOR UPDATE) so that the first append's statement waits in PostgreSQL
while the others arrive.  Checks, each printed "ok NAME" / "not ok NAME: why":
  group_commit_shares_statements  16 sessions INSERT one row each while the
      first statement waits: all 16 acknowledged after the release, their 16
      entries committed by at most 3 statements (without group commit: 16)
  cancelled_batch_requeued        A's statement waits; 8 sessions queue
      behind it; A is cancelled (a CancelRequest to floe: 57014, its row not
      buffered), the 8 go out as one statement, which waits; 7 of them are
      cancelled: when the batch's sender was among them the batch fails,
      and the 8th (never cancelled) is acknowledged once the row is
      released, every acknowledged row present, no cancelled one (without
      the re-queue the 8th got 57014); a round whose batch the 8th sent
      proves nothing and is run again (at most 5 rounds)
"""
import sys
import threading
import time

import psycopg

import floe_serve

floe, wh, pgci = sys.argv[1], sys.argv[2], sys.argv[3]
failed = []


def check(name, ok, why=""):
    if ok:
        print("ok", name, flush=True)
    else:
        print("not ok %s: %s" % (name, why), flush=True)
        failed.append(name)


def pg(sql, *args):
    with psycopg.connect(pgci, autocommit=True) as c:
        return c.execute(sql, args).fetchall()


def entry_xmins(uuid):
    return pg("SELECT count(*), count(DISTINCT xmin::text) FROM floe_insert_buffer "
              "WHERE table_uuid = %s", uuid)[0]


def wait_for(cond, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def append_waiting():
    """An append statement of floe waits for the held sequence row."""
    return pg("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
              "AND query LIKE '%%floe_insert_buffer_seq%%'")[0][0] > 0


class Inserter(threading.Thread):
    def __init__(self, ci, sql):
        threading.Thread.__init__(self, daemon=True)
        self.conn = psycopg.connect(ci, autocommit=True)
        self.sql = sql
        self.started = threading.Event()
        self.error = None

    def run(self):
        self.started.set()
        try:
            self.conn.execute(self.sql)
        except psycopg.Error as e:
            self.error = e


def held(uuid):
    """A PostgreSQL session holding the table's sequence row."""
    h = psycopg.connect(pgci)
    h.execute("SELECT seq FROM floe_insert_buffer_seq WHERE table_uuid = %s FOR UPDATE", (uuid,))
    return h


env = dict(__import__("os").environ, FLOE_INSERT_BUFFER_BACKEND="postgres")
node, ci = floe_serve.start(floe, wh, env)
try:
    with psycopg.connect(ci, autocommit=True) as c:
        c.execute("SET floe.insert_buffer_max_staleness = '1h'")
        for t in ("gc", "cq"):
            c.execute("CREATE TABLE %s (id int, v text)" % t)
            c.execute("INSERT INTO %s VALUES (0, 'first')" % t)   # makes its sequence row
    uuids = dict(pg("SELECT label, table_uuid FROM floe_insert_buffer"))
    gc = uuids["public.gc"]

    # ---- N concurrent appends share statements ------------------------------
    h = held(gc)
    ins = [Inserter(ci, "INSERT INTO gc VALUES (%d, 'g')" % i) for i in range(1, 17)]
    ins[0].start()
    ok = wait_for(append_waiting, 20)
    for t in ins[1:]:
        t.start()
    for t in ins:
        t.started.wait()
    time.sleep(2.0)            # the 15 reach floe's queue behind the waiting one
    h.rollback()
    h.close()
    for t in ins:
        t.join(60)
    errs = [str(t.error) for t in ins if t.error or t.is_alive()]
    n, stmts = entry_xmins(gc)
    with psycopg.connect(ci, autocommit=True) as c:
        rows = c.execute("SELECT count(*), count(DISTINCT id) FROM gc").fetchone()
    check("group_commit_shares_statements",
          ok and not errs and n == 17 and rows == (17, 17) and stmts <= 4,
          "first append waited %s, errors %s, %d entries by %d statements (the first INSERT "
          "one of them), rows %s" % (ok, errs, n, stmts, rows))
    for t in ins:
        t.conn.close()

    # ---- a cancelled leader's batch goes out again for the others ----------
    # A's statement waits for the held row while 8 more queue behind it; A is
    # cancelled, and one of the 8 (floe picks which: the first to wake) sends
    # all 8 as one statement, which waits too.  Then 7 of them are cancelled,
    # all but S: when the batch's sender was one of the 7, the batch fails
    # (57014, nothing committed) and S's entry must go out again and commit
    # once the row is released (so must any of the 7 whose cancel came after
    # it went out again: every acknowledged row is there, no 57014's row).
    # When S itself sent it, nothing failed and this round proves nothing:
    # it is run again on a fresh table (at most 5 rounds; 1 in 8 each).
    def round_(table, uuid):
        h = held(uuid)
        a = Inserter(ci, "INSERT INTO %s VALUES (100, 'a')" % table)
        a.start()
        ok = wait_for(append_waiting, 20)
        fol = [Inserter(ci, "INSERT INTO %s VALUES (%d, 'f')" % (table, i)) for i in range(1, 9)]
        for t in fol:
            t.start()
        for t in fol:
            t.started.wait()
        time.sleep(2.0)        # the 8 queue behind A's batch
        a.conn.cancel()
        a.join(30)
        ok2 = wait_for(append_waiting, 20)    # the 8's batch waits
        time.sleep(0.5)
        s, rest = fol[0], fol[1:]
        for t in rest:
            t.conn.cancel()
        wait_for(lambda: not any(t.is_alive() for t in rest), 10)
        h.rollback()
        h.close()
        for t in fol:
            t.join(60)
        n, stmts = entry_xmins(uuid)
        with psycopg.connect(ci, autocommit=True) as c:
            ids = [r[0] for r in c.execute("SELECT id FROM %s ORDER BY id" % table).fetchall()]
        for t in [a] + fol:
            t.conn.close()
        why = ("A waited %s, A error %r, the batch waited %s, S error %r, others' errors %s, "
               "ids %s, %d entries by %d statements" %
               (ok, a.error, ok2, s.error, [type(t.error).__name__ for t in rest], ids, n, stmts))
        acked = [0] + [i + 1 for i, t in enumerate(fol) if not t.error and not t.is_alive()]
        if not any(t.error for t in fol):
            return None, why           # S sent the batch: nothing was cancelled
        # a cancel that reached floe after the batch went out again is too
        # late for that statement (it commits, acknowledged): every answer
        # must match the rows
        good = ok and ok2 and isinstance(a.error, psycopg.errors.QueryCanceled) and \
            not s.error and not s.is_alive() and ids == acked and n == len(ids) and \
            all(not t.error or isinstance(t.error, psycopg.errors.QueryCanceled) for t in rest)
        return good, why

    res, why, rounds = None, "", 0
    with psycopg.connect(ci, autocommit=True) as c:
        c.execute("DROP TABLE cq")
    while res is None and rounds < 5:
        rounds += 1
        table = "cq%d" % rounds
        with psycopg.connect(ci, autocommit=True) as c:
            c.execute("CREATE TABLE %s (id int, v text)" % table)
            c.execute("INSERT INTO %s VALUES (0, 'first')" % table)
        uuid = pg("SELECT table_uuid FROM floe_insert_buffer WHERE label = %s", "public." + table)[0][0]
        res, why = round_(table, uuid)
    check("cancelled_batch_requeued", res is True, "round %d: %s" % (rounds, why))
    print("cancelled rounds", rounds, flush=True)
finally:
    node.terminate()
    try:
        node.wait(20)
    except Exception:
        node.kill()
sys.exit(1 if failed else 0)
