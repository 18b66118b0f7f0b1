#!/usr/bin/python3
"""copy_client.py -- COPY FROM STDIN / TO STDOUT with psycopg 3 (cursor.copy).

Usage: copy_client.py FLOE_CONNINFO [PG_CONNINFO]

Against floe: loads a table of common types with COPY FROM STDIN in text
and CSV format (psycopg sends the data in several CopyData messages), reads
it back with COPY TO STDOUT in text and CSV (HEADER, FORCE_QUOTE, NULL,
DELIMITER), checks the rows with SELECT, that a bad row fails with 22P02
and PostgreSQL's CONTEXT (the Where field: "COPY t, line N, column c: ...")
and leaves the table unchanged (so do a missing column, extra data, bad
CSV quoting, a long value, invalid UTF-8: errors compared field by field
with PostgreSQL 15's), that a client's CopyFail
(an exception inside `with cur.copy()`) fails with 57014 and commits
nothing, and that the connection works after each.  With PG_CONNINFO (a
PostgreSQL 15), the same statements run there too and every COPY TO output
must be byte-for-byte the same.
Prints "ok NAME" / "not ok NAME: why"; exit 1 if anything failed.
"""
import sys

import psycopg
from psycopg import errors

failures = 0


def check(cond, name, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("not ok %s: %s" % (name, why))


TABLE = ("CREATE TABLE copyt (a int NOT NULL, b bigint, c text, d double precision, "
         "e numeric(10,2), f boolean, g date, h timestamp, i varchar(20) DEFAULT 'dflt')")

TEXT_DATA = (
    "1\t10\thello\t1.5\t3.25\tt\t2024-01-02\t2024-01-02 03:04:05\tx\n"
    "2\t\\N\ttab\\there\\nnl\\\\bs\t-0.1\t\\N\tf\t\\N\t\\N\t\\N\n"
    "3\t-9223372036854775808\t\xc3\xa9t\xc3\xa9 \"q\" 'a'\t1e+100\t-12.5\t\\N\t1999-12-31\t2000-01-01 00:00:00.5\tz\n"
)

CSV_DATA = (
    "a,b,c,e,f\n"
    "4,40,\"comma, and \"\"quote\"\"\",1.10,true\n"
    "5,,\"multi\nline\",,false\n"
    "6,60,,0,\n"
    "7,70,\"\",99999999.99,t\n"
)

OUTS = [
    "COPY (SELECT * FROM copyt ORDER BY a) TO STDOUT",
    "COPY (SELECT * FROM copyt ORDER BY a) TO STDOUT WITH (FORMAT csv, HEADER)",
    "COPY (SELECT a, c, i FROM copyt ORDER BY a) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *, NULL 'NULL', DELIMITER ';')",
    "COPY (SELECT a, c FROM copyt ORDER BY a) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (c), QUOTE '''', ESCAPE '\\')",
    "COPY (SELECT a, d, f FROM copyt ORDER BY a) TO STDOUT WITH (DELIMITER '|', NULL '', HEADER)",
]


def copy_out(cur, sql):
    out = bytearray()
    with cur.copy(sql) as cp:
        for chunk in cp:
            out += chunk
    return bytes(out)


BAD = [
    ("COPY copyt (a, c) FROM STDIN", "100\tok\n101\tok\nxx\tbad\n102\tok\n"),
    ("COPY copyt (a, c) FROM STDIN", "100\tok\n101\n"),
    ("COPY copyt (a, c) FROM STDIN", "100\tok\tmore\n"),
    ("COPY copyt (a, c) FROM STDIN (FORMAT csv)", '100,ok\n101,"unterminated\n'),
    ("COPY copyt (a, c) FROM STDIN (FORMAT csv)", '100,"two\nlines"\n1x,bad\n'),
    ("COPY copyt (a, c) FROM STDIN (FORMAT csv, HEADER)", 'a,c\n100,"x"y"\n'),
    ("COPY copyt (a, c) FROM STDIN", "100\tok\n" + "x" * 150 + "\tlong\n"),
    ("COPY copyt (a, c) FROM STDIN", b"100\tok\n101\t\xff\n"),
    ("COPY copyt (a, c) FROM STDIN", "100\tok\n\\N\tnull a\n"),
    ("COPY copyt (c) FROM STDIN (FORMAT csv)", "no a\n"),
]


def run(conninfo, label):
    """Load and read back; returns the list of COPY TO outputs."""
    outs = []
    errs = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("DROP TABLE IF EXISTS copyt")
        cur.execute(TABLE)
        # text format, sent in small pieces
        with cur.copy("COPY copyt FROM STDIN") as cp:
            data = TEXT_DATA.encode()
            for k in range(0, len(data), 7):
                cp.write(data[k:k + 7])
        check(cur.rowcount == 3, label + " copy from text rowcount", repr(cur.rowcount))
        with cur.copy("COPY copyt (a, b, c, e, f) FROM STDIN WITH (FORMAT csv, HEADER true)") as cp:
            cp.write(CSV_DATA)
        check(cur.rowcount == 4, label + " copy from csv rowcount", repr(cur.rowcount))
        # write_row: psycopg formats each row itself
        with cur.copy("COPY copyt (a, c) FROM STDIN") as cp:
            cp.write_row((8, "row\twith\ttabs"))
            cp.write_row((9, None))
        cur.execute("SELECT a, c, i FROM copyt WHERE a IN (1, 2, 5, 8, 9) ORDER BY a")
        rows = cur.fetchall()
        check(rows == [(1, "hello", "x"), (2, "tab\there\nnl\\bs", None), (5, "multi\nline", "dflt"),
                       (8, "row\twith\ttabs", "dflt"), (9, None, "dflt")],
              label + " rows after copy", repr(rows))
        for sql in OUTS:
            outs.append(copy_out(cur, sql))
        # a bad row: 22P02 with the line number, nothing committed
        try:
            with cur.copy("COPY copyt (a, c) FROM STDIN") as cp:
                cp.write("100\tok\n101\tok\nxx\tbad\n102\tok\n")
            check(False, label + " bad row fails", "no error")
        except errors.InvalidTextRepresentation as e:
            # PostgreSQL's CONTEXT is the ErrorResponse's Where field (W)
            check(e.diag.context == 'COPY copyt, line 3, column a: "xx"' and e.diag.message_detail is None,
                  label + " bad row error: CONTEXT names line 3", repr((e.diag.context, e.diag.message_detail)))
        cur.execute("SELECT count(*) FROM copyt")
        check(cur.fetchone()[0] == 9, label + " bad row leaves the table unchanged")
        # each kind of bad record: SQLSTATE, message, detail and CONTEXT
        # (compared with PostgreSQL 15's below); nothing committed
        for sql, data in BAD:
            try:
                with cur.copy(sql) as cp:
                    cp.write(data)
                errs.append(("no error", sql))
            except psycopg.Error as e:
                errs.append((e.diag.sqlstate, e.diag.message_primary, e.diag.message_detail, e.diag.context))
        cur.execute("SELECT count(*) FROM copyt")
        check(cur.fetchone()[0] == 9, label + " bad records leave the table unchanged")
        # NOT NULL
        try:
            with cur.copy("COPY copyt (a, c) FROM STDIN WITH (FORMAT csv)") as cp:
                cp.write("200,x\n,y\n")
            check(False, label + " not null fails", "no error")
        except errors.NotNullViolation:
            check(True, label + " not null fails")
        # CopyFail from the client
        try:
            with cur.copy("COPY copyt (a) FROM STDIN") as cp:
                cp.write("300\n")
                raise RuntimeError("client gave up")
        except errors.QueryCanceled as e:
            check("COPY from stdin failed" in str(e), label + " CopyFail is 57014", str(e))
        except RuntimeError as e:
            check(False, label + " CopyFail is 57014", "RuntimeError " + str(e))
        cur.execute("SELECT count(*) FROM copyt")
        check(cur.fetchone()[0] == 9, label + " failed copies commit nothing")
        # the connection still works; COPY of a whole table
        tbl = copy_out(cur, "COPY copyt (a) TO STDOUT")
        check(sorted(tbl.split()) == sorted(b"1 2 3 4 5 6 7 8 9".split()), label + " copy table to", repr(tbl))
        cur.execute("DROP TABLE copyt")
    return outs, errs


floe_outs, floe_errs = run(sys.argv[1], "floe")
check(len(floe_errs) == len(BAD) and all(len(e) == 4 for e in floe_errs), "every bad record fails",
      repr(floe_errs))
if len(sys.argv) > 2:
    pg_outs, pg_errs = run(sys.argv[2], "pg")
    for k, (sql, data) in enumerate(BAD):
        check(floe_errs[k] == pg_errs[k], "bad record error (with CONTEXT) as PostgreSQL's: %s %r" % (sql, data[:40]),
              "\nfloe: %r\npg:   %r" % (floe_errs[k], pg_errs[k]))
    for k, sql in enumerate(OUTS):
        check(floe_outs[k] == pg_outs[k], "same bytes as PostgreSQL: " + sql,
              "\nfloe: %r\npg:   %r" % (floe_outs[k], pg_outs[k]))
sys.exit(1 if failures else 0)
