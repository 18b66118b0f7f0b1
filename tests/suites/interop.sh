#!/usr/bin/env bash
# Interop suite: floe's Iceberg tables read by independent readers, and
# other engines' tables read by floe.
#
# A. WRITE cases (FLOE_CASES below, one per line): floe creates a table in a
#    fresh warehouse with `$FLOE_BIN -D WH -c SQL`, then for the table's
#    newest metadata file (<wh>/**/<table>/metadata/NNNNN-*.metadata.json):
#      interop-validate <case>   iceberg-validate META --deep
#      interop-parquet  <case>   parquet-check on every data file (DuckDB + hyparquet)
#      interop-read     <case>   iceberg-read META --csv (icebird) rows == floe's rows
#                                (COPY (SELECT ...) TO STDOUT WITH (FORMAT csv, HEADER));
#                                <base>_v3_dv cases (deletion vectors, which icebird
#                                cannot read) compare with icebird's rows of <base>_v2
# B. READ cases: every table of $FLOE_SHARED/testdata/iceberg-tables whose
#    current snapshot is readable, with its position deletes, equality
#    deletes and deletion vectors, and every earlier metadata file whose
#    current snapshot has delete files (key <table>__<stem>: time travel by
#    metadata file, floe has no AS OF yet) (tests/tools/interop_helper.py
#    external-cases derives the list from the expected/*.json and MANIFEST.md)
#    is registered with REGISTER_SQL and read back; rows are compared with the
#    table's expected JSON (counts only for big or nested tables):
#      interop-ext <key>
#
# Adjust here, not in the logic: FLOE_CASES, REGISTER_SQL, ROWS_SQL, COUNT_SQL.
# Env: FLOE_BIN, FLOE_SHARED, FLOE_ROOT (set by scripts/run-tests.sh);
# INTEROP_ONLY=regex runs only matching case names; INTEROP_KEEP=1 keeps the
# scratch folder.
cd "$FLOE_ROOT" || exit 1
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
HELPER="python3 tests/tools/interop_helper.py"
FLOE_BIN=${FLOE_BIN:-build-san/floe}

# {name} = the SQL table name, {metadata} = absolute metadata JSON path,
# {map_from}/{map_to} = the first path-prefix rewrite of the table (MANIFEST.md).
REGISTER_SQL=${REGISTER_SQL:-"CALL register_table('{name}', '{metadata}', map_from => '{map_from}', map_to => '{map_to}')"}
ROWS_SQL="COPY (SELECT * FROM {name}) TO STDOUT WITH (FORMAT csv, HEADER)"
# fallback while COPY TO STDOUT is missing: unaligned output, 0x1f separated
ROWS_SQL_UNALIGNED="SELECT * FROM {name}"
COUNT_SQL="SELECT count(*) FROM {name}"
EXT_NAME="ext.t{n}"                               # SQL name of the n-th registered table
EXT_SETUP_SQL="CREATE SCHEMA IF NOT EXISTS ext"   # run once before registering; errors ignored

