#!/usr/bin/python3
"""tests/clients/array_client.py FLOE_CONNINFO [PG_CONNINFO] — arrays over
the wire with psycopg 3: results in text and in binary format must come
back as Python lists with the element types PostgreSQL gives (the
RowDescription type OID is the array type: int4[] 1007 ...), and list
parameters sent as text (%t) and binary (%b) must round-trip.  With a
PostgreSQL 15 conninfo, every answer and every column type OID must equal
PostgreSQL's.  Prints "ok <what>" per check; exit 1 at the first failure."""
import datetime
import decimal
import sys

import psycopg

QUERIES = [
    ("SELECT ARRAY[1,2,NULL]", None, 1007),
    ("SELECT ARRAY[1::bigint, 2]", None, 1016),
    ("SELECT ARRAY[1::smallint]", None, 1005),
    ("SELECT ARRAY['a', 'b c', NULL, '', 'NULL', 'x\"y', 'a\\b']", None, 1009),
    ("SELECT ARRAY[1.5, 2.25, NULL]", None, 1231),
    ("SELECT ARRAY[1.5::float8, NULL]", None, 1022),
    ("SELECT ARRAY[1.5::float4]", None, 1021),
    ("SELECT ARRAY[true, false, NULL]", None, 1000),
    ("SELECT ARRAY[DATE '2024-01-02']", None, 1182),
    ("SELECT ARRAY[TIMESTAMP '2024-01-02 03:04:05.5']", None, 1115),
    ("SELECT '{x,y}'::varchar[]", None, 1015),
    ("SELECT '{}'::int[]", None, 1007),
    ("SELECT NULL::text[]", None, 1009),
    ("SELECT string_to_array('a,b', ',')", None, 1009),
    ("SELECT array_agg(x ORDER BY x) FROM (VALUES (3), (1), (2)) v(x)", None, 1007),
    ("SELECT %t::int[]", ([1, 2, None],), 1007),
    ("SELECT %b::int[]", ([1, 2, None],), 1007),
    ("SELECT %t::text[]", (["a", "b c", None, "", 'q"q'],), 1009),
    ("SELECT %b::text[]", (["a", "b c", None, "", 'q"q'],), 1009),
    ("SELECT %b::bigint[]", ([1, 2 ** 40],), 1016),
    ("SELECT %t::numeric[]", ([decimal.Decimal("1.50"), decimal.Decimal("-2")],), 1231),
    ("SELECT %b::float8[]", ([1.5, -0.25],), 1022),
    ("SELECT %b::date[]", ([datetime.date(2024, 2, 29)],), 1182),
    ("SELECT %b::bool[]", ([True, None],), 1000),
    ("SELECT %b::int[]", ([],), 1007),
    ("SELECT cardinality(%t::int[]), 2 = ANY(%t::int[])", ([1, 2, 3], [1, 2]), 23),
]


def run(conn, binary):
    out = []
    for sql, params, oid in QUERIES:
        with conn.cursor(binary=binary) as cur:
            cur.execute(sql, params)
            row = cur.fetchone()
            got_oid = cur.description[0].type_code
            out.append((sql, row, got_oid))
            if got_oid != oid:
                raise SystemExit(f"FAIL {sql}: type oid {got_oid}, want {oid}")
    return out


def main():
    floe = psycopg.connect(sys.argv[1], autocommit=True)
    pg = psycopg.connect(sys.argv[2], autocommit=True) if len(sys.argv) > 2 else None
    for binary in (False, True):
        mode = "binary" if binary else "text"
        got = run(floe, binary)
        want = run(pg, binary) if pg else None
        for i, (sql, row, oid) in enumerate(got):
            if not isinstance(row[0], list) and row[0] is not None and oid != 23:
                raise SystemExit(f"FAIL {mode} {sql}: {row!r} is not a list")
            if want and want[i][1] != row:
                raise SystemExit(f"FAIL {mode} {sql}: floe {row!r} PostgreSQL {want[i][1]!r}")
            print(f"ok {mode} {sql} -> {row!r}")
    # the first element's Python type follows the element type
    with floe.cursor() as cur:
        cur.execute("SELECT ARRAY[1.5], ARRAY[DATE '2024-01-02'], ARRAY[1]")
        a, d, i = cur.fetchone()
        if not (isinstance(a[0], decimal.Decimal) and isinstance(d[0], datetime.date)
                and isinstance(i[0], int)):
            raise SystemExit(f"FAIL element types {a!r} {d!r} {i!r}")
        print("ok element types")


if __name__ == "__main__":
    main()
