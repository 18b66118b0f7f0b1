#!/usr/bin/python3
"""test_psycopg_txn.py -- transactions through psycopg 3 against floe serve.

Usage: test_psycopg_txn.py CONNINFO WAREHOUSE [--pg CONNINFO]

psycopg 3's default connection is NOT autocommit: it sends BEGIN before
the first statement and waits for conn.commit() / conn.rollback(), and it
tracks the server's ReadyForQuery status (conn.info.transaction_status).
This checks, on floe:
  - status IDLE / INTRANS / INERROR as PostgreSQL reports it; commit,
    rollback, an error then 25P02 (InFailedSqlTransaction) then rollback;
    commit of a failed block rolls back;
  - visibility: a block's writes are visible to itself and invisible to
    another connection until COMMIT (both tables of a two-table block
    appear at once);
  - Iceberg facts nobody else checks: one snapshot per table per
    committed block (the metadata JSON the catalog points to), no file
    left behind by ROLLBACK or by a failed COMMIT, rows rewritten inside
    a block never published;
  - isolation between two connections (statements interleaved):
    READ COMMITTED sees other commits, REPEATABLE READ does not,
    SERIALIZABLE write skew -> 40001 at COMMIT; two blocks that UPDATE the
    same rows -> the second COMMIT 40001; two appending blocks both commit;
  - PRIMARY KEY across blocks (key_checks): a key two blocks (or a block and
    an autocommit statement) insert, a key UPDATE, MERGE, ON CONFLICT and
    a merge-on-read UPDATE of one row by two blocks: the later COMMIT is
    refused (23505 / 40001) and no key is stored twice; a copy-on-write
    rewrite re-based over a concurrent delete of its file's rows -> 40001.
With --pg, the status/visibility/isolation checks that PostgreSQL shares
are also run against PostgreSQL 15, so the expectations are proven there.
Prints "ok NAME" / "not ok NAME: why"; exit 1 if anything failed.
"""
import glob
import json
import os
import sqlite3
import sys
import time

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus as TS

failures = 0


def check(cond, name, why=""):
    global failures
    if cond:
        print("ok " + name)
    else:
        failures += 1
        print("not ok %s: %s" % (name, why))


def files_under(wh):
    out = set()
    for root, _, names in os.walk(wh):
        for n in names:
            p = os.path.join(root, n)
            if p.endswith((".parquet", ".avro", ".metadata.json")):
                out.add(p)
    return out


def snapshots(wh, table):
    """Number of snapshots in the metadata the SQLite catalog points to."""
    db = sqlite3.connect(os.path.join(wh, "catalog.db"))
    row = db.execute("SELECT metadata_location FROM iceberg_tables WHERE table_name = ?",
                     (table,)).fetchone()
    db.close()
    with open(row[0]) as f:
        md = json.load(f)
    return len(md.get("snapshots", []))


