#!/usr/bin/env python3
"""auth_client.py -- one login at the byte level, to see which method the
server asks for and to run the cleartext and md5 exchanges by hand.

Usage: auth_client.py HOST PORT USER [PASSWORD]

Prints the authentication request ("trust", "cleartext", "md5", "sasl
SCRAM-SHA-256", ...) and, when PASSWORD is given for cleartext or md5,
the outcome: "ok" (AuthenticationOk and ReadyForQuery) or "error SQLSTATE".
The md5 answer is computed here from PostgreSQL's documented formula
md5(md5(password || user) || salt), independently of the server.
"""
import hashlib
import socket
import struct
import sys

host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
password = sys.argv[4] if len(sys.argv) > 4 else None
s = socket.create_connection((host, port), timeout=10)
buf = b""


def read():
    global buf
    while len(buf) < 5 or len(buf) < 1 + struct.unpack("!I", buf[1:5])[0]:
        d = s.recv(65536)
        if not d:
            raise EOFError
        buf += d
    n = struct.unpack("!I", buf[1:5])[0]
    t, body, buf = buf[:1], buf[5:1 + n], buf[1 + n:]
    return t, body


def sqlstate(body):
    for f in body.split(b"\0"):
        if f[:1] == b"C":
            return f[1:].decode()
    return "?"


params = b"user\0" + user.encode() + b"\0database\0floe\0\0"
s.sendall(struct.pack("!II", 8 + len(params), 196608) + params)
t, body = read()
if t == b"E":
    print("error " + sqlstate(body))
    sys.exit(0)
code = struct.unpack("!I", body[:4])[0]
names = {0: "trust", 3: "cleartext", 5: "md5", 10: "sasl"}
what = names.get(code, "code %d" % code)
if code == 10:
    what += " " + " ".join(m.decode() for m in body[4:].split(b"\0") if m)
print(what)
if password is None or code not in (3, 5):
    sys.exit(0)
if code == 3:
    answer = password.encode()
else:
    inner = hashlib.md5(password.encode() + user.encode()).hexdigest()
    answer = b"md5" + hashlib.md5(inner.encode() + body[4:8]).hexdigest().encode()
s.sendall(b"p" + struct.pack("!I", 4 + len(answer) + 1) + answer + b"\0")
try:
    while True:
        t, body = read()
        if t == b"E":
            print("error " + sqlstate(body))
            break
        if t == b"Z":
            print("ok")
            break
except EOFError:
    print("closed")
