#!/usr/bin/python3
"""temp_sessions.py -- temporary tables across sessions of one server (psycopg 3).

Usage: temp_sessions.py CONNINFO [SCRATCH]

Two connections each create a temporary table of the same name (and one
the name of a permanent table) and fill it differently: each sees only its
own rows, the other's pg_temp schema does not exist for it, and the
permanent table is untouched.  Then connection A is closed normally and
connection B's socket is dropped without a Terminate message; a third
connection sees neither temporary table.  SCRATCH: the server's TMPDIR,
where each of the two sessions has its folder floe-temp-* while it lives.  Prints one line per check,
"ok NAME" or "FAIL NAME: why", then "done".
"""
import glob
import os
import socket
import sys
import time

import psycopg

ci = sys.argv[1]
ok = True


def check(name, cond, why=""):
    global ok
    if cond:
        print("ok " + name)
    else:
        ok = False
        print("FAIL %s: %s" % (name, why))


p = psycopg.connect(ci, autocommit=True)
p.execute("CREATE TABLE shared (v text)")
p.execute("INSERT INTO shared VALUES ('permanent')")

a = psycopg.connect(ci, autocommit=True)
b = psycopg.connect(ci, autocommit=True)
a.execute("CREATE TEMP TABLE tt (v text)")
b.execute("CREATE TEMP TABLE tt (v text)")
a.execute("INSERT INTO tt SELECT 'a' || g FROM generate_series(1, 3) g")
b.execute("INSERT INTO tt VALUES ('b1')")
a.execute("CREATE TEMP TABLE shared (v text)")
a.execute("INSERT INTO shared VALUES ('a-temp')")

ra = sorted(r[0] for r in a.execute("SELECT v FROM tt"))
rb = sorted(r[0] for r in b.execute("SELECT v FROM tt"))
check("own_rows_a", ra == ["a1", "a2", "a3"], ra)
check("own_rows_b", rb == ["b1"], rb)
check("shadow_in_a", a.execute("SELECT v FROM shared").fetchall() == [("a-temp",)])
check("no_shadow_in_b", b.execute("SELECT v FROM shared").fetchall() == [("permanent",)])
check("no_shadow_in_p", p.execute("SELECT v FROM shared").fetchall() == [("permanent",)])

if len(sys.argv) > 2:
    dirs = glob.glob(os.path.join(sys.argv[2], "floe-temp-*"))
    check("scratch_folders_while_alive", len(dirs) == 2, dirs)

# the other session's pg_temp schema does not exist for this one
nsa = a.execute("SELECT table_schema FROM information_schema.tables WHERE table_name = 'tt'").fetchall()
nsb = b.execute("SELECT table_schema FROM information_schema.tables WHERE table_name = 'tt'").fetchall()
check("one_tt_each", len(nsa) == 1 and len(nsb) == 1 and nsa != nsb, (nsa, nsb))
try:
    b.execute('SELECT * FROM %s.tt' % nsa[0][0])
    check("other_pg_temp_hidden", False, "b read a's table")
except psycopg.Error as e:
    check("other_pg_temp_hidden", e.sqlstate in ("42P01", "3F000"), e.sqlstate)
check("p_sees_no_tt",
      p.execute("SELECT count(*) FROM pg_class WHERE relname = 'tt'").fetchone()[0] == 0)

# A ends normally; B's connection is cut without a Terminate message
a.close()
fd = b.pgconn.socket
s = socket.socket(fileno=socket.dup(fd))
s.shutdown(socket.SHUT_RDWR)
s.close()
time.sleep(1.0)

c = psycopg.connect(ci, autocommit=True)
n = c.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'tt'").fetchone()[0]
check("gone_after_sessions", n == 0, n)
check("permanent_intact", c.execute("SELECT v FROM shared").fetchall() == [("permanent",)])
c.close()
p.close()
print("done" if ok else "failed")
