#!/usr/bin/python3
"""ingest_pgnodes.py -- the postgres insert buffer backend across two floe
serve nodes on one PostgreSQL catalog and warehouse (tests/suites/ingestpg.sh).

Usage: ingest_pgnodes.py FLOE_BIN WAREHOUSE PG_CONNINFO KILLS

WAREHOUSE/catalog-uri names the PostgreSQL catalog (PG_CONNINFO, the same
database); both nodes run with FLOE_INSERT_BUFFER_BACKEND=postgres.  Checks,
each printed "ok NAME" / "not ok NAME: why":
  read_your_writes_across_nodes  rows INSERTed on node A (staleness 1h: no
      flush) are seen by a SELECT on node B; they are still buffered (in the
      database's floe_insert_buffer, and read_consistency = 'committed' on B
      sees none of them)
  status_backend_postgres        SHOW INSERT BUFFER STATUS on both nodes
      lists the table with backend postgres and A's row count of objects
  flush_on_other_node            FLUSH INSERT BUFFER on B commits A's rows
      exactly once (committed reads on A and B), the buffer is empty, a
      second FLUSH on A adds no snapshot
  concurrent_nodes_exactly_once  4 clients (2 per node) stream single-row
      and 3-row INSERTs for 6 s while both nodes flush every 100 ms and a
      fifth client runs FLUSH INSERT BUFFER on alternate nodes: every
      acknowledged row present exactly once, no row never sent
  kill9_node_no_loss             the same streaming while node A is killed
      with SIGKILL KILLS times at random moments (and restarted): every
      acknowledged row present exactly once on both nodes
The last line is the stream table's path (for iceberg-validate).
"""
import os
import random
import signal
import subprocess
import sys
import threading
import time

import psycopg

import floe_serve

floe, wh, pgci, kills = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
random.seed(int(os.environ.get("INGEST_PG_SEED", "16")))
env = dict(os.environ, FLOE_INSERT_BUFFER_BACKEND="postgres")
failed = []


def check(name, ok, why=""):
    if ok:
        print("ok", name, flush=True)
    else:
        print("not ok %s: %s" % (name, why), flush=True)
        failed.append(name)


def start():
    return floe_serve.start(floe, wh, env)


def one(ci, sql, *more):
    with psycopg.connect(ci, autocommit=True) as c:
        for m in more:
            c.execute(m)
        cur = c.execute(sql)
        return cur.fetchall() if cur.description else None


def pg(sql):
    with psycopg.connect(pgci, autocommit=True) as c:
        return c.execute(sql).fetchall()


