-- psql_txn.sql: transaction blocks through psql, output compared with
-- PostgreSQL 15 (tests/suites/txn.sh): command tags, warnings, errors in
-- blocks (25P02), COMMIT of a failed block, savepoints, isolation settings.
\set ON_ERROR_STOP 0
\set VERBOSITY default
DROP TABLE IF EXISTS pt;
CREATE TABLE pt (id integer, v text);
INSERT INTO pt VALUES (1, 'a');
BEGIN;
INSERT INTO pt VALUES (2, 'b');
SELECT id, v FROM pt ORDER BY id;
BEGIN;
COMMIT;
COMMIT;
ROLLBACK;
START TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SHOW transaction_isolation;
UPDATE pt SET v = 'z' WHERE id = 1;
SELECT 1 / 0;
SELECT id FROM pt;
COMMIT;
SELECT id, v FROM pt ORDER BY id;
BEGIN;
DELETE FROM pt WHERE id = 2;
SAVEPOINT s1;
INSERT INTO pt VALUES (3, 'c');
ROLLBACK TO SAVEPOINT s1;
RELEASE SAVEPOINT s1;
SELECT id, v FROM pt ORDER BY id;
END;
SELECT id, v FROM pt ORDER BY id;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SHOW transaction_isolation;
ABORT;
ROLLBACK TO s1;
SAVEPOINT nope;
DROP TABLE pt;
