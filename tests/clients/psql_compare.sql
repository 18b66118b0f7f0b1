-- psql_compare.sql: run by psql against floe serve and against PostgreSQL 15;
-- the outputs (stdout and stderr) must be identical.
CREATE TABLE srv_t (i int, b bigint, s text, v varchar(10), n numeric(10,2), f double precision, d date, ts timestamp, ok boolean);
INSERT INTO srv_t VALUES (1, 10000000000, 'one', 'uno', 1.5, 0.1, '2024-01-02', '2024-01-02 03:04:05.5', true),
  (2, -2, 'two', NULL, -2.25, 1e100, '1999-12-31', '2000-01-01 00:00:00', false),
  (3, NULL, NULL, 'tres', NULL, NULL, NULL, NULL, NULL);
SELECT * FROM srv_t ORDER BY i;
SELECT i, s FROM srv_t WHERE i > 1 ORDER BY i DESC;
SELECT count(*), sum(n), min(s), max(d) FROM srv_t;
\pset null '(null)'
SELECT s, v FROM srv_t ORDER BY i;
\pset null ''
SELECT 1 AS a, 'x' AS b; SELECT 2 AS c;
SELECT 1/0;
SELECT * FROM srv_nosuch;
SELECT i FROM srv_t WHERE nosuchcol = 1;
SELEC 1;
SELECT 'a' || 'b' AS cat, 7 / 2 AS div, 7.0 / 2 AS numdiv, -5 % 3 AS mod;
SELECT NULL AS nothing, true AS t, 'héllo wörld' AS utf8;
SELECT 'x'::int;
MERGE INTO srv_t t USING (VALUES (3, 'tres'), (9, 'nine')) v(i, s) ON t.i = v.i WHEN MATCHED THEN UPDATE SET s = v.s WHEN NOT MATCHED THEN INSERT (i, s) VALUES (v.i, v.s);
DELETE FROM srv_t WHERE i = 9;
DROP TABLE IF EXISTS srv_nosuch;
BEGIN;
SELECT 1 / 0;
SELECT 1;
ROLLBACK;
UPDATE srv_t SET s = 'three' WHERE i = 3;
DELETE FROM srv_t WHERE i = 2;
SELECT i, s FROM srv_t ORDER BY i;
\x on
SELECT * FROM srv_t WHERE i = 1;
\x off
SET statement_timeout = 300;
SELECT count(*) FROM generate_series(1, 2000000000);
RESET statement_timeout;
SELECT 1 AS after_timeout;
DROP TABLE srv_t;
