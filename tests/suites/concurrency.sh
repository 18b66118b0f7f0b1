#!/usr/bin/env bash
# Concurrency suite: `floe serve` runs statements of different sessions at
# the same time (src/server/server.c, docs/server.md "Concurrency").
#
#   - mixed_100: 100 connections (psycopg 3 threads, started together at a
#     barrier) each INSERT a unique value into each of two shared tables,
#     each INSERT followed by a SELECT that must see the connection's own
#     rows; afterwards every acknowledged value is present exactly once and
#     no value whose INSERT failed is present
#   - long_query_does_not_block: while one session runs a long aggregate
#     (bounded by its own statement_timeout), SELECT 1 on another session
#     answers; the long one still runs then, and later fails 57014
#     "statement timeout" (the timeout is per session)
#   - cancel_is_per_session: a CancelRequest stops one session's long query
#     (57014) while another session's statements keep succeeding
#   - timezone_per_session: three sessions, TimeZone given by the startup
#     packet's options (-c TimeZone=...), by SET TIME ZONE and by the
#     startup parameter libpq sends for PGTZ, format the same timestamptz
#     at the same time, each in its own zone; ParameterStatus and SHOW
#     report each session's; an unknown startup zone is FATAL 22023 (the
#     message PostgreSQL 15 gives)
#   - the server's stderr has no sanitizer report and it exits cleanly on
#     SIGTERM
#
# The server runs with its own warehouse (in /dev/shm when possible) on a
# free 127.0.0.1 port (--port 0) and is stopped by PID.  Prints "PASS concurrency: name" / "FAIL ...".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
PY=/usr/bin/python3

