#!/usr/bin/env python3
"""preauth_flood.py -- connections that never log in must not lock out a login.

Usage: preauth_flood.py HOST PORT USER        (PGPASSWORD for USER's password)
       preauth_flood.py HOST PORT USER silent N
       preauth_flood.py HOST PORT USER unread (a client that never reads)

Default test: opens, all at once and from one address,
  - 350 silent sockets (nothing sent),
  - 100 sending half a startup packet, then nothing,
  - 100 sending an SSLRequest (answered 'N'), then nothing,
  - 150 sending a whole startup packet for USER, then never answering the
    password request,
  - one declaring a 2 GB startup packet,
700 in all: more than floe serve's default max_connections (500) and far
more than its limits for connections still logging in.  Then psql must log
in as USER and run a query, under `timeout 10` (a generous bound, not a
speed check: before the fix every login was refused with 53300 or waited
for the 60 s authentication timeout).  The 2 GB one must get FATAL 08P01.
All sockets are closed at the end.

`silent N`: N silent sockets, then psql (run against a server whose file
descriptor limit is below N: accept(2) fails with EMFILE, and the oldest
silent socket must be closed to let the login in).

`unread`: a logged-in client sends a query with a large result and never
reads it (its socket buffers fill and the server's send blocks); psql must
still log in and query meanwhile.

Prints one line: "login:ok huge:08P01" / "silent login:ok" / "unread login:ok",
or what failed.
"""
import os
import socket
import struct
import subprocess
import sys


def startup(user):
    body = struct.pack("!I", 196608) + b"user\0" + user.encode() + b"\0database\0floe\0\0"
    return struct.pack("!I", len(body) + 4) + body


def psql_login(host, port, user):
    env = dict(os.environ)
    try:
        r = subprocess.run(["timeout", "10", "psql", "-X", "-At", "-h", host, "-p", str(port), "-U", user,
                            "-d", "floe", "-c", "SELECT 40 + 2"],
                           capture_output=True, text=True, env=env, timeout=30)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = (r.stdout + r.stderr).strip()
    return "ok" if r.returncode == 0 and out == "42" else "failed(%d): %s" % (r.returncode, out[:200])


def read_fatal(s):
    s.settimeout(10)
    data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            data += d
    except (socket.timeout, ConnectionResetError):
        pass
    if data[:1] != b"E":
        return "no error: %r" % data[:40]
    code = [p[1:] for p in data[5:].split(b"\0") if p[:1] == b"C"]
    return code[0].decode() if code else "no code"


def flood(host, port, user):
    socks = []
    try:
        for i in range(700):
            s = socket.create_connection((host, port), timeout=10)
            socks.append(s)
            if i < 350:
                pass
            elif i < 450:
                s.sendall(struct.pack("!I", 40) + b"\0\3\0")
            elif i < 550:
                s.sendall(struct.pack("!II", 8, 80877103))
            elif i < 700:
                s.sendall(startup(user))
        huge = socket.create_connection((host, port), timeout=10)
        huge.sendall(struct.pack("!II", 0x7fffffff, 196608))
        login = psql_login(host, port, user)
        code = read_fatal(huge)
        huge.close()
        print("login:%s huge:%s" % (login, code))
    finally:
        for s in socks:
            s.close()


def silent(host, port, user, n):
    socks = []
    try:
        for _ in range(n):
            socks.append(socket.create_connection((host, port), timeout=10))
        print("silent login:%s" % psql_login(host, port, user))
    finally:
        for s in socks:
            s.close()


def unread(host, port, user):
    s = socket.create_connection((host, port), timeout=10)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(startup(user))
        buf = b""
        while not buf.endswith(b"Z\0\0\0\5I"):
            d = s.recv(65536)
            if not d:
                print("startup failed")
                return
            buf += d
        q = b"SELECT repeat('x', 1000) FROM generate_series(1, 100000)\0"
        s.sendall(b"Q" + struct.pack("!I", len(q) + 4) + q)
        login = psql_login(host, port, user)
        print("unread login:%s" % login)
    finally:
        s.close()


def main():
    host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if len(sys.argv) > 4 and sys.argv[4] == "unread":
        unread(host, port, user)
    elif len(sys.argv) > 5 and sys.argv[4] == "silent":
        silent(host, port, user, int(sys.argv[5]))
    else:
        flood(host, port, user)


if __name__ == "__main__":
    main()
