#!/usr/bin/python3
"""psycopg2_client.py -- psycopg2 (Debian python3-psycopg2) against a server.

Usage: psycopg2_client.py CONNINFO [PASSWORD]

psycopg2 speaks only the simple query protocol: it quotes parameters into
the SQL text itself (its adapters), always in text, and reads results with
its typecasters.  Checked: a Python value of every type floe has going in
and coming back equal, NULLs, several statements in one execute, the
default transaction mode (psycopg2 sends BEGIN/COMMIT/ROLLBACK),
errors with SQLSTATEs (pgcode, diag fields, psycopg2.errors classes),
COPY in and out (copy_from, copy_expert, copy_to), named cursors
(itersize batches, fetchmany, scroll, WITH HOLD across a commit), cancel from another
thread (57014), and with PASSWORD a wrong password refused (28P01).
The expectations are Python's, and this script passes against
PostgreSQL 15.  Prints "ok NAME" / "not ok NAME: why"; exit 1 on failure.
"""
import datetime
import decimal
import io
import sys
import threading
import time
import uuid

import psycopg2
import psycopg2.errors
import psycopg2.extras

failures = 0


def check(cond, name, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("not ok %s: %r" % (name, why))


def expect_error(cur, sql, params, sqlstate, name):
    try:
        cur.execute(sql, params)
        check(False, name, "no error")
        return None
    except psycopg2.Error as e:
        check(e.pgcode == sqlstate, name, (e.pgcode, str(e)))
        return e


def main():
    dsn = sys.argv[1]
    psycopg2.extras.register_uuid()
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    check(conn.server_version // 10000 == 15, "server_version", conn.server_version)
    cur = conn.cursor()
    cur.execute("SET TimeZone = 'UTC'")
    cur.execute("DROP TABLE IF EXISTS py2t")
    cur.execute("CREATE TABLE py2t (i smallint, j int, k bigint, f real, g double precision, "
                "n numeric(12,3), s text, v varchar(20), by bytea, d date, t time, "
                "ts timestamp, tz timestamptz, u uuid, ok boolean)")
    check(cur.statusmessage == "CREATE TABLE", "create_tag", cur.statusmessage)
    row = (7, -123456, 9000000000, 1.5, 0.1, decimal.Decimal("-1234.567"), "it's ünïcode\\ \"q\"",
           "short", psycopg2.Binary(b"\x00\x01\xff'"), datetime.date(2024, 2, 29),
           datetime.time(13, 14, 15, 500000), datetime.datetime(2001, 2, 3, 4, 5, 6, 789000),
           datetime.datetime(2001, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc),
           uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), True)
    cur.execute("INSERT INTO py2t VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
    check(cur.statusmessage == "INSERT 0 1" and cur.rowcount == 1, "insert_tag", (cur.statusmessage, cur.rowcount))
    cur.execute("INSERT INTO py2t VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", (None,) * 15)
    cur.execute("SELECT * FROM py2t WHERE i = %(i)s", {"i": 7})
    got = cur.fetchone()
    names = [d.name for d in cur.description]
    want = list(row)
    want[8] = b"\x00\x01\xff'"
    for n, g, w in zip(names, got, want):
        if n == "by":
            g = bytes(g)
        check(g == w and type(g) == type(w), "roundtrip_" + n, (g, w))
    check([d.type_code for d in cur.description] ==
          [21, 23, 20, 700, 701, 1700, 25, 1043, 17, 1082, 1083, 1114, 1184, 2950, 16],
          "description_oids", [d.type_code for d in cur.description])
    cur.execute("SELECT * FROM py2t WHERE i IS NULL")
    check(cur.fetchall() == [(None,) * 15], "nulls_roundtrip")

    # several statements in one execute: psycopg2 keeps the last result
    cur.execute("SELECT 1; SELECT %s::int + 1", (41,))
    check(cur.fetchone() == (42,), "multi_statement_last_result")

    # default mode: psycopg2 opens a transaction (BEGIN) before the first statement
    tconn = psycopg2.connect(dsn)
    tc = tconn.cursor()
    tc.execute("INSERT INTO py2t (i, s) VALUES (%s, %s)", (100, "in txn"))
    check(tconn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INTRANS,
          "transaction_status_in_block", tconn.get_transaction_status())
    # an error inside the block: ReadyForQuery 'E' (failed transaction)
    try:
        tc.execute("SELECT 1 / 0")
    except psycopg2.Error:
        pass
    check(tconn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INERROR,
          "transaction_status_failed_block", tconn.get_transaction_status())
    tconn.rollback()
    tc.execute("INSERT INTO py2t (i, s) VALUES (%s, %s)", (101, "committed"))
    tconn.commit()
    cur.execute("SELECT i FROM py2t WHERE i >= 100 ORDER BY i")
    check(cur.fetchall() == [(101,)], "commit_and_rollback", None)
    tconn.close()

    # errors: SQLSTATE, diag fields, exception classes
    e = expect_error(cur, "SELECT 1/0", None, "22012", "error_division_by_zero")
    check(isinstance(e, psycopg2.errors.DivisionByZero), "error_class", type(e))
    expect_error(cur, "SELECT * FROM no_such_table_py2", None, "42P01", "error_undefined_table")
    e = expect_error(cur, "SELECT * FROMM py2t", None, "42601", "error_syntax")
    check(e is not None and e.diag.statement_position == "10" and e.diag.severity == "ERROR",
          "error_diag_position", e and (e.diag.statement_position, e.diag.severity))
    expect_error(cur, "SELECT %s::int", ("abc",), "22P02", "error_bad_value")
    cur.execute("SELECT 1")
    check(cur.fetchone() == (1,), "usable_after_errors")

    # COPY
    cur.execute("DROP TABLE IF EXISTS py2copy")
    cur.execute("CREATE TABLE py2copy (a int, b text, c date)")
    cur.copy_from(io.StringIO("1\thello\t2024-01-02\n2\t\\N\t1999-12-31\n"), "py2copy")
    cur.copy_expert("COPY py2copy FROM STDIN WITH (FORMAT csv, HEADER)",
                    io.StringIO('a,b,c\n3,"comma, ""q""",\n'))
    out = io.StringIO()
    cur.copy_expert("COPY (SELECT * FROM py2copy ORDER BY a) TO STDOUT WITH (FORMAT csv)", out)
    check(out.getvalue() == '1,hello,2024-01-02\n2,,1999-12-31\n3,"comma, ""q""",\n', "copy_in_out_csv", out.getvalue())
    out = io.StringIO()
    cur.copy_to(out, "py2copy", columns=("a", "b"))
    check(sorted(out.getvalue().splitlines()) == ["1\thello", "2\t\\N", '3\tcomma, "q"'], "copy_to_text", out.getvalue())
    try:
        cur.copy_from(io.StringIO("4\tok\t2001-01-01\n5\tbad\tnot a date\n"), "py2copy")
        check(False, "copy_bad_row", "no error")
    except psycopg2.Error as e:
        where = (e.diag.context or "") + (e.diag.message_detail or "")
        check(e.pgcode == "22007" and "line 2" in where, "copy_bad_row", (e.pgcode, where))
    cur.execute("SELECT count(*) FROM py2copy")
    check(cur.fetchone() == (3,), "copy_bad_row_nothing_committed")

    # cancel from another thread (repeated until the query ends: on a loaded
    # machine the first CancelRequest may arrive before the query started)
    done = threading.Event()

    def cancel_soon():
        while not done.wait(0.5):
            conn.cancel()
    th = threading.Thread(target=cancel_soon)
    th.start()
    t0 = time.time()
    try:
        cur.execute("SELECT count(*) FROM generate_series(1, 2000000000)")
        check(False, "cancel_57014", ("finished", cur.fetchall(), time.time() - t0))
    except psycopg2.errors.QueryCanceled as e:
        check(e.pgcode == "57014" and time.time() - t0 < 30, "cancel_57014", e.pgcode)
    done.set()
    th.join()
    cur.execute("SELECT 2")
    check(cur.fetchone() == (2,), "usable_after_cancel")

    # named (server-side) cursors: DECLARE ... CURSOR, FETCH FORWARD itersize
    # per batch while iterating, scroll() as MOVE, CLOSE at close(); in
    # psycopg2's default transaction mode (it sends BEGIN)
    conn.autocommit = False
    cur.execute("DROP TABLE IF EXISTS py2cur")
    cur.execute("CREATE TABLE py2cur AS SELECT g AS id, 'row ' || g AS v FROM generate_series(1, 2500) g")
    conn.commit()
    nc = conn.cursor("py2_named")
    nc.itersize = 300
    nc.execute("SELECT id, v FROM py2cur WHERE id %% %s = 0 ORDER BY id", (5,))
    got = [r for r in nc]
    check(len(got) == 500 and got[0] == (5, "row 5") and got[-1] == (2500, "row 2500"),
          "named_cursor_iter", (len(got), got[:1], got[-1:]))
    nc.close()
    cur.execute("SELECT name FROM pg_cursors")
    check(cur.fetchall() == [], "named_cursor_closed")
    nc = conn.cursor("py2_named2")
    nc.execute("SELECT id FROM py2cur ORDER BY id")
    check(nc.fetchmany(3) == [(1,), (2,), (3,)], "named_cursor_fetchmany")
    check(nc.fetchone() == (4,), "named_cursor_fetchone")
    nc.scroll(10)
    check(nc.fetchone() == (15,), "named_cursor_scroll_relative")
    nc.scroll(99, mode="absolute")
    check(nc.fetchone() == (100,), "named_cursor_scroll_absolute")
    check(len(nc.fetchall()) == 2400, "named_cursor_fetchall")
    nc.close()
    conn.commit()
    hc = conn.cursor("py2_hold", scrollable=True, withhold=True)
    hc.execute("SELECT id FROM py2cur WHERE id <= 10 ORDER BY id")
    check(hc.fetchmany(2) == [(1,), (2,)], "withhold_before_commit")
    conn.commit()
    check(hc.fetchone() == (3,), "withhold_after_commit")
    hc.scroll(-3)
    check(hc.fetchone() == (1,), "scrollable_backward")
    hc.close()
    conn.commit()
    nc = conn.cursor("py2_bad")
    try:
        nc.execute("SELECT 1 / (id - id) FROM py2cur")
        nc.fetchall()
        check(False, "named_cursor_error", "no error")
    except psycopg2.Error as e:
        check(e.pgcode == "22012", "named_cursor_error", e.pgcode)
    conn.rollback()
    cur.execute("DROP TABLE py2cur")
    conn.commit()
    conn.autocommit = True

    cur.execute("DROP TABLE py2t")
    cur.execute("DROP TABLE py2copy")
    conn.close()

    if len(sys.argv) > 2:
        try:
            psycopg2.connect(dsn + " password='%s'" % (sys.argv[2] + "x"))
            check(False, "wrong_password_refused", "connected")
        except psycopg2.OperationalError as e:
            check("password authentication failed" in str(e), "wrong_password_refused", str(e))


main()
sys.exit(1 if failures else 0)
