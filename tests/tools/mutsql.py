#!/usr/bin/env python3
"""mutsql: a mutation fuzzer for SQL statements — no statement may crash floe.

It takes every SQL statement of the tests/sql/**/*.test files, applies random
token-level mutations (a token replaced by NULL, '', 0, a huge number, a set
operator, a keyword, a parenthesis; a token dropped; a span repeated), and runs
the mutants through the floe shell (ON_ERROR_STOP=0) in batches over a small
seeded schema.  Any statement may fail with an error; none may crash the
process, trip the sanitizers or hang (statement_timeout is 3 s, so a
statement that runs long must be stopped by it: a batch that outlives its
timeout is a hang).  A failing batch is bisected down to the
one statement (plus the batch's CREATE statements before it) that reproduces.

Usage: mutsql.py FLOE_BIN SEED COUNT [--batch N] [--timeout S] [--files]
--files runs whole test files instead (each a batch, in its own schema: most
statements would otherwise fail on a table of their file that is not there),
CREATE and INSERT mostly as written, about half of the rest mutated.
Each mutant is closed (open parentheses) so that it ends at its own semicolon,
and every batch must run to its end marker: a statement that swallowed the
rest of its batch would otherwise hide all that follow it.

Prints "PASS mutsql: seed S, N statements" or "FAIL mutsql: ..." with the
reproducer, and exits 1 on failure.
"""
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
SHARED = os.path.abspath(os.path.join(ROOT, "../shared"))

SETUP = """
SET statement_timeout = '3s';
CREATE TABLE t (a int, b text, c numeric(10,2), d date, e bigint, f double precision, g boolean);
INSERT INTO t VALUES (1, 'x', 1.50, '2024-01-02', 10, 0.5, true), (2, NULL, NULL, NULL, NULL, NULL, NULL),
  (NULL, '', -3.25, '1999-12-31', -1, 'NaN', false), (4, 'yy', 0, '2024-02-29', 9223372036854775807, -0.0, true);
CREATE TABLE u (a int, b text);
INSERT INTO u VALUES (1, 'x'), (1, 'x'), (3, NULL);
CREATE TABLE e0 (a int);
"""

REPLACEMENTS = [
    "NULL", "''", "0", "-1", "2147483648", "-9223372036854775808", "1e308", "'NaN'", "(SELECT)",
    "(SELECT NULL)", "ARRAY[]::int[]", "ARRAY[NULL]", "UNION", "UNION ALL", "INTERSECT", "EXCEPT",
    "ALL", "DISTINCT", "LIMIT", "OFFSET", "GROUP BY", "ORDER BY", "HAVING", "WHERE", "(", ")", ",",
    "*", "t", "u", "e0", "a", "b", "NOT", "AND", "OR", "IS NULL", "CASE WHEN", "END", "::text",
    "::int", "::numeric", "::date", "ROW()", "LATERAL", "VALUES (1)", "SELECT", "FROM", "JOIN",
    "ON true", "USING (a)", "NATURAL", "generate_series(1, 3)", "unnest(ARRAY[1, NULL])", "over ()",
    "filter (where false)", "WITH RECURSIVE", "RETURNING *", "DEFAULT", "$1", "ROLLUP (a)",
]

TOKEN = re.compile(r"\s+|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[A-Za-z_][A-Za-z0-9_$]*|\d+(?:\.\d+)?|::|<>|<=|>=|!=|\|\||.", re.S)


def statements():
    return [sql for stmts in file_statements() for sql in stmts]


def file_statements():
    """Each test file's statements, in order."""
    files = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/sql/**/*.test"), recursive=True)):
        out = []
        files.append(out)
        text = open(path, encoding="utf-8", errors="replace").read()
        for rec in re.split(r"\n\s*\n", text):
            lines = [l for l in rec.split("\n") if not l.startswith("#")]
            if not lines or not (lines[0].startswith("statement") or lines[0].startswith("query")):
                continue
            body = lines[1:]
            if "----" in body:
                body = body[:body.index("----")]
            sql = "\n".join(body).strip()
            if not sql or re.search(r"(?i)\bcopy\b|__TEST_DIR__|__WAREHOUSE__|pg_sleep|\bloop\b", sql):
                continue
            out.append(sql.replace("__SHARED__", SHARED))
    return [f for f in files if f]


CREATED = re.compile(r"(?is)\s*create\s+(?:or\s+replace\s+)?(table|view)\s+(?:if\s+not\s+exists\s+)?([A-Za-z_][A-Za-z0-9_.]*)")


def file_batch(rng, stmts, base):
    """One test file's statements in their file's own schema: its CREATE and
    INSERT statements mostly as written (a DROP first, as the names may be the
    seeded schema's), about half of the rest mutated."""
    out = []
    for sql in stmts:
        m = CREATED.match(sql)
        if m:
            out.append("DROP %s IF EXISTS %s" % (m.group(1), m.group(2)))
        keep = rng.random() < (0.9 if re.match(r"(?is)\s*(create|insert)\b", sql) else 0.5)
        sql = sql if keep else self_contained(mutate(rng, sql, base))
        if sql is not None:
            out.append(sql)
    return out


