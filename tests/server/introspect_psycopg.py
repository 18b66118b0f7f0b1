#!/usr/bin/python3
"""introspect_psycopg.py — psycopg 3 type adaptation and introspection
against floe serve and PostgreSQL 15 (tests/suites/introspect.sh runs it
against both and compares the outputs, which must be identical).

Prints, one line each: cursor.description of a table of every floe type
(name, type_code, internal_size, precision, scale), the Python type and
value psycopg loads for each column (text and binary), psycopg's TypeInfo
lookups (a pg_type query with a $1::regtype parameter), and a few catalog
queries drivers send at connect.

usage: introspect_psycopg.py CONNINFO
"""
import sys

import psycopg
from psycopg.types import TypeInfo

conninfo = sys.argv[1]
out = []

with psycopg.connect(conninfo, autocommit=True) as conn:
    conn.execute("DROP SCHEMA IF EXISTS intro_py CASCADE")
    conn.execute("CREATE SCHEMA intro_py")
    conn.execute(
        "CREATE TABLE intro_py.every (b boolean, i2 smallint, i4 integer, i8 bigint, "
        "f4 real, f8 double precision, n numeric(10,3), t text, vc varchar(12), "
        "c char(4), by bytea, d date, tm time, ts timestamp, tz timestamptz, u uuid)")
    conn.execute(
        "INSERT INTO intro_py.every VALUES (true, 2, 4, 8, 1.5, 2.25, 12.345, 'text', "
        "'varchar', 'ch', '\\x0102', '2024-02-29', '12:34:56.789', "
        "'2024-01-02 03:04:05.5', '2024-01-02 03:04:05+00', "
        "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')")
    conn.execute("INSERT INTO intro_py.every (i4) VALUES (NULL)")
    conn.execute("SET TimeZone = 'UTC'")
    for binary in (False, True):
        cur = conn.cursor(binary=binary)
        cur.execute("SELECT * FROM intro_py.every ORDER BY i4 NULLS LAST")
        for col in cur.description:
            out.append("desc %s %s %s %s %s %s" % (binary, col.name, col.type_code,
                                                  col.internal_size, col.precision, col.scale))
        for row in cur.fetchall():
            out.append("row %s %s" % (binary, [(type(v).__name__, v) for v in row]))
    for name in ("int4", "text", "numeric", "varchar", "timestamptz", "uuid", "bool"):
        info = TypeInfo.fetch(conn, name)
        out.append("typeinfo %s %s %s %s" % (name, info.oid, info.array_oid, info.regtype))
    cur = conn.cursor()
    cur.execute("SELECT current_schema()")
    out.append("schema %s" % cur.fetchone()[0])
    cur.execute("SELECT column_name, data_type, is_nullable FROM information_schema.columns "
                "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                ("intro_py", "every"))
    for r in cur.fetchall():
        out.append("column %s" % (r,))
    cur.execute("SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s",
                ("intro_py", "every"))
    out.append("exists %s" % (cur.fetchall(),))
    out.append("version %s" % (conn.info.server_version // 10000))
    conn.execute("DROP SCHEMA intro_py CASCADE")

print("\n".join(out))
