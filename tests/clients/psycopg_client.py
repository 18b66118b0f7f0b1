#!/usr/bin/python3
"""psycopg_client.py -- psycopg 3 (Debian python3-psycopg) against a server.

Usage: psycopg_client.py CONNINFO

Connects, runs parameterized INSERT/SELECT with a Python value of every type
floe has (psycopg picks the parameter OIDs and formats), reads them back
through psycopg's loaders in text and in binary cursors, prepared
statements (prepare=True), server-side cursors (conn.cursor(name)), errors with SQLSTATEs (psycopg.errors classes),
a long query cancelled from another thread with conn.cancel() and one
stopped by statement_timeout (both 57014, the connection usable after),
and checks the values are the Python values that went in.  The
expectations are Python's, and this script passes against PostgreSQL 15.
Prints "ok NAME" / "not ok NAME: why"; exit 1 if anything failed.
"""
import datetime
import decimal
import sys
import threading
import time
import uuid

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


def main():
    conn = psycopg.connect(sys.argv[1], autocommit=True)
    check(conn.info.server_version // 10000 == 15, "server_version", conn.info.server_version)
    cur = conn.cursor()
    cur.execute("CREATE TABLE pyt (i smallint, j int, k bigint, f real, g double precision, "
                "n numeric(12,3), s text, v varchar(20), by bytea, d date, t time, "
                "ts timestamp, tz timestamptz, u uuid, ok boolean)")
    row = (7, -123456, 9000000000, 1.5, 0.1, decimal.Decimal("-1234.567"), "it's ünïcode",
           "short", b"\x00\x01\xff", datetime.date(2024, 2, 29), datetime.time(13, 14, 15, 500000),
           datetime.datetime(2001, 2, 3, 4, 5, 6, 789000),
           datetime.datetime(2001, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc),
           uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), True)
    cur.execute("INSERT INTO pyt VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
    check(cur.statusmessage == "INSERT 0 1", "insert_tag", cur.statusmessage)
    cur.execute("INSERT INTO pyt VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (None,) * 15)
    # binary parameters
    cur.execute("INSERT INTO pyt (i, k, g, by, d, ok) VALUES (%b, %b, %b, %b, %b, %b)",
                (8, -1, 2.5, b"bin", datetime.date(1999, 12, 31), False))

    names = ["i", "j", "k", "f", "g", "n", "s", "v", "by", "d", "t", "ts", "tz", "u", "ok"]
    for binary in (False, True):
        kind = "binary" if binary else "text"
        c = conn.cursor(binary=binary)
        c.execute("SELECT * FROM pyt WHERE i = %s", (7,))
        got = c.fetchone()
        check(got is not None, kind + "_row")
        if got is None:
            continue
        for name, want, have in zip(names, row, got):
            if name == "tz":
                ok = have == want
            elif name == "by":
                ok = bytes(have) == want
            else:
                ok = have == want and type(have) is type(want)
            check(ok, "%s_%s" % (kind, name), "%r != %r" % (have, want))
        check([d.name for d in c.description] == names, kind + "_description", c.description)
        c.execute("SELECT * FROM pyt WHERE i IS NULL")
        check(c.fetchone() == (None,) * 15, kind + "_nulls")
        c.execute("SELECT k, by, d, ok FROM pyt WHERE i = %s", (8,))
        got = c.fetchone()
        check(got is not None and got[0] == -1 and bytes(got[1]) == b"bin" and
              got[2] == datetime.date(1999, 12, 31) and got[3] is False, kind + "_binary_params_row", got)

    # prepared statements (server-side Parse once, Bind/Execute many)
    for i in range(3):
        cur.execute("SELECT %s::int + 1", (i,), prepare=True)
        check(cur.fetchone() == (i + 1,), "prepared_%d" % i)
    cur.execute("SELECT count(*) FROM pyt WHERE k > %s", (0,))
    check(cur.fetchone() == (1,), "param_where")

    # executemany and fetchmany
    cur.executemany("INSERT INTO pyt (i, s) VALUES (%s, %s)", [(100 + n, "m%d" % n) for n in range(5)])
    cur.execute("SELECT i, s FROM pyt WHERE i >= 100 ORDER BY i")
    check(cur.fetchmany(2) == [(100, "m0"), (101, "m1")] and len(cur.fetchall()) == 3, "executemany_fetchmany")

    # errors map to psycopg.errors classes by SQLSTATE
    for sql, params, cls, state in (
            ("SELECT 1/0", None, errors.DivisionByZero, "22012"),
            ("SELECT * FROM nosuch_table", None, errors.UndefinedTable, "42P01"),
            ("SELECT %s::int", ("abc",), errors.InvalidTextRepresentation, "22P02"),
            ("SELEC 1", None, errors.SyntaxError, "42601")):
        try:
            cur.execute(sql, params)
            check(False, "error_" + state, "no error")
        except cls as e:
            check(e.sqlstate == state, "error_" + state, e.sqlstate)
        except psycopg.Error as e:
            check(False, "error_" + state, "%s %s" % (type(e).__name__, e.sqlstate))
    # RETURNING through the extended protocol (Describe reports its columns)
    cur.execute("UPDATE pyt SET s = %s WHERE i = %s RETURNING i, s", ("upd", 7))
    check(cur.fetchall() == [(7, "upd")] and [d.name for d in cur.description] == ["i", "s"] and
          cur.statusmessage == "UPDATE 1", "update_returning", cur.statusmessage)
    cur.execute("DELETE FROM pyt WHERE i >= %s RETURNING i", (103,))
    check(sorted(cur.fetchall()) == [(103,), (104,)], "delete_returning")
    cur.execute("SHOW DateStyle")
    check(cur.fetchone() == ("ISO, MDY",) and cur.description[0].name == "DateStyle", "show_extended",
          cur.description)
    cur.execute("SELECT 'alive'")
    check(cur.fetchone() == ("alive",), "alive_after_errors")
    # cancel: conn.cancel() from another thread sends a CancelRequest
    for name, sql, params in (
            ("cancel_57014", "SELECT count(*) FROM generate_series(1, 2000000000)", None),
            ("cancel_57014_params", "SELECT count(*) FROM generate_series(1, %s) WHERE %s", (2000000000, True))):
        timer = threading.Timer(0.5, conn.cancel)
        timer.start()
        t0 = time.monotonic()
        try:
            cur.execute(sql, params)
            check(False, name, "not cancelled: %s" % (cur.fetchall(),))
        except errors.QueryCanceled as e:
            check(e.sqlstate == "57014" and "canceling statement due to user request" in str(e) and
                  time.monotonic() - t0 < 30, name, "%s %s" % (e.sqlstate, e))
        except psycopg.Error as e:
            check(False, name, "%s %s %s" % (type(e).__name__, e.sqlstate, e))
        timer.join()
        cur.execute("SELECT %s::int * 2", (21,))
        check(cur.fetchone() == (42,), name + "_then_usable")
    # statement_timeout: 57014 with its own message; the session goes on
    cur.execute("SET statement_timeout = '300ms'")
    t0 = time.monotonic()
    try:
        cur.execute("SELECT count(*) FROM generate_series(1, 2000000000)")
        check(False, "statement_timeout_57014", "not cancelled")
    except errors.QueryCanceled as e:
        check(e.sqlstate == "57014" and "canceling statement due to statement timeout" in str(e) and
              time.monotonic() - t0 < 30, "statement_timeout_57014", "%s %s" % (e.sqlstate, e))
    except psycopg.Error as e:
        check(False, "statement_timeout_57014", "%s %s %s" % (type(e).__name__, e.sqlstate, e))
    cur.execute("RESET statement_timeout")
    cur.execute("SELECT count(*) FROM generate_series(1, 100000)")
    check(cur.fetchone() == (100000,), "statement_timeout_then_usable")
    # server-side cursors (ServerCursor: DECLARE, Describe of the cursor's
    # portal, FETCH FORWARD itersize per batch, MOVE for scroll(), CLOSE);
    # in a transaction (a connection without autocommit)
    tconn = psycopg.connect(sys.argv[1])
    tcur = tconn.cursor()
    tcur.execute("DROP TABLE IF EXISTS pycur")
    tcur.execute("CREATE TABLE pycur AS SELECT g AS id, 'r' || g AS v FROM generate_series(1, 1000) g")
    tconn.commit()
    with tconn.cursor("py3_named") as sc:
        sc.itersize = 128
        sc.execute("SELECT id, v FROM pycur WHERE id > %s ORDER BY id", (10,))
        check([d.name for d in sc.description] == ["id", "v"] and sc.description[0].type_code == 23,
              "server_cursor_description", sc.description)
        check(sc.fetchmany(2) == [(11, "r11"), (12, "r12")], "server_cursor_fetchmany")
        sc.scroll(5)
        check(sc.fetchone() == (18, "r18"), "server_cursor_scroll")
        rest = list(sc)
        check(len(rest) == 982 and rest[-1] == (1000, "r1000"), "server_cursor_iter", len(rest))
    tconn.commit()
    with tconn.cursor("py3_hold", scrollable=True, withhold=True) as sc:
        sc.execute("SELECT id FROM pycur WHERE id <= 3 ORDER BY id")
        tconn.commit()
        check(sc.fetchall() == [(1,), (2,), (3,)], "server_cursor_withhold")
        sc.scroll(0, mode="absolute")
        check(sc.fetchone() == (1,), "server_cursor_scroll_absolute")
    tconn.commit()
    tcur.execute("DROP TABLE pycur")
    tconn.commit()
    tconn.close()
    cur.execute("DROP TABLE pyt")
    conn.close()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
