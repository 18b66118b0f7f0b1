#!/usr/bin/python3
"""startup_probe.py -- the server's first answer to a startup packet sent
from a chosen source address.

Usage: startup_probe.py HOST PORT USER SOURCE_ADDR

Connects from SOURCE_ADDR (any 127.x.y.z works on Linux's loopback), sends
a protocol 3.0 StartupMessage for USER and prints the first message:
"R <authentication code>" (e.g. "R 10" for AuthenticationSASL) or
"E <SQLSTATE> <message>" for an ErrorResponse.  acl.sh uses it to show that
failed logins are rate-limited per source address: one address locked out,
another still asked for its password.
"""
import socket
import struct
import sys

host, port, user, src = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(10)
s.bind((src, 0))
s.connect((host, port))
body = struct.pack("!I", 196608) + b"user\0" + user.encode() + b"\0database\0floe\0\0"
s.sendall(struct.pack("!I", len(body) + 4) + body)


def recv_exact(n):
    b = b""
    while len(b) < n:
        d = s.recv(n - len(b))
        if not d:
            raise EOFError("connection closed")
        b += d
    return b


t = recv_exact(1)
n = struct.unpack("!I", recv_exact(4))[0]
payload = recv_exact(n - 4)
if t == b"R":
    print("R %d" % struct.unpack("!I", payload[:4])[0])
elif t == b"E":
    f = {}
    for part in payload.split(b"\0"):
        if part:
            f[part[:1].decode()] = part[1:].decode()
    print("E %s %s" % (f.get("C"), f.get("M")))
else:
    print("? %r" % t)
s.close()
