#!/usr/bin/env python3
"""scram_bind.py -- SCRAM-SHA-256(-PLUS) over TLS computed here by hand
(RFC 5802/7677, RFC 5929 tls-server-end-point), to check what libpq does
not let a test do wrong on purpose.

Usage: scram_bind.py HOST PORT USER PASSWORD MODE
MODE: good      SCRAM-SHA-256-PLUS bound to the SHA-256 of the server's
                certificate: must log in, and the server's signature must
                verify
      tampered  the same with other binding data: must be refused (08P01)
      downgrade SCRAM-SHA-256 with gs2 flag "y" (the client thinks the
                server cannot bind) while it offered PLUS: refused (08P01)
Prints the mechanisms offered, then "ok" or "error SQLSTATE".
"""
import base64
import hashlib
import hmac
import os
import socket
import ssl
import struct
import sys

host, port, user, password, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
raw = socket.create_connection((host, port), timeout=10)
raw.sendall(struct.pack("!II", 8, 80877103))
assert raw.recv(1) == b"S"
ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
s = ctx.wrap_socket(raw)
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


def msg(t, body):
    s.sendall(t + struct.pack("!I", len(body) + 4) + body)


def result(t, body):
    if t == b"E":
        code = [f[1:].decode() for f in body.split(b"\0") if f[:1] == b"C"]
        print("error " + (code[0] if code else "?"))
        sys.exit(0)


params = b"user\0" + user.encode() + b"\0database\0floe\0\0"
s.sendall(struct.pack("!II", 8 + len(params), 196608) + params)
t, body = read()
result(t, body)
mechs = [m.decode() for m in body[4:].split(b"\0") if m]
print(" ".join(mechs))
cert_hash = hashlib.sha256(s.getpeercert(binary_form=True)).digest()
if mode == "downgrade":
    mech, gs2, cbind = "SCRAM-SHA-256", b"y,,", b""
else:
    mech, gs2 = "SCRAM-SHA-256-PLUS", b"p=tls-server-end-point,,"
    cbind = cert_hash if mode == "good" else hashlib.sha256(b"another certificate").digest()
cnonce = base64.b64encode(os.urandom(18))
first_bare = b"n=,r=" + cnonce
first = gs2 + first_bare
msg(b"p", mech.encode() + b"\0" + struct.pack("!I", len(first)) + first)
t, body = read()
result(t, body)
server_first = body[4:]
attrs = dict(a.split(b"=", 1) for a in server_first.split(b","))
salted = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(attrs[b"s"]), int(attrs[b"i"]))
ck = hmac.new(salted, b"Client Key", "sha256").digest()
without_proof = b"c=" + base64.b64encode(gs2 + cbind) + b",r=" + attrs[b"r"]
auth_msg = first_bare + b"," + server_first + b"," + without_proof
sig = hmac.new(hashlib.sha256(ck).digest(), auth_msg, "sha256").digest()
proof = bytes(a ^ b for a, b in zip(ck, sig))
msg(b"p", without_proof + b",p=" + base64.b64encode(proof))
t, body = read()
result(t, body)
sk = hmac.new(salted, b"Server Key", "sha256").digest()
want = b"v=" + base64.b64encode(hmac.new(sk, auth_msg, "sha256").digest())
if body[4:] != want:
    print("bad server signature")
    sys.exit(0)
while t != b"Z":
    t, body = read()
    result(t, body)
print("ok")
