#!/usr/bin/env python3
"""http_client.py — helpers of tests/suites/http.sh for floe's HTTP query API.

  http_client.py text URL USER:PASS SQL
      POST SQL to URL/v1/query and print the rows as psql -A -t prints them
      (fields joined by '|', NULL empty, booleans t/f), so the suite can
      compare them with PostgreSQL 15's own output; JSON numbers are
      printed from the raw response text (json.loads keeps int exact and
      parse_float keeps the digits), nothing rounds.
  http_client.py fuzz URL USER:PASS N SEED
      N malformed or random request bodies (and random methods, paths,
      headers); every answer must be a 4xx with a JSON error body (or 200
      for a body that happens to be a valid request); prints "ok" or what
      broke.
"""
import json
import random
import sys
import base64
import http.client
import urllib.parse


def post(url, auth, body, headers=None, method="POST", path="/v1/query"):
    u = urllib.parse.urlparse(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    h = {"Content-Type": "application/json"}
    if auth:
        h["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
    h.update(headers or {})
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def text_of(v):
    if v is None:
        return ""
    if v is True:
        return "t"
    if v is False:
        return "f"
    return str(v)


def cmd_text(url, auth, sql):
    st, data = post(url, auth, json.dumps({"sql": sql}))
    doc = json.loads(data, parse_float=str, parse_int=str)
    if st != 200:
        print("ERROR", doc["error"]["sqlstate"], doc["error"]["message"])
        return
    for row in doc["rows"]:
        print("|".join(text_of(v) for v in row))


def cmd_fuzz(url, auth, n, seed):
    rnd = random.Random(seed)
    good = json.dumps({"sql": "SELECT 1 AS x", "params": []})
    pieces = ['{', '}', '[', ']', '"sql"', ':', ',', '"params"', 'null', 'true', '1e999',
              '"\\u0000"', '"\\ud800"', '"select $1"', '-', '0', '"', '\\', '\xff', '\x00',
              '"watermark"', '"public.t:1"', '{"sql": ', '"x"' * 50]
    bad = []
    for i in range(n):
        k = rnd.randrange(6)
        if k == 0:
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(200)))
        elif k == 1:
            body = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 20))).encode("utf-8", "surrogateescape")
        elif k == 2:
            b = bytearray(good.encode())
            for _ in range(rnd.randrange(1, 5)):
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            body = bytes(b)
        elif k == 3:
            body = json.dumps({"sql": "".join(rnd.choice("select 1,$()'\"x;") for _ in range(30)),
                               "params": [rnd.choice([None, 1, "a", True, 1.5, [1], {"a": 1}])
                                          for _ in range(rnd.randrange(4))]}).encode()
        elif k == 4:
            body = good.encode()[:rnd.randrange(len(good))]
        else:
            body = json.dumps(rnd.choice([[], 1, "s", None, {"sql": None}, {"sql": ["x"]},
                                          {"params": [1]}, {"sql": "select 1", "params": {}}])).encode()
        method = rnd.choice(["POST"] * 8 + ["GET", "PUT", "DELETE"])
        path = rnd.choice(["/v1/query"] * 8 + ["/v1/sessions/zz", "/v1/q", "/", "/v1/sessions/x/cancel"])
        try:
            st, data = post(url, auth, body, method=method, path=path)
        except Exception as e:  # a dropped connection is a failure
            bad.append("request %d: %r" % (i, e))
            break
        if st == 200 or st == 201:
            continue
        if not (400 <= st < 500):
            bad.append("request %d (%s %s %r): status %d %r" % (i, method, path, body[:80], st, data[:200]))
            continue
        try:
            doc = json.loads(data)
            doc["error"]["sqlstate"], doc["error"]["message"]
        except Exception:
            bad.append("request %d: not a JSON error: %r" % (i, data[:200]))
    st, data = post(url, auth, good)
    if st != 200 or json.loads(data)["rows"] != [[1]]:
        bad.append("server unusable after fuzzing: %d %r" % (st, data[:200]))
    print("ok" if not bad else "\n".join(bad[:10]))


if __name__ == "__main__":
    if sys.argv[1] == "text":
        cmd_text(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "fuzz":
        cmd_fuzz(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
