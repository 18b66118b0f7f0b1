#!/usr/bin/env python3
"""startup_client.py — settings in the startup packet (issue 3): every
parameter but user/database is applied as if SET at session start (the
`options` parameter's -c switches first, then the packet's own settings),
with the ParameterStatus messages PostgreSQL sends for the reported ones
(application_name, client_encoding, DateStyle, IntervalStyle, TimeZone),
also after a SET later in the session; a bad value is a FATAL error.

    startup_client.py HOST PORT USER DATABASE

Raw protocol (libpq sends only some parameters itself), trust login.
Prints one line per check; the suite runs it against floe serve and
PostgreSQL 15 and compares the transcripts (floe's must be identical).
The checks also assert the values PostgreSQL 15 gives (exit 1 otherwise).
"""
import socket
import struct
import sys

host, port, user, db = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
REPORTED = ("application_name", "client_encoding", "DateStyle", "IntervalStyle", "TimeZone")
failed = 0


class Conn:
    def __init__(self, params):
        self.s = socket.create_connection((host, port), timeout=30)
        self.buf = b""
        body = struct.pack("!I", 196608)
        for k, v in [("user", user), ("database", db)] + params:
            body += k.encode() + b"\0" + v.encode() + b"\0"
        body += b"\0"
        self.s.sendall(struct.pack("!I", len(body) + 4) + body)

    def read(self):
        while True:
            if len(self.buf) >= 5:
                t = self.buf[:1]
                n = struct.unpack("!I", self.buf[1:5])[0]
                if len(self.buf) >= 1 + n:
                    body = self.buf[5:1 + n]
                    self.buf = self.buf[1 + n:]
                    return t, body
            d = self.s.recv(65536)
            if not d:
                return None, b""
            self.buf += d

    def until_ready(self):
        """(ParameterStatus dict, error fields or None, data rows) up to
        ReadyForQuery or the connection's end."""
        ps, err, rows = {}, None, []
        while True:
            t, body = self.read()
            if t is None or t == b"Z":
                return ps, err, rows
            if t == b"S":
                k, v = body.split(b"\0")[:2]
                ps[k.decode()] = v.decode()
            elif t == b"E":
                err = {}
                for f in body.split(b"\0"):
                    if f:
                        err[f[:1].decode()] = f[1:].decode()
            elif t == b"D":
                n = struct.unpack("!H", body[:2])[0]
                p, row = 2, []
                for _ in range(n):
                    ln = struct.unpack("!i", body[p:p + 4])[0]
                    p += 4
                    row.append(None if ln < 0 else body[p:p + ln].decode())
                    p += max(ln, 0)
                rows.append(row)

    def query(self, sql):
        b = sql.encode() + b"\0"
        self.s.sendall(b"Q" + struct.pack("!I", len(b) + 4) + b)
        return self.until_ready()

    def close(self):
        try:
            self.s.sendall(b"X\0\0\0\4")
        except OSError:
            pass
        self.s.close()


def check(label, got, want):
    global failed
    print(f"{label}: {got}")
    if got != want:
        print(f"MISMATCH {label}: want {want}")
        failed += 1


def reported(ps):
    return {k: ps[k] for k in REPORTED if k in ps and k != "TimeZone"}


def connect(label, params, shows, want_ps=None, want_shows=None):
    c = Conn(params)
    ps, err, _ = c.until_ready()
    if err:
        check(label + " login", (err.get("S"), err.get("C"), err.get("M")), want_ps)
        c.close()
        return
    check(label + " ParameterStatus", reported(ps), want_ps)
    got = []
    for name in shows:
        _, e, rows = c.query("SHOW " + name)
        got.append(e.get("C") if e else rows[0][0])
    check(label + " SHOW " + ", ".join(shows), got, want_shows)
    c.close()


