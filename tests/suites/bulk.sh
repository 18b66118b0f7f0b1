#!/usr/bin/env bash
# Bulk suite: COPY to and from server files (docs/loading.md) checked
# against truths nobody here wrote.
#
#   - pg_*: the same file COPY'd FROM by floe serve and by a throwaway
#     PostgreSQL 15 (scripts/pg-test-server.sh), both through psql: the
#     whole psql output (rows, or the ERROR / CONTEXT lines) must be equal.
#     Files from other tools' habits: quoted newlines, CRLF, a BOM, ragged
#     rows, invalid UTF-8, HEADER MATCH, LATIN1, options' errors.
#   - pgout_*: COPY ... TO a file by floe equals, byte for byte,
#     PostgreSQL's COPY ... TO STDOUT of the same rows and options.
#   - duck_*: FORMAT parquet / json files floe writes read by DuckDB
#     (../shared/tools/interop) as floe reads them, and DuckDB's files
#     loaded by floe's COPY FROM equal DuckDB's own reading.
#   - rt_*: round trips COPY TO then COPY FROM equal, in every format;
#     globs; a bad file commits nothing.
#
# Prints "PASS bulk: name" / "FAIL bulk: name: why".  $FLOE_BIN is the binary.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
INTEROP=${FLOE_INTEROP:-$PWD/../shared/tools/interop/bin}

