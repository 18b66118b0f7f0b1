#!/usr/bin/python3
"""txn_bench.py -- commits per second through psycopg 3 (bench/txn.sh runs it).

Usage: txn_bench.py MODE CLIENTS SECONDS CONNINFO [CONNINFO...]

MODE insert: single-row autocommit INSERTs; txn2: BEGIN; INSERT; UPDATE of
the client's own row; COMMIT (a 2-statement transaction).  Clients are
spread over the conninfos.  The table (bench_t) must exist.  Prints one
line: commits/s, commits, client-side 40001 failures (after floe's own
retries), and floe's server-side retries (SHOW floe.txn_retries summed
over the connections; "-" for servers without it, e.g. PostgreSQL).
"""
import sys
import threading
import time

import psycopg


def main():
    mode, clients, secs, cis = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
    lock = threading.Lock()
    tot = {"commits": 0, "fail": 0, "retries": 0, "have_retries": True}
    start = threading.Barrier(clients + 1)
    stop = [0.0]

    def client(i):
        conn = psycopg.connect(cis[i % len(cis)], autocommit=(mode == "insert"))
        if mode == "txn2":
            conn.execute("INSERT INTO bench_t VALUES (%d, 0)" % (1000000 + i))
            conn.commit()
        commits = fail = 0
        n = 0
        start.wait()
        while time.time() < stop[0]:
            n += 1
            try:
                if mode == "insert":
                    conn.execute("INSERT INTO bench_t VALUES (%d, %d)" % (i, n))
                else:
                    conn.execute("INSERT INTO bench_t VALUES (%d, %d)" % (i, n))
                    conn.execute("UPDATE bench_t SET v = v + 1 WHERE id = %d" % (1000000 + i))
                    conn.commit()
                commits += 1
            except psycopg.errors.SerializationFailure:
                if mode != "insert":
                    conn.rollback()
                fail += 1
        try:
            if mode != "insert":
                conn.rollback()
            r = int(conn.execute("SHOW floe.txn_retries").fetchone()[0])
        except psycopg.Error:
            r = None
        conn.close()
        with lock:
            tot["commits"] += commits
            tot["fail"] += fail
            if r is None:
                tot["have_retries"] = False
            else:
                tot["retries"] += r

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    stop[0] = time.time() + 1e9
    start.wait()
    t0 = time.time()
    stop[0] = t0 + secs
    for t in threads:
        t.join()
    el = time.time() - t0
    print("%-6s clients=%-2d commits/s=%7.1f commits=%-5d failed_40001=%-4d server_retries=%s"
          % (mode, clients, tot["commits"] / el, tot["commits"], tot["fail"],
             tot["retries"] if tot["have_retries"] else "-"))


if __name__ == "__main__":
    main()