setup = Conn([])
setup.until_ready()
_, e, _ = setup.query("DROP TABLE IF EXISTS startup_s.startup_t")
_, e, _ = setup.query("CREATE SCHEMA IF NOT EXISTS startup_s")
_, e, _ = setup.query("CREATE TABLE startup_s.startup_t (v text)")
_, e2, _ = setup.query("INSERT INTO startup_s.startup_t VALUES ('in startup_s')")
if e or e2:
    print("setup failed:", e or e2)
    sys.exit(1)
setup.close()

DEFAULT_PS = {"application_name": "", "client_encoding": "UTF8", "DateStyle": "ISO, MDY",
              "IntervalStyle": "postgres"}

connect("plain", [], ["extra_float_digits"], DEFAULT_PS, ["1"])
connect("packet settings",
        [("application_name", "startup app"), ("DateStyle", "iso, dmy"),
         ("client_encoding", "utf-8"), ("extra_float_digits", "0"), ("search_path", "startup_s"),
         ("statement_timeout", "0")],
        ["DateStyle", "client_encoding", "extra_float_digits", "search_path", "application_name"],
        {"application_name": "startup app", "client_encoding": "UTF8", "DateStyle": "ISO, DMY",
         "IntervalStyle": "postgres"},
        ["ISO, DMY", "UTF8", "0", "startup_s", "startup app"])
connect("options",
        [("options", "-c extra_float_digits=-3 -c DateStyle=German --application_name=opt\\ app")],
        ["extra_float_digits", "DateStyle", "application_name"],
        {"application_name": "opt app", "client_encoding": "UTF8", "DateStyle": "German, DMY",
         "IntervalStyle": "postgres"},
        ["-3", "German, DMY", "opt app"])
# the packet's own settings win over options' -c switches (applied after)
connect("packet after options",
        [("options", "-c extra_float_digits=2"), ("extra_float_digits", "-1")],
        ["extra_float_digits"], DEFAULT_PS, ["-1"])
connect("bad extra_float_digits", [("extra_float_digits", "abc")], [],
        ("FATAL", "22023", 'invalid value for parameter "extra_float_digits": "abc"'))
connect("out of range extra_float_digits", [("options", "-c extra_float_digits=4")], [],
        ("FATAL", "22023", '4 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)'))
connect("bad DateStyle", [("DateStyle", "nonsense")], [],
        ("FATAL", "22023", 'invalid value for parameter "DateStyle": "nonsense"'))

# search_path from the packet resolves unqualified names
c = Conn([("search_path", "startup_s")])
c.until_ready()
_, e, rows = c.query("SELECT v FROM startup_t")
check("search_path resolves", e.get("C") if e else rows, [["in startup_s"]])
c.close()

# statement_timeout from the packet (ms) cancels a long statement
c = Conn([("statement_timeout", "100")])
c.until_ready()
_, e, rows = c.query("SELECT count(*) FROM generate_series(1, 2000000000)")
check("statement_timeout cancels", e.get("C") if e else rows, "57014")
c.close()

# SET later in the session: ParameterStatus for reported settings only
c = Conn([])
c.until_ready()
ps, e, _ = c.query("SET application_name = 'later'")
check("SET application_name reports", reported(ps), {"application_name": "later"})
ps, e, _ = c.query("SET DateStyle = 'SQL'")
check("SET DateStyle reports", reported(ps), {"DateStyle": "SQL, MDY"})
ps, e, _ = c.query("SET extra_float_digits = 2")
check("SET extra_float_digits reports nothing", reported(ps), {})
ps, e, _ = c.query("RESET DateStyle")
check("RESET DateStyle reports", reported(ps), {"DateStyle": "ISO, MDY"})
ps, e, _ = c.query("SET application_name = 'later'")
check("unchanged application_name not reported", reported(ps), {})
c.close()

c = Conn([])
c.until_ready()
c.query("DROP TABLE startup_s.startup_t")
c.close()
sys.exit(1 if failed else 0)