LITERALS = ["NULL", "''", "0", "-1", "2147483648", "-9223372036854775808", "1e308", "'NaN'",
            "(SELECT NULL)", "(SELECT 1 WHERE false)", "ARRAY[NULL]", "'infinity'", "-0.0",
            "99999999999999999999999999999999999999", "''::text", "NULL::int"]
SWAPS = [
    ["UNION", "INTERSECT", "EXCEPT"],
    ["ASC", "DESC"],
    ["LEFT", "RIGHT", "FULL", "INNER", "CROSS"],
    ["count", "sum", "min", "max", "avg", "array_agg", "bool_and", "stddev"],
    ["row_number", "rank", "dense_rank", "percent_rank", "cume_dist"],
    ["EXISTS", "NOT EXISTS"],
    ["IN", "NOT IN"],
    ["ANY", "ALL", "SOME"],
    ["true", "false", "NULL"],
    ["LIMIT", "OFFSET"],
    ["MATERIALIZED", "NOT MATERIALIZED"],
]
SWAP_OF = {w.lower(): grp for grp in SWAPS for w in grp}


SELECT_LIST = re.compile(r"(?is)^(\s*select\s+)(?:distinct\s+)?(.*?)(\s+from\s)")


def shape(rng, sql, base):
    """Statement-level mutations: zero-column select lists, set operations
    between unrelated queries, the statement as a CTE, under DML with
    RETURNING, nested 10-60 subqueries deep, empty and NULL-only inputs."""
    k = rng.random()
    if k < 0.3 and SELECT_LIST.match(sql):
        return SELECT_LIST.sub(lambda m: m.group(1) + m.group(3), sql, count=1)
    if k < 0.6:
        other = rng.choice(base)
        if not re.match(r"(?is)\s*(select|values|with|\()", other):
            other = "SELECT"
        op = rng.choice(["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"])
        if not re.match(r"(?is)\s*(select|values|with|\()", sql):
            sql = "SELECT"
        return "(%s) %s (%s)" % (sql, op, other)
    if k < 0.8:
        op = rng.choice(["UNION", "INTERSECT", "EXCEPT", "UNION ALL", "INTERSECT ALL", "EXCEPT ALL"])
        side = rng.choice(["SELECT", "SELECT FROM e0", "SELECT FROM t", "SELECT WHERE false",
                           "SELECT FROM t WHERE a IS NULL", "(SELECT) LIMIT 0"])
        return "%s %s %s" % (side, op, rng.choice(["SELECT", "SELECT FROM u", side]))
    query = sql if re.match(r"(?is)\s*(select|values|with|\()", sql) else "SELECT"
    if k < 0.84:
        return "WITH w AS %s(%s) SELECT * FROM w%s" % (
            rng.choice(["", "MATERIALIZED ", "NOT MATERIALIZED "]), query,
            rng.choice(["", ", w AS w2", " WHERE false", " LIMIT 1", " UNION ALL SELECT * FROM w"]))
    if k < 0.88:
        return rng.choice([
            "UPDATE u SET b = b WHERE EXISTS (%s) RETURNING *, (SELECT count(*) FROM t)",
            "INSERT INTO u SELECT 1, NULL FROM (%s) AS z2 LIMIT 1 RETURNING *",
            "DELETE FROM e0 WHERE EXISTS (%s) RETURNING a, (SELECT max(a) FROM u)",
            "MERGE INTO e0 USING (%s) AS z2 ON false WHEN NOT MATCHED THEN DO NOTHING",
        ]) % query
    if k < 0.92:
        n = rng.randint(10, 60)
        for i in range(n):
            query = rng.choice(["SELECT * FROM (%s) AS n%d" % (query, i),
                                "SELECT (SELECT count(*) FROM (%s) AS n%d)" % (query, i),
                                "SELECT EXISTS (%s) AS x%d" % (query, i)])
        return query
    return "SELECT * FROM (%s) AS z1 WHERE %s" % (
        rng.choice(["SELECT NULL AS n", "SELECT NULL AS n FROM e0", "VALUES (NULL), (NULL)",
                    "SELECT NULL::int AS n UNION ALL SELECT NULL", "SELECT FROM t"]),
        rng.choice(["true", "n IS NULL", "NULL", "false"]))


