#!/usr/bin/python3
"""tests/clients/ingest_params.py FLOE_CONNINFO PG_CONNINFO — prepared
INSERT ... VALUES ($1, ...) through the extended protocol (the insert
buffer's fast path takes them, src/ingest/ingest.c fast_param) typed
exactly as PostgreSQL 15 types them: each case is Parse (with the declared
parameter OIDs: 0 unspecified, int2/int4/int8, text, varchar, bpchar,
numeric, float8) then Bind/Execute, on floe and on PostgreSQL; the phase
that fails (parse or exec), SQLSTATE, message, detail, hint and position
must be equal, and so must the table's rows at the end.  Then psycopg's
own adaptation (Python int/str/None, executemany, prepare=True) inserts
the same rows into both.  Prints "ok ..." per check; exit status 1 at the
first difference."""
import sys

import psycopg
from psycopg import pq

TABLE = ("CREATE TABLE ip (a int, b bigint, c text, d char(5), e varchar(4), f smallint, "
         "g numeric(8,2), h double precision, i boolean, j date)")
N = None
# (sql, declared OIDs, values)
CASES = [
    ("INSERT INTO ip (a) VALUES ($1)", [23], ["5"]),
    ("INSERT INTO ip (a) VALUES ($1)", [0], ["6"]),
    ("INSERT INTO ip (a) VALUES ($1)", [0], [" 9 "]),
    ("INSERT INTO ip (a) VALUES ($1)", [20], ["8"]),
    ("INSERT INTO ip (a) VALUES ($1)", [21], ["-7"]),
    ("INSERT INTO ip (a) VALUES ($1)", [23], [N]),
    # a text-typed parameter into an integer column: 42804 at Parse
    ("INSERT INTO ip (a) VALUES ($1)", [25], ["7"]),
    ("INSERT INTO ip (a) VALUES ($1)", [25], [N]),
    ("INSERT INTO ip (a) VALUES ($1)", [1042], ["7"]),
    ("INSERT INTO ip (a) VALUES ($1)", [1043], ["7"]),
    ("INSERT INTO ip (a, i) VALUES ($1, $2)", [23, 23], ["27", "1"]),
    ("INSERT INTO ip (a, j) VALUES ($1, $2)", [23, 25], ["28", "2020-01-01"]),
    # values the type refuses, out of range: at Bind/Execute
    ("INSERT INTO ip (a) VALUES ($1)", [20], ["8000000000"]),
    ("INSERT INTO ip (a) VALUES ($1)", [23], ["x"]),
    ("INSERT INTO ip (a) VALUES ($1)", [0], ["x"]),
    ("INSERT INTO ip (a) VALUES ($1)", [23], ["5.0"]),
    ("INSERT INTO ip (a, f) VALUES ($1, $2)", [23, 23], ["22", "40000"]),
    ("INSERT INTO ip (a, f) VALUES ($1, $2)", [23, 21], ["48", "x"]),
    ("INSERT INTO ip (a, b) VALUES ($1, $2)", [0, 0], ["31", "9223372036854775807"]),
    ("INSERT INTO ip (a, b) VALUES ($1, $2)", [0, 0], ["32", "9223372036854775808"]),
    # text, varchar, bpchar: bpchar is not char(1); into text/varchar it is rtrimmed
    ("INSERT INTO ip (a, c) VALUES ($1, $2)", [23, 25], ["10", "hello  "]),
    ("INSERT INTO ip (a, c) VALUES ($1, $2)", [23, 1042], ["11", "hi   "]),
    ("INSERT INTO ip (a, c) VALUES ($1, $2)", [23, 23], ["12", "42"]),
    ("INSERT INTO ip (a, c) VALUES ($1, $2)", [21, 1043], ["13", "v   "]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 1042], ["14", "abc"]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 1042], ["15", "abcdefg"]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 1042], ["16", "abcde   "]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 1042], ["17", N]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 25], ["18", "abcdefg"]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 0], ["19", "ab"]),
    ("INSERT INTO ip (a, d) VALUES ($1, $2)", [23, 1043], ["20", "v   "]),
    ("INSERT INTO ip (a, e) VALUES ($1, $2)", [23, 1042], ["21", "ab   "]),
    ("INSERT INTO ip (a, e) VALUES ($1, $2)", [23, 1042], ["22", "abcdef"]),
    ("INSERT INTO ip (a, e) VALUES ($1, $2)", [23, 25], ["23", "abcdef"]),
    ("INSERT INTO ip (a, e) VALUES ($1, $2)", [23, 25], ["24", "abcd  "]),
    ("INSERT INTO ip (a, e) VALUES ($1, $2)", [23, 0], ["25", "abcd  "]),
    # integer, numeric and float parameters into other number columns
    ("INSERT INTO ip (a, f) VALUES ($1, $2)", [23, 20], ["26", "4"]),
    ("INSERT INTO ip (a, g) VALUES ($1, $2)", [23, 23], ["27", "4"]),
    ("INSERT INTO ip (a, g) VALUES ($1, $2)", [23, 20], ["28", "123456789"]),
    ("INSERT INTO ip (a, g) VALUES ($1, $2)", [23, 1700], ["29", "3.14159"]),
    ("INSERT INTO ip (a, h) VALUES ($1, $2)", [23, 23], ["30", "4"]),
    ("INSERT INTO ip (a, b) VALUES ($1, $2)", [23, 1700], ["31", "3.5"]),
    ("INSERT INTO ip (a, b) VALUES ($1, $2)", [23, 701], ["32", "3.5"]),
    ("INSERT INTO ip (a, j) VALUES ($1, $2)", [23, 0], ["33", "2020-01-01"]),
    ("INSERT INTO ip (a, i) VALUES ($1, $2)", [23, 0], ["34", "yes"]),
    # shapes: every column, a parameter twice, out of order, several rows
    ("INSERT INTO ip VALUES ($1, $2, $3)", [23, 20, 25], ["35", "1", "x"]),
    ("INSERT INTO ip VALUES ($1, $1, $1)", [23], ["36"]),
    ("INSERT INTO ip (a, c) VALUES ($2, $1)", [25, 23], ["hi", "37"]),
    ("INSERT INTO ip (a) VALUES ($1), ($2)", [23, 23], ["38", "39"]),
    ("INSERT INTO ip (a, c) VALUES ($1, $2), ($3, $2)", [23, 25, 20], ["40", "r", "41"]),
    ("INSERT INTO ip (a) VALUES ($2)", [23], ["42"]),
    ("INSERT INTO ip (a, c) VALUES ($1, 'lit'), (43, $2)", [0, 0], ["44", "p"]),
    # an unspecified parameter deduced as two types: 42P08 at Parse
    ("INSERT INTO ip (a, c) VALUES ($1, $1)", [0], ["45"]),
    ("INSERT INTO ip (a, f) VALUES ($1, $1)", [0], ["46"]),
    ("INSERT INTO ip (c, e) VALUES ($1, $1)", [0], ["47"]),
    ("INSERT INTO ip (c, d) VALUES ($1, $1)", [0], ["48"]),
    ("INSERT INTO ip (a, b) VALUES ($1, $1)", [0], ["49"]),
    # NOT NULL is not here; a missing parameter is the run's 42P02
    ("INSERT INTO ip (a) VALUES ($1)", [], []),
]