a, aci = start()
b, bci = start()
procs = [a, b]
try:
    # ---- read-your-writes across nodes, before any flush --------------------
    for ci in (aci, bci):
        one(ci, "SET floe.insert_buffer_max_staleness = '1h'")
    one(aci, "CREATE TABLE ryw (id int, v text)")
    one(aci, "INSERT INTO ryw VALUES (1, 'a'), (2, 'b')")
    one(aci, "INSERT INTO ryw VALUES (3, 'c')")
    seen = one(bci, "SELECT id, v FROM ryw ORDER BY id")
    committed = one(bci, "SELECT count(*) FROM ryw", "SET read_consistency = 'committed'")
    inbuf = pg("SELECT count(*) FROM floe_insert_buffer")
    check("read_your_writes_across_nodes",
          seen == [(1, "a"), (2, "b"), (3, "c")] and committed == [(0,)] and inbuf == [(2,)],
          "B saw %r, committed %r, buffered entries %r" % (seen, committed, inbuf))

    # ---- the status view on both nodes ---------------------------------------
    sa = one(aci, "SHOW INSERT BUFFER STATUS")
    sb = one(bci, "SHOW INSERT BUFFER STATUS")
    ok = all(len(s) == 1 and s[0][0] == "public.ryw" and s[0][1] == 2 and s[0][6] == "postgres"
             for s in (sa, sb))
    check("status_backend_postgres", ok, "A %r, B %r" % (sa, sb))

    # ---- FLUSH on B commits A's rows exactly once -----------------------------
    one(bci, "FLUSH INSERT BUFFER")
    ca = one(aci, "SELECT id, count(*) FROM ryw GROUP BY id ORDER BY id",
             "SET read_consistency = 'committed'")
    cb = one(bci, "SELECT id, count(*) FROM ryw GROUP BY id ORDER BY id",
             "SET read_consistency = 'committed'")
    left = pg("SELECT count(*) FROM floe_insert_buffer")
    snaps = one(aci, 'SELECT count(*) FROM "ryw$snapshots"')
    one(aci, "FLUSH INSERT BUFFER")
    snaps2 = one(bci, 'SELECT count(*) FROM "ryw$snapshots"')
    want = [(1, 1), (2, 1), (3, 1)]
    check("flush_on_other_node", ca == want and cb == want and left == [(0,)] and snaps == snaps2,
          "A %r, B %r, left %r, snapshots %r then %r" % (ca, cb, left, snaps, snaps2))

    # ---- concurrent INSERTs on both nodes, flushes on both ------------------
    def stream(table, cis, seconds, killer=None):
        acked, sent, lock, next_id = set(), set(), threading.Lock(), [1]
        stop = threading.Event()
        errors = []

        def take(n):
            with lock:
                ids = list(range(next_id[0], next_id[0] + n))
                next_id[0] += n
                sent.update(ids)
            return ids

        def client(k):
            while not stop.is_set():
                try:
                    with psycopg.connect(cis[k % len(cis)](), autocommit=True) as c:
                        c.execute("SET floe.insert_buffer_rows = 100")
                        while not stop.is_set():
                            ids = take(random.choice((1, 1, 3)))
                            vals = ", ".join("(%d, 'r%d')" % (i, i) for i in ids)
                            c.execute("INSERT INTO %s VALUES %s" % (table, vals))
                            with lock:
                                acked.update(ids)
                except psycopg.Error as e:
                    if killer is None:
                        errors.append(str(e))
                        return
                    time.sleep(0.05)    # the node was killed: reconnect

        def flusher():
            k = 0
            while not stop.is_set():
                try:
                    one(cis[k % len(cis)](), "FLUSH INSERT BUFFER")
                except psycopg.Error as e:
                    if killer is None:
                        errors.append("FLUSH: " + str(e))
                k += 1
                time.sleep(0.15)

        ts = [threading.Thread(target=client, args=(k,)) for k in range(4)]
        ts.append(threading.Thread(target=flusher))
        for t in ts:
            t.start()
        if killer:
            killer()
        else:
            time.sleep(seconds)
        stop.set()
        for t in ts:
            t.join()
        return acked, sent, errors

    one(aci, "CREATE TABLE conc (id int, v text)")
    for ci in (aci, bci):
        one(ci, "SET floe.insert_buffer_max_staleness = '100ms'")
    acked, sent, errors = stream("conc", [lambda: aci, lambda: bci], 6)
    one(bci, "FLUSH INSERT BUFFER")
    one(aci, "FLUSH INSERT BUFFER")
    rows = one(aci, "SELECT id, count(*) FROM conc GROUP BY id")
    cnt = {r[0]: r[1] for r in rows}
    dup = [i for i, n in cnt.items() if n > 1]
    missing = [i for i in acked if i not in cnt]
    phantom = [i for i in cnt if i not in sent]
    left = pg("SELECT count(*) FROM floe_insert_buffer")
    check("concurrent_nodes_exactly_once",
          not errors and len(acked) > 100 and not dup and not missing and not phantom and left == [(0,)],
          "%d acked, %d dup, %d missing, %d phantom, %r left, errors %r" %
          (len(acked), len(dup), len(missing), len(phantom), left, errors[:3]))
    print("concurrent acked %d rows" % len(acked), flush=True)

    # ---- kill -9 of node A mid-stream -------------------------------------------
    one(aci, "CREATE TABLE k9 (id int, v text)")
    cur = {"a": aci}

    def killer():
        nonlocal_a = [procs[0]]
        for _ in range(kills):
            time.sleep(random.uniform(0.3, 1.0))
            nonlocal_a[0].send_signal(signal.SIGKILL)
            nonlocal_a[0].wait()
            p, ci = start()
            procs[0] = nonlocal_a[0] = p
            cur["a"] = ci
            one(ci, "SET floe.insert_buffer_max_staleness = '100ms'")
        time.sleep(0.5)

    acked, sent, errors = stream("k9", [lambda: cur["a"], lambda: bci], 0, killer)
    one(bci, "FLUSH INSERT BUFFER")
    ok = True
    why = ""
    for ci in (cur["a"], bci):
        rows = one(ci, "SELECT id, count(*) FROM k9 GROUP BY id")
        cnt = {r[0]: r[1] for r in rows}
        dup = [i for i, n in cnt.items() if n > 1]
        missing = [i for i in acked if i not in cnt]
        phantom = [i for i in cnt if i not in sent]
        if dup or missing or phantom or len(acked) < 50:
            ok = False
            why += "%d acked, dup %r, missing %r, phantom %r; " % (len(acked), dup[:5], missing[:5],
                                                                  phantom[:5])
    check("kill9_node_no_loss", ok, why)
    print("kill9 acked %d rows over %d kills" % (len(acked), kills), flush=True)
finally:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
print(os.path.join(wh, "public", "conc"))
sys.exit(1 if failed else 0)
