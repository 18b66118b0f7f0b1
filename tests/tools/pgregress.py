#!/usr/bin/python3
"""pgregress.py — run one of PostgreSQL's regression scripts
(src/test/regress/sql/*.sql) statement by statement on floe and on a real
PostgreSQL 15, and count the statements answered identically.

    pgregress.py --pg DSN --floe DSN [--limit N] [--show-diff] script.sql...

A statement is answered identically when both servers succeed with the
same command tag and the same rows (compared as text, as a multiset unless
the statement has ORDER BY), or both fail with the same SQLSTATE.  psql
meta-commands (lines starting with a backslash) are not statements and
are skipped (but \\c, a reconnect, is done on both sides), as are COPY ... FROM stdin and the data after it (psycopg2
has no inline COPY); they are counted apart.  Every statement runs under
statement_timeout 20s on both sides, in autocommit (the script's own
BEGIN / COMMIT open and close blocks).  Each script gets a fresh database
on PostgreSQL (created and dropped here) and the floe DSN's database as
is (the caller gives a fresh warehouse).

Output, one line per script:
    script.sql: 123/456 identical (27.0%), 3 skipped
and with --show-diff each differing statement with both answers.
"""
import argparse
import re
import sys

import psycopg2

_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$")


def split(text):
    """The script's statements, in order: (line, sql) for SQL,
    (line, None) for a skipped piece (meta-command, COPY FROM stdin)."""
    out = []
    buf = []
    i, n, line, start = 0, len(text), 1, 1
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and not "".join(buf).strip() and c == "\\":
            j = text.find("\n", i)
            j = n if j < 0 else j
            # \c reconnects (a new session: temp objects and blocks end)
            out.append((line, "\\c" if re.match(r"\\c(onnect)?\b", text[i:j]) else None))
            i = j
            continue
        at_line_start = False
        if c == "\n":
            line += 1
            at_line_start = True
            buf.append(c)
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    line += text[j] == "\n"
                    j += 1
            i = j
            continue
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                if c == "'" and text[j] == "\\" and i > 0 and text[i - 1] in "eE":
                    j += 1
                j += 1
            piece = text[i:j + 1]
            line += piece.count("\n")
            buf.append(piece)
            i = j + 1
            continue
        if c == "$":
            m = _DOLLAR.match(text, i)
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                tag = m.group(0)
                j = text.find(tag, m.end())
                j = n if j < 0 else j + len(tag)
                piece = text[i:j]
                line += piece.count("\n")
                buf.append(piece)
                i = j
                continue
        if c == ";":
            sql = "".join(buf).strip()
            buf = []
            i += 1
            if sql:
                if re.match(r"(?is)^copy\b.*\bfrom\s+stdin", sql):
                    out.append((start, None))
                    # the data, up to a line "\."
                    j = text.find("\n\\.", i)
                    if j >= 0:
                        line += text[i:j + 3].count("\n")
                        i = j + 3
                else:
                    out.append((start, sql))
            start = line
            continue
        if not "".join(buf).strip() and not c.isspace():
            start = line
        buf.append(c)
        i += 1
    sql = "".join(buf).strip()
    if sql:
        out.append((start, sql))
    return out


def run(conn, sql):
    """(ok, sqlstate or tag, rows or message)"""
    cur = conn.cursor()
    try:
        cur.execute(sql)
        rows = None
        if cur.description is not None:
            rows = [tuple(None if v is None else str(v) for v in r) for r in cur.fetchall()]
        return True, cur.statusmessage, rows
    except psycopg2.Error as e:
        return False, e.pgcode or "?????", (e.pgerror or str(e)).strip().split("\n")[0]
    except Exception as e:  # a value the client cannot decode, a lost connection
        return False, "client", str(e)
    finally:
        try:
            cur.close()
        except Exception:
            pass


def same(sql, a, b):
    if a[0] != b[0]:
        return False
    if not a[0]:
        return a[1] == b[1]
    if a[1] != b[1]:
        return False
    if a[2] is None or b[2] is None:
        return a[2] == b[2]
    if re.search(r"(?i)\border\s+by\b", sql):
        return a[2] == b[2]
    key = lambda r: tuple("" if v is None else "\x01" + v for v in r)
    return sorted(a[2], key=key) == sorted(b[2], key=key)


def connect(dsn):
    c = psycopg2.connect(dsn)
    c.autocommit = True
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", required=True)
    ap.add_argument("--floe", required=True)
    ap.add_argument("--limit", type=int, default=0, help="first N statements only")
    ap.add_argument("--show-diff", action="store_true")
    ap.add_argument("scripts", nargs="+")
    args = ap.parse_args()
    for path in args.scripts:
        stmts = split(open(path, encoding="utf-8").read())
        name = path.rsplit("/", 1)[-1]
        db = "pgregress_" + re.sub(r"[^a-z0-9]", "_", name.lower())
        admin = connect(args.pg)
        with admin.cursor() as c:
            c.execute("DROP DATABASE IF EXISTS " + db)
            c.execute("CREATE DATABASE " + db)
        pg = connect(args.pg + " dbname=" + db)
        fl = connect(args.floe)
        for c in (pg, fl):
            run(c, "SET statement_timeout = '20s'")
        total = ident = skipped = 0
        for line, sql in stmts:
            if sql is None:
                skipped += 1
                continue
            if sql == "\\c":
                pg.close()
                fl.close()
                pg = connect(args.pg + " dbname=" + db)
                fl = connect(args.floe)
                for c in (pg, fl):
                    run(c, "SET statement_timeout = '20s'")
                continue
            if args.limit and total >= args.limit:
                break
            total += 1
            a = run(pg, sql)
            if a[1] == "client" or pg.closed:
                pg = connect(args.pg + " dbname=" + db)
            b = run(fl, sql)
            if fl.closed:
                fl = connect(args.floe)
            if same(sql, a, b):
                ident += 1
            elif args.show_diff:
                print("--- %s:%d: %s" % (name, line, " ".join(sql.split())[:200]))
                print("    postgres: %s" % (a[1] if not a[0] else "%s %s" % (a[1], (a[2] or [])[:3])))
                print("    floe:     %s" % (b[1] if not b[0] else "%s %s" % (b[1], (b[2] or [])[:3])))
                if not b[0]:
                    print("              %s" % b[2])
        pg.close()
        fl.close()
        with admin.cursor() as c:
            c.execute("DROP DATABASE IF EXISTS " + db)
        admin.close()
        share = 100.0 * ident / total if total else 0.0
        print("%s: %d/%d identical (%.1f%%), %d skipped" % (name, ident, total, share, skipped))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
