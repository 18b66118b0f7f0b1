#!/usr/bin/python3
"""crash.py -- kill -9 a floe server in the middle of commits, repeatedly.

Usage: crash.py FLOE_BIN WAREHOUSE ROUNDS

Each round starts `floe serve -D WAREHOUSE --port 0` (by PID), runs 4
clients that commit concurrently -- autocommit single-row INSERTs into
`solo`, and 2-table blocks (INSERT INTO pair_a; INSERT INTO pair_b;
COMMIT) with the same key -- and after a random 0.5-1.5 s sends SIGKILL to
the server.  After the last round a fresh server checks:
  - every acknowledged INSERT / COMMIT is present exactly once;
  - nothing unacknowledged is half there: every key of pair_a is in pair_b
    and the other way round (a block is all or nothing across tables);
  - no key appears twice (a commit is never applied twice).
The caller validates the tables with iceberg-validate afterwards.
Prints "ok NAME" / "not ok NAME: why"; exit 1 on failure.
"""
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

import psycopg

failures = 0


def check(cond, name, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("not ok %s: %s" % (name, why))


def start(floe, wh, log):
    out = open(log + ".out", "w")
    err = open(log + ".err", "w")
    p = subprocess.Popen([floe, "serve", "-D", wh, "--port", "0"], stdout=out, stderr=err)
    for _ in range(100):
        time.sleep(0.1)
        with open(log + ".out") as f:
            m = re.search(r"listening on 127\.0\.0\.1 port (\d+)", f.read())
        if m:
            return p, "host=127.0.0.1 port=%s user=crash dbname=floe connect_timeout=5" % m.group(1)
        if p.poll() is not None:
            break
    p.kill()
    p.wait()
    raise SystemExit("floe serve did not start: " + open(log + ".err").read()[-2000:])


def main():
    floe, wh, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(6)
    solo_acked, pair_acked = set(), set()
    lock = threading.Lock()
    p, ci = start(floe, wh, wh + "-setup")
    with psycopg.connect(ci, autocommit=True) as c:
        c.execute("CREATE TABLE solo (k text)")
        c.execute("CREATE TABLE pair_a (k text)")
        c.execute("CREATE TABLE pair_b (k text)")
    p.terminate()
    p.wait()

    for r in range(rounds):
        p, ci = start(floe, wh, "%s-round%d" % (wh, r))
        stop = threading.Event()

        def client(i):
            n = 0
            try:
                conn = psycopg.connect(ci)
            except psycopg.Error:
                return
            while not stop.is_set():
                n += 1
                k = "r%d-c%d-%d" % (r, i, n)
                try:
                    if i % 2 == 0:
                        conn.autocommit = True
                        conn.execute("INSERT INTO solo VALUES ('%s')" % k)
                        with lock:
                            solo_acked.add(k)
                    else:
                        conn.autocommit = False
                        conn.execute("INSERT INTO pair_a VALUES ('%s')" % k)
                        conn.execute("INSERT INTO pair_b VALUES ('%s')" % k)
                        conn.commit()
                        with lock:
                            pair_acked.add(k)
                except psycopg.Error:
                    break          # the server died
            try:
                conn.close()
            except psycopg.Error:
                pass

        threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        time.sleep(rnd.uniform(0.5, 1.5))
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        stop.set()
        for t in threads:
            t.join()

    p, ci = start(floe, wh, wh + "-check")
    try:
        with psycopg.connect(ci, autocommit=True) as c:
            solo = [x[0] for x in c.execute("SELECT k FROM solo").fetchall()]
            pa = [x[0] for x in c.execute("SELECT k FROM pair_a").fetchall()]
            pb = [x[0] for x in c.execute("SELECT k FROM pair_b").fetchall()]
    finally:
        p.terminate()
        p.wait()
    check(len(solo) == len(set(solo)) and len(pa) == len(set(pa)) and len(pb) == len(set(pb)),
          "crash_no_duplicates")
    check(solo_acked <= set(solo), "crash_acknowledged_inserts_kept acked=%d rows=%d"
          % (len(solo_acked), len(solo)), sorted(solo_acked - set(solo))[:5])
    check(pair_acked <= set(pa), "crash_acknowledged_blocks_kept acked=%d rows=%d"
          % (len(pair_acked), len(pa)), sorted(pair_acked - set(pa))[:5])
    check(set(pa) == set(pb), "crash_blocks_all_or_nothing", sorted(set(pa) ^ set(pb))[:5])
    check(len(solo_acked) + len(pair_acked) > 0, "crash_made_progress")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