F = pq.DiagnosticField


def outcome(r, phase):
    if r.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        return None
    return (phase,) + tuple(None if r.error_field(f) is None else r.error_field(f).decode()
                            for f in (F.SQLSTATE, F.MESSAGE_PRIMARY, F.MESSAGE_DETAIL,
                                      F.MESSAGE_HINT, F.STATEMENT_POSITION))


def run(conn, sql, oids, vals):
    pg = conn.pgconn
    r = pg.prepare(b"", sql.encode(), oids or None)
    o = outcome(r, "parse")
    if o:
        return o
    r = pg.exec_prepared(b"", [None if v is None else v.encode() for v in vals])
    return outcome(r, "exec") or ("ok", r.command_status.decode())


def rows(conn):
    return conn.execute("SELECT * FROM ip ORDER BY a, b, c, d, e").fetchall()


def main():
    conns = [psycopg.connect(x, autocommit=True) for x in sys.argv[1:3]]
    for c in conns:
        c.execute("DROP TABLE IF EXISTS ip")
        c.execute(TABLE)
    bad = 0
    for sql, oids, vals in CASES:
        got, want = (run(c, sql, oids, vals) for c in conns)
        if got != want:
            print(f"FAIL {sql} {oids} {vals}: floe {got}, PostgreSQL {want}")
            bad += 1
        else:
            print(f"ok {sql} {oids} {vals}: {got[0]} {got[1] if got[0] != 'ok' else got[1]}")
    # psycopg's adaptation (binary int2/int4/int8, unknown-typed str)
    for c in conns:
        c.execute("INSERT INTO ip (a, b, c, d) VALUES (%s, %s, %s, %s)", (100, 2**40, "py", "pc"))
        c.execute("INSERT INTO ip (a, c) VALUES (%s, %s)", (101, None), prepare=True)
        with c.cursor() as cur:
            cur.executemany("INSERT INTO ip (a, e, f) VALUES (%s, %s, %s)",
                            [(200 + i, f"e{i}", i) for i in range(30)])
    for c in conns:
        try:
            c.execute("INSERT INTO ip (a, f) VALUES (%s, %s)", (300, 2**20))
            print("FAIL psycopg: smallint out of range accepted")
            bad += 1
        except psycopg.Error as e:
            print(f"ok psycopg out of range: {e.sqlstate}")
    if conns[0].pgconn.transaction_status != pq.TransactionStatus.IDLE:
        bad += 1
    got, want = rows(conns[0]), rows(conns[1])
    if got != want:
        print(f"FAIL rows differ:\n  floe {got}\n  PostgreSQL {want}")
        bad += 1
    else:
        print(f"ok rows ({len(got)}) equal to PostgreSQL's")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
