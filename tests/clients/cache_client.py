#!/usr/bin/python3
"""cache_client.py — floe serve's caches (parsed statements, table metadata,
scan plans) must never show a stale table: the same prepared statement (and
the same simple-protocol text) run again after another session, or another
process, changed the table sees the change; a transaction still sees its
own snapshot and its own writes.

    cache_client.py CONNINFO [WRITER]

WRITER: how the "other process" commits: "pg" (another connection: for a
PostgreSQL server) or a command prefix run with one SQL argument, e.g.
"/path/floe -D /wh -c" (a separate floe process on the same warehouse).
Prints one line per step ("label: result"); the suite runs it against
floe serve and against PostgreSQL 15 and compares the transcripts.  Each
step's expected value is also asserted here (exit 1 on a mismatch).
"""
import shlex
import subprocess
import sys

import psycopg

conninfo = sys.argv[1]
writer = sys.argv[2] if len(sys.argv) > 2 else "pg"
failed = 0


def step(label, got, want):
    global failed
    print(f"{label}: {got}")
    if got != want:
        print(f"MISMATCH {label}: want {want}")
        failed += 1


a = psycopg.connect(conninfo, autocommit=True)
b = psycopg.connect(conninfo, autocommit=True)


def other_process(sql):
    """Commit sql from outside this server process when we can."""
    if writer == "pg":
        with psycopg.connect(conninfo, autocommit=True) as c:
            c.execute(sql)
        return
    r = subprocess.run(shlex.split(writer) + [sql], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        print(f"writer failed: {r.stderr.strip()}")
        sys.exit(1)


POINT = "SELECT v FROM cache_t WHERE id = %s"
COUNT = "SELECT count(*), max(id) FROM cache_t WHERE id > %s"


def point(conn, k):
    row = conn.execute(POINT, (k,), prepare=True).fetchone()
    return row[0] if row else None


def count(conn):
    return tuple(conn.execute(COUNT, (0,), prepare=True).fetchone())


def simple_count(conn):
    # the simple protocol: the same text every time (the parse cache)
    cur = conn.cursor()
    cur.execute("SELECT count(*) FROM cache_t", prepare=False)
    return cur.fetchone()[0]


a.execute("DROP TABLE IF EXISTS cache_t")
a.execute("CREATE TABLE cache_t (id int, v text)")
a.execute("INSERT INTO cache_t VALUES (1, 'one'), (2, 'two')")
for _ in range(3):           # psycopg prepares server-side from here on
    point(a, 1)
    count(a)
step("point 1", point(a, 1), "one")
step("count", count(a), (2, 2))
step("simple count", simple_count(a), 2)
step("point 3 missing", point(a, 3), None)

# another session commits between two executions
b.execute("INSERT INTO cache_t VALUES (3, 'three')")
step("point 3 after other session", point(a, 3), "three")
step("count after other session", count(a), (3, 3))
step("simple count after other session", simple_count(a), 3)

# another process commits (floe: a separate floe process, same warehouse)
other_process("INSERT INTO cache_t VALUES (4, 'four')")
step("point 4 after other process", point(a, 4), "four")
step("count after other process", count(a), (4, 4))

# UPDATE / DELETE by another session
b.execute("UPDATE cache_t SET v = 'uno' WHERE id = 1")
step("point 1 after update", point(a, 1), "uno")
b.execute("DELETE FROM cache_t WHERE id = 2")
step("point 2 after delete", point(a, 2), None)
step("count after delete", count(a), (3, 4))

# DROP and CREATE of a same-named table between executions
b.execute("DROP TABLE cache_t")
b.execute("CREATE TABLE cache_t (id int, v text)")
step("point 1 after drop/create", point(a, 1), None)
step("count after drop/create", count(a), (0, None))
step("simple count after drop/create", simple_count(a), 0)
b.execute("INSERT INTO cache_t VALUES (1, 'new one')")
step("point 1 in the new table", point(a, 1), "new one")
other_process("DROP TABLE cache_t")
other_process("CREATE TABLE cache_t (id int, v text)")
other_process("INSERT INTO cache_t VALUES (7, 'seven')")
step("point 1 after drop/create by another process", point(a, 1), None)
step("point 7 after drop/create by another process", point(a, 7), "seven")

# a dropped table: the prepared statement fails (42P01), then works again
b.execute("DROP TABLE cache_t")
try:
    point(a, 7)
    step("point after drop", "no error", "42P01")
except psycopg.Error as e:
    step("point after drop", e.sqlstate, "42P01")
b.execute("CREATE TABLE cache_t (id int, v text)")
b.execute("INSERT INTO cache_t VALUES (8, 'eight')")
step("point 8 after re-create", point(a, 8), "eight")

# REPEATABLE READ: the block keeps its snapshot; its own writes are seen
a.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")   # autocommit: sent as is
step("rr count", count(a), (1, 8))
b.execute("INSERT INTO cache_t VALUES (9, 'nine')")
step("rr count after other session", count(a), (1, 8))
step("rr point 9 not visible", point(a, 9), None)
a.execute("INSERT INTO cache_t VALUES (10, 'ten')")
step("rr point 10 own write", point(a, 10), "ten")
a.execute("COMMIT")
step("count after commit", count(a), (3, 10))
step("point 9 after commit", point(a, 9), "nine")

# READ COMMITTED block: each statement sees the latest commits
a.execute("BEGIN")
step("rc count", count(a), (3, 10))
b.execute("INSERT INTO cache_t VALUES (11, 'eleven')")
step("rc count after other session", count(a), (4, 11))
a.execute("ROLLBACK")

a.execute("DROP TABLE cache_t")
a.close()
b.close()
sys.exit(1 if failed else 0)
