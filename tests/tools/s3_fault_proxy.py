#!/usr/bin/env python3
"""s3_fault_proxy.py — an HTTP proxy between floe and s3rver that injects faults.

Usage: s3_fault_proxy.py UPSTREAM_PORT [--seed N] [--fail P] [--drop P] [--drop-after P]
                         [--delay P] [--delay-ms MS] [--port-file FILE] [--log FILE]

Listens on 127.0.0.1 (a free port, written to --port-file and printed as
"port=N").  Each HTTP request from a client (keep-alive connections are
followed request by request) meets, at random:
  --fail P        an answer 500 or 503 (or 429) with an S3 error body, not forwarded
  --drop P        the connection closed before the request is forwarded
  --drop-after P  the request forwarded (so it takes effect) and the connection
                  closed without the answer: the client cannot know it landed
  --delay P       the request held --delay-ms before it is forwarded
else it is forwarded as it is.  --log FILE appends a line per request:
"METHOD TARGET HOST AUTH TOKEN SHA" (AUTH: the Authorization header's scheme
and Credential scope, or "-"; TOKEN: "token" when x-amz-security-token is
sent, else "-"; SHA: the x-amz-content-sha256 value or "-").  Counts of each fault go to stderr at exit
(SIGTERM) as "faults: ...".
"""
import argparse
import random
import signal
import socket
import socketserver
import sys
import threading
import time

counts = {"requests": 0, "fail": 0, "drop": 0, "drop_after": 0, "delay": 0}
lock = threading.Lock()


def count(k):
    with lock:
        counts[k] += 1


def read_request(f):
    """One request (start line + headers + Content-Length body) as bytes, or None."""
    head = b""
    while True:
        line = f.readline(65536)
        if not line:
            return None
        head += line
        if line in (b"\r\n", b"\n"):
            break
    n = 0
    for h in head.split(b"\r\n")[1:]:
        if h.lower().startswith(b"content-length:"):
            n = int(h.split(b":", 1)[1].strip())
    body = f.read(n) if n else b""
    return head, body


def log_request(path, head):
    lines = head.decode("latin-1").split("\r\n")
    start = lines[0].split(" ")
    hdr = {}
    for l in lines[1:]:
        if ":" in l:
            k, v = l.split(":", 1)
            hdr[k.strip().lower()] = v.strip()
    auth = hdr.get("authorization", "-")
    if auth != "-":
        scheme = auth.split(" ")[0]
        cred = auth.split("Credential=")[1].split(",")[0] if "Credential=" in auth else "?"
        auth = scheme + ":" + cred
    with lock, open(path, "a") as f:
        f.write("%s %s %s %s %s %s\n" % (start[0], start[1] if len(start) > 1 else "-", hdr.get("host", "-"),
                                           auth, "token" if "x-amz-security-token" in hdr else "-",
                                           hdr.get("x-amz-content-sha256", "-")))


def forward(upstream, head, body):
    """Send the request on a fresh upstream connection; the whole answer."""
    lines = head.split(b"\r\n")
    lines = [l for l in lines if not l.lower().startswith(b"connection:")]
    # Connection: close so the answer ends at EOF
    lines.insert(1, b"Connection: close")
    s = socket.create_connection(("127.0.0.1", upstream))
    s.sendall(b"\r\n".join(lines) + body)
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        out += d
    s.close()
    # keep the client connection alive: drop our Connection: close
    hdr, sep, rest = out.partition(b"\r\n\r\n")
    hl = [l for l in hdr.split(b"\r\n") if not l.lower().startswith(b"connection:")]
    return b"\r\n".join(hl) + sep + rest


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        a = self.server.args
        rnd = self.server.rnd
        while True:
            req = read_request(self.rfile)
            if req is None:
                return
            head, body = req
            count("requests")
            if a.log:
                log_request(a.log, head)
            with lock:
                r = rnd.random()
            if r < a.fail:
                count("fail")
                code = rnd.choice([500, 503, 503, 429])
                msg = b"<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>injected</Message></Error>"
                self.wfile.write(b"HTTP/1.1 %d Injected\r\nContent-Type: application/xml\r\n"
                                 b"Content-Length: %d\r\n\r\n" % (code, len(msg)) + msg)
                self.wfile.flush()
                continue
            r -= a.fail
            if r < a.drop:
                count("drop")
                return
            r -= a.drop
            if r < a.drop_after:
                count("drop_after")
                forward(a.upstream, head, body)
                return
            r -= a.drop_after
            if r < a.delay:
                count("delay")
                time.sleep(a.delay_ms / 1000.0)
            try:
                self.wfile.write(forward(a.upstream, head, body))
                self.wfile.flush()
            except OSError:
                return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("upstream", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fail", type=float, default=0.0)
    p.add_argument("--drop", type=float, default=0.0)
    p.add_argument("--drop-after", type=float, default=0.0)
    p.add_argument("--delay", type=float, default=0.0)
    p.add_argument("--delay-ms", type=int, default=200)
    p.add_argument("--port-file")
    p.add_argument("--log")
    a = p.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.args = a
    srv.rnd = random.Random(a.seed)
    port = srv.server_address[1]
    if a.port_file:
        with open(a.port_file + ".tmp", "w") as f:
            f.write(str(port))
        import os
        os.rename(a.port_file + ".tmp", a.port_file)
    print("port=%d" % port, flush=True)

    def stop(*_):
        sys.stderr.write("faults: %s\n" % " ".join("%s=%d" % kv for kv in counts.items()))
        sys.stderr.flush()
        threading.Thread(target=srv.shutdown).start()

    signal.signal(signal.SIGTERM, stop)
    srv.serve_forever()


if __name__ == "__main__":
    main()
