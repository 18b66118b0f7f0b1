#!/usr/bin/python3
"""ingest_crash.py -- the insert buffer across kill -9 (tests/suites/ingest.sh).

Usage: ingest_crash.py FLOE_BIN WAREHOUSE KILLS [keyed]

Starts `floe serve` on WAREHOUSE, two clients (psycopg 3, autocommit) stream
single-row and 3-row INSERTs (buffered: floe.insert_buffer_rows = 100, flushed
every 100 ms by the server's flush thread) and record each row once its
INSERT is acknowledged; the server is killed with SIGKILL at a random moment
(0.1-0.7 s after it listens), KILLS times, and restarted each time.  Then:
every acknowledged row must be present exactly once, before and after a
final FLUSH INSERT BUFFER, and no row that was never sent may appear.
With "keyed" the table has a PRIMARY KEY (buffered too, docs/ingest.md) and
every fourth INSERT re-sends an acknowledged id: it must fail with 23505
(never be acknowledged), across the restarts as well.
Prints "ok NAME" / "not ok NAME: why"; the last line is the table's path.
"""
import os
import random
import signal
import sys
import threading
import time

import psycopg

import floe_serve

floe, wh, kills = sys.argv[1], sys.argv[2], int(sys.argv[3])
keyed = len(sys.argv) > 4 and sys.argv[4] == "keyed"
dup_acked = []               # a re-sent acknowledged id that was acknowledged again
dup_refused = [0]
random.seed(int(os.environ.get("INGEST_CRASH_SEED", "16")))
acked = set()
sent = set()
lock = threading.Lock()
next_id = [1]


def start():
    return floe_serve.start(floe, wh)


def take(n):
    with lock:
        ids = list(range(next_id[0], next_id[0] + n))
        next_id[0] += n
        sent.update(ids)
    return ids


def client(conninfo, stop):
    try:
        with psycopg.connect(conninfo, autocommit=True) as c:
            c.execute("SET floe.insert_buffer_rows = 100")
            c.execute("SET floe.insert_buffer_max_staleness = '100ms'")
            while not stop.is_set():
                if keyed and acked and random.random() < 0.25:
                    with lock:
                        again = random.choice(sorted(acked)[-50:])
                    try:
                        c.execute("INSERT INTO crash VALUES (%d, 'again')" % again)
                        with lock:
                            dup_acked.append(again)
                    except psycopg.errors.UniqueViolation:
                        with lock:
                            dup_refused[0] += 1
                    continue
                ids = take(random.choice((1, 1, 3)))
                vals = ", ".join("(%d, 'r%d')" % (i, i) for i in ids)
                c.execute("INSERT INTO crash VALUES " + vals)
                with lock:
                    acked.update(ids)
    except Exception:  # noqa: BLE001 - the kill breaks the connection
        pass


def check(conninfo, name, ok):
    with psycopg.connect(conninfo, autocommit=True) as c:
        rows = [r[0] for r in c.execute("SELECT id FROM crash").fetchall()]
    dup = len(rows) - len(set(rows))
    missing = acked - set(rows)
    extra = set(rows) - sent
    if dup or missing or extra:
        print("not ok %s: %d rows, %d duplicated, %d acknowledged missing (%s), %d never sent"
              % (name, len(rows), dup, len(missing), sorted(missing)[:5], len(extra)))
        return False
    print("ok %s (%d rows, %d acknowledged)" % (name, len(rows), len(acked)))
    return ok


srv, conninfo = start()
with psycopg.connect(conninfo, autocommit=True) as c:
    c.execute("CREATE TABLE crash (id bigint%s, v text)" % (" PRIMARY KEY" if keyed else ""))
ok = True
for k in range(kills):
    stop = threading.Event()
    ts = [threading.Thread(target=client, args=(conninfo, stop)) for _ in range(2)]
    for t in ts:
        t.start()
    time.sleep(random.uniform(0.1, 0.7))
    srv.send_signal(signal.SIGKILL)
    srv.wait()
    stop.set()
    for t in ts:
        t.join()
    srv, conninfo = start()
print("ok killed %d times with %d rows acknowledged" % (kills, len(acked)))
if keyed:
    if dup_acked or dup_refused[0] == 0:
        print("not ok acknowledged_key_refused_again: %d re-sent ids acknowledged (%s), %d refused"
              % (len(dup_acked), dup_acked[:5], dup_refused[0]))
        ok = False
    else:
        print("ok acknowledged_key_refused_again (%d x 23505)" % dup_refused[0])
ok = check(conninfo, "exactly_once_after_restart", ok)
with psycopg.connect(conninfo, autocommit=True) as c:
    c.execute("FLUSH INSERT BUFFER")
    st = c.execute("SHOW INSERT BUFFER STATUS").fetchall()
    pending = sum(r[1] for r in st)
ok = check(conninfo, "exactly_once_after_flush", ok) and pending == 0
if pending:
    print("not ok buffer_empty_after_flush: %d pending" % pending)
srv.send_signal(signal.SIGTERM)
srv.wait()
print("ACKED %d" % len(acked))
sys.exit(0 if ok else 1)