# The warehouse lives in memory when it can (/dev/shm): every commit fsyncs
# its files, and this suite is about concurrency, not the disk.
shm=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
tmp=$(mktemp -d "$shm/floe-conc.XXXXXX")
srv_pid=
. tests/tools/floe_server.sh
cleanup() {
	floe_stop "$srv_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS PGTZ

nfail=0
pass() { echo "PASS concurrency: $1"; }
fail() {
	echo "FAIL concurrency: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL concurrency: binary $FLOE_BIN not built"
	exit 1
fi
# a copy, so a rebuild of build-san/ meanwhile cannot pull the binary away
cp "$FLOE_BIN" "$tmp/floe" && FLOE_BIN=$tmp/floe
if ! $PY -c 'import psycopg' 2>/dev/null; then
	echo "FAIL concurrency: psycopg 3 missing for $PY (python3-psycopg)"
	exit 1
fi

if ! floe_serve "$tmp/serve" -D "$tmp/wh" --port 0; then
	fail start "floe serve did not start" "$tmp/serve.err"
	exit 1
fi
conninfo="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=20"

# ---- the client: one Python program, one check per argument ------------------
cat >"$tmp/conc.py" <<'EOF'
import sys
import threading
import time

import psycopg

conninfo, what = sys.argv[1], sys.argv[2]


def connect(**kw):
    return psycopg.connect(conninfo, autocommit=True, **kw)


def mixed(nconn, ninserts):
    acked, failed, errors = [], [], []
    lock = threading.Lock()
    barrier = threading.Barrier(nconn)
    with connect() as c:
        c.execute("CREATE TABLE ca (v bigint, k int)")
        c.execute("CREATE TABLE cb (v bigint, k int)")

    def worker(k):
        try:
            conn = connect()
        except Exception as e:  # noqa: BLE001
            with lock:
                errors.append("connect %d: %s" % (k, e))
            barrier.abort()
            return
        with conn:
            try:
                barrier.wait(timeout=120)
            except threading.BrokenBarrierError:
                pass
            for i in range(ninserts):
                table = "ca" if (k + i) % 2 == 0 else "cb"
                v = k * 1000 + i
                try:
                    conn.execute("INSERT INTO %s VALUES (%%s, %%s)" % table, (v, k))
                    with lock:
                        acked.append(v)
                except psycopg.Error as e:
                    with lock:
                        failed.append(v)
                        errors.append("insert %d: %s %s" % (v, e.sqlstate, e))
                try:
                    # read-your-writes: this connection's rows in the table
                    n = conn.execute("SELECT count(*) FROM %s WHERE k = %%s" % table, (k,)).fetchone()[0]
                    mine = sum(1 for x in range(i + 1) if ((k + x) % 2 == 0) == (table == "ca"))
                    with lock:
                        if n != mine and not failed:
                            errors.append("conn %d saw %d of its rows in %s, expected %d" % (k, n, table, mine))
                except psycopg.Error as e:
                    with lock:
                        errors.append("select %d: %s %s" % (k, e.sqlstate, e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(nconn)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - t0
    with connect() as c:
        rows = [r[0] for r in c.execute("SELECT v FROM ca UNION ALL SELECT v FROM cb").fetchall()]
    present = set(rows)
    bad = []
    if len(rows) != len(present):
        bad.append("%d duplicate rows" % (len(rows) - len(present)))
    if sorted(rows) != sorted(acked):
        bad.append("present %d != acknowledged %d" % (len(rows), len(acked)))
    if present & set(failed):
        bad.append("%d failed inserts present" % len(present & set(failed)))
    if errors:
        bad.append("errors: %s" % errors[:3])
    if len(acked) < nconn * ninserts // 2:
        bad.append("only %d of %d inserts acknowledged" % (len(acked), nconn * ninserts))
    print("%s mixed_%d: %d acknowledged, %d failed, %d present, %.1f s%s"
          % ("ok" if not bad else "not ok", nconn, len(acked), len(failed), len(rows), elapsed,
             "" if not bad else ": " + "; ".join(bad)))
    return not bad


def long_query(cancel):
    """One session runs a long aggregate; another answers SELECT 1 meanwhile."""
    result = {}
    started = threading.Event()

    def run_long():
        with connect() as c:
            if not cancel:
                c.execute("SET statement_timeout = '6s'")
            result["conn"] = c
            started.set()
            t0 = time.time()
            try:
                c.execute("SELECT sum(g) FROM generate_series(1, 200000000000) g").fetchone()
                result["long"] = "finished"
            except psycopg.Error as e:
                result["long"] = "%s %s" % (e.sqlstate, str(e).strip())
            result["long_s"] = time.time() - t0

    t = threading.Thread(target=run_long)
    with connect() as other:
        t.start()
        started.wait(30)
        time.sleep(1.0)               # the long query is running now
        t0 = time.time()
        n = 0
        while n < 20:
            assert other.execute("SELECT 1").fetchone()[0] == 1
            n += 1
        quick_s = time.time() - t0
        still_running = t.is_alive()
        if cancel:
            result["conn"].cancel()
        t.join(120)
        after = other.execute("SELECT 2").fetchone()[0]
    want = "57014 canceling statement due to %s" % ("user request" if cancel else "statement timeout")
    ok = still_running and result.get("long") == want and after == 2
    name = "cancel_is_per_session" if cancel else "long_query_does_not_block"
    print("%s %s: 20 x SELECT 1 in %.2f s while the long query ran (still running: %s); long query: %s after %.1f s"
          % ("ok" if ok else "not ok", name, quick_s, still_running, result.get("long"),
             result.get("long_s", -1)))
    return ok


def timezones():
    """Three sessions, three zones, queried at the same time."""
    import os
    ts = "SELECT (timestamptz '2024-07-01 12:00:00+00')::text"
    want = {"ny": "2024-07-01 08:00:00-04", "tokyo": "2024-07-01 21:00:00+09",
            "paris": "2024-07-01 14:00:00+02"}
    zone = {"ny": "America/New_York", "tokyo": "Asia/Tokyo", "paris": "Europe/Paris"}
    bad = []
    conns = {}
    conns["ny"] = connect(options="-c TimeZone=America/New_York")   # startup options
    conns["tokyo"] = connect()
    conns["tokyo"].execute("SET TIME ZONE 'Asia/Tokyo'")               # SET
    os.environ["PGTZ"] = "Europe/Paris"       # libpq: startup parameter "timezone"
    try:
        conns["paris"] = connect()
    finally:
        del os.environ["PGTZ"]
    barrier = threading.Barrier(len(conns))
    lock = threading.Lock()

    def run(who):
        c = conns[who]
        reported = c.info.parameter_status("TimeZone")
        shown = c.execute("SHOW TimeZone").fetchone()[0]
        barrier.wait(30)
        got = [c.execute(ts).fetchone()[0] for _ in range(200)]
        with lock:
            if reported != zone[who]:
                bad.append("%s: ParameterStatus TimeZone %r" % (who, reported))
            if shown != zone[who]:
                bad.append("%s: SHOW TimeZone %r" % (who, shown))
            wrong = [g for g in got if g != want[who]]
            if wrong:
                bad.append("%s: %d of 200 answers wrong, e.g. %r" % (who, len(wrong), wrong[0]))

    threads = [threading.Thread(target=run, args=(w,)) for w in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in conns.values():
        c.close()
    with connect() as c:
        utc = c.execute(ts).fetchone()[0]
    if utc != "2024-07-01 12:00:00+00":
        bad.append("a new session is not UTC: %r" % utc)
    os.environ["PGTZ"] = "Nowhere/Zone"
    try:
        connect().close()
        bad.append("an unknown startup TimeZone was accepted")
    except psycopg.OperationalError as e:
        if 'invalid value for parameter "TimeZone": "Nowhere/Zone"' not in str(e):
            bad.append("unknown startup TimeZone: %s" % e)
    finally:
        del os.environ["PGTZ"]
    print("%s timezone_per_session%s" % ("ok" if not bad else "not ok", ": " + "; ".join(bad) if bad else ""))
    return not bad


if what == "mixed":
    ok = mixed(int(sys.argv[3]), int(sys.argv[4]))
elif what == "long":
    ok = long_query(False)
elif what == "cancel":
    ok = long_query(True)
else:
    ok = timezones()
sys.exit(0 if ok else 1)
EOF

check() {   # name, args...
	local name=$1
	shift
	if timeout 300 $PY "$tmp/conc.py" "$conninfo" "$@" >"$tmp/$name.out" 2>&1; then
		pass "$name ($(sed -n 's/^ok [^:]*: //p' "$tmp/$name.out" | head -1))"
	else
		fail "$name" "$(grep -v '^ok' "$tmp/$name.out" | head -1)" "$tmp/$name.out"
	fi
}

check mixed_100 mixed 100 2
check long_query_does_not_block long
check cancel_is_per_session cancel
check timezone_per_session tz

# ---- clean exit, no sanitizer report ------------------------------------------
if floe_stop_clean "$srv_pid" "$tmp/serve.err"; then
	pass clean_exit_no_sanitizer_reports
else
	fail clean_exit_no_sanitizer_reports "exit ${stop_rc:-still running}" "$tmp/serve.err"
fi
srv_pid=

[ $nfail -eq 0 ]
