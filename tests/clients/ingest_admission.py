#!/usr/bin/python3
"""ingest_admission.py -- admission control for direct-path DML
(src/ingest/admission.c, docs/ingest.md "Admission control";
tests/suites/ingest.sh).

Usage: ingest_admission.py FLOE_BIN WAREHOUSE

One floe serve.  A session's COPY t FROM STDIN holds a place while its
client has not finished sending (the statement runs until then).  Checks,
each printed "ok NAME" / "not ok NAME: why":
  admission_setting          floe.max_concurrent_dml shows 0 (no cap) and
      floe.dml_queue_timeout 10s; -1 and 'x' are 22023
  admission_no_cap_by_default  with the default 0, an UPDATE of another
      table runs while the COPY is open
  admission_queue_timeout    cap 1, queue timeout 1500ms: an UPDATE of
      another table and an INSERT ... SELECT into a keyed table wait >= 1.4 s, then
      53400 with the message; meanwhile a SELECT and a buffered INSERT are
      not held; the table is unchanged
  admission_queued_then_runs  cap 1, timeout 10s: a DELETE waits while the
      COPY is open and runs once it ends (not before), rows as expected
  admission_cancel_while_waiting  a waiting UPDATE is cancelled (a
      CancelRequest): 57014 at once, nothing changed
"""
import sys
import threading
import time

import psycopg

import floe_serve

floe, wh = sys.argv[1], sys.argv[2]
failed = []


def check(name, ok, why=""):
    if ok:
        print("ok", name, flush=True)
    else:
        print("not ok %s: %s" % (name, why), flush=True)
        failed.append(name)


class Copier(threading.Thread):
    """COPY t FROM STDIN, kept open until release is set."""

    def __init__(self, ci, table):
        threading.Thread.__init__(self, daemon=True)
        self.conn = psycopg.connect(ci, autocommit=True)
        self.table = table
        self.opened = threading.Event()
        self.release = threading.Event()
        self.ended = None
        self.error = None

    def run(self):
        try:
            with self.conn.cursor().copy("COPY %s FROM STDIN" % self.table) as cp:
                cp.write_row((1000, "copied"))
                self.opened.set()
                self.release.wait(60)
            self.ended = time.time()
        except psycopg.Error as e:
            self.error = e
            self.opened.set()


class Stmt(threading.Thread):
    def __init__(self, ci, sql):
        threading.Thread.__init__(self, daemon=True)
        self.conn = psycopg.connect(ci, autocommit=True)
        self.sql = sql
        self.error = None
        self.t0 = self.t1 = None

    def run(self):
        self.t0 = time.time()
        try:
            self.conn.execute(self.sql)
        except psycopg.Error as e:
            self.error = e
        self.t1 = time.time()


def q(ci, sql):
    with psycopg.connect(ci, autocommit=True) as c:
        cur = c.execute(sql)
        return cur.fetchall() if cur.description else None