def scalar(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchone()[0]


def shared_checks(ci, tag):
    """Behaviour PostgreSQL 15 has too: run on both."""
    a = psycopg.connect(ci)
    b = psycopg.connect(ci, autocommit=True)
    b.execute("DROP TABLE IF EXISTS pt1")
    b.execute("DROP TABLE IF EXISTS pt2")
    b.execute("CREATE TABLE pt1 (id int, v int)")
    b.execute("CREATE TABLE pt2 (id int)")
    b.execute("INSERT INTO pt1 VALUES (1, 10), (2, 20)")

    check(a.info.transaction_status == TS.IDLE, tag + "status_idle", a.info.transaction_status)
    a.execute("INSERT INTO pt1 VALUES (3, 30)")
    check(a.info.transaction_status == TS.INTRANS, tag + "status_intrans",
          a.info.transaction_status)
    a.execute("INSERT INTO pt2 VALUES (3)")
    check(scalar(a, "SELECT count(*) FROM pt1") == 3, tag + "own_writes_visible")
    check(scalar(b, "SELECT count(*) FROM pt1") == 2, tag + "uncommitted_invisible")
    check(scalar(b, "SELECT count(*) FROM pt2") == 0, tag + "uncommitted_invisible_2")
    a.commit()
    check(a.info.transaction_status == TS.IDLE, tag + "status_after_commit")
    check(scalar(b, "SELECT count(*) FROM pt1") == 3 and scalar(b, "SELECT count(*) FROM pt2") == 1,
          tag + "committed_visible_both_tables")

    a.execute("DELETE FROM pt1 WHERE id = 1")
    a.rollback()
    check(a.info.transaction_status == TS.IDLE, tag + "status_after_rollback")
    check(scalar(b, "SELECT count(*) FROM pt1") == 3, tag + "rollback_undoes")

    # error -> INERROR -> 25P02 -> rollback
    a.execute("INSERT INTO pt1 VALUES (4, 40)")
    try:
        a.execute("SELECT 1 / 0")
        check(False, tag + "error_raised")
    except errors.DivisionByZero:
        check(True, tag + "error_raised")
    check(a.info.transaction_status == TS.INERROR, tag + "status_inerror",
          a.info.transaction_status)
    try:
        a.execute("SELECT 1")
        check(False, tag + "in_failed_transaction")
    except errors.InFailedSqlTransaction as e:
        check(e.sqlstate == "25P02", tag + "in_failed_transaction", e.sqlstate)
    a.rollback()
    check(a.info.transaction_status == TS.IDLE, tag + "status_after_error_rollback")
    check(scalar(b, "SELECT count(*) FROM pt1") == 3, tag + "error_block_rolled_back")

    # COMMIT of a failed block: the server answers ROLLBACK
    a.execute("INSERT INTO pt1 VALUES (5, 50)")
    try:
        a.execute("SELECT * FROM missing_table")
    except errors.UndefinedTable:
        pass
    cur = a.cursor()
    cur.execute("COMMIT")
    check(cur.statusmessage == "ROLLBACK", tag + "commit_failed_block_tag", cur.statusmessage)
    check(a.info.transaction_status == TS.IDLE, tag + "status_after_failed_commit")
    check(scalar(b, "SELECT count(*) FROM pt1") == 3, tag + "failed_commit_rolled_back")

    # with conn.transaction(): a context manager (savepoints when nested)
    with a.transaction():
        a.execute("INSERT INTO pt2 VALUES (10)")
        try:
            with a.transaction():
                a.execute("INSERT INTO pt2 VALUES (11)")
                a.execute("SELECT 1 / 0")
        except errors.DivisionByZero:
            pass
        a.execute("INSERT INTO pt2 VALUES (12)")
    a.commit()
    with b.cursor() as c:
        c.execute("SELECT id FROM pt2 ORDER BY id")
        got = [r[0] for r in c.fetchall()]
    check(got == [3, 10, 12], tag + "nested_transaction_savepoint", got)

    # isolation: READ COMMITTED sees commits made during the block
    a.execute("SELECT count(*) FROM pt1")
    b.execute("INSERT INTO pt1 VALUES (6, 60)")
    check(scalar(a, "SELECT count(*) FROM pt1") == 4, tag + "read_committed_sees_new")
    a.commit()

    # REPEATABLE READ: the snapshot is pinned at the first read
    a.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    n0 = scalar(a, "SELECT count(*) FROM pt1")
    b.execute("INSERT INTO pt1 VALUES (7, 70)")
    check(scalar(a, "SELECT count(*) FROM pt1") == n0, tag + "repeatable_read_pinned")
    check(scalar(a, "SHOW transaction_isolation") == "repeatable read", tag + "show_rr")
    a.commit()
    check(scalar(a, "SELECT count(*) FROM pt1") == n0 + 1, tag + "repeatable_read_after")
    a.commit()

    # SERIALIZABLE write skew: both read pt1, both write -> one 40001
    a.isolation_level = psycopg.IsolationLevel.SERIALIZABLE
    c2 = psycopg.connect(ci)
    c2.isolation_level = psycopg.IsolationLevel.SERIALIZABLE
    s1 = scalar(a, "SELECT sum(v) FROM pt1")
    s2 = scalar(c2, "SELECT sum(v) FROM pt1")
    a.execute("INSERT INTO pt2 VALUES (%s)" % s1)
    c2.execute("INSERT INTO pt1 VALUES (100, %s)" % s2)
    a.execute("UPDATE pt1 SET v = v + 1 WHERE id = 1")
    a.commit()
    try:
        c2.commit()
        check(False, tag + "serializable_write_skew_40001", "second commit succeeded")
    except errors.SerializationFailure as e:
        check(e.sqlstate == "40001", tag + "serializable_write_skew_40001")
    check(c2.info.transaction_status == TS.IDLE, tag + "status_after_40001")
    check(scalar(b, "SELECT count(*) FROM pt1 WHERE id = 100") == 0, tag + "skew_loser_not_visible")
    c2.close()
    a.isolation_level = None

    b.execute("DROP TABLE pt2")
    b.execute("DROP TABLE pt1")
    a.close()
    b.close()


def floe_checks(ci, wh):
    a = psycopg.connect(ci)
    b = psycopg.connect(ci, autocommit=True)
    b.execute("CREATE TABLE f1 (id int, v int)")
    b.execute("CREATE TABLE f2 (id int)")
    b.execute("INSERT INTO f1 VALUES (1, 1)")
    b.execute("FLUSH INSERT BUFFER f1")     # committed now: the count below is the block's
    before = files_under(wh)
    n1 = snapshots(wh, "f1")

    # one snapshot per table per transaction, and rewritten files unpublished
    for i in range(3):
        a.execute("INSERT INTO f1 VALUES (%d, %d)" % (10 + i, i))
    a.execute("UPDATE f1 SET v = v + 100 WHERE id >= 10")
    a.execute("INSERT INTO f2 VALUES (1)")
    a.commit()
    check(snapshots(wh, "f1") == n1 + 1, "one_snapshot_per_table", snapshots(wh, "f1") - n1)
    check(snapshots(wh, "f2") == 1, "one_snapshot_second_table", snapshots(wh, "f2"))
    data = [p for p in files_under(wh) - before if p.endswith(".parquet")]
    # f1: the UPDATE rewrote the 3 inserted files into 1; f2: 1 file
    with b.cursor() as c:
        c.execute("SELECT id, v FROM f1 ORDER BY id")
        rows = c.fetchall()
    check(rows == [(1, 1), (10, 100), (11, 101), (12, 102)], "block_result", rows)
    check(len(data) <= 3, "superseded_files_deleted", sorted(data))

    # ROLLBACK leaves no file behind
    before = files_under(wh)
    a.execute("INSERT INTO f1 VALUES (20, 20)")
    a.execute("UPDATE f1 SET v = 0")
    a.execute("INSERT INTO f2 VALUES (2)")
    a.execute("DELETE FROM f2")
    a.rollback()
    check(files_under(wh) == before, "rollback_leaves_no_files",
          sorted(files_under(wh) ^ before))

    # a connection closed inside a block: rolled back, no files left
    d = psycopg.connect(ci)
    d.execute("INSERT INTO f1 VALUES (30, 30)")
    d.execute("INSERT INTO f2 VALUES (30)")
    d.close()
    time.sleep(0.5)
    check(files_under(wh) == before, "disconnect_rolls_back", sorted(files_under(wh) ^ before))
    check(scalar(b, "SELECT count(*) FROM f1 WHERE id = 30") == 0, "disconnect_not_visible")

    # an error then rollback: no files either
    a.execute("INSERT INTO f1 VALUES (21, 21)")
    try:
        a.execute("INSERT INTO f1 VALUES (1/0, 1)")
    except errors.DivisionByZero:
        pass
    a.rollback()
    check(files_under(wh) == before, "error_rollback_leaves_no_files",
          sorted(files_under(wh) ^ before))

    # a failed COMMIT (40001) leaves no file behind
    c2 = psycopg.connect(ci)
    a.execute("UPDATE f1 SET v = v + 1 WHERE id = 1")
    before_c2 = files_under(wh)
    c2.execute("UPDATE f1 SET v = v + 2 WHERE id = 1")
    c2_wrote = files_under(wh) - before_c2
    a.commit()
    after_a = files_under(wh) - c2_wrote
    try:
        c2.commit()
        check(False, "conflicting_update_40001", "second commit succeeded")
    except errors.SerializationFailure:
        check(True, "conflicting_update_40001")
    check(files_under(wh) == after_a, "failed_commit_leaves_no_files",
          sorted(files_under(wh) ^ after_a))
    check(scalar(b, "SELECT v FROM f1 WHERE id = 1") == 2, "first_update_kept")

    # two appending blocks: both commit (the second is re-based)
    a.execute("INSERT INTO f2 VALUES (100)")
    c2.execute("INSERT INTO f2 VALUES (200)")
    a.commit()
    c2.commit()
    check(scalar(b, "SELECT count(*) FROM f2 WHERE id IN (100, 200)") == 2, "append_blocks_both_commit")

    # DDL in a block commits the pending changes first (NOTICE), floe only
    notices = []
    a.add_notice_handler(lambda d: notices.append(d.message_primary))
    a.execute("INSERT INTO f2 VALUES (300)")
    a.execute("CREATE TABLE f3 (x int)")
    check(scalar(b, "SELECT count(*) FROM f2 WHERE id = 300") == 1, "ddl_commits_pending")
    check(any("DDL" in n for n in notices), "ddl_notice", notices)
    a.execute("INSERT INTO f3 VALUES (1)")
    a.rollback()
    check(scalar(b, "SELECT count(*) FROM f3") == 0, "after_ddl_block_goes_on")
    # SELECT ... FOR UPDATE (simple protocol: psycopg.ClientCursor) locks
    # the table optimistically: a commit by another session to it makes
    # this block's COMMIT fail with 40001 (floe only: PostgreSQL locks rows)
    cf = psycopg.ClientCursor
    l1 = psycopg.connect(ci, cursor_factory=cf)
    l2 = psycopg.connect(ci, cursor_factory=cf)
    l1.execute("SELECT v FROM f1 WHERE id = 1 FOR UPDATE")
    l2.execute("UPDATE f1 SET v = v WHERE id = 10")
    l2.commit()
    l1.execute("INSERT INTO f2 VALUES (400)")
    try:
        l1.commit()
        check(False, "for_update_conflict_40001", "committed")
    except errors.SerializationFailure:
        check(True, "for_update_conflict_40001")
    l1.execute("SELECT v FROM f1 WHERE id = 1 FOR UPDATE")
    l1.execute("UPDATE f1 SET v = v + 10 WHERE id = 1")
    l1.commit()
    check(scalar(b, "SELECT v FROM f1 WHERE id = 1") == 12, "for_update_no_conflict")
    l1.close()
    l2.close()

    # merge-on-read (v3 deletion vectors) in a block: deletes of base rows
    # and of rows the block inserted; the suite validates the table after
    b.execute("CREATE TABLE fm (id int, v text) WITH ('format-version' = '3', "
              "'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read')")
    b.execute("INSERT INTO fm SELECT i, 'v' FROM generate_series(1, 20) AS s(i)")
    a.execute("DELETE FROM fm WHERE id <= 3")
    a.execute("UPDATE fm SET v = 'u' WHERE id = 4")
    a.execute("INSERT INTO fm VALUES (50, 'n'), (51, 'n')")
    a.execute("DELETE FROM fm WHERE id = 50")
    a.execute("DELETE FROM fm WHERE id = 5")
    a.commit()
    with b.cursor() as c:
        c.execute("SELECT count(*), sum(id), count(*) FILTER (WHERE v = 'u') FROM fm")
        got = c.fetchone()
    check(got == (17, 210 - 6 - 5 + 51, 1), "merge_on_read_block", got)
    c2.close()
    a.close()
    b.close()


def refused(conn, sqlstate):
    """conn.commit() fails with sqlstate (the block is then over)."""
    try:
        conn.commit()
        return "committed"
    except psycopg.Error as e:
        return True if e.sqlstate == sqlstate else "%s %s" % (e.sqlstate, e)


def key_checks(ci):
    """PRIMARY KEY uniqueness across concurrent blocks (floe: checked at
    COMMIT when it is re-based on what committed since its snapshot)."""
    a = psycopg.connect(ci)
    c = psycopg.connect(ci)
    b = psycopg.connect(ci, autocommit=True)
    b.execute("CREATE TABLE kp (id int PRIMARY KEY, v text)")
    b.execute("INSERT INTO kp VALUES (1, 'one'), (2, 'two')")

    def rows():
        return b.execute("SELECT id, v FROM kp ORDER BY id, v").fetchall()

    # two blocks insert one key: the second COMMIT is 23505
    a.execute("INSERT INTO kp VALUES (20, 'a')")
    c.execute("INSERT INTO kp VALUES (20, 'c')")
    a.commit()
    r = refused(c, "23505")
    check(r is True, "pk_two_blocks_second_23505", r)
    check(rows() == [(1, 'one'), (2, 'two'), (20, 'a')], "pk_two_blocks_one_row", rows())

    # a block against an autocommit INSERT of the same key
    a.execute("INSERT INTO kp VALUES (21, 'a'), (22, 'a')")
    b.execute("INSERT INTO kp VALUES (22, 'b')")
    r = refused(a, "23505")
    check(r is True, "pk_block_vs_autocommit_23505", r)
    # different keys: both commit
    a.execute("INSERT INTO kp VALUES (23, 'a')")
    c.execute("INSERT INTO kp VALUES (24, 'c')")
    a.commit()
    c.commit()
    check(rows()[-3:] == [(22, 'b'), (23, 'a'), (24, 'c')], "pk_different_keys_both_commit",
          rows())

    # UPDATE of a key to one another block inserted
    a.execute("UPDATE kp SET id = 30 WHERE id = 1")
    c.execute("INSERT INTO kp VALUES (30, 'c')")
    c.commit()
    r = refused(a, "23505")
    check(r is True, "pk_update_key_vs_insert_23505", r)
    # ON CONFLICT DO NOTHING in a block: 40001 (it must decide again)
    a.execute("INSERT INTO kp VALUES (31, 'a') ON CONFLICT DO NOTHING")
    c.execute("INSERT INTO kp VALUES (31, 'c')")
    c.commit()
    r = refused(a, "40001")
    check(r is True, "pk_on_conflict_block_40001", r)
    # MERGE inserting a key
    a.execute("MERGE INTO kp t USING (VALUES (32, 'a')) s(id, v) ON t.id = s.id "
              "WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)")
    c.execute("INSERT INTO kp VALUES (32, 'c')")
    c.commit()
    r = refused(a, "23505")
    check(r is True, "pk_merge_block_23505", r)
    ids = [r[0] for r in rows()]
    check(len(ids) == len(set(ids)), "pk_no_duplicates", rows())

    # merge-on-read: two blocks UPDATE the same row (v2 position deletes:
    # each deletes the old row and writes it again) -> 40001, one row
    b.execute("CREATE TABLE km (id int PRIMARY KEY, v text) WITH ('write.update.mode' = "
              "'merge-on-read', 'write.delete.mode' = 'merge-on-read')")
    b.execute("INSERT INTO km VALUES (1, 'x'), (2, 'x'), (3, 'x')")
    a.execute("UPDATE km SET v = 'a' WHERE id = 1")
    c.execute("UPDATE km SET v = 'c' WHERE id = 1")
    a.commit()
    r = refused(c, "40001")
    check(r is True, "pk_mor_same_row_40001", r)
    got = b.execute("SELECT id, v FROM km ORDER BY id").fetchall()
    check(got == [(1, 'a'), (2, 'x'), (3, 'x')], "pk_mor_same_row_once", got)

    # blocks a and c change different keys of one data file of a new keyed
    # table t (format version fv, update/delete mode): a UPDATEs 1 and
    # DELETEs 3; c UPDATEs 2, DELETEs 4 and runs extra (with %s the table);
    # a commits first. Returns True when c's COMMIT succeeds, else the error.
    def different_keys(t, fv, mode, extra=None):
        b.execute("CREATE TABLE %s (id int PRIMARY KEY, v text) WITH ('format-version' = '%s', "
                  "'write.update.mode' = '%s', 'write.delete.mode' = '%s')" % (t, fv, mode, mode))
        b.execute("INSERT INTO %s SELECT i, 'x' FROM generate_series(1, 6) AS s(i)" % t)
        a.execute("UPDATE %s SET v = 'a' WHERE id = 1" % t)
        a.execute("DELETE FROM %s WHERE id = 3" % t)
        c.execute("UPDATE %s SET v = 'c' WHERE id = 2" % t)
        c.execute("DELETE FROM %s WHERE id = 4" % t)
        if extra:
            c.execute(extra % t)
        a.commit()
        try:
            c.commit()
            return True
        except psycopg.Error as e:
            return "%s %s" % (e.sqlstate, e)

    # key-granular merge-on-read: blocks that UPDATE / DELETE different keys
    # of one data file both commit (v2 position deletes, v3 deletion
    # vectors: the second COMMIT writes the union of both vectors); one row
    # deleted by both -> 40001
    for fv in ("2", "3"):
        t = "kg" + fv
        r = different_keys(t, fv, "merge-on-read")
        check(r is True, "mor_v%s_different_keys_both_commit" % fv, r)
        got = b.execute("SELECT id, v FROM %s ORDER BY id" % t).fetchall()
        check(got == [(1, 'a'), (2, 'c'), (5, 'x'), (6, 'x')], "mor_v%s_both_applied" % fv, got)
        if fv == "3":
            a.execute("DELETE FROM %s WHERE id = 5" % t)
            c.execute("DELETE FROM %s WHERE id IN (5, 6)" % t)
            a.commit()
            r = refused(c, "40001")
            check(r is True, "mor_v3_same_row_deleted_twice_40001", r)
            got = b.execute("SELECT id FROM %s ORDER BY id" % t).fetchall()
            check(got == [(1,), (2,), (6,)], "mor_v3_after_refused_delete", got)

    # key-granular copy-on-write: blocks that UPDATE / DELETE different keys
    # of one data file both commit (the second is re-based: its key changes
    # re-applied to the file the first wrote); one key changed by both ->
    # 40001; a copy-on-write UPDATE over a concurrent merge-on-read DELETE
    # of another key of the file keeps that delete
    for fv in ("2", "3"):
        t = "kc" + fv
        r = different_keys(t, fv, "copy-on-write", "INSERT INTO %s VALUES (7, 'c')")
        check(r is True, "cow_v%s_different_keys_both_commit" % fv, r)
        got = b.execute("SELECT id, v FROM %s ORDER BY id" % t).fetchall()
        check(got == [(1, 'a'), (2, 'c'), (5, 'x'), (6, 'x'), (7, 'c')], "cow_v%s_both_applied" % fv,
              got)
        a.execute("UPDATE %s SET v = 'a2' WHERE id = 5" % t)
        c.execute("UPDATE %s SET v = 'c2' WHERE id IN (5, 6)" % t)
        a.commit()
        r = refused(c, "40001")
        check(r is True, "cow_v%s_same_key_40001" % fv, r)
        a.execute("DELETE FROM %s WHERE id = 6" % t)
        c.execute("UPDATE %s SET v = 'c3' WHERE id = 6" % t)
        a.commit()
        r = refused(c, "40001")
        check(r is True, "cow_v%s_update_of_deleted_key_40001" % fv, r)
        got = b.execute("SELECT id, v FROM %s ORDER BY id" % t).fetchall()
        check(got == [(1, 'a'), (2, 'c'), (5, 'a2'), (7, 'c')], "cow_v%s_after_refused" % fv, got)
        b.execute("ALTER TABLE %s SET ('write.delete.mode' = 'merge-on-read')" % t)
        a.execute("UPDATE %s SET v = 'a3' WHERE id = 1" % t)
        b.execute("DELETE FROM %s WHERE id = 2" % t)
        try:
            a.commit()
            r = True
        except psycopg.Error as e:
            r = "%s %s" % (e.sqlstate, e)
        check(r is True, "cow_v%s_update_over_mor_delete_commits" % fv, r)
        got = b.execute("SELECT id, v FROM %s ORDER BY id" % t).fetchall()
        check(got == [(1, 'a3'), (5, 'a2'), (7, 'c')], "cow_v%s_mor_delete_kept" % fv, got)

    # (any table) two merge-on-read blocks UPDATE one row (v2 position
    # deletes name the same position): the second COMMIT 40001, no copy twice
    b.execute("CREATE TABLE kn (id int, v text) WITH ('write.update.mode' = 'merge-on-read', "
              "'write.delete.mode' = 'merge-on-read')")
    b.execute("INSERT INTO kn VALUES (1, 'x'), (2, 'x')")
    a.execute("UPDATE kn SET v = 'a' WHERE id = 1")
    c.execute("UPDATE kn SET v = 'c' WHERE id = 1")
    a.commit()
    r = refused(c, "40001")
    check(r is True, "mor_v2_same_row_40001", r)
    got = b.execute("SELECT id, v FROM kn ORDER BY id").fetchall()
    check(got == [(1, 'a'), (2, 'x')], "mor_v2_same_row_once", got)

    # (any table) a copy-on-write rewrite of a file that another commit
    # deleted rows of (merge-on-read) must not bring those rows back: 40001
    b.execute("CREATE TABLE kd (id int, v text) WITH ('write.update.mode' = "
              "'copy-on-write', 'write.delete.mode' = 'merge-on-read')")
    b.execute("INSERT INTO kd VALUES (1, 'x'), (2, 'x'), (3, 'x')")
    a.execute("UPDATE kd SET v = 'a' WHERE id = 1")
    b.execute("DELETE FROM kd WHERE id = 2")
    r = refused(a, "40001")
    check(r is True, "cow_rewrite_after_delete_40001", r)
    got = b.execute("SELECT id, v FROM kd ORDER BY id").fetchall()
    check(got == [(1, 'x'), (3, 'x')], "cow_rewrite_keeps_delete", got)
    a.close()
    c.close()
    b.close()


def lock_rows(conn, t):
    return conn.execute("SELECT id, v FROM %s ORDER BY id" % t).fetchall()


def shared_lock_checks(ci, tag):
    """SELECT ... FOR UPDATE on a PRIMARY KEY table locks the rows it
    returned, not the table: concurrent changes to other keys (UPDATE,
    DELETE, INSERT; copy-on-write and merge-on-read) do not make the
    locking block fail.  PostgreSQL 15 gives the same results."""
    cf = psycopg.ClientCursor
    l1 = psycopg.connect(ci, cursor_factory=cf)
    b = psycopg.connect(ci, autocommit=True)
    for mode in ("copy-on-write", "merge-on-read"):
        t = "lk_" + mode.split("-")[0]
        b.execute("DROP TABLE IF EXISTS %s" % t)
        b.execute("DROP TABLE IF EXISTS %s_o" % t)
        if tag:
            b.execute("CREATE TABLE %s (id int PRIMARY KEY, v int)" % t)
        else:
            b.execute("CREATE TABLE %s (id int PRIMARY KEY, v int) WITH ('write.update.mode' = "
                      "'%s', 'write.delete.mode' = '%s')" % (t, mode, mode))
        b.execute("CREATE TABLE %s_o (id int)" % t)
        b.execute("INSERT INTO %s SELECT i, i FROM generate_series(1, 6) AS s(i)" % t)
        b.execute("INSERT INTO %s_o VALUES (1), (2)" % t)
        got = l1.execute("SELECT id, v FROM %s WHERE id IN (1, 2) ORDER BY id FOR UPDATE"
                         % t).fetchall()
        check(got == [(1, 1), (2, 2)], tag + "key_lock_%s_rows" % mode, got)
        b.execute("UPDATE %s SET v = v + 100 WHERE id = 5" % t)
        b.execute("DELETE FROM %s WHERE id = 6" % t)
        b.execute("INSERT INTO %s VALUES (7, 7)" % t)
        l1.execute("INSERT INTO %s_o VALUES (10)" % t)
        try:
            l1.commit()
            r = True
        except psycopg.Error as e:
            l1.rollback()
            r = "%s %s" % (e.sqlstate, e)
        check(r is True, tag + "key_lock_%s_other_keys_commit" % mode, r)
        got = lock_rows(b, t)
        want = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 105), (7, 7)]
        check(got == want, tag + "key_lock_%s_result" % mode, got)
        # a join, FOR UPDATE OF the keyed table: its rows are locked
        got = l1.execute("SELECT k.id FROM %s k JOIN %s_o o ON o.id = k.id ORDER BY k.id "
                         "FOR UPDATE OF k" % (t, t)).fetchall()
        check(got == [(1,), (2,)], tag + "key_lock_%s_join_rows" % mode, got)
        b.execute("UPDATE %s SET v = 0 WHERE id = 3" % t)
        l1.execute("INSERT INTO %s_o VALUES (3)" % t)
        try:
            l1.commit()
            r = True
        except psycopg.Error as e:
            l1.rollback()
            r = "%s %s" % (e.sqlstate, e)
        check(r is True, tag + "key_lock_%s_join_other_key_commits" % mode, r)
        # key columns renamed by a column alias list: the rows all the same
        got = l1.execute("SELECT * FROM %s AS x(a, b) WHERE a = 2 FOR UPDATE" % t).fetchall()
        check(got == [(2, 2)], tag + "key_lock_%s_alias_columns" % mode, got)
        l1.rollback()
        b.execute("DROP TABLE %s_o" % t)
        b.execute("DROP TABLE %s" % t)
    l1.close()
    b.close()


