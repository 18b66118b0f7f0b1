#!/usr/bin/python3
"""idle_client.py -- idle connection handling (psycopg 3).

Usage: idle_client.py CONNINFO            session settings
       idle_client.py CONNINFO --server   the server's default (floe serve --idle-timeout 1)

Session settings: idle_session_timeout 300ms closes a connection idle for
a second (FATAL "terminating connection due to idle-session timeout"),
idle_in_transaction_session_timeout 300ms one idle inside a transaction
block, and a connection that sends a statement every 0.5 s under a 2 s
idle_session_timeout stays open.  Prints one line, identical against
PostgreSQL 15: "closed:msg closed:msg busy-alive".
--server: a connection idle for 2 s is closed ("closed:msg"), one that sets
idle_session_timeout = 0 is not ("alive").
"""
import sys
import time

import psycopg


def closed_after(c, secs, what):
    time.sleep(secs)
    try:
        c.execute("SELECT 1")
        return "alive"
    except psycopg.OperationalError as e:
        return "closed:" + ("msg" if what in str(e) else str(e).replace("\n", " "))


ci = sys.argv[1]
out = []
if len(sys.argv) > 2 and sys.argv[2] == "--server":
    c = psycopg.connect(ci, autocommit=True)
    out.append(closed_after(c, 2.0, "idle-session timeout"))
    c = psycopg.connect(ci, autocommit=True)
    c.execute("SET idle_session_timeout = 0")
    out.append(closed_after(c, 2.0, "idle-session timeout"))
else:
    c = psycopg.connect(ci, autocommit=True)
    c.execute("SET idle_session_timeout = '300ms'")
    out.append(closed_after(c, 1.0, "idle-session timeout"))
    c = psycopg.connect(ci)
    c.execute("SET idle_in_transaction_session_timeout = '300ms'")
    c.execute("SELECT 1")
    out.append(closed_after(c, 1.0, "idle-in-transaction timeout"))
    c = psycopg.connect(ci, autocommit=True)
    c.execute("SET idle_session_timeout = '2s'")
    for i in range(3):
        time.sleep(0.5)
        c.execute("SELECT 1")
    out.append("busy-alive")
print(" ".join(out))
