#!/usr/bin/env python3
"""nested_helper.py DUCKDB_SQL TMPDIR FILE.parquet... (tests/suites/nested.sh)

Writes TMPDIR/cases/<file>.test, one sqltest file per Parquet file with
nested columns, from DuckDB's reading of it:
  - a list of a primitive type (DuckDB type T[]): `query` of every row's
    col::text, the expected rows DuckDB's lists printed as PostgreSQL's
    array_out prints arrays; a list longer than BIG elements by length and
    md5 instead;
  - STRUCT / MAP / T[][] / a list of those: `statement error 0A000` with
    'column "c" has the nested type';
  - count(*) against DuckDB's.
Prints "SKIP file: why" for files DuckDB cannot describe or read.
"""
import csv
import io
import os
import re
import subprocess
import sys

BIG = 10000


def duck(tool, sql):
    """DuckDB's CSV result of the last statement: (ok, header+rows | error)."""
    p = subprocess.run([tool, sql, "--threads", "1"], capture_output=True, text=True)
    if p.returncode != 0:
        return False, (p.stdout + p.stderr).strip().splitlines()[-1:] or ["?"]
    return True, list(csv.reader(io.StringIO(p.stdout)))


def q(s):
    return "'" + s.replace("'", "''") + "'"


def ident(s):
    return '"' + s.replace('"', '""') + '"'


def is_primitive(t):
    return not any(k in t for k in ("[", "STRUCT", "MAP", "UNION"))


def elem_text(base, x):
    """A DuckDB expression: element x (not NULL) as PostgreSQL's text."""
    if base == "BOOLEAN":
        return f"CASE WHEN {x} THEN 't' ELSE 'f' END"
    if base == "BLOB":
        return f"'\\x' || lower(hex({x}))"
    if base in ("DOUBLE", "FLOAT"):
        # shortest round-trip text as PostgreSQL prints it: no ".0" on
        # integral values, Infinity / NaN spelled out
        return (f"CASE WHEN isnan({x}) THEN 'NaN' WHEN {x} = 'inf'::{base} THEN 'Infinity' "
                f"WHEN {x} = '-inf'::{base} THEN '-Infinity' "
                f"WHEN {x} = trunc({x}) AND abs({x}) < 1e15 THEN "
                f"(CASE WHEN signbit({x}) THEN '-' ELSE '' END) || abs({x})::HUGEINT::VARCHAR "
                f"ELSE {x}::VARCHAR END")
    return f"{x}::VARCHAR"


def pg_array(col, base):
    """A DuckDB expression: list column col as PostgreSQL's array_out text."""
    s = elem_text(base, "x")
    quoted = ("CASE WHEN s IS NULL THEN 'NULL' "
              "WHEN s = '' OR upper(s) = 'NULL' OR regexp_matches(s, '[{}\",\\\\\\s]') "
              "THEN '\"' || replace(replace(s, '\\', '\\\\'), '\"', '\\\"') || '\"' ELSE s END")
    return (f"CASE WHEN {col} IS NULL THEN NULL ELSE '{{' || array_to_string("
            f"list_transform(list_transform({col}, x -> CASE WHEN x IS NULL THEN NULL ELSE {s} END), "
            f"s -> {quoted}), ',') || '}}' END")


def visible(expr):
    """Newlines and tabs made visible (sqltest rows are lines of TABs)."""
    return f"replace(replace({expr}, chr(10), '<LF>'), chr(9), '<TAB>')"


def describe(tool, paths, out):
    """DuckDB's (column, type) list of each file into out[path]; files
    DuckDB cannot describe are bisected out and reported."""
    if not paths:
        return
    sql = " UNION ALL ".join(
        f"SELECT {i} AS f, column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet({q(p)}))"
        for i, p in enumerate(paths))
    ok, rows = duck(tool, sql)
    if ok:
        for p in paths:
            out[p] = []
        for r in rows[1:]:
            out[paths[int(r[0])]].append((r[1], r[2]))
        return
    if len(paths) == 1:
        print(f"SKIP {os.path.basename(paths[0])}: DuckDB: {rows[0]}")
        return
    half = len(paths) // 2
    describe(tool, paths[:half], out)
    describe(tool, paths[half:], out)


def main():
    tool, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(os.path.join(tmp, "cases"), exist_ok=True)
    ncases = 0
    described = {}
    describe(tool, files, described)
    for path in files:
        name = os.path.basename(path)
        if path not in described:
            continue
        cols = described[path]
        lists = [(c, t) for c, t in cols if t.endswith("[]") and is_primitive(t[:-2])]
        nested = [(c, t) for c, t in cols if not is_primitive(t) and (c, t) not in lists]
        if not lists and not nested:
            continue
        # long lists are compared by length and md5
        lens = "".join(f", max(len({ident(c)}))" for c, _ in lists)
        ok, cnt = duck(tool, f"SELECT count(*){lens} FROM read_parquet({q(path)})")
        if not ok:
            print(f"SKIP {name}: DuckDB: {cnt[0]}")
            continue
        rec = [f"# {name}: {', '.join(c + ' ' + t for c, t in cols)}", ""]
        rec += ["query I", f"SELECT count(*) FROM read_parquet({q(path)})", "----", cnt[1][0], ""]
        if lists:
            big = {c for (c, _), m in zip(lists, cnt[1][1:]) if m and int(m) > BIG}
            dexpr, fexpr = [], []
            for c, t in lists:
                a = pg_array(ident(c), t[:-2])
                if c in big:
                    dexpr.append(f"coalesce(len({ident(c)})::VARCHAR || ':' || md5({a}), 'NULL')")
                    fexpr.append(f"coalesce(cardinality({ident(c)})::text || ':' || md5({ident(c)}::text), 'NULL')")
                else:
                    dexpr.append(f"coalesce({visible(a)}, 'NULL')")
                    fexpr.append(f"coalesce({visible(ident(c) + '::text')}, 'NULL')")
            ok, rows = duck(tool, f"SELECT {', '.join(dexpr)} FROM read_parquet({q(path)})")
            if not ok:
                print(f"SKIP {name}: DuckDB: {rows[0]}")
                continue
            rec += [f"query {'T' * len(lists)} rowsort",
                    f"SELECT {', '.join(fexpr)} FROM read_parquet({q(path)})", "----"]
            rec += ["\t".join(r) for r in rows[1:]]
            rec.append("")
        for c, t in nested:
            rec += ["statement error 0A000", f"SELECT {ident(c)} FROM read_parquet({q(path)})",
                    "----", f'column "{c}" has the nested type', ""]
        with open(os.path.join(tmp, "cases", re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".test"), "w") as f:
            f.write("\n".join(rec) + "\n")
        ncases += 1
    print(f"{ncases} files with nested columns")


main()