def mutate(rng, sql, base=None):
    if base is not None and rng.random() < 0.15:
        return shape(rng, sql, base)
    toks = [m.group(0) for m in TOKEN.finditer(sql)]
    idx = [i for i, t in enumerate(toks) if not t.isspace()]
    if not idx:
        return sql
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(idx)
        t = toks[i]
        k = rng.random()
        if k < 0.85 and (t[0].isdigit() or t[0] == "'"):
            toks[i] = " " + rng.choice(LITERALS) + " "
        elif k < 0.85 and t.lower() in SWAP_OF:
            toks[i] = rng.choice(SWAP_OF[t.lower()])
        elif k < 0.85 and t.lower() in ("from", "join") and i + 2 < len(toks):
            toks[i] = t + " " + rng.choice(["e0 AS z0,", "(SELECT) AS z0,", "(SELECT NULL AS n) AS z0,",
                                            "(VALUES (NULL)) AS z0(n),", "(SELECT * FROM e0) AS z0,"])
        elif k < 0.85 and t.lower() == "select":
            toks[i] = t + " " + rng.choice(["DISTINCT", "NULL,", "NULL::int AS n0,", "*,"])
        elif k < 0.85 and t.lower() in ("where", "having", "on", "when"):
            toks[i] = t + " " + rng.choice(["NULL AND", "NOT", "false OR", "(SELECT true) AND"])
        elif k < 0.93:
            toks[i] = " " + rng.choice(REPLACEMENTS) + " "
        elif k < 0.97:
            toks[i] = " "
        else:
            j = min(len(toks), i + rng.randint(1, 8))
            toks[i:i] = toks[i:j]
            idx = [w for w, x in enumerate(toks) if not x.isspace()]
    return "".join(toks)


END = "ROLLBACK;\nSELECT 'mutsql-end';\n"


def self_contained(sql):
    """sql closed so that the shell ends it at its own semicolon: the shell,
    like psql, ignores a semicolon inside parentheses, a string or a comment,
    so one mutant with an open '(' would swallow the rest of its batch (the
    batch then runs a single statement).  Open parentheses are closed; a
    mutant with an unterminated quote or comment is None (skipped)."""
    depth = 0
    for m in TOKEN.finditer(sql):
        t = m.group(0)
        if t in ("'", '"') or t.startswith("--") or "/*" in t:
            return None
        if t == "(":
            depth += 1
        elif t == ")" and depth > 0:
            depth -= 1
    if re.search(r"--|/\*|\$\$", sql):
        return None
    return sql.rstrip().rstrip(";") + ")" * depth


def run_batch(floe, stmts, timeout):
    """Returns None if the batch ran cleanly, else a reason."""
    wh = tempfile.mkdtemp(prefix="floe-mutsql.")
    try:
        script = SETUP + "\n" + "\n".join(s.rstrip().rstrip(";") + "\n;" for s in stmts) + "\n" + END
        try:
            p = subprocess.run([floe, "-D", wh, "-v", "ON_ERROR_STOP=0", "-q"], input=script,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", timeout=timeout, cwd=wh)
        except subprocess.TimeoutExpired:
            return "hang (no exit within %d s)" % timeout
        err = p.stderr
        if p.returncode < 0:
            return "killed by signal %d" % -p.returncode
        for marker in ("AddressSanitizer", "runtime error:", "LeakSanitizer", "Assertion", "SUMMARY:"):
            if marker in err:
                at = err.index(marker)
                return "sanitizer: " + err[max(0, at - 200):at + 400].replace("\n", " | ")
        if p.returncode not in (0, 1, 3):
            return "exit status %d" % p.returncode
        if "mutsql-end" not in p.stdout:
            return "the batch did not run to its end (a statement swallowed the rest, or the shell quit)"
        return None
    finally:
        shutil.rmtree(wh, ignore_errors=True)


def bisect(floe, stmts, timeout):
    """The shortest tail of stmts ending at the first statement that fails
    (keeping earlier CREATEs, which later statements may need)."""
    lo, hi = 0, len(stmts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if run_batch(floe, stmts[:mid], timeout):
            hi = mid
        else:
            lo = mid
    culprit = stmts[hi - 1]
    ctx = [s for s in stmts[:hi - 1] if re.match(r"(?is)\s*(create|insert|drop)\b", s)]
    if run_batch(floe, [culprit], timeout):
        return [culprit]
    return ctx + [culprit]


def main():
    args = sys.argv[1:]
    batch, timeout = 200, 120
    if "--batch" in args:
        i = args.index("--batch")
        batch = int(args[i + 1])
        del args[i:i + 2]
    if "--timeout" in args:
        i = args.index("--timeout")
        timeout = int(args[i + 1])
        del args[i:i + 2]
    by_file = "--files" in args
    if by_file:
        args.remove("--files")
    floe, seed, count = os.path.abspath(args[0]), int(args[1]), int(args[2])
    rng = random.Random(seed)
    files = file_statements()
    base = [sql for stmts in files for sql in stmts]
    if by_file:
        chunks, n = [], 0
        while n < count:
            chunks.append(file_batch(rng, rng.choice(files), base))
            n += len(chunks[-1])
    else:
        mutants = []
        while len(mutants) < count:
            m = self_contained(mutate(rng, rng.choice(base), base))
            if m is not None:
                mutants.append(m)
        chunks = [mutants[k:k + batch] for k in range(0, len(mutants), batch)]
    for chunk in chunks:
        why = run_batch(floe, chunk, timeout)
        if why:
            repro = bisect(floe, chunk, timeout)
            print("FAIL mutsql: seed %d: %s" % (seed, why))
            print("    reproducer (%d statements):" % len(repro))
            for s in repro[-5:]:
                print("      " + s.replace("\n", " ")[:400] + ";")
            sys.exit(1)
    print("PASS mutsql: seed %d, %d statements" % (seed, count))


if __name__ == "__main__":
    main()
