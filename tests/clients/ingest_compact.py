#!/usr/bin/python3
"""tests/clients/ingest_compact.py CONNINFO SECONDS — the insert buffer's
compaction (src/ingest/compact.c) never fails a user statement: while one
client streams single-row INSERTs (buffered, flushed every 400 ms, small
files compacted every 3), another runs, in turn, REPEATABLE READ blocks
that read the table, wait, UPDATE a row and COMMIT, and autocommit DELETEs
and UPDATEs (one writer of DML: floe's copy-on-write DML of one file
conflicts with another's at file grain, compaction or not); none may get
an error (40001 included).  At the end every
inserted row not deleted is there exactly once, with the UPDATEs' values,
and compactions happened ("replace" snapshots).  Prints "ok ..." lines;
exit status 1 on any failure."""
import sys
import threading
import time

import psycopg

conninfo, secs = sys.argv[1], float(sys.argv[2])
errors = []
inserted = []
deleted = set()
lock = threading.Lock()
stop = time.time() + secs


def inserter():
    with psycopg.connect(conninfo, autocommit=True) as c:
        i = 1000
        while time.time() < stop:
            i += 1
            try:
                c.execute("INSERT INTO ct VALUES (%s, %s)", (i, f"v{i}"))
                with lock:
                    inserted.append(i)
            except psycopg.Error as e:
                errors.append(f"insert {i}: {e.sqlstate} {e}")
                return
            time.sleep(0.01)


def dml():
    with psycopg.connect(conninfo, autocommit=True) as c:
        n = 0
        while time.time() < stop:
            with lock:
                cand = [x for x in inserted if x % 7 == 0 and x not in deleted]
            try:
                with c.transaction():
                    c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    c.execute("SELECT count(*) FROM ct").fetchone()
                    time.sleep(0.15)
                    c.execute("UPDATE ct SET v = 'rr' WHERE id = %s", (n % 50 + 1,))
                time.sleep(0.1)
                if cand:
                    c.execute("DELETE FROM ct WHERE id = %s", (cand[0],))
                    with lock:
                        deleted.add(cand[0])
                c.execute("UPDATE ct SET v = 'ac' WHERE id = 60")
                n += 1
            except psycopg.Error as e:
                errors.append(f"DML round {n}: {e.sqlstate} {e}")
                return
            time.sleep(0.1)
        print(f"ok {n} rounds of a REPEATABLE READ block (UPDATE), an autocommit DELETE and UPDATE")


def main():
    with psycopg.connect(conninfo, autocommit=True) as c:
        c.execute("CREATE TABLE ct (id int, v text)")
        c.execute("INSERT INTO ct SELECT g, 'v' || g FROM generate_series(1, 60) g")
        c.execute("SET floe.insert_buffer_max_staleness = '400ms'")
        c.execute("SET floe.insert_buffer_compact_files = 3")
    ts = [threading.Thread(target=f) for f in (inserter, dml)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    time.sleep(1.5)                       # the last flush and compaction
    with psycopg.connect(conninfo, autocommit=True) as c:
        c.execute("FLUSH INSERT BUFFER ct")
        got = c.execute("SELECT id, count(*) FROM ct GROUP BY id HAVING count(*) > 1").fetchall()
        if got:
            errors.append(f"rows twice: {got[:5]}")
        ids = {r[0] for r in c.execute("SELECT id FROM ct").fetchall()}
        want = set(range(1, 61)) | set(inserted)
        want -= deleted
        if ids != want:
            errors.append(f"rows: {len(ids)} present, {len(want)} expected; "
                          f"missing {sorted(want - ids)[:5]}, extra {sorted(ids - want)[:5]}")
        v60 = c.execute("SELECT v FROM ct WHERE id = 60").fetchall()
        if v60 != [("ac",)]:
            errors.append(f"row 60: {v60}")
        rep = c.execute("SELECT count(*) FROM ct$snapshots WHERE operation = 'replace'").fetchone()[0]
        files = c.execute("SELECT count(*) FROM ct$files").fetchone()[0]
        if rep == 0:
            errors.append("no compaction committed")
        print(f"ok {len(ids)} rows exactly once, {len(deleted)} deleted; {rep} compactions, {files} files")
    for e in errors:
        print("FAIL", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