def floe_lock_checks(ci):
    """floe's locks are optimistic (it never waits): a locked key changed
    by a commit after the lock makes the locking block's COMMIT 40001
    (PostgreSQL would make the other writer wait instead)."""
    cf = psycopg.ClientCursor
    l1 = psycopg.connect(ci, cursor_factory=cf)
    b = psycopg.connect(ci, autocommit=True)
    for mode in ("copy-on-write", "merge-on-read"):
        t = "lkf_" + mode.split("-")[0]
        b.execute("CREATE TABLE %s (id int PRIMARY KEY, v int) WITH ('write.update.mode' = "
                  "'%s', 'write.delete.mode' = '%s')" % (t, mode, mode))
        b.execute("CREATE TABLE %s_o (id int)" % t)
        b.execute("INSERT INTO %s SELECT i, i FROM generate_series(1, 6) AS s(i)" % t)
        # updated; deleted and inserted again (another value); deleted
        for n, changes in enumerate((["UPDATE %s SET v = v + 1 WHERE id = 2"],
                                     ["DELETE FROM %s WHERE id = 2",
                                      "INSERT INTO %s VALUES (2, 99)"],
                                     ["DELETE FROM %s WHERE id = 2"])):
            l1.execute("SELECT v FROM %s WHERE id BETWEEN 1 AND 2 FOR SHARE" % t)
            for change in changes:
                b.execute(change % t)
            l1.execute("INSERT INTO %s_o VALUES (1)" % t)
            r = refused(l1, "40001")
            check(r is True, "key_lock_%s_locked_key_changed_40001_%d" % (mode, n), r)
        check(lock_rows(b, t) == [(1, 1), (3, 3), (4, 4), (5, 5), (6, 6)],
              "key_lock_%s_refused_not_applied" % mode, lock_rows(b, t))
        # a FROM table hidden by a join alias is locked whole
        b.execute("INSERT INTO %s_o VALUES (1)" % t)
        got = l1.execute("SELECT j.id FROM (%s JOIN %s_o USING (id)) AS j FOR UPDATE" % (t, t)
                         ).fetchall()
        check(got == [(1,)], "key_lock_%s_join_alias_rows" % mode, got)
        b.execute("UPDATE %s SET v = 0 WHERE id = 6" % t)
        l1.execute("INSERT INTO %s_o VALUES (3)" % t)
        r = refused(l1, "40001")
        check(r is True, "key_lock_%s_join_alias_table_lock" % mode, r)
        b.execute("DELETE FROM %s_o" % t)
        # an empty lock (no row matched) conflicts with nothing
        l1.execute("SELECT v FROM %s WHERE id = 50 FOR UPDATE" % t)
        b.execute("INSERT INTO %s VALUES (50, 50)" % t)
        l1.execute("INSERT INTO %s_o VALUES (2)" % t)
        try:
            l1.commit()
            r = True
        except psycopg.Error as e:
            l1.rollback()
            r = "%s %s" % (e.sqlstate, e)
        check(r is True, "key_lock_%s_no_rows_no_conflict" % mode, r)
        check(scalar(b, "SELECT count(*) FROM %s_o" % t) == 1, "key_lock_%s_o_rows" % mode)
        b.execute("DROP TABLE %s_o" % t)
        b.execute("DROP TABLE %s" % t)
    l1.close()
    b.close()


def main():
    ci, wh = sys.argv[1], sys.argv[2]
    shared_checks(ci, "")
    shared_lock_checks(ci, "")
    if "--pg" in sys.argv:
        shared_checks(sys.argv[sys.argv.index("--pg") + 1], "postgres:")
        shared_lock_checks(sys.argv[sys.argv.index("--pg") + 1], "postgres:")
    floe_checks(ci, wh)
    floe_lock_checks(ci)
    key_checks(ci)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