# name <TAB> column definitions <TAB> statements run after CREATE TABLE ({t} = table)
FLOE_CASES=$(cat <<'EOF'
ints	id integer, a smallint, b integer, c bigint	INSERT INTO {t} VALUES (1, 1, 2, 3), (2, -32768, -2147483648, -9223372036854775808), (3, 32767, 2147483647, 9223372036854775807), (4, NULL, NULL, NULL)
floats	id integer, r real, d double precision	INSERT INTO {t} VALUES (1, 1.5, 2.25), (2, -0.125, '1e300'), (3, NULL, NULL), (4, '3.4e38', '-1.7976931348623157e308'), (5, 0.1, 0.1), (6, '-0', 'NaN'), (7, 'Infinity', '-Infinity')
numerics	id integer, n1 numeric(9,2), n2 numeric(18,6), n3 numeric(38,10)	INSERT INTO {t} VALUES (1, 1234567.89, 123456789012.345678, 1234567890123456789012345678.0123456789), (2, -0.01, -0.000001, -0.0000000001), (3, NULL, NULL, NULL), (4, 0, 0, 0)
texts	id integer, s text, v varchar(40)	INSERT INTO {t} VALUES (1, 'hello', 'world'), (2, '', 'é ü 日本'), (3, NULL, NULL), (4, 'comma, "quote"', 'a longer string than twelve bytes')
bools	id integer, b boolean	INSERT INTO {t} VALUES (1, true), (2, false), (3, NULL)
bytes	id integer, b bytea	INSERT INTO {t} VALUES (1, '\x0102ff'), (2, '\x'), (3, NULL)
temporal	id integer, d date, t time, ts timestamp, tz timestamptz	INSERT INTO {t} VALUES (1, '2024-02-29', '12:34:56.789', '2024-01-02 03:04:05.123', '2024-01-02 03:04:05.123+00'), (2, '1970-01-01', '00:00:00', '1969-12-31 23:59:59', '2000-01-01 00:00:00+00'), (3, NULL, NULL, NULL, NULL), (4, '1900-03-01', '23:59:59.999', '2262-04-11 23:47:16', '1999-12-31 23:59:59.999+00')
uuids	id integer, u uuid	INSERT INTO {t} VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, '00000000-0000-0000-0000-000000000000'), (3, NULL)
appends	id bigint, s text	INSERT INTO {t} VALUES (1, 'one'); INSERT INTO {t} VALUES (2, 'two'), (3, 'three'); INSERT INTO {t} VALUES (4, NULL)
many	id bigint, s text	INSERT INTO {t} SELECT g, 'row ' || CAST(g AS text) FROM generate_series(1, 5000) AS g
dml_update	id bigint, g integer, s text, n numeric(12,3), f double precision	INSERT INTO {t} SELECT x, x % 10, 'row ' || CAST(x AS text), x * 1.5, x / 3.0 FROM generate_series(1, 3000) AS x; INSERT INTO {t} (id, g) SELECT x, x % 10 FROM generate_series(3001, 4500) AS x; UPDATE {t} SET s = upper(s), n = n + 1 WHERE g = 3 OR id BETWEEN 2040 AND 2060; UPDATE {t} SET f = -f, g = NULL WHERE f > 900; UPDATE {t} SET s = 'tail' WHERE id > 4400
dml_delete	id bigint, s text	INSERT INTO {t} SELECT x, 'row ' || CAST(x AS text) FROM generate_series(1, 3000) AS x; INSERT INTO {t} SELECT x, NULL FROM generate_series(3001, 5000) AS x; INSERT INTO {t} VALUES (5001, 'x'); DELETE FROM {t} WHERE id % 3 = 0; DELETE FROM {t} WHERE id > 5000; DELETE FROM {t} WHERE id BETWEEN 100 AND 200 OR s IS NULL AND id % 2 = 0
dml_types	id integer, b boolean, i2 smallint, i8 bigint, r real, d double precision, n numeric(18,6), s text, v varchar(40), by bytea, dt date, tm time, ts timestamp, tz timestamptz, u uuid	INSERT INTO {t} VALUES (1, true, -32768, -9223372036854775808, 1.5, 'NaN', 123456789012.345678, 'é ü 日本', 'a longer string than twelve bytes', '\x0102ff', '2024-02-29', '12:34:56.789', '2024-01-02 03:04:05.123', '2024-01-02 03:04:05.123+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, false, 32767, 9223372036854775807, '-0', '-Infinity', -0.000001, '', 'x', '\x', '1970-01-01', '00:00:00', '1969-12-31 23:59:59', '2000-01-01 00:00:00+00', '00000000-0000-0000-0000-000000000000'), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL); INSERT INTO {t} VALUES (4, true, 0, 0, 'Infinity', 0.1, 0, 'four', 'four', '\xdeadbeef', '1900-03-01', '23:59:59.999', '2262-04-11 23:47:16', '1999-12-31 23:59:59.999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff'); UPDATE {t} SET s = s || '!', d = -d, n = n * 2, by = by || '\x00', dt = dt + 1, tz = tz + interval '1 hour' WHERE id IN (1, 2, 4); UPDATE {t} SET r = 'NaN', b = NULL WHERE id = 2; DELETE FROM {t} WHERE id = 3
dml_truncate	id integer, s text	INSERT INTO {t} VALUES (1, 'a'), (2, 'b'); INSERT INTO {t} VALUES (3, 'c'); TRUNCATE {t}; INSERT INTO {t} VALUES (4, 'after')
dml_dropfile	id integer	INSERT INTO {t} VALUES (1), (2); INSERT INTO {t} VALUES (3); DELETE FROM {t} WHERE id < 3
mor_v2	id bigint, g integer, s text	ALTER TABLE {t} SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read'); INSERT INTO {t} SELECT x, x % 10, 'row ' || CAST(x AS text) FROM generate_series(1, 3000) AS x; INSERT INTO {t} SELECT x, NULL, NULL FROM generate_series(3001, 4000) AS x; DELETE FROM {t} WHERE id % 3 = 0; UPDATE {t} SET s = upper(s) WHERE g = 4; DELETE FROM {t} WHERE id BETWEEN 100 AND 200 OR id > 3990; UPDATE {t} SET g = -1 WHERE id % 7 = 0; ALTER TABLE {t} SET TBLPROPERTIES ('write.delete.mode' = 'copy-on-write'); DELETE FROM {t} WHERE id % 11 = 0
mor_v3_dv	id bigint, g integer, s text	ALTER TABLE {t} SET TBLPROPERTIES ('format-version' = '3', 'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read'); INSERT INTO {t} SELECT x, x % 10, 'row ' || CAST(x AS text) FROM generate_series(1, 3000) AS x; INSERT INTO {t} SELECT x, NULL, NULL FROM generate_series(3001, 4000) AS x; DELETE FROM {t} WHERE id % 3 = 0; UPDATE {t} SET s = upper(s) WHERE g = 4; DELETE FROM {t} WHERE id BETWEEN 100 AND 200 OR id > 3990; UPDATE {t} SET g = -1 WHERE id % 7 = 0; ALTER TABLE {t} SET TBLPROPERTIES ('write.delete.mode' = 'copy-on-write'); DELETE FROM {t} WHERE id % 11 = 0
EOF
)

