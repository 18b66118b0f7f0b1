#!/usr/bin/env python3
"""wire.py -- raw PostgreSQL v3 protocol checks against a live server.

Usage: wire.py HOST PORT TEST      TEST: proto | garbage [N]

proto    byte-level behaviour libpq does not expose: SSLRequest/GSSENCRequest
         answered 'N', protocol version negotiation, Execute with a row
         limit (PortalSuspended), error recovery that discards until Sync,
         Describe of statements and portals, Close, ReadyForQuery's status
         byte (I/T/E), NoticeResponse fields, Terminate, unknown message
         types and bad lengths (FATAL 08P01).  The expectations were checked
         against PostgreSQL 15 with this same script (WIRE_USER=postgres
         WIRE_DB=postgres): all pass there but gssenc_request_N, as a
         PostgreSQL built with GSSAPI answers 'G'.
garbage  N (default 10000) malformed packets over many connections (random
         startup packets, random bodies of every message type, bad lengths,
         truncated messages, well-framed packets with invalid UTF-8), then a
         normal query must still work.

Prints "ok NAME" / "not ok NAME: why"; exit status 1 if anything failed.
"""
import os
import random
import socket
import struct
import sys

failures = 0


def check(cond, name, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("not ok %s: %s" % (name, why))


class Conn:
    def __init__(self, host, port, timeout=10):
        self.s = socket.create_connection((host, port), timeout=timeout)
        self.buf = b""

    def send(self, b):
        self.s.sendall(b)

    def msg(self, t, body=b""):
        self.send(t + struct.pack("!I", len(body) + 4) + body)

    def recv_exact(self, n):
        while len(self.buf) < n:
            d = self.s.recv(65536)
            if not d:
                raise EOFError
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self):
        t = self.recv_exact(1)
        (n,) = struct.unpack("!I", self.recv_exact(4))
        return t, self.recv_exact(n - 4)

    def until(self, stop=b"Z"):
        """messages up to and including one of type `stop`"""
        out = []
        while True:
            t, b = self.read()
            out.append((t, b))
            if t == stop:
                return out

    def startup(self, user=None, extra=None, version=196608):
        # WIRE_USER / WIRE_DB: to run this script against PostgreSQL itself
        params = [("user", user or os.environ.get("WIRE_USER", "wire")),
                  ("database", os.environ.get("WIRE_DB", "floe"))] + (extra or [])
        body = struct.pack("!I", version)
        for k, v in params:
            body += k.encode() + b"\0" + v.encode() + b"\0"
        body += b"\0"
        self.send(struct.pack("!I", len(body) + 4) + body)

    def drain(self):
        """every byte the server sends until it closes (None: no close in 5 s)"""
        data = self.buf
        try:
            self.s.settimeout(5)
            while True:
                d = self.s.recv(65536)
                if not d:
                    return data
                data += d
        except (ConnectionResetError, BrokenPipeError):
            return data
        except socket.timeout:
            return None

    def closed(self):
        try:
            self.s.settimeout(5)
            while True:
                d = self.s.recv(65536)
                if not d:
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def cstr(s):
    return s.encode() + b"\0"


def fields(body):
    out = {}
    for part in body.split(b"\0"):
        if part:
            out[chr(part[0])] = part[1:].decode(errors="backslashreplace")
    return out


def types(msgs):
    return b"".join(t for t, _ in msgs).decode()


def parse(name, sql, oids=()):
    return cstr(name) + cstr(sql) + struct.pack("!h", len(oids)) + b"".join(struct.pack("!I", o) for o in oids)


def bind(portal, stmt, params=(), rfmt=()):
    b = cstr(portal) + cstr(stmt) + struct.pack("!h", 0) + struct.pack("!h", len(params))
    for p in params:
        if p is None:
            b += struct.pack("!i", -1)
        else:
            b += struct.pack("!i", len(p)) + p
    return b + struct.pack("!h", len(rfmt)) + b"".join(struct.pack("!h", f) for f in rfmt)