node, ci = floe_serve.start(floe, wh)
try:
    q(ci, "CREATE TABLE t (id int, v text)")
    q(ci, "CREATE TABLE u (id int, v text)")
    q(ci, "CREATE TABLE k (id int PRIMARY KEY, v text)")
    q(ci, "INSERT INTO u VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    q(ci, "FLUSH INSERT BUFFER")

    # ---- the setting --------------------------------------------------------
    shown = (q(ci, "SHOW floe.max_concurrent_dml"), q(ci, "SHOW floe.dml_queue_timeout"))
    bad = []
    for v in ("-1", "'x'"):
        try:
            q(ci, "SET floe.max_concurrent_dml = %s" % v)
            bad.append((v, "accepted"))
        except psycopg.Error as e:
            if e.sqlstate != "22023":
                bad.append((v, e.sqlstate))
    check("admission_setting", shown == ([("0",)], [("10s",)]) and not bad, "%s %s" % (shown, bad))

    # ---- no cap by default --------------------------------------------------
    cp = Copier(ci, "t")
    cp.start()
    cp.opened.wait(20)
    up = Stmt(ci, "UPDATE u SET v = 'n' WHERE id = 3")
    up.start()
    up.join(20)
    alive = up.is_alive()
    cp.release.set()
    cp.join(20)
    check("admission_no_cap_by_default", not alive and not up.error and not cp.error,
          "update still waiting %s, error %r, copy error %r" % (alive, up.error, cp.error))

    # ---- cap 1: a waiting statement times out ---------------------------------
    q(ci, "SET floe.max_concurrent_dml = 1")
    q(ci, "SET floe.dml_queue_timeout = '1500ms'")
    cp = Copier(ci, "t")
    cp.start()
    cp.opened.wait(20)
    time.sleep(0.2)
    up = Stmt(ci, "UPDATE u SET v = 'x'")
    # a keyed table's INSERT ... VALUES is buffered now (docs/ingest.md):
    # its INSERT ... SELECT takes the direct path and the cap
    kin = Stmt(ci, "INSERT INTO k SELECT 1, 'k'")
    up.start()
    kin.start()
    time.sleep(0.3)
    t0 = time.time()
    sel = q(ci, "SELECT count(*) FROM u")
    q(ci, "INSERT INTO u VALUES (4, 'buffered')")
    others_ms = (time.time() - t0) * 1000
    up.join(20)
    kin.join(20)
    cp.release.set()
    cp.join(20)
    rows = q(ci, "SELECT id, v FROM u ORDER BY id")
    krows = q(ci, "SELECT count(*) FROM k")
    errs = [(s.error.sqlstate if s.error else None, str(s.error) if s.error else None,
             round(s.t1 - s.t0, 2)) for s in (up, kin)]
    good = all(e[0] == "53400" and e[2] >= 1.4 and
               e[1].startswith("too many concurrent data-modifying statements "
                               "(floe.max_concurrent_dml = 1)") for e in errs)
    check("admission_queue_timeout",
          good and sel == [(3,)] and others_ms < 1000 and not cp.error and krows == [(0,)] and
          rows == [(1, "a"), (2, "b"), (3, "n"), (4, "buffered")],
          "waiters %s, select %s in %d ms, copy error %r, u %s, k %s" %
          (errs, sel, others_ms, cp.error, rows, krows))
    print("timeout message:", errs[0][1].replace("\n", " | ") if errs[0][1] else None, flush=True)

    # ---- cap 1, timeout 10 s: queued, then runs ------------------------------
    q(ci, "SET floe.dml_queue_timeout = '10s'")
    cp = Copier(ci, "t")
    cp.start()
    cp.opened.wait(20)
    time.sleep(0.2)
    de = Stmt(ci, "DELETE FROM u WHERE id = 1")
    de.start()
    time.sleep(1.5)
    waiting = de.is_alive()
    cp.release.set()
    cp.join(20)
    de.join(20)
    rows = q(ci, "SELECT id FROM u ORDER BY id")
    check("admission_queued_then_runs",
          waiting and not de.error and not cp.error and cp.ended and de.t1 >= cp.ended - 0.05 and
          rows == [(2,), (3,), (4,)],
          "waiting %s, error %r, copy error %r, delete done %.2f s after the copy, u %s" %
          (waiting, de.error, cp.error, (de.t1 or 0) - (cp.ended or 0), rows))

    # ---- cancel while waiting ------------------------------------------------
    cp = Copier(ci, "t")
    cp.start()
    cp.opened.wait(20)
    time.sleep(0.2)
    up = Stmt(ci, "UPDATE u SET v = 'cancelled'")
    up.start()
    time.sleep(0.8)
    waiting = up.is_alive()
    tc = time.time()
    up.conn.cancel()
    up.join(5)
    took = time.time() - tc
    cp.release.set()
    cp.join(20)
    rows = q(ci, "SELECT count(*) FROM u WHERE v = 'cancelled'")
    copied = q(ci, "SELECT count(*) FROM t")
    check("admission_cancel_while_waiting",
          waiting and isinstance(up.error, psycopg.errors.QueryCanceled) and took < 2 and
          rows == [(0,)] and copied == [(4,)] and not cp.error,
          "waiting %s, error %r after %.2f s, cancelled rows %s, t %s, copy error %r" %
          (waiting, up.error, took, rows, copied, cp.error))
finally:
    node.terminate()
    try:
        node.wait(20)
    except Exception:
        node.kill()
sys.exit(1 if failed else 0)
