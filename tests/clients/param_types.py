#!/usr/bin/python3
"""tests/clients/param_types.py FLOE_CONNINFO PG_CONNINFO — parameter type
inference: for statements whose $n have no declared types, the types
ParameterDescription reports (Parse + Describe statement, libpq through
psycopg's pgconn) must equal PostgreSQL 15's; then each statement runs with
binary parameters of those types on floe.  Prints "ok <stmt>" per check;
exit status 1 at the first difference."""
import struct
import sys

import psycopg

TABLE = "CREATE TABLE pt (a integer, b text, c numeric(10,2), d date, e bigint, f varchar(5), g boolean, h double precision)"
STMTS = [
    "SELECT $1",
    "SELECT $1 + 1",
    "SELECT * FROM pt WHERE a = $1 AND b = $2",
    "SELECT * FROM pt WHERE c > $1 OR e IN ($2, $3)",
    "SELECT upper($1), $2::date, $3::bigint",
    "SELECT count(*) FROM pt WHERE h < $1 AND g = $2",
    "SELECT a FROM pt WHERE $1 = f ORDER BY a LIMIT $2",
    "INSERT INTO pt VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    "INSERT INTO pt (f, a) VALUES ($1, $2)",
    "UPDATE pt SET b = $1, c = $2 WHERE a = $3 AND d < $4",
    "DELETE FROM pt WHERE e = $1 OR $2 = f",
    "INSERT INTO pt (a) VALUES ($1) RETURNING a + $2",
    "SELECT jsonb_path_query_first($1, $2)",
    "SELECT $1::jsonb @? $2, jsonb_path_match('{}', $3, silent => $4)",
]


def describe(conn, sql):
    pg = conn.pgconn
    r = pg.prepare(b"", sql.encode())
    if r.status != psycopg.pq.ExecStatus.COMMAND_OK:
        raise SystemExit(f"prepare failed: {sql}: {r.error_message.decode()}")
    d = pg.describe_prepared(b"")
    return [d.param_type(i) for i in range(d.nparams)]


def main():
    floe = psycopg.connect(sys.argv[1], autocommit=True)
    pg = psycopg.connect(sys.argv[2], autocommit=True)
    for c in (floe, pg):
        c.execute("DROP TABLE IF EXISTS pt")
        c.execute(TABLE)
    for sql in STMTS:
        got, want = describe(floe, sql), describe(pg, sql)
        if got != want:
            print(f"FAIL {sql}: floe {got}, PostgreSQL {want}")
            sys.exit(1)
        print(f"ok {sql} {got}")
    # binary parameters of the described types: int4 and date as PostgreSQL sends them
    r = floe.pgconn.prepare(b"ins", b"INSERT INTO pt (a, d) VALUES ($1, $2)")
    days = (2024 - 2000) * 365 + 6          # 2024-01-01 since 2000-01-01
    r = floe.pgconn.exec_prepared(b"ins", [struct.pack("!i", 42), struct.pack("!i", days)], [1, 1])
    if r.status != psycopg.pq.ExecStatus.COMMAND_OK:
        print(f"FAIL binary insert: {r.error_message.decode()}")
        sys.exit(1)
    row = floe.execute("SELECT a, d::text FROM pt WHERE a = 42").fetchone()
    if row != (42, "2024-01-01"):
        print(f"FAIL binary insert read back {row}")
        sys.exit(1)
    print("ok binary parameters of inferred types")
    # an unspecified binary parameter is decoded as the type its context
    # gives it (text here), on floe as on PostgreSQL
    for name, c in (("floe", floe), ("PostgreSQL", pg)):
        r = c.pgconn.exec_params(b"INSERT INTO pt (a, b) VALUES (7, $1)", ["h\u00e9llo".encode()], [0], [1])
        r2 = c.pgconn.exec_params(b"SELECT $1 = 'x'::text", [b"x"], [0], [1])
        got = c.execute("SELECT b FROM pt WHERE a = 7").fetchone()
        if r.status != psycopg.pq.ExecStatus.COMMAND_OK or got != ("h\u00e9llo",) or r2.get_value(0, 0) != b"t":
            print(f"FAIL unspecified binary parameter on {name}: {got} {r2.get_value(0, 0)}")
            sys.exit(1)
    print("ok unspecified binary parameters decode as their context's type")
    # a binary jsonpath parameter (OID 4072: version byte 1, then the text)
    # and a binary jsonpath result, as PostgreSQL 15
    outs = []
    for name, c in (("floe", floe), ("PostgreSQL", pg)):
        r = c.pgconn.exec_params(b"SELECT jsonb_path_query_array('[1, 2, 3]', $1), $1", [b"\x01$[*] ? (@ > 1)"],
                                 [4072], [1], 1)
        if r.status != psycopg.pq.ExecStatus.TUPLES_OK:
            print(f"FAIL binary jsonpath parameter on {name}: {r.error_message.decode()}")
            sys.exit(1)
        outs.append((r.get_value(0, 0), r.get_value(0, 1), r.ftype(1)))
    if outs[0] != outs[1]:
        print(f"FAIL binary jsonpath: floe {outs[0]}, PostgreSQL {outs[1]}")
        sys.exit(1)
    print(f"ok binary jsonpath parameter and result {outs[0]}")
    # SELECT ... FOR UPDATE through the extended protocol (Parse/Describe) in a block
    blk = psycopg.connect(sys.argv[1])
    rows = blk.execute("SELECT a FROM pt WHERE a = %s FOR UPDATE", (42,)).fetchall()
    blk.commit()
    if rows != [(42,)]:
        print(f"FAIL FOR UPDATE over the extended protocol: {rows}")
        sys.exit(1)
    print("ok FOR UPDATE over the extended protocol")


main()