def bindf(portal, stmt, params, pfmt):
    """Bind with parameter format codes (0 text, 1 binary)"""
    b = cstr(portal) + cstr(stmt) + struct.pack("!h", len(pfmt)) + b"".join(struct.pack("!h", f) for f in pfmt)
    b += struct.pack("!h", len(params)) + b"".join(struct.pack("!i", len(p)) + p for p in params)
    return b + struct.pack("!h", 0)


def execute(portal, maxrows=0):
    return cstr(portal) + struct.pack("!i", maxrows)


def ready(host, port, name):
    c = Conn(host, port)
    c.startup()
    msgs = c.until()
    ok = msgs[0][0] == b"R" and msgs[0][1] == struct.pack("!I", 0)
    check(ok, name, types(msgs))
    return c


def test_proto(host, port):
    # SSLRequest and GSSENCRequest: 'N', then a normal startup
    # (PostgreSQL built with GSSAPI answers 'G' here: floe has no GSSAPI)
    c = Conn(host, port)
    c.send(struct.pack("!II", 8, 80877104))
    check(c.recv_exact(1) == b"N", "gssenc_request_N")
    c.s.close()
    c = Conn(host, port)
    c.send(struct.pack("!II", 8, 80877103))
    check(c.recv_exact(1) == b"N", "ssl_request_N")
    c.startup()
    msgs = c.until()
    ts = types(msgs)
    check(ts.startswith("R") and "K" in ts and ts.endswith("Z") and msgs[-1][1] == b"I", "startup_sequence", ts)
    ps = dict(tuple(x.decode() for x in b.split(b"\0")[:2]) for t, b in msgs if t == b"S")
    for k in ("server_version", "server_encoding", "client_encoding", "DateStyle", "integer_datetimes",
              "standard_conforming_strings", "TimeZone", "application_name", "is_superuser",
              "session_authorization"):
        check(k in ps, "parameter_status_" + k, str(sorted(ps)))
    check(ps.get("DateStyle") == "ISO, MDY" and ps.get("client_encoding") == "UTF8", "parameter_values", str(ps))

    # Execute with a row limit: PortalSuspended, then the rest
    c.msg(b"P", parse("", "SELECT g FROM generate_series(1, 7) AS t(g)"))
    c.msg(b"B", bind("", ""))
    c.msg(b"D", b"P" + cstr(""))
    c.msg(b"E", execute("", 3))
    c.msg(b"E", execute("", 3))
    c.msg(b"E", execute("", 3))
    c.msg(b"S")
    msgs = c.until()
    ts = types(msgs)
    check(ts == "12TDDDsDDDsDCZ", "portal_suspended", ts)
    tags = [b.rstrip(b"\0").decode() for t, b in msgs if t == b"C"]
    check(tags == ["SELECT 1"], "suspended_tag", str(tags))
    rows = [b for t, b in msgs if t == b"D"]
    check(rows and rows[-1][-1:] == b"7" and rows[0][-1:] == b"1", "suspended_rows_in_order", str(rows[:1]))

    # named statement, Describe S (ParameterDescription + RowDescription), Close
    c.msg(b"P", parse("s1", "SELECT $1::int AS v, $2 AS w", (23,)))
    c.msg(b"D", b"S" + cstr("s1"))
    c.msg(b"B", bind("p1", "s1", (b"5", b"x")))
    c.msg(b"E", execute("p1"))
    c.msg(b"C", b"P" + cstr("p1"))
    c.msg(b"C", b"S" + cstr("s1"))
    c.msg(b"S")
    msgs = c.until()
    ts = types(msgs)
    check(ts == "1tT2DC33Z", "named_statement_flow", ts)
    pd = [b for t, b in msgs if t == b"t"]
    if pd:
        n = struct.unpack("!h", pd[0][:2])[0]
        oids = struct.unpack("!%dI" % n, pd[0][2:2 + 4 * n])
        check(n == 2 and oids[0] == 23, "parameter_description", str(oids))
    c.msg(b"B", bind("", "s1", (b"5", b"x")))
    c.msg(b"S")
    msgs = c.until()
    check(types(msgs) == "EZ" and fields(msgs[0][1]).get("C") == "26000", "closed_statement_gone", types(msgs))

    # the parameter count ignores $n inside literals, E'' escapes, comments
    c.msg(b"P", parse("cnt", "SELECT E'\\' $2', 'b$3', 1 AS \"c$4\", $1::int /* $5 */ -- $6\n"))
    c.msg(b"D", b"S" + cstr("cnt"))
    c.msg(b"S")
    msgs = c.until()
    pd = [b for t, b in msgs if t == b"t"]
    check(pd and struct.unpack("!h", pd[0][:2])[0] == 1, "param_count_lexical", str(msgs))

    # error recovery: everything after the error is skipped until Sync
    c.msg(b"P", parse("", "SELEC 1"))
    c.msg(b"B", bind("", ""))
    c.msg(b"E", execute(""))
    c.msg(b"Q", cstr("SELECT 1"))
    c.msg(b"S")
    msgs = c.until()
    check(types(msgs) == "EZ" and fields(msgs[0][1]).get("C") == "42601", "discard_until_sync", types(msgs))
    f = fields(msgs[0][1])
    check(f.get("S") == "ERROR" and f.get("V") == "ERROR" and f.get("P") == "1" and "M" in f, "error_fields", str(f))

    # simple query: several statements, an empty query, an error in the middle
    c.msg(b"Q", cstr("SELECT 1; SELECT 2"))
    check(types(c.until()) == "TDCTDCZ", "simple_multi")
    c.msg(b"Q", cstr(""))
    check(types(c.until()) == "IZ", "simple_empty")
    c.msg(b"Q", cstr("SELECT 1; SELECT 1/0; SELECT 3"))
    msgs = c.until()
    check(types(msgs) == "TDCEZ" and fields(msgs[3][1]).get("C") == "22012", "simple_stops_at_error", types(msgs))
    c.msg(b"Q", cstr("SELECT '\xff'"))   # str -> UTF-8 bytes: valid UTF-8, fine
    check(types(c.until()) == "TDCZ", "simple_utf8_ok")
    c.send(b"Q" + struct.pack("!I", 4 + 11) + b"SELECT '\xc3(\0")
    msgs = c.until()
    check(types(msgs) == "EZ" and fields(msgs[0][1]).get("C") == "22021", "invalid_utf8_22021", types(msgs))
    # a NUL or invalid UTF-8 in a Bind parameter, text or binary: 22021 with
    # PostgreSQL's message and CONTEXT, the same every time (floe once sent a
    # never-filled, stale error here: a garbage SQLSTATE, a growing message)
    c.msg(b"P", parse("", "SELECT $1"))
    c.msg(b"P", parse("s2", "SELECT $1::text, $2", (25, 25)))
    c.msg(b"S")
    c.until()
    cases = [("", "", [b"a\0b"], [1], "0x00", "unnamed portal parameter $1")] * 3 + [
        ("", "", [b"a\0b"], [0], "0x00", "unnamed portal parameter $1"),
        ("", "", [b"\xff"], [0], "0xff", "unnamed portal parameter $1"),
        ("p1", "s2", [b"ok", b"\xc3\x28"], [1], "0xc3 0x28", 'portal "p1" parameter $2'),
        ("p1", "s2", [b"ok", b"x\xed\xa0\x80"], [0, 1], "0xed 0xa0 0x80", 'portal "p1" parameter $2'),
    ]
    for portal, stmt, params, pfmt, shown, ctx in cases:
        c.msg(b"B", bindf(portal, stmt, params, pfmt))
        c.msg(b"E", execute(portal))
        c.msg(b"S")
        msgs = c.until()
        f = {k: v for k, v in fields(msgs[0][1]).items() if k not in "FLR"}   # PostgreSQL's source location
        want = {"S": "ERROR", "V": "ERROR", "C": "22021", "W": ctx,
                "M": 'invalid byte sequence for encoding "UTF8": ' + shown}
        check(types(msgs) == "EZ" and f == want, "bind_param_22021_" + shown.replace(" ", "_"),
              "%s %r" % (types(msgs), f))
    # CopyFail's text is echoed in the error: UTF-8 checked first
    c.msg(b"Q", cstr("DROP TABLE IF EXISTS wire_cf; CREATE TABLE wire_cf (a int)"))
    c.until()
    c.msg(b"Q", cstr("COPY wire_cf FROM STDIN"))
    t, _ = c.read()
    c.msg(b"f", b"bad \xff\0")
    msgs = c.until()
    f = fields(msgs[0][1]) if msgs else {}
    check(t == b"G" and types(msgs) == "EZ" and f.get("C") == "22021", "copy_fail_text_22021",
          "%s %s %r" % (t, types(msgs), f))
    c.msg(b"Q", cstr("DROP TABLE wire_cf"))
    c.until()
    # statement and portal names are client text too: never echoed unchecked
    for t, body, name in ((b"D", b"S\xff\0", "describe"), (b"C", b"P\xc3\0", "close"),
                          (b"E", b"\xe2\x28\0\0\0\0\0", "execute"),
                          (b"B", b"\0\xff\0\0\0\0\0\0\0", "bind_stmt")):
        c.send(t + struct.pack("!I", len(body) + 4) + body)
        c.msg(b"S")
        msgs = c.until()
        f = fields(msgs[0][1])
        check(types(msgs) == "EZ" and f.get("C") == "22021" and f.get("M", "").startswith(
            "invalid byte sequence for encoding"), "name_22021_" + name, "%s %r" % (types(msgs), f))
    # Flush sends pending output without Sync
    c.msg(b"P", parse("", "SELECT 1"))
    c.msg(b"H")
    t, _ = c.read()
    check(t == b"1", "flush", t)
    c.msg(b"S")
    c.until()

    # ReadyForQuery's status byte: I idle, T in a block, E in a failed block
    tc = ready(host, port, "status_byte")
    st = []
    for q in ("BEGIN", "SELECT 1 / 0", "SELECT 1", "ROLLBACK"):
        tc.msg(b"Q", cstr(q))
        st.append(tc.until()[-1][1])
    check(st == [b"T", b"E", b"E", b"I"], "ready_status_T_E_I", str(st))
    # NoticeResponse: S, V, C 00000, M
    tc.msg(b"Q", cstr("DROP TABLE IF EXISTS wire_nosuch"))
    msgs = tc.until()
    n = [fields(b) for t, b in msgs if t == b"N"]
    check(types(msgs) == "NCZ" and n[0].get("S") == "NOTICE" and n[0].get("V") == "NOTICE" and
          n[0].get("C") == "00000" and n[0].get("M") == 'table "wire_nosuch" does not exist, skipping',
          "notice_fields", str(n))
    # Terminate: the server closes the connection without an answer
    tc.msg(b"X")
    check(tc.closed(), "terminate_closes")

    # unknown message type: FATAL 08P01 and the connection closes
    c.msg(b"@", b"")
    t, b = c.read()
    f = fields(b)
    check(t == b"E" and f.get("S") == "FATAL" and f.get("C") == "08P01", "unknown_type_fatal", str(f))
    check(c.closed(), "unknown_type_closes")

    # a bad length word
    c = ready(host, port, "startup_again")
    # (floe reports FATAL 08P01 first; PostgreSQL only logs it and closes)
    c.send(b"Q" + struct.pack("!I", 2))
    try:
        t, b = c.read()
        check(t == b"E" and fields(b).get("C") == "08P01" and c.closed(), "bad_length_fatal", str(fields(b)))
    except EOFError:
        check(True, "bad_length_closes")

    # protocol 3.1: NegotiateProtocolVersion, then a normal session
    c = Conn(host, port)
    c.startup(extra=[("_pq_.nothing", "x")], version=196609)
    msgs = c.until()
    v = [b for t, b in msgs if t == b"v"]
    # (the first word is the full version 3.0, as PostgreSQL 15 sends it)
    check(v and struct.unpack("!II", v[0][:8]) == (196608, 1) and b"_pq_.nothing" in v[0], "negotiate_protocol",
          str(v))
    # protocol 2.0: refused
    c = Conn(host, port)
    c.startup(version=131072)
    raw = b""
    try:
        while True:
            d = c.s.recv(65536)
            if not d:
                break
            raw += d
    except (ConnectionResetError, socket.timeout):
        pass
    # (PostgreSQL answers a 2.0 client in the 2.0 format: no length word)
    check(raw[:1] == b"E" and b"unsupported frontend protocol 2.0" in raw, "protocol_2_refused", repr(raw[:80]))
    # no user
    c = Conn(host, port)
    body = struct.pack("!I", 196608) + b"database\0x\0\0"
    c.send(struct.pack("!I", len(body) + 4) + body)
    t, b = c.read()
    check(t == b"E" and fields(b).get("C") == "28000", "no_user_28000", str(fields(b)))
    # options: -c settings applied at startup
    c = Conn(host, port)
    c.startup(extra=[("options", "-c search_path=public --application_name=wireopt")])
    msgs = c.until()
    check(types(msgs).endswith("Z") and msgs[0][0] == b"R", "startup_options", types(msgs))
    c.msg(b"Q", cstr("SHOW search_path"))
    msgs = c.until()
    rows = [b for t, b in msgs if t == b"D"]
    check(rows and rows[0].endswith(b"public"), "option_applied", str(rows))
    c = Conn(host, port)
    c.startup(extra=[("application_name", "wire's app")])
    c.until()
    c.msg(b"Q", cstr("SHOW application_name"))
    rows = [b for t, b in c.until() if t == b"D"]
    check(rows and rows[0].endswith(b"wire's app"), "startup_application_name", str(rows))
    # an oversized startup packet
    c = Conn(host, port)
    # (floe reports FATAL 08P01; PostgreSQL only logs it and closes)
    c.send(struct.pack("!II", 20000, 196608))
    try:
        t, b = c.read()
        check(t == b"E" and fields(b).get("C") == "08P01" and c.closed(), "startup_too_long", str(fields(b)))
    except EOFError:
        check(True, "startup_too_long_closes")