tmp=$(mktemp -d /tmp/floe-bulk.XXXXXX)
chmod 755 "$tmp"
fix=$tmp/fix
mkdir -p "$fix"
chmod 777 "$fix"
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-bulkpg.XXXXXX)
. tests/tools/floe_server.sh
srv_pid=
cleanup() {
	floe_stop "$srv_pid"
	pg_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS bulk: $1"; }
fail() {
	echo "FAIL bulk: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -40 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL bulk: binary $FLOE_BIN not built"
	exit 1
fi

if ! floe_serve "$tmp/serve" -D "$tmp/wh" --port 0 --http-port off --allow-dir "$fix"; then
	fail start "floe serve did not start" "$tmp/serve.err"
	exit 1
fi
FL="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"
have_pg=0
if pg_start; then
	PG="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
	psql -X -q "$PG" -c 'select 1' >/dev/null 2>&1 && have_pg=1
fi
[ $have_pg -eq 1 ] || echo "bulk: PostgreSQL 15 not available: pg_* and pgout_* cases not run"

# q CONNINFO SQL...: each SQL through psql -c (errors do not stop it)
q() {
	local c=$1 a=()
	shift
	for s in "$@"; do a+=(-c "$s"); done
	psql -X -q "$c" "${a[@]}" 2>&1
}
# qt: the same with command tags, no notices
qt() {
	local c=$1 a=()
	shift
	for s in "$@"; do a+=(-c "$s"); done
	psql -X "$c" "${a[@]}" 2>&1 | grep -v '^NOTICE:  .* does not exist, skipping$'
}

# pg_case NAME 'columns' 'file bytes (printf)' 'COPY options' [col list]
# COPY FROM the file on both; psql's output of the COPY and of the
# table's rows must be equal.
pg_case() {
	local name=$1 cols=$2 data=$3 opts=$4 list=${5:-}
	[ $have_pg -eq 1 ] || return 0
	local f=$fix/$name.dat
	printf "$data" >"$f"
	chmod 644 "$f"
	local sql=("DROP TABLE IF EXISTS t" "CREATE TABLE t ($cols)"
		"COPY t $list FROM '$f' $opts" "SELECT * FROM t ORDER BY 1")
	q "$FL" "${sql[@]}" >"$tmp/$name.floe"
	q "$PG" "${sql[@]}" >"$tmp/$name.pg"
	if cmp -s "$tmp/$name.floe" "$tmp/$name.pg"; then
		pass "pg_$name"
	else
		diff "$tmp/$name.pg" "$tmp/$name.floe" >"$tmp/$name.diff"
		fail "pg_$name" "floe's output differs from PostgreSQL's (< pg, > floe)" "$tmp/$name.diff"
	fi
}

# ---- COPY FROM files, compared with PostgreSQL ------------------------------
pg_case csv_basic 'a int, b text' '1,x\n2,"y,z"\n3,\n4,""\n' '(FORMAT csv)'
pg_case csv_quoted_newline 'a int, b text' 'a,b\n1,"two\nlines"\n2,"x""y"\n3,"cr\r\nlf"\n' '(FORMAT csv, HEADER)'
pg_case csv_crlf 'a int, b text' '1,x\r\n2,y\r\n' '(FORMAT csv)'
pg_case text_crlf 'a int, b text' '1\tx\r\n2\ty\r\n' ''
pg_case csv_mixed_eol 'a int, b text' '1,x\r\n2,y\n' '(FORMAT csv)'
pg_case text_mixed_eol 'a int, b text' '1\tx\n2\ty\r\n' ''
pg_case csv_bom_header 'a int, b text' '\xef\xbb\xbfa,b\n1,x\n' '(FORMAT csv, HEADER)'
pg_case csv_bom_data 'a int, b text' '\xef\xbb\xbf1,x\n' '(FORMAT csv)'
pg_case csv_bom_match 'a int, b text' '\xef\xbb\xbfa,b\n1,x\n' '(FORMAT csv, HEADER MATCH)'
pg_case csv_ragged_short 'a int, b text, c text' '1,x,y\n2,x\n' '(FORMAT csv)'
pg_case csv_ragged_long 'a int, b text' '1,x\n2,x,y\n' '(FORMAT csv)'
pg_case csv_bad_utf8 'a int, b text' '1,ok\n2,\xff\xfe\n' '(FORMAT csv)'
pg_case text_bad_utf8 'a int, b text' '1\t\xc3\n' ''
pg_case csv_unterminated 'a int, b text' '1,"abc\n2,x\n' '(FORMAT csv)'
pg_case csv_empty_line 'a int, b text' '1,x\n\n2,y\n' '(FORMAT csv)'
pg_case csv_no_final_eol 'a int, b text' '1,x\n2,y' '(FORMAT csv)'
pg_case csv_eod_marker 'a int, b text' '1,x\n\\.\n2,y\n' '(FORMAT csv)'
pg_case csv_bad_int 'a int, b text' '1,x\nzz,y\n' '(FORMAT csv)'
pg_case header_match_ok 'a int, b text' 'a,b\n1,x\n' '(FORMAT csv, HEADER MATCH)'
pg_case header_match_list 'a int, b text' 'b,a\nx,1\n' '(FORMAT csv, HEADER match)' '(b, a)'
pg_case header_match_name 'a int, b text' 'a,c\n1,x\n' '(FORMAT csv, HEADER MATCH)'
pg_case header_match_count 'a int, b text' 'a\n1,x\n' '(FORMAT csv, HEADER MATCH)'
pg_case header_match_null 'a int, b text' 'a\t\\N\n1\tx\n' '(HEADER MATCH)'
pg_case header_match_text 'a int, b text' 'a\tb\n1\tx\n' '(FORMAT text, HEADER MATCH)'
pg_case header_bad 'a int' '1\n' '(HEADER maybe)'
pg_case header_to_match 'a int' '1\n' '(HEADER true)'
pg_case latin1 'a int, b text' '1,caf\xe9\n2,\xbfqu\xe9?\n' "(FORMAT csv, ENCODING 'LATIN1')"
pg_case latin1_alias 'a int, b text' '1,\xe9\n' "(FORMAT csv, ENCODING 'iso-8859-1')"
pg_case utf8_enc 'a int, b text' '1,\xc3\xa9\n' "(FORMAT csv, ENCODING 'UTF-8')"
pg_case enc_bogus 'a int' '1\n' "(ENCODING 'klingon')"
pg_case enc_twice 'a int' '1\n' "(ENCODING 'UTF8', ENCODING 'UTF8')"
pg_case opt_unknown 'a int' '1\n' '(FORMAT csv, SPEED 9)'
pg_case opt_twice 'a int' '1\n' "(DELIMITER ',', DELIMITER ',')"
pg_case format_twice 'a int' '1\n' '(FORMAT csv, FORMAT text)'
pg_case force_not_null 'a int, b text' '1,\n2,"" \n' '(FORMAT csv, FORCE_NOT_NULL (b))'
pg_case force_null 'a int, b text' '1,""\n2,\n' '(FORMAT csv, FORCE_NULL (b))'
pg_case null_delim 'a int, b text' '1|NA\n2|x\n' "(FORMAT csv, DELIMITER '|', NULL 'NA')"
pg_case quote_escape 'a int, b text' "1,'it\\\\'s'\n2,'a,b'\n" "(FORMAT csv, QUOTE '''', ESCAPE '\\\\')"
pg_case text_escapes 'a int, b text' '1\t\\x41\\101\\t\\\\\n2\t\\N\n' ''
pg_case quote_in_text 'a int' '1\n' "(QUOTE '\"')"

# pgout_case NAME 'query' 'COPY options': floe's COPY (query) TO 'file'
# equals PostgreSQL's COPY (query) TO STDOUT
pgout_case() {
	local name=$1 query=$2 opts=$3
	[ $have_pg -eq 1 ] || return 0
	psql -X -q "$PG" -c "COPY ($query) TO STDOUT $opts" >"$tmp/$name.pgout" 2>&1
	local r
	r=$(q "$FL" "COPY ($query) TO '$fix/$name.out' $opts")
	if [ -n "$r" ]; then
		printf '%s\n' "$r" >"$fix/$name.out"
	fi
	if cmp -s "$tmp/$name.pgout" "$fix/$name.out"; then
		pass "pgout_$name"
	else
		diff "$tmp/$name.pgout" "$fix/$name.out" >"$tmp/$name.diff"
		fail "pgout_$name" "floe's file differs from PostgreSQL's output (< pg, > floe)" "$tmp/$name.diff"
	fi
}
V="SELECT * FROM (VALUES (1, 'plain', 1.5::float8, DATE '2024-02-29', true), (2, 'a,b \"q\"', -0.25, NULL, false), (3, E'two\\nlines\\\\', NULL, DATE '1999-12-31', NULL), (4, 'café', 1e20, DATE '2000-01-01', true)) v(a, b, c, d, e) ORDER BY a"
pgout_case text "$V" ''
pgout_case csv "$V" '(FORMAT csv, HEADER)'
pgout_case csv_force_quote "$V" '(FORMAT csv, FORCE_QUOTE (b, d))'
pgout_case csv_force_all "$V" "(FORMAT csv, FORCE_QUOTE *, NULL 'N/A', DELIMITER ';')"
pgout_case latin1 "$V" "(FORMAT csv, ENCODING 'LATIN1')"
pgout_case latin1_bad "SELECT '€' AS x" "(FORMAT csv, ENCODING 'LATIN1')"
pgout_case header_match_to "$V" '(FORMAT csv, HEADER MATCH)'

# ---- round trips, every format ----------------------------------------------
SETUP=("DROP TABLE IF EXISTS src" "CREATE TABLE src (a int, b text, c float8, d date, e bool, f numeric(12,3), g bigint, h timestamp)"
	"INSERT INTO src VALUES (1, 'plain', 1.5, '2024-02-29', true, 12.345, 9000000000, '2024-01-02 03:04:05.678'), (2, E'q\"uo,te\\ttab\\nnl\\\\', 'NaN', NULL, false, -0.5, NULL, NULL), (3, NULL, '-Infinity', '1970-01-01', NULL, NULL, -1, '1900-01-01 00:00:00'), (4, 'ünï €', 1e-300, '2100-12-31', true, 0, 0, '2262-04-11 23:47:16')")
q "$FL" "${SETUP[@]}" >"$tmp/setup.out"
for f in text csv json parquet; do
	opts="(FORMAT $f)"
	[ $f = csv ] && opts="(FORMAT csv, HEADER MATCH)"
	toopts="(FORMAT $f)"
	[ $f = csv ] && toopts="(FORMAT csv, HEADER)"
	out=$(qt "$FL" "COPY src TO '$fix/rt.$f' $toopts" "DROP TABLE IF EXISTS dst" "CREATE TABLE dst (a int, b text, c float8, d date, e bool, f numeric(12,3), g bigint, h timestamp)" \
		"COPY dst FROM '$fix/rt.$f' $opts" \
		"SELECT count(*) FROM (SELECT * FROM src EXCEPT ALL SELECT * FROM dst) x" \
		"SELECT count(*) FROM (SELECT * FROM dst EXCEPT ALL SELECT * FROM src) x")
	exp=$(printf 'COPY 4\nDROP TABLE\nCREATE TABLE\nCOPY 4\n count \n-------\n     0\n(1 row)\n\n count \n-------\n     0\n(1 row)\n')
	if [ "$out" = "$exp" ]; then pass "rt_$f"; else
		printf '%s\n' "$out" >"$tmp/rt.$f.out"
		fail "rt_$f" "COPY TO then FROM did not give the same rows" "$tmp/rt.$f.out"
	fi
done

# globs: three CSV files with headers, each file its own header and lines
printf 'a,b\n1,x\n2,y\n' >"$fix/g1.csv"
printf 'a,b\n3,z\n' >"$fix/g2.csv"
printf 'a,b\n4,w\n5,"v"\n' >"$fix/g3.csv"
printf 'not,me\n' >"$fix/other.txt"
out=$(qt "$FL" "DROP TABLE IF EXISTS g" "CREATE TABLE g (a int, b text)" "COPY g FROM '$fix/g*.csv' (FORMAT csv, HEADER MATCH)" \
	"SELECT string_agg(a || b, ' ' ORDER BY a) FROM g")
if printf '%s\n' "$out" | grep -q '^COPY 5$' && printf '%s\n' "$out" | grep -q '1x 2y 3z 4w 5v'; then
	pass glob_csv
else
	fail glob_csv "$out"
fi
printf 'a,b\n6,u\nbad,t\n' >"$fix/g4.csv"
out=$(qt "$FL" "COPY g FROM '$fix/g*.csv' (FORMAT csv, HEADER)" "SELECT count(*) FROM g")
if printf '%s\n' "$out" | grep -q "CONTEXT:  COPY g, file $fix/g4.csv, line 3, column a: \"bad\"" &&
   printf '%s\n' "$out" | grep -q '^     5$'; then
	pass glob_error_commits_nothing
else
	fail glob_error_commits_nothing "$out"
fi
out=$(qt "$FL" "COPY g FROM '$fix/none*.csv' (FORMAT csv)")
if printf '%s\n' "$out" | grep -q 'ERROR:  no files match'; then pass glob_no_match; else fail glob_no_match "$out"; fi
out=$(qt "$FL" "COPY g FROM '/etc/pass*' (FORMAT csv)")
if printf '%s\n' "$out" | grep -q 'ERROR:  .*outside\|ERROR:  .*not allowed\|ERROR:  .*must be'; then
	pass glob_outside_refused
else
	fail glob_outside_refused "$out"
fi
printf '{"a":1,"b":"x"}\n{"b":"y","a":2,"extra":[1,{"k":2}]}\n' >"$fix/j1.json"
printf '[{"a":3,"b":null},\n {"a":4}]\n' >"$fix/j2.json"
out=$(qt "$FL" "DROP TABLE IF EXISTS j" "CREATE TABLE j (a int, b text)" "COPY j FROM '$fix/j*.json' (FORMAT json)" \
	"SELECT string_agg(a || coalesce(b, '-'), ' ' ORDER BY a) FROM j")
if printf '%s\n' "$out" | grep -q '^COPY 4$' && printf '%s\n' "$out" | grep -q '1x 2y 3- 4-'; then
	pass glob_json
else
	fail glob_json "$out"
fi

# JSON errors: the line and column in CONTEXT; nothing committed
printf '{"a":1}\n{"a":"zz"}\n' >"$fix/jbad1.json"
printf '{"a":1}\n\n{"a":2,}\n' >"$fix/jbad2.json"
printf '{"a":1}\n[1]\n' >"$fix/jbad3.json"
out=$(qt "$FL" "COPY j FROM '$fix/jbad1.json' (FORMAT json)" "COPY j FROM '$fix/jbad2.json' (FORMAT json)" \
	"COPY j FROM '$fix/jbad3.json' (FORMAT json)" "COPY j FROM '$fix/j1.json' (FORMAT json, DELIMITER ',')" \
	"SELECT count(*) FROM j")
exp='ERROR:  invalid input syntax for type integer: "zz"
CONTEXT:  COPY j, line 2, column a: "zz"
ERROR:  invalid input syntax for type json: expected a key string, found "}"
CONTEXT:  COPY j, line 3
ERROR:  COPY FORMAT json expects one object per row
CONTEXT:  COPY j, line 2
ERROR:  cannot specify DELIMITER in JSON mode
 count 
-------
     4
(1 row)'
if [ "$out" = "$exp" ]; then pass json_errors; else
	printf '%s\n' "$out" >"$tmp/json_errors.out"
	fail json_errors "unexpected output" "$tmp/json_errors.out"
fi

# ---- DuckDB reads floe's files and floe reads DuckDB's ----------------------
if [ -x "$INTEROP/duckdb-sql" ]; then
	q "$FL" "COPY (SELECT a, b, d, g FROM src ORDER BY a) TO '$fix/duck_in.parquet' (FORMAT parquet)" \
		"COPY (SELECT a, b, d, g FROM src ORDER BY a) TO '$fix/duck_in.json' (FORMAT json)" \
		"COPY (SELECT a, b, d, g FROM src ORDER BY a) TO STDOUT (FORMAT csv, HEADER)" >"$tmp/floe_src.csv"
	for f in parquet json; do
		rd="read_$f('$fix/duck_in.$f')"
		[ $f = json ] && rd="read_json('$fix/duck_in.json', columns = {a: 'INTEGER', b: 'VARCHAR', d: 'DATE', g: 'BIGINT'})"
		# the same rows as DuckDB's reading of floe's CSV of them
		csv="read_csv('$tmp/floe_src.csv', header = true, columns = {a: 'INTEGER', b: 'VARCHAR', d: 'DATE', g: 'BIGINT'})"
		"$INTEROP/duckdb-sql" --no-header "SELECT (SELECT count(*) FROM $rd), (SELECT count(*) FROM (SELECT * FROM $rd EXCEPT ALL SELECT * FROM $csv)), (SELECT count(*) FROM (SELECT * FROM $csv EXCEPT ALL SELECT * FROM $rd))" >"$tmp/duck_$f.csv" 2>&1
		if [ "$(cat "$tmp/duck_$f.csv")" = "4,0,0" ]; then
			pass "duck_reads_$f"
		else
			fail "duck_reads_$f" "DuckDB's reading of floe's $f differs" "$tmp/duck_$f.csv"
		fi
	done
	"$INTEROP/duckdb-sql" "COPY (SELECT i AS a, 'v' || i AS b, DATE '2024-01-01' + CAST(i AS INTEGER) AS d, i * 1000000000000 AS g FROM range(1, 3001) t(i)) TO '$fix/duck_out.parquet' (FORMAT parquet); COPY (SELECT i AS a, 'v' || i AS b, DATE '2024-01-01' + CAST(i AS INTEGER) AS d, i * 1000000000000 AS g FROM range(1, 3001) t(i)) TO '$fix/duck_out.json' (FORMAT json); SELECT 1" >/dev/null 2>&1
	chmod 644 "$fix"/duck_out.* 2>/dev/null
	for f in parquet json; do
		out=$(qt "$FL" "DROP TABLE IF EXISTS dk" "CREATE TABLE dk (a bigint, b text, d date, g bigint)" \
			"COPY dk FROM '$fix/duck_out.$f' (FORMAT $f)" \
			"SELECT count(*), sum(a), sum(g), min(b), max(d) FROM dk")
		if printf '%s\n' "$out" | grep -q '^COPY 3000$' &&
		   printf '%s\n' "$out" | grep -q '^  3000 | 4501500 | 4501500000000000000 | v1  | 2032-03-19$'; then
			pass "floe_reads_duck_$f"
		else
			fail "floe_reads_duck_$f" "$out"
		fi
	done
	# a Parquet column of another type is refused by name
	out=$(qt "$FL" "CREATE TABLE dk2 (a bigint, b int)" "COPY dk2 FROM '$fix/duck_out.parquet' (FORMAT parquet)" \
		"CREATE TABLE dk3 (a bigint, zz int)" "COPY dk3 FROM '$fix/duck_out.parquet' (FORMAT parquet)")
	if printf '%s\n' "$out" | grep -q 'ERROR:  column "b" is of type integer but Parquet file ".*duck_out.parquet" has text' &&
	   printf '%s\n' "$out" | grep -q 'ERROR:  column "zz" is not in Parquet file'; then
		pass parquet_type_refused
	else
		fail parquet_type_refused "$out"
	fi
else
	echo "bulk: DuckDB (../shared/tools/interop) not available: duck_* cases not run"
fi

# ---- stages and COPY INTO -----------------------------------------------------
st=$tmp/wh/stages/raw
mkdir -p "$st/run1" "$st/run2" "$st/_rejected"
printf 'id,name,amount\n1,one,1.50\n2,"two, quoted",2\n3,,\\N\n' >"$st/run1/a.csv"
printf 'id,name,amount\n4,four,4.25\n' | gzip -c >"$st/run1/b.csv.gz"
printf 'id,name,amount\n5,five,5\n6,six,6\n' | zstd -q -c >"$st/run2/c.csv.zst"
printf 'ignored\n' >"$st/run2/notes.txt"
out=$(qt "$FL" "CREATE TABLE ld (id int NOT NULL, name text, amount numeric(10,2))" \
	"COPY INTO ld FROM '@raw/' FILE_FORMAT = (TYPE = CSV, SKIP_HEADER = 1) PATTERN = '.*[.]csv.*'" \
	"SELECT id, coalesce(name, '<null>'), amount FROM ld ORDER BY id" \
	"COPY INTO ld FROM '@raw/' FILE_FORMAT = (TYPE = CSV, SKIP_HEADER = 1) PATTERN = '.*[.]csv.*'" \
	"SELECT count(*) FROM ld" \
	"COPY INTO ld FROM '@raw/run2/' FILE_FORMAT = (TYPE = CSV SKIP_HEADER = 1) PATTERN = '.*csv.*' FORCE = TRUE" \
	"SELECT count(*) FROM ld" \
	"SELECT count(*) FROM ld\$snapshots")
if printf '%s\n' "$out" | grep -q '^            3 |           6 |' &&
   printf '%s\n' "$out" | grep -q '^  2 | two, quoted | *2.00$' &&
   printf '%s\n' "$out" | grep -q '^  3 | <null>      | *$' &&
   printf '%s\n' "$out" | grep -q '^  4 | four        | *4.25$' &&
   printf '%s\n' "$out" | grep -q '^            0 |           0 |            0 |           0 | $' &&
   printf '%s\n' "$out" | grep -q '^            1 |           2 |' &&
   [ "$(printf '%s\n' "$out" | grep -c '^     8$')" -ge 1 ]; then
	pass into_stage_csv_history
else
	printf '%s\n' "$out" >"$tmp/into1.out"
	fail into_stage_csv_history "unexpected output" "$tmp/into1.out"
fi

# ON_ERROR: ABORT names file, line and column and commits nothing;
# CONTINUE leaves bad rows out (rejected file); SKIP_FILE a whole file
ob=$tmp/wh/stages/bad
mkdir -p "$ob"
printf '1,ok,1\n2,bad,x\n3,ok,3\n' >"$ob/f1.csv"
printf '4,ok,4\n5,ok\n6,ok,6\n' >"$ob/f2.csv"
printf '7,ok,7\n' >"$ob/f3.csv"
out=$(qt "$FL" "CREATE TABLE oe (id int, name text, amount int)" \
	"COPY INTO oe FROM '@bad'" \
	"SELECT count(*) FROM oe" \
	"COPY INTO oe FROM '@bad' ON_ERROR = SKIP_FILE" \
	"SELECT string_agg(id::text, ',' ORDER BY id) FROM oe" \
	"COPY INTO oe FROM '@bad' ON_ERROR = CONTINUE MAX_ERRORS = 1" \
	"COPY INTO oe FROM '@bad' ON_ERROR = CONTINUE" \
	"SELECT string_agg(id::text, ',' ORDER BY id) FROM oe")
rej=$(printf '%s\n' "$out" | sed -n 's/.*| \(\/.*_rejected\/.*\.csv\)$/\1/p' | tail -1)
if printf '%s\n' "$out" | grep -q '^ERROR:  invalid input syntax for type integer: "x"$' &&
   printf '%s\n' "$out" | grep -q '^CONTEXT:  COPY INTO oe, file f1.csv, line 2, column amount: "x"$' &&
   printf '%s\n' "$out" | grep -q '^     0$' &&
   printf '%s\n' "$out" | grep -q '^            1 |           1 |            7 |           2 | /' &&
   printf '%s\n' "$out" | grep -q '^ 7$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  COPY INTO stopped: more than MAX_ERRORS = 1 rejected rows$' &&
   printf '%s\n' "$out" | grep -q '^            2 |           4 |           ' &&
   printf '%s\n' "$out" | grep -q '^ 1,3,4,6,7$' && [ -n "$rej" ] &&
   grep -q '^f1.csv,2,amount,22P02,"invalid input syntax for type integer: ""x"""$' "$rej" 2>/dev/null &&
   grep -q '^f2.csv,2,,22P04,number of columns in file (2) does not match that of the table (3)$' "$rej" 2>/dev/null; then
	pass into_on_error
else
	printf '%s\n' "$out" >"$tmp/into2.out"
	[ -n "$rej" ] && cat "$rej" >>"$tmp/into2.out"
	fail into_on_error "unexpected output" "$tmp/into2.out"
fi

# JSON and Parquet stages, PARSE_HEADER, LIST, refused options
js=$tmp/wh/stages/ev
mkdir -p "$js/day1"
printf '{"id":1,"Name":"a","amount":1}\n{"id":2,"amount":2,"extra":{"x":1}}\n' | gzip -c >"$js/day1/e1.json.gz"
printf '[{"id":3,"name":"c"}]\n' >"$js/day1/e2.json"
printf 'AMOUNT,id,unused\n10,11,z\n' >"$js/h.csv"
out=$(qt "$FL" "CREATE TABLE ev (id int, name text, amount int)" \
	"COPY INTO ev FROM '@ev/day1/' FILE_FORMAT = (TYPE = JSON)" \
	"COPY INTO ev FROM '@ev/h.csv' FILE_FORMAT = (TYPE = CSV, PARSE_HEADER = TRUE)" \
	"COPY ev TO '$js/ev.parquet' (FORMAT parquet)" \
	"COPY INTO ev FROM '@ev/' FILE_FORMAT = (TYPE = PARQUET) PATTERN = '.*[.]parquet'" \
	"SELECT string_agg(id || ':' || coalesce(name, '-') || ':' || coalesce(amount::text, '-'), ' ' ORDER BY id, name) FROM ev" \
	"LIST @ev PATTERN = '.*json.*'" \
	"COPY INTO ev FROM '@ev/' FILE_FORMAT = (TYPE = XML)" \
	"COPY INTO ev FROM '@ev/' FILE_FORMAT = (TYPE = CSV, DATE_FORMAT = 'YYYY')" \
	"COPY INTO ev FROM '@ev/' PURGE = TRUE" \
	"COPY INTO ev FROM '@../etc/'" \
	"COPY INTO ev FROM '/etc/'")
if printf '%s\n' "$out" | grep -q '^ 1:a:1 1:a:1 2:-:2 2:-:2 3:c:- 3:c:- 11:-:10 11:-:10$' &&
   printf '%s\n' "$out" | grep -q '^ day1/e1.json.gz |' && printf '%s\n' "$out" | grep -q '^ day1/e2.json    |' &&
   printf '%s\n' "$out" | grep -q '^(2 rows)$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  FILE_FORMAT TYPE = XML is not supported' &&
   printf '%s\n' "$out" | grep -q "^ERROR:  DATE_FORMAT = 'YYYY' is not supported yet" &&
   printf '%s\n' "$out" | grep -q '^ERROR:  COPY INTO option PURGE is not supported$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  invalid stage name' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  .*outside'; then
	pass into_json_parquet_list
else
	printf '%s\n' "$out" >"$tmp/into3.out"
	fail into_json_parquet_list "unexpected output" "$tmp/into3.out"
fi

# COPY INTO equals DuckDB's reading of the same CSV files
if [ -x "$INTEROP/duckdb-sql" ]; then
	dk=$tmp/wh/stages/dk
	mkdir -p "$dk"
	"$INTEROP/duckdb-sql" "COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'n,' || i END AS name, i * 0.25 AS amount FROM range(1, 5001) t(i)) TO '$dk/d.csv' (HEADER, FORMAT csv); SELECT 1" >/dev/null 2>&1
	gzip -c "$dk/d.csv" >"$dk/d2.csv.gz"
	duck=$("$INTEROP/duckdb-sql" --no-header "SELECT count(*), sum(id), count(name), sum(amount), max(length(name)) FROM read_csv(['$dk/d.csv', '$dk/d2.csv.gz'], header = true, columns = {id: 'INTEGER', name: 'VARCHAR', amount: 'DECIMAL(10,2)'})" 2>&1)
	out=$(qt "$FL" "CREATE TABLE dkl (id int, name text, amount numeric(10,2))" \
		"COPY INTO dkl FROM '@dk' FILE_FORMAT = (TYPE = CSV, SKIP_HEADER = 1)" \
		"SELECT count(*) || ',' || sum(id) || ',' || count(name) || ',' || sum(amount) || ',' || max(length(name)) FROM dkl")
	mine=$(printf '%s\n' "$out" | sed -n '/^-/{n;p;}' | tail -1 | sed 's/^ *//')
	if [ -n "$duck" ] && [ "$mine" = "$duck" ]; then
		pass into_equals_duckdb
	else
		fail into_equals_duckdb "floe: $mine, DuckDB: $duck"
	fi
fi

# read_csv: the detected names and types equal DuckDB's detection of the
# same files; CREATE TABLE AS over a stage glob
printf 'id,price,day,flag,note,ts\n1,1.5,2024-01-02,true,"a,b",2024-01-02 03:04:05\n2,2,2024-02-29,false,,2024-01-02 00:00:00\n3,-0.25,1999-12-31,true,plain,2000-01-01 12:00:00\n' >"$fix/rc1.csv"
printf '7;x;2.5\n8;y;3\n' >"$fix/rc2.csv"
printf 'a\tb\nfoo\tbar\nbaz\tqux\n' >"$fix/rc3.csv"
chmod 644 "$fix"/rc*.csv
for f in rc1 rc2 rc3; do
	out=$(qt "$FL" "CREATE TABLE t_$f AS SELECT * FROM read_csv('$fix/$f.csv')" \
		"SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = 't_$f'::regclass AND a.attnum > 0" \
		"SELECT count(*) FROM t_$f")
	mine=$(printf '%s\n' "$out" | grep -E '^ [a-z0-9_]+:' | sed 's/^ //')
	duck=$("$INTEROP/duckdb-sql" --no-header "SELECT string_agg(column_name || ':' || CASE column_type WHEN 'BIGINT' THEN 'bigint' WHEN 'DOUBLE' THEN 'double precision' WHEN 'DATE' THEN 'date' WHEN 'TIMESTAMP' THEN 'timestamp without time zone' WHEN 'VARCHAR' THEN 'text' WHEN 'BOOLEAN' THEN 'boolean' ELSE column_type END, ',') FROM (DESCRIBE SELECT * FROM read_csv('$fix/$f.csv'))" 2>&1 | tr -d '"')
	if [ -n "$mine" ] && [ "$mine" = "$duck" ]; then
		pass "read_csv_detect_$f"
	else
		fail "read_csv_detect_$f" "floe: $mine, DuckDB: $duck ($(printf '%s' "$out" | tr '\n' ' ' | head -c 300))"
	fi
	# INFER_SCHEMA's columns: the same detection
	inf=$(q "$FL" "SELECT string_agg(column_name || ':' || inferred_type, ',' ORDER BY order_id) FROM infer_schema(location => '$fix/$f.csv', file_format => 'csv')" |
		sed -n '3p' | sed 's/^ //')
	if [ -n "$inf" ] && [ "$inf" = "$duck" ]; then
		pass "infer_csv_equals_duckdb_$f"
	else
		fail "infer_csv_equals_duckdb_$f" "floe: $inf, DuckDB: $duck"
	fi
done
out=$(qt "$FL" "SELECT id, price, day, flag, coalesce(note, '<null>'), ts FROM read_csv('$fix/rc1.csv') ORDER BY id" \
	"SELECT count(*), sum(id) FROM read_csv('@raw/run1/a.csv')" \
	"SELECT string_agg(column0 || column1 || column2, ' ') FROM read_csv('$fix/rc2.csv', header => false, all_varchar => true)" \
	"SELECT * FROM read_csv('$fix/rc1.csv', speed => 3)" \
	"SELECT * FROM read_csv('$fix/nothing*.csv')")
if printf '%s\n' "$out" | grep -q '^  1 |   1.5 | 2024-01-02 | t    | a,b  *| 2024-01-02 03:04:05$' &&
   printf '%s\n' "$out" | grep -q '^  2 |     2 | 2024-02-29 | f    | <null>  *| 2024-01-02 00:00:00$' &&
   printf '%s\n' "$out" | grep -q '^     3 |   6$' &&
   printf '%s\n' "$out" | grep -q '^ 7x2.5 8y3$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  read_csv option speed is not supported$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  no files match'; then
	pass read_csv_rows
else
	printf '%s\n' "$out" >"$tmp/rc.out"
	fail read_csv_rows "unexpected output" "$tmp/rc.out"
fi

# read_json: the detected columns equal DuckDB's (nested values: text here)
printf '{"id":1,"name":"a","price":1.5,"day":"2024-01-02","ok":true,"ts":"2024-01-02 03:04:05"}\n{"id":2,"name":null,"price":2,"day":"2024-02-29","ok":false,"extra":"x","ts":"2024-01-02 03:04:06"}\n' >"$fix/rj.json"
chmod 644 "$fix/rj.json"
out=$(qt "$FL" "CREATE TABLE t_rj AS SELECT * FROM read_json('$fix/rj.json')" \
	"SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = 't_rj'::regclass AND a.attnum > 0" \
	"SELECT id || ':' || coalesce(name, '-') || ':' || price || ':' || day || ':' || ok || ':' || coalesce(extra, '-') FROM t_rj ORDER BY id" \
	"SELECT * FROM read_json('$fix/rj.json', format => 'auto')")
mine=$(printf '%s\n' "$out" | grep -E '^ [a-z0-9_]+:[a-z]' | head -1 | sed 's/^ //')
duck=$("$INTEROP/duckdb-sql" --no-header "SELECT string_agg(column_name || ':' || CASE column_type WHEN 'BIGINT' THEN 'bigint' WHEN 'DOUBLE' THEN 'double precision' WHEN 'DATE' THEN 'date' WHEN 'TIMESTAMP' THEN 'timestamp without time zone' WHEN 'VARCHAR' THEN 'text' WHEN 'BOOLEAN' THEN 'boolean' ELSE column_type END, ',') FROM (DESCRIBE SELECT * FROM read_json('$fix/rj.json'))" 2>&1 | tr -d '"')
inf=$(q "$FL" "SELECT string_agg(column_name || ':' || inferred_type, ',' ORDER BY order_id) FROM infer_schema(location => '$fix/rj.json')" |
	sed -n '3p' | sed 's/^ //')
if [ -n "$inf" ] && [ "$inf" = "$duck" ]; then
	pass infer_json_equals_duckdb
else
	fail infer_json_equals_duckdb "floe: $inf, DuckDB: $duck"
fi
if [ -n "$mine" ] && [ "$mine" = "$duck" ] && printf '%s\n' "$out" | grep -q '^ 1:a:1.5:2024-01-02:true:-$' &&
   printf '%s\n' "$out" | grep -q '^ 2:-:2:2024-02-29:false:x$' &&
   printf '%s\n' "$out" | grep -q '^ERROR:  read_json option format is not supported$'; then
	pass read_json_detect
else
	fail read_json_detect "floe: $mine, DuckDB: $duck ($(printf '%s' "$out" | tr '\n' ' ' | head -c 400))"
fi

# ---- INFER_SCHEMA: Parquet footers against DuckDB's reading of them ----------
# Each Parquet file of other engines (../shared/testdata/parquet) and
# DuckDB's own: floe's column_name:inferred_type:nullable:field_id list
# must equal DuckDB's DESCRIBE (types in PostgreSQL's spelling) with
# parquet_schema()'s repetition (REQUIRED: not nullable) and field_id;
# where DuckDB reads a struct, map or list of lists, floe refuses (0A000)
# naming that column.
if [ -x "$INTEROP/duckdb-sql" ]; then
	TD=${FLOE_SHARED:-$PWD/../shared}/testdata/parquet
	iwh=$tmp/infwh
	mkdir -p "$tmp/inf"
	"$INTEROP/duckdb-sql" "CREATE TABLE r (id BIGINT NOT NULL, name VARCHAR NOT NULL, x DOUBLE);
		INSERT INTO r VALUES (1, 'a', NULL);
		COPY (SELECT 1::TINYINT a, 2::SMALLINT b, 3::INTEGER c, 4::BIGINT d, 6::USMALLINT f, 7::UINTEGER g,
			8::UBIGINT h, 1.5::FLOAT i, 2.5::DOUBLE j, 1.25::DECIMAL(4,2) k, 1.25::DECIMAL(18,3) l,
			1.25::DECIMAL(38,10) m, 'x' n, 'ab'::BLOB o, DATE '2024-01-01' p, TIME '01:02:03' q,
			TIMESTAMP '2024-01-01 01:02:03' r, TIMESTAMPTZ '2024-01-01 01:02:03+00' s, true t, uuid() u,
			[1, 2] w, ['a'] x, TIMESTAMP_NS '2024-01-01' y, TIMESTAMP_MS '2024-01-01' z, [1.5::DOUBLE] z4)
			TO '$tmp/inf/types.parquet' (FORMAT parquet);
		COPY r TO '$tmp/inf/required.parquet' (FORMAT parquet);
		COPY r TO '$tmp/inf/ids.parquet' (FORMAT parquet, FIELD_IDS {id: 7, name: 8, x: 9});
		SELECT 1" >/dev/null 2>&1
	ncmp=0 nref=0 bad=
	for f in "$tmp"/inf/*.parquet "$TD"/data/*.parquet "$TD"/bad_data/ARROW-RS-GH-6229-LEVELS.parquet; do
		duck=$("$INTEROP/duckdb-sql" --no-header "
CREATE MACRO pg1(t) AS CASE
	WHEN t IN ('TINYINT', 'SMALLINT', 'UTINYINT') THEN 'smallint' WHEN t IN ('INTEGER', 'USMALLINT') THEN 'integer'
	WHEN t IN ('BIGINT', 'UINTEGER') THEN 'bigint' WHEN t = 'UBIGINT' THEN 'numeric(20,0)'
	WHEN t = 'FLOAT' THEN 'real' WHEN t = 'DOUBLE' THEN 'double precision' WHEN t = 'VARCHAR' THEN 'text'
	WHEN t = 'BLOB' THEN 'bytea' WHEN t = 'BOOLEAN' THEN 'boolean' WHEN t = 'DATE' THEN 'date'
	WHEN t = 'TIME' THEN 'time without time zone' WHEN t = 'UUID' THEN 'uuid' WHEN t = 'INTERVAL' THEN 'interval'
	WHEN t IN ('TIMESTAMP', 'TIMESTAMP_NS', 'TIMESTAMP_MS', 'TIMESTAMP_S') THEN 'timestamp without time zone'
	WHEN t = 'TIMESTAMP WITH TIME ZONE' THEN 'timestamp with time zone'
	WHEN t LIKE 'DECIMAL(%' THEN regexp_replace(t, '^DECIMAL', 'numeric')
	ELSE t END;
CREATE MACRO pg(t) AS CASE WHEN t LIKE '%[]' AND t NOT LIKE '%[][]' THEN pg1(left(t, -2)) || '[]' ELSE pg1(t) END;
SELECT string_agg(d.column_name || ':' || pg(d.column_type) || ':' || CASE s.repetition_type WHEN 'REQUIRED' THEN 'f' ELSE 't' END || ':' || coalesce(s.field_id::VARCHAR, ''), '|' ORDER BY d.ord)
FROM (SELECT *, row_number() OVER () AS ord FROM (DESCRIBE SELECT * FROM read_parquet('$f'))) d
LEFT JOIN (SELECT name, repetition_type, field_id FROM parquet_schema('$f') QUALIFY row_number() OVER (PARTITION BY name ORDER BY 1) = 1) s
	ON s.name = d.column_name" 2>&1 | tr -d '"')
		case $duck in FAIL*|*Error*) continue ;; esac    # DuckDB cannot read it either
		mine=$("$FLOE_BIN" -D "$iwh" --csv -t -q -c "SELECT string_agg(column_name || ':' || inferred_type || ':' || CASE WHEN nullable THEN 't' ELSE 'f' END || ':' || coalesce(field_id::text, ''), '|' ORDER BY order_id) FROM infer_schema(location => '$f', file_format => 'parquet')" 2>&1 | tr -d '"')
		nested=$(printf '%s' "$duck" | tr '|' '\n' | grep -E '^[^:]*:(STRUCT|MAP|.*\[\]\[\])' | head -1 | cut -d: -f1)
		if [ -n "$nested" ]; then
			case $mine in
			"ERROR:  INFER_SCHEMA: column $nested of Parquet file $f is a "*", which floe tables cannot hold") nref=$((nref + 1)) ;;
			*) bad="$bad $(basename "$f"): floe $mine, DuckDB $duck;" ;;
			esac
		elif [ "$mine" = "$duck" ]; then
			ncmp=$((ncmp + 1))
		else
			bad="$bad $(basename "$f"): floe $mine, DuckDB $duck;"
		fi
	done
	if [ -z "$bad" ] && [ $ncmp -ge 40 ] && [ $nref -ge 8 ]; then
		pass "infer_parquet_equals_duckdb ($ncmp files equal, $nref nested refused)"
	else
		fail infer_parquet_equals_duckdb "$ncmp equal, $nref refused;${bad:0:1500}"
	fi

	# several files: merged by name, widened, nullable where a file lacks
	# the column, the files named; types that do not widen are 42804
	mkdir -p "$fix/inf2"
	"$INTEROP/duckdb-sql" "COPY (SELECT 1::INTEGER AS id, 1.5::FLOAT AS a, 'x' AS b) TO '$fix/inf2/p1.parquet' (FORMAT parquet);
		COPY (SELECT 2::BIGINT AS id, 2.5::DOUBLE AS a, DATE '2024-01-01' AS c) TO '$fix/inf2/p2.parquet' (FORMAT parquet);
		COPY (SELECT 'three' AS id) TO '$fix/p3.parquet' (FORMAT parquet); SELECT 1" >/dev/null 2>&1
	chmod 644 "$fix"/inf2/*.parquet "$fix/p3.parquet"
	out=$(q "$FL" "SELECT column_name, inferred_type, nullable, order_id, field_id, filenames FROM infer_schema(location => '$fix/inf2/')" \
		"SELECT count(*) FROM infer_schema(location => '$fix/inf2/', max_files => 1)" \
		"SELECT inferred_type FROM infer_schema(location => '$fix/inf2/p1.parquet', int_to_bigint => true, float_to_double => true) ORDER BY order_id")
	cp "$fix/inf2/p1.parquet" "$fix/p0.parquet"
	chmod 644 "$fix/p0.parquet"
	o2=$(psql -X -v VERBOSITY=verbose "$FL" -c "SELECT * FROM infer_schema(location => '$fix/p[03].parquet')" 2>&1)
	if printf '%s\n' "$out" | grep -q '^ id  *| bigint  *| t  *|  *0 |  *| p1.parquet, p2.parquet$' &&
	   printf '%s\n' "$out" | grep -q '^ a  *| double precision  *| t  *|  *1 |  *| p1.parquet, p2.parquet$' &&
	   printf '%s\n' "$out" | grep -q '^ b  *| text  *| t  *|  *2 |  *| p1.parquet$' &&
	   printf '%s\n' "$out" | grep -q '^ c  *| date  *| t  *|  *3 |  *| p2.parquet$' &&
	   printf '%s\n' "$out" | grep -q '^     3$' &&
	   [ "$(printf '%s\n' "$out" | sed -n '/^ *inferred_type *$/,/rows)/p' | grep -c '^ bigint$\|^ double precision$\|^ text$')" = 3 ] &&
	   printf '%s\n' "$o2" | grep -q '^ERROR:  42804: INFER_SCHEMA: column "id" is integer in Parquet file "p0.parquet" but text in "p3.parquet"$'; then
		pass infer_parquet_files_merged
	else
		fail infer_parquet_files_merged "$(printf '%s' "$out $o2" | tr '\n' ' ' | head -c 900)"
	fi

	# CREATE TABLE ... USING TEMPLATE: the inferred table (REQUIRED columns
	# NOT NULL), then the file loads into it
	cp "$TD/data/hadoop_lz4_compressed.parquet" "$fix/req.parquet"     # Hadoop's, REQUIRED c0, c1
	chmod 644 "$fix/req.parquet"
	out=$(qt "$FL" "CREATE TABLE tmpl USING TEMPLATE (SELECT * FROM infer_schema(location => '$fix/req.parquet'))" \
		"CREATE TABLE tmpl_m USING TEMPLATE (SELECT * FROM infer_schema(location => '$fix/inf2/', file_format => 'parquet'));" \
		"SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || CASE WHEN a.attnotnull THEN 'nn' ELSE 'n' END, ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = 'tmpl'::regclass AND a.attnum > 0" \
		"SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || CASE WHEN a.attnotnull THEN 'nn' ELSE 'n' END, ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = 'tmpl_m'::regclass AND a.attnum > 0" \
		"COPY INTO tmpl FROM '$fix/req.parquet' FILE_FORMAT = (TYPE = PARQUET)" \
		"SELECT count(*) || ',' || count(v11) FROM tmpl" \
		"CREATE TABLE IF NOT EXISTS tmpl USING TEMPLATE (SELECT * FROM infer_schema(location => '$fix/inf2/'))" \
		"CREATE TABLE tmpl2 USING TEMPLATE (SELECT 1 AS x)" \
		"CREATE TABLE tmpl3 USING TEMPLATE (SELECT 'x' AS column_name, 'int); DROP TABLE tmpl; --' AS inferred_type)" \
		"CREATE TABLE \"Tmpl 4\" USING TEMPLATE (SELECT column_name, inferred_type FROM infer_schema(location => '$fix/rc1.csv') WHERE order_id < 2)" \
		"SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = '\"Tmpl 4\"'::regclass AND a.attnum > 0")
	if printf '%s\n' "$out" | grep -q '^ c0:bigint:nn,c1:bytea:nn,v11:double precision:n$' &&
	   printf '%s\n' "$out" | grep -q '^ id:bigint:n,a:double precision:n,b:text:n,c:date:n$' &&
	   printf '%s\n' "$out" | grep -q "^ $("$INTEROP/duckdb-sql" --no-header "SELECT count(*) || ',' || count(v11) FROM read_parquet('$fix/req.parquet')" | tr -d '"')\$" &&
	   printf '%s\n' "$out" | grep -q '^NOTICE:  relation "tmpl" already exists, skipping$' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  the query of USING TEMPLATE must return the columns column_name and inferred_type' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  the query of USING TEMPLATE returned "int); DROP TABLE tmpl; --" as the type of column "x", which is not a type name$' &&
	   printf '%s\n' "$out" | grep -q '^ id:bigint,price:double precision$' &&
	   [ "$(printf '%s\n' "$out" | grep -c '^CREATE TABLE$')" = 4 ]; then
		pass infer_create_using_template
	else
		printf '%s\n' "$out" >"$tmp/tmpl.out"
		fail infer_create_using_template "unexpected output" "$tmp/tmpl.out"
	fi

	# bad input: the file named, with its SQLSTATE; options refused by name
	printf 'not parquet at all\n' >"$fix/inf_bad.parquet"
	head -c 200 "$fix/inf2/p1.parquet" >"$fix/inf_cut.parquet"
	printf 'PAR1' >>"$fix/inf_cut.parquet"
	printf '\x1f\x8b\x08\x00garbage' >"$fix/inf_bad.csv.gz"
	printf '' >"$fix/inf_empty.csv"
	chmod 644 "$fix"/inf_*
	out=$(psql -X -v VERBOSITY=verbose "$FL" -c "SELECT * FROM infer_schema(location => '$fix/inf_bad.parquet')" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf_cut.parquet')" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf_bad.csv.gz')" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf_empty.csv')" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf2/', null_threshold => 0.9)" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf2/', header => true)" \
		-c "SELECT * FROM infer_schema(location => '$fix/inf2/', file_format => 'avro')" \
		-c "SELECT * FROM infer_schema(location => '$fix/none*.parquet')" \
		-c "SELECT * FROM infer_schema(location => '$TD/data/binary.parquet')" \
		-c "SELECT * FROM infer_schema(file_format => 'csv')" 2>&1)
	if printf '%s\n' "$out" | grep -q "^ERROR:  22P04: INFER_SCHEMA: file \"$fix/inf_bad.parquet\" is not a Parquet file" &&
	   printf '%s\n' "$out" | grep -q "^ERROR:  XX001: corrupt Parquet file \"$fix/inf_cut.parquet\"" &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  [0-9A-Z]\{5\}: .*inf_bad.csv.gz' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  22P04: INFER_SCHEMA: "inf_empty.csv" has no rows to detect columns from$' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  0A000: infer_schema option null_threshold is not supported$' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  0A000: infer_schema option header is for CSV files, not PARQUET$' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  0A000: infer_schema reads FILE_FORMAT PARQUET, CSV or JSON, not avro$' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  58P01: no files match' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  42501: .*binary.parquet' &&
	   printf '%s\n' "$out" | grep -q '^ERROR:  42883: infer_schema needs location'; then
		pass infer_bad_input
	else
		printf '%s\n' "$out" >"$tmp/infbad.out"
		fail infer_bad_input "unexpected output" "$tmp/infbad.out"
	fi
fi

kill -0 "$srv_pid" 2>/dev/null || fail server_alive "floe serve died" "$tmp/serve.err"
if grep -q 'ERROR: AddressSanitizer\|runtime error' "$tmp/serve.err"; then
	fail sanitizer "report in floe serve's stderr" "$tmp/serve.err"
fi
[ $nfail -eq 0 ]