if [ ! -x "$TOOLS/iceberg-validate" ]; then
	echo "FAIL interop: interop tools missing in $TOOLS"
	exit 1
fi
tmp=$(mktemp -d /tmp/floe-interop.XXXXXX)
[ "${INTEROP_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
rc=0

fill() { # fill TEMPLATE key value key value ...
	local s=$1
	shift
	while [ $# -ge 2 ]; do
		s=${s//\{$1\}/$2}
		shift 2
	done
	printf '%s' "$s"
}

floe() { # floe WAREHOUSE ARGS... : run the shell with a timeout
	local wh=$1
	shift
	timeout -k 5 120 "$FLOE_BIN" -D "$wh" "$@"
}

fail() { echo "FAIL $1"; rc=1; }

# floe_rows WAREHOUSE NAME OUTBASE: floe's rows of table NAME into OUTBASE.csv
# (COPY) or OUTBASE.unaligned (fallback); prints that file's path, errors in OUTBASE.err.
floe_rows() {
	if floe "$1" -c "$(fill "$ROWS_SQL" name "$2")" >"$3.csv" 2>"$3.err"; then
		echo "$3.csv"
	elif floe "$1" -A -F $'\x1f' -c "$(fill "$ROWS_SQL_UNALIGNED" name "$2")" >"$3.unaligned" 2>>"$3.err"; then
		echo "$3.unaligned"
	else
		return 1
	fi
}
indent() { sed 's/^/    /' | head -"${1:-15}"; }

# ------------------------------------------------------------- A. write cases
while IFS=$'\t' read -r name defs stmts; do
	[ -n "$name" ] || continue
	if [ -n "${INTEROP_ONLY:-}" ] && ! [[ $name =~ $INTEROP_ONLY ]]; then continue; fi
	wh=$tmp/wh-$name
	t=interop_$name
	sql="CREATE TABLE $t ($defs); $(fill "$stmts" t "$t")"
	if ! floe "$wh" -c "$sql" >"$tmp/$name.create" 2>&1; then
		fail "interop-write $name: floe could not create/insert"
		indent <"$tmp/$name.create"
		continue
	fi
	tdir=$(find "$wh" -type d -name metadata -path "*/$t/metadata" 2>/dev/null | head -1)
	tdir=${tdir%/metadata}
	meta=$([ -n "$tdir" ] && $HELPER latest-metadata "$tdir")
	if [ -z "$meta" ]; then
		fail "interop-write $name: no $t/metadata/*.metadata.json under the warehouse"
		continue
	fi

	if FLOE_INTEROP_BIN="$TOOLS" tests/tools/iceberg-validate.sh "$meta" --deep >"$tmp/$name.validate" 2>&1; then
		echo "PASS interop-validate $name"
	else
		fail "interop-validate $name: iceberg-validate --deep $(basename "$meta")"
		grep -v '^{' "$tmp/$name.validate" | indent
	fi

	ok=1 n=0
	while IFS= read -r f; do
		n=$((n + 1))
		if ! "$TOOLS/parquet-check" "$f" --quiet >"$tmp/$name.pq" 2>&1; then
			[ $ok = 1 ] && fail "interop-parquet $name: parquet-check ${f#"$wh"/}"
			[ $ok = 1 ] && indent <"$tmp/$name.pq"
			ok=0
		fi
	done < <(find "$tdir" -path '*/data/*' -name '*.parquet' -type f | sort)
	if [ $n -eq 0 ]; then
		fail "interop-parquet $name: no data/*.parquet files"
	elif [ $ok = 1 ]; then
		echo "PASS interop-parquet $name ($n files)"
	fi

	if ! rows=$(floe_rows "$wh" "$t" "$tmp/$name.floe"); then
		fail "interop-read $name: floe could not read its own table back"
		indent <"$tmp/$name.floe.err"
	elif [[ $name == *_v3_dv ]]; then
		# icebird 0.3.1 cannot read deletion vectors: the DVs were decoded by
		# iceberg-validate --deep above; the rows must equal what icebird read
		# from the <base>_v2 case, which ran the same statements on format 2
		ref=$tmp/${name%_v3_dv}_v2.ice.csv
		if [ ! -s "$ref" ]; then
			fail "interop-read $name: no icebird rows of ${name%_v3_dv}_v2 to compare with"
		elif out=$($HELPER compare-icebird "$defs" "$rows" "$ref"); then
			echo "PASS interop-read $name (rows = icebird's rows of ${name%_v3_dv}_v2)"
		else
			fail "interop-read $name: rows differ from icebird's rows of ${name%_v3_dv}_v2"
			printf '%s\n' "$out" | indent
		fi
	elif ! "$TOOLS/iceberg-read" "$meta" --csv >"$tmp/$name.ice.csv" 2>&1; then
		fail "interop-read $name: iceberg-read (icebird) failed"
		indent <"$tmp/$name.ice.csv"
	elif out=$($HELPER compare-icebird "$defs" "$rows" "$tmp/$name.ice.csv"); then
		echo "PASS interop-read $name"
	else
		fail "interop-read $name: rows differ between floe and iceberg-read"
		printf '%s\n' "$out" | indent
	fi
done <<<"$FLOE_CASES"

# ------------------------------------------------------------- B. read cases
wh=$tmp/wh-external
n=0
floe "$wh" -c "$EXT_SETUP_SQL" >/dev/null 2>&1
while IFS=$'\t' read -r key tdir meta count ejson maps; do
	[ -n "$key" ] || continue
	if [ -n "${INTEROP_ONLY:-}" ] && ! [[ $key =~ $INTEROP_ONLY ]]; then continue; fi
	n=$((n + 1))
	name=$(fill "$EXT_NAME" n "$n")
	first=${maps%%|*}
	reg=$(fill "$REGISTER_SQL" name "$name" metadata "$meta" map_from "${first%%=*}" map_to "${first#*=}")
	if ! floe "$wh" -c "$reg" >"$tmp/ext$n.reg" 2>&1; then
		fail "interop-ext $key: register failed"
		{ echo "SQL: $reg"; cat "$tmp/ext$n.reg"; } | indent
		continue
	fi
	# further prefix maps (Impala: two spellings of one root, the second
	# inside position-delete files): registered under a throwaway name
	rest=${maps#"$first"}
	m=0
	while [ -n "$rest" ]; do
		rest=${rest#|}
		pair=${rest%%|*}
		rest=${rest#"$pair"}
		m=$((m + 1))
		[ -n "$pair" ] || continue
		floe "$wh" -c "$(fill "$REGISTER_SQL" name "${name}_map$m" metadata "$meta" map_from "${pair%%=*}" map_to "${pair#*=}")" >/dev/null 2>&1
	done
	if [ "${count:-0}" -gt 500 ]; then
		got=$(floe "$wh" -A -t -c "$(fill "$COUNT_SQL" name "$name")" 2>"$tmp/ext$n.err")
		if [ "$got" = "$count" ]; then
			echo "PASS interop-ext $key ($count rows, count only)"
		else
			fail "interop-ext $key: count(*) gave '$got', expected $count"
			indent <"$tmp/ext$n.err"
		fi
		continue
	fi
	if ! rows=$(floe_rows "$wh" "$name" "$tmp/ext$n"); then
		if grep -q "nested type" "$tmp/ext$n.err"; then
			# nested columns are not readable yet (0A000): check the count
			got=$(floe "$wh" -A -t -c "$(fill "$COUNT_SQL" name "$name")" 2>"$tmp/ext$n.err")
			if [ "$got" = "$count" ]; then
				echo "PASS interop-ext $key ($count rows, count only: nested columns)"
			else
				fail "interop-ext $key: count(*) gave '$got', expected $count"
				indent <"$tmp/ext$n.err"
			fi
			continue
		fi
		fail "interop-ext $key: floe could not read the table"
		indent <"$tmp/ext$n.err"
	elif out=$($HELPER compare-expected "$ejson" "$(basename "$meta")" "$rows"); then
		echo "PASS interop-ext $key ($count rows)"
	else
		fail "interop-ext $key: $(basename "$meta")"
		printf '%s\n' "$out" | indent
	fi
done < <($HELPER external-cases "$SHARED")

# C. DML/DDL metadata that SQL cannot see (identifier fields, format version,
#    properties, overwrite snapshots), checked in the JSON and by the tools
FLOE_BIN="$FLOE_BIN" FLOE_SHARED="$SHARED" bash tests/sql/dml/check_metadata.sh || rc=1

exit $rc