def bad_errors(data):
    """ErrorResponses/NoticeResponses in a stream of backend messages whose
    SQLSTATE is not five of [0-9A-Z] (or that are cut short)"""
    bad = []
    off = 0
    while off + 5 <= len(data):
        t = data[off:off + 1]
        (n,) = struct.unpack("!I", data[off + 1:off + 5])
        body = data[off + 5:off + 1 + n]
        if n < 4 or len(body) != n - 4:
            bad.append("cut message %r" % t)
            break
        if t in (b"E", b"N"):
            code = [p[1:] for p in body.split(b"\0") if p[:1] == b"C"]
            if len(code) != 1 or len(code[0]) != 5 or \
                    not all(ch in b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" for ch in code[0]):
                bad.append(repr(body[:60]))
        off += 1 + n
    return bad


def test_garbage(host, port, n):
    rnd = random.Random(12345)
    bad_sqlstates = 0
    sent = 0
    conns = 0
    typed = b"QPBDECSHdcfFXp@\x00\xff"
    while sent < n:
        conns += 1
        try:
            c = Conn(host, port, timeout=20)
            kind = rnd.randrange(5)
            if kind == 4 and rnd.randrange(2):
                # a well-framed startup packet with invalid UTF-8 in it
                bad = bytes([rnd.choice([0x80, 0xc3, 0xe2, 0xf0, 0xff, 0xfe])]) + b"x"
                params = rnd.choice([b"user\0" + bad + b"\0\0", b"user\0t\0" + bad + b"\0v\0\0",
                                     b"user\0t\0database\0" + bad + b"\0\0"])
                c.send(struct.pack("!II", 8 + len(params), 196608) + params)
                sent += 1
            elif kind == 4:
                # well-framed messages carrying invalid UTF-8 (22021 or 08P01, then on)
                c.startup()
                c.until()
                out = b""
                for _ in range(rnd.randrange(1, 40)):
                    bad = b"'" + bytes(rnd.choice([0x80, 0xc3, 0xed, 0xf4, 0xff]) for _ in range(3)) + b"'"
                    t, body = rnd.choice([
                        (b"Q", b"SELECT " + bad + b"\0"),
                        (b"P", bad[1:3] + b"\0SELECT $1\0\0\0"),
                        (b"P", b"\0SELECT " + bad + b"\0\0\0"),
                        (b"B", b"\0\0\0\0\0\1" + struct.pack("!I", 3) + bad[1:4] + b"\0\0"),
                        (b"S", b""),
                    ])
                    out += t + struct.pack("!I", len(body) + 4) + body
                    sent += 1
                c.send(out)
            elif kind == 0:
                # a garbage startup packet
                ln = rnd.choice([0, 3, 4, 8, 9, 100, 10001, rnd.randrange(1 << 32)])
                c.send(struct.pack("!I", ln) + bytes(rnd.randrange(256) for _ in range(rnd.randrange(64))))
                sent += 1
            else:
                c.startup()
                c.until()
                out = b""
                for _ in range(rnd.randrange(1, 120)):
                    t = bytes([rnd.choice(typed)])
                    body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(40)))
                    if rnd.randrange(6) == 0:
                        ln = rnd.choice([0, 1, 3, 1 << 31, len(body) + 4 + rnd.randrange(10)])
                    else:
                        ln = len(body) + 4
                    out += t + struct.pack("!I", ln & 0xffffffff) + body
                    sent += 1
                if kind == 2:
                    out = out[:rnd.randrange(len(out) + 1)]     # truncated
                c.send(out)
            c.s.shutdown(socket.SHUT_WR)
            data = c.drain()
            c.s.close()
            if data is None:
                check(False, "garbage_not_closed", "connection %d" % conns)
            elif kind != 0:
                # (kind 0 may be answered by a lone 'N' byte: not messages)
                # every ErrorResponse carries a valid SQLSTATE
                bad = bad_errors(data)
                if bad:
                    check(False, "garbage_error_sqlstate", "connection %d: %s" % (conns, bad[0]))
                    bad_sqlstates += 1
        except (ConnectionResetError, BrokenPipeError, socket.timeout, EOFError) as e:
            if isinstance(e, socket.timeout):
                check(False, "garbage_timeout", "connection %d" % conns)
                break
    # the server still serves a normal client
    c = ready(host, port, "after_garbage_startup")
    c.msg(b"Q", cstr("SELECT 40 + 2"))
    msgs = c.until()
    rows = [b for t, b in msgs if t == b"D"]
    check(rows and rows[0].endswith(b"42"), "after_garbage_query", "%d packets over %d connections" % (sent, conns))
    check(bad_sqlstates == 0, "garbage_errors_valid_sqlstate", "%d connections" % bad_sqlstates)
    print("# %d malformed packets over %d connections" % (sent, conns))


def main():
    host, port, test = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if test == "proto":
        test_proto(host, port)
    elif test == "garbage":
        test_garbage(host, port, int(sys.argv[4]) if len(sys.argv) > 4 else 10000)
    else:
        sys.exit("unknown test " + test)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
