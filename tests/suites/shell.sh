#!/usr/bin/env bash
# Shell suite: the floe binary's command line, script handling and output.
#
#   - output of the same SQL through floe and through real psql 15 against
#     a throwaway PostgreSQL (scripts/pg-test-server.sh), byte for byte, in
#     the aligned, unaligned (-A), tuples-only (-t), -At -F, expanded (-x) and
#     --csv formats; without a server, against psql output captured earlier in
#     tests/shell/expected/ (refresh with: tests/suites/shell.sh --capture)
#   - error reports (ERROR / LINE / caret) compared with psql's
#   - -c, -f, stdin; exit status 1 and stop at the first error; -q; -b
#   - \d, \d NAME, \dn, \timing; warehouse from -D / $FLOE_WAREHOUSE
#   - --version, --help, bad options
#
# Prints "PASS name" / "FAIL name: why".  $FLOE_BIN is the binary.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
EXP=tests/shell/expected
capture=0
[ "${1:-}" = "--capture" ] && capture=1

tmp=$(mktemp -d /tmp/floe-shell.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-shellpg.XXXXXX)
cleanup() {
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE

pass() { echo "PASS shell: $1"; }
nfail=0
fail() {
	echo "FAIL shell: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then sed 's/^/    /' "$3" | head -30; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL shell: binary $FLOE_BIN not built"
	exit 1
fi

# A fresh warehouse per call: floe_run ARGS... (stdin passes through)
floe_run() {
	local wh
	wh=$(mktemp -d "$tmp/wh.XXXXXX")
	"$FLOE_BIN" -D "$wh" "$@"
}

# ---- live psql, if a PostgreSQL 15 can be started -----------------------------
have_pg=0
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	eval "$(printf '%s\n' "$envout" | grep -E '^(PGHOST|PGPORT|PGUSER|PGDATABASE)=' | sed 's/^/export /')"
	if psql -X -q -c 'select 1' >/dev/null 2>&1; then
		have_pg=1
	fi
fi
psql_run() { PGOPTIONS='-c client_min_messages=warning' psql -X -v ON_ERROR_STOP=1 "$@"; }

# ---- 1. output equals psql's -------------------------------------------------------
declare -A CASES
CASES[basic]="select 1 as a, 'x' as b;"
CASES[widths_nulls]="select 12345 as n, 'hello world' as longname, null as c, 'ab' as e;"
CASES[multiline]="select E'a\\nbb' as m, 'x' as y, E'p\\nqqq' as z;"
CASES[unicode]="select 'héllo' as u, '日本語' as w, 1 as n;"
CASES[empty]="select 1 as a where false;"
CASES[values]="values (1, 'one'), (2, NULL), (10, 'ten');"
CASES[header_multiline]="select 'a' as \"multi
line
header\", '' as empty, '日本' as \"日本語\", 1 as n;"
CASES[controls]="select E'a\\x01b' as c1, E'tab\\tx\\ty' as t, E'cr\\rx' as r, E'\\x7f' as del, 1 as n;"
CASES[numbers]="select 1.5 as d, -7 as i, 100000 as big, 'txt' as t;"
CASES[dml]="create table shell_dml (id int, name text);
insert into shell_dml values (1, 'one'), (2, NULL), (30, 'thirty');
select * from shell_dml order by id;
insert into shell_dml values (4, 'four');
select count(*) as n from shell_dml;
drop table shell_dml;"
# RETURNING prints the rows, then the command tag (skipped while the engine
# answers 0A000 for it)
CASES[returning]="create table shell_ret (id int, name text);
insert into shell_ret values (4, 'four'), (5, NULL) returning id, name;
drop table shell_ret;"
MODES=(aligned A t At_comma x csv)
mode_flags() {
	case $1 in
	aligned) echo "" ;;
	A) echo "-A" ;;
	t) echo "-t" ;;
	At_comma) echo "-A -t -F ," ;;
	x) echo "-x" ;;
	csv) echo "--csv" ;;
	esac
}

for name in $(printf '%s\n' "${!CASES[@]}" | sort); do
	printf '%s\n' "${CASES[$name]}" >"$tmp/$name.sql"
	for mode in "${MODES[@]}"; do
		flags=$(mode_flags "$mode")
		want="$tmp/$name.$mode.want"
		if [ $have_pg = 1 ]; then
			# shellcheck disable=SC2086
			psql_run $flags -f "$tmp/$name.sql" >"$want" 2>&1
			if [ $capture = 1 ]; then
				mkdir -p "$EXP"
				cp "$want" "$EXP/$name.$mode.out"
			fi
		elif [ -f "$EXP/$name.$mode.out" ]; then
			cp "$EXP/$name.$mode.out" "$want"
		else
			fail "psql_$name.$mode" "no PostgreSQL and no $EXP/$name.$mode.out"
			continue
		fi
		# shellcheck disable=SC2086
		floe_run $flags -f "$tmp/$name.sql" >"$tmp/got" 2>&1
		if grep -q 'ERROR:  .* not supported' "$tmp/got" && ! grep -q 'not supported' "$want"; then
			echo "SKIP shell: psql_$name.$mode: $(grep -m1 ERROR "$tmp/got" | sed 's/.*ERROR:  //')"
		elif diff -u "$want" "$tmp/got" >"$tmp/diff"; then
			pass "psql_$name.$mode"
		else
			fail "psql_$name.$mode" "output differs from psql (- psql, + floe)" "$tmp/diff"
		fi
	done
done

# ---- 2. errors -----------------------------------------------------------------------
# Syntax error report (stdin mode: no file prefix) equals psql's.
printf 'select 1 as ok;\nselect 1 +\n  from;\nselect 2 as never;\n' >"$tmp/err.sql"
floe_run <"$tmp/err.sql" >"$tmp/out" 2>"$tmp/errout"
rc=$?
if [ $rc -ne 1 ]; then
	fail stdin_error_exit "exit status $rc, want 1" "$tmp/errout"
elif grep -q never "$tmp/out"; then
	fail stdin_error_exit "kept running after the error" "$tmp/out"
else
	pass stdin_error_exit
fi
if [ $have_pg = 1 ]; then
	psql_run <"$tmp/err.sql" >"$tmp/pout" 2>"$tmp/perr"
	cat "$tmp/out" "$tmp/errout" >"$tmp/got"
	cat "$tmp/pout" "$tmp/perr" >"$tmp/want"
	if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
		pass error_report_matches_psql
	else
		fail error_report_matches_psql "differs (- psql, + floe)" "$tmp/diff"
	fi
fi

# -f: first error stops, prefix floe:FILE:LINE:
floe_run -f "$tmp/err.sql" >"$tmp/out" 2>"$tmp/errout"
rc=$?
if [ $rc -eq 1 ] && grep -q "^floe:$tmp/err.sql:3: ERROR:  " "$tmp/errout" &&
	! grep -q never "$tmp/out" && grep -q "^(1 row)" "$tmp/out"; then
	pass file_error_exit_and_prefix
else
	fail file_error_exit_and_prefix "rc=$rc" "$tmp/errout"
fi

# -c: stop at the first failing -c, exit 1
floe_run -c 'select 1 as one' -c 'selec 2' -c 'select 3 as three' >"$tmp/out" 2>"$tmp/errout"
rc=$?
if [ $rc -eq 1 ] && grep -q '^ERROR:  syntax error at or near "selec"' "$tmp/errout" &&
	grep -q '^LINE 1: selec 2$' "$tmp/errout" && grep -q '^        \^$' "$tmp/errout" &&
	grep -q one "$tmp/out" && ! grep -q three "$tmp/out"; then
	pass c_error_exit
else
	fail c_error_exit "rc=$rc" "$tmp/errout"
fi

# -v ON_ERROR_STOP=off: the script goes on, the exit status still says it failed
floe_run -v ON_ERROR_STOP=off -A -t -f "$tmp/err.sql" >"$tmp/out" 2>"$tmp/errout"
rc=$?
if [ $rc -eq 1 ] && grep -q '^2$' "$tmp/out" && grep -q 'ERROR:  syntax error' "$tmp/errout"; then
	pass on_error_stop_off
else
	fail on_error_stop_off "rc=$rc" "$tmp/out"
fi

# --echo-errors
floe_run -b -c 'selec 2' >/dev/null 2>"$tmp/errout"
if grep -q '^STATEMENT:  selec 2$' "$tmp/errout"; then pass echo_errors; else fail echo_errors "no STATEMENT line" "$tmp/errout"; fi

# unknown meta-command is an error
floe_run -c '\nosuchcmd' >/dev/null 2>"$tmp/errout"
rc=$?
if [ $rc -eq 1 ] && grep -q 'invalid command \\nosuchcmd' "$tmp/errout"; then
	pass bad_meta_command
else
	fail bad_meta_command "rc=$rc" "$tmp/errout"
fi

# ---- 3. -c / -f / stdin give the same output; splitting rules -------------------------
cat >"$tmp/split.sql" <<'EOF'
-- a comment before the statement
select 'a;b' as s, $$x;y$$ as d, $t$ $$ ; $t$ as t;  select /* ; */ 1 as one
;
select "x;y" from (select 1 as "x;y") q
EOF
floe_run -f "$tmp/split.sql" >"$tmp/f.out" 2>&1; rf=$?
floe_run <"$tmp/split.sql" >"$tmp/s.out" 2>&1; rs=$?
floe_run -c "$(cat "$tmp/split.sql")" >"$tmp/c.out" 2>&1; rc=$?
if [ $rf -eq 0 ] && [ $rs -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$tmp/f.out" "$tmp/s.out" &&
	cmp -s "$tmp/f.out" "$tmp/c.out" && [ "$(grep -c '^(1 row)$' "$tmp/f.out")" = 3 ]; then
	pass split_c_f_stdin
else
	fail split_c_f_stdin "rc $rf/$rs/$rc or outputs differ" "$tmp/f.out"
fi
if [ $have_pg = 1 ]; then
	psql_run -f "$tmp/split.sql" >"$tmp/want" 2>&1
	if diff -u "$tmp/want" "$tmp/f.out" >"$tmp/diff"; then pass split_matches_psql; else fail split_matches_psql "differs" "$tmp/diff"; fi
fi

# \i runs a file with its own query buffer; errors there stop the script
printf 'select 41 as inc\n' >"$tmp/inc.sql"
printf 'select 40 as outer_a;\n\\i %s\nselect 42 as outer_b;\n' "$tmp/inc.sql" >"$tmp/main.sql"
floe_run -A -t -f "$tmp/main.sql" >"$tmp/out" 2>&1
if [ "$(tr '\n' ' ' <"$tmp/out")" = "40 41 42 " ]; then pass include_file; else fail include_file "unexpected" "$tmp/out"; fi

# \pset null/footer/format/tuples_only, \a, \f, \t change the output as in psql
cat >"$tmp/pset.sql" <<'EOF'
\pset null <N>
select null as a, 1 as b;
\pset footer off
select 2 as c;
\a
\f ,
select 3 as d, null as e;
\t
select 5 as f;
\pset format aligned
\pset tuples_only off
\pset footer on
\pset null ''
select 6 as g, null as h;
EOF
floe_run -q -f "$tmp/pset.sql" >"$tmp/got" 2>&1
if [ $have_pg = 1 ]; then
	psql_run -q -f "$tmp/pset.sql" >"$tmp/want" 2>&1
	if [ $capture = 1 ]; then cp "$tmp/want" "$EXP/pset.q.out"; fi
else
	cp "$EXP/pset.q.out" "$tmp/want" 2>/dev/null
fi
if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then pass pset_matches_psql; else fail pset_matches_psql "differs (- psql, + floe)" "$tmp/diff"; fi

# -v NAME=VALUE and \set: :name, :'name', :"name" interpolation as psql's
cat >"$tmp/vars.sql" <<'EOF'
select :n + 1 as x, :'s' as s, :'b' as b, :"i" as ident_ok, 1::int as cast, ':n' as notvar
from (select 1 as "Mixed""Case") q;
\set y 5 6
select :y as y;
EOF
floe_run -v n=3 -v "s=it's" -v 'b=a\b' -v 'i=Mixed"Case' -f "$tmp/vars.sql" >"$tmp/got" 2>&1
if [ $have_pg = 1 ]; then
	psql_run -v n=3 -v "s=it's" -v 'b=a\b' -v 'i=Mixed"Case' -f "$tmp/vars.sql" >"$tmp/want" 2>&1
	if [ $capture = 1 ]; then cp "$tmp/want" "$EXP/vars.out"; fi
else
	cp "$EXP/vars.out" "$tmp/want" 2>/dev/null
fi
if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then pass variables_match_psql; else fail variables_match_psql "differs (- psql, + floe)" "$tmp/diff"; fi

# \o FILE sends results there; \o alone comes back to stdout
floe_run -c "\\o $tmp/o.txt" -c 'select 1 as in_file' -c '\o' -c 'select 2 as on_stdout' >"$tmp/out" 2>&1
if grep -q in_file "$tmp/o.txt" && ! grep -q on_stdout "$tmp/o.txt" && grep -q on_stdout "$tmp/out" &&
	! grep -q in_file "$tmp/out"; then
	pass output_redirect
else
	fail output_redirect "unexpected" "$tmp/out"
fi

# ---- 4. -q, \timing, command tags ------------------------------------------------------
floe_run -q -c 'create table shell_q (a int)' -c 'insert into shell_q values (1)' -c 'select a from shell_q' >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q -e 'CREATE TABLE' -e 'INSERT' "$tmp/out" && grep -q '^(1 row)$' "$tmp/out"; then
	pass quiet
else
	fail quiet "rc=$rc" "$tmp/out"
fi
floe_run -c 'create table shell_tag (a int)' -c 'insert into shell_tag values (1), (2)' >"$tmp/out" 2>&1
if [ "$(cat "$tmp/out")" = "CREATE TABLE
INSERT 0 2" ]; then pass command_tags; else fail command_tags "unexpected" "$tmp/out"; fi
floe_run -c '\timing on' -c 'select 1 as a' >"$tmp/out" 2>&1
if head -1 "$tmp/out" | grep -q '^Timing is on\.$' && grep -Eq '^Time: [0-9]+\.[0-9]{3} ms' "$tmp/out"; then
	pass timing
else
	fail timing "no timing lines" "$tmp/out"
fi

# ---- 5. \d -------------------------------------------------------------------------------
wh=$(mktemp -d "$tmp/whd.XXXXXX")
"$FLOE_BIN" -D "$wh" -q -c 'create table shell_d (id int not null, name text, price numeric(10,2))' >/dev/null 2>&1
"$FLOE_BIN" -D "$wh" -c '\d' >"$tmp/out" 2>&1
cat >"$tmp/want" <<'EOF'
    List of relations
 Schema |  Name   | Type  
--------+---------+-------
 public | shell_d | table
(1 row)

EOF
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then pass d_list; else fail d_list "differs" "$tmp/diff"; fi
"$FLOE_BIN" -D "$wh" -c '\dt shell_?' >"$tmp/out" 2>&1
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then pass dt_pattern; else fail dt_pattern "differs" "$tmp/diff"; fi
"$FLOE_BIN" -D "$wh" -c '\dt nomatch*' -c 'select 1 as after' >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q 'Did not find any relation named "nomatch\*"' "$tmp/out" && grep -q after "$tmp/out"; then
	pass dt_no_match_not_an_error
else
	fail dt_no_match_not_an_error "rc=$rc" "$tmp/out"
fi
"$FLOE_BIN" -D "$wh" -c '\d shell_d' >"$tmp/out" 2>&1
cat >"$tmp/want" <<'EOF'
           Table "public.shell_d"
 Column |     Type      | Nullable | Default 
--------+---------------+----------+---------
 id     | integer       | not null | 
 name   | text          |          | 
 price  | numeric(10,2) |          | 

EOF
if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then pass d_describe; else fail d_describe "differs" "$tmp/diff"; fi
"$FLOE_BIN" -D "$wh" -c '\d nosuch' >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'Did not find any relation named "nosuch"' "$tmp/out"; then
	pass d_missing
else
	fail d_missing "rc=$rc" "$tmp/out"
fi
"$FLOE_BIN" -D "$wh" -c '\dn' >"$tmp/out" 2>&1
if grep -q '^ public$' "$tmp/out"; then pass dn; else fail dn "no public schema" "$tmp/out"; fi

# ---- 6. warehouse selection: -D wins over $FLOE_WAREHOUSE ----------------------------------
wa=$(mktemp -d "$tmp/wa.XXXXXX"); wb=$(mktemp -d "$tmp/wb.XXXXXX")
FLOE_WAREHOUSE=$wa "$FLOE_BIN" -q -c 'create table shell_env (a int)' >/dev/null 2>&1
a_out=$("$FLOE_BIN" -D "$wa" -A -t -c '\d' 2>&1)
b_out=$(FLOE_WAREHOUSE=$wa "$FLOE_BIN" -D "$wb" -A -t -c '\d' 2>&1)
if [ "$a_out" = "public|shell_env|table" ] && ! printf '%s' "$b_out" | grep -q shell_env; then
	pass warehouse_env_and_flag
else
	fail warehouse_env_and_flag "env warehouse: '$a_out'; -D other: '$b_out'"
fi

# ---- 7. command line ---------------------------------------------------------------------
out=$("$FLOE_BIN" --version 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ $out =~ ^floe\ [0-9] ]]; then pass version; else fail version "rc=$rc out=$out"; fi
out=$("$FLOE_BIN" --help 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ $out == *Usage:* ]] && [[ $out == *--warehouse* ]]; then pass help; else fail help "rc=$rc"; fi
# `floe serve` is tested by tests/suites/server.sh
"$FLOE_BIN" --no-such-option >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then pass bad_option; else fail bad_option "rc=$rc"; fi
floe_run -f "$tmp/does-not-exist.sql" >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q 'does-not-exist.sql: No such file or directory' "$tmp/out"; then pass missing_file; else fail missing_file "rc=$rc" "$tmp/out"; fi
touch "$tmp/plainfile"
"$FLOE_BIN" -D "$tmp/plainfile" -c 'select 1' >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q 'could not open warehouse' "$tmp/out"; then pass bad_warehouse; else fail bad_warehouse "rc=$rc" "$tmp/out"; fi
out=$(floe_run shell -c 'select 7 as seven' 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ $out == *"(1 row)"* ]]; then pass shell_subcommand; else fail shell_subcommand "rc=$rc out=$out"; fi

# ---- 8. interactive (tmux), when available ------------------------------------------------
if command -v tmux >/dev/null 2>&1; then
	sock="$tmp/tmux.sock"
	wh=$(mktemp -d "$tmp/whi.XXXXXX")
	HOME=$tmp tmux -S "$sock" new-session -d -x 120 -y 40 "$FLOE_BIN -D $wh" 2>/dev/null
	sleep 1
	for line in 'select 1 as a,' "'x' as b;" 'selec 1;' 'select 2 as after_error;'; do
		# tmux takes an argument's trailing ";" as a command separator
		[[ $line == *\; ]] && line="${line%;}\\;"
		tmux -S "$sock" send-keys -l "$line" 2>/dev/null
		tmux -S "$sock" send-keys Enter 2>/dev/null
		sleep 0.5
	done
	# Ctrl-C cancels a running statement; the shell carries on
	tmux -S "$sock" send-keys -l 'select g from generate_series(1, 500000000) g\;' 2>/dev/null
	tmux -S "$sock" send-keys Enter 2>/dev/null
	sleep 1.5
	tmux -S "$sock" send-keys C-c 2>/dev/null
	sleep 1
	tmux -S "$sock" send-keys -l 'select 3 as after_cancel\;' 2>/dev/null
	tmux -S "$sock" send-keys Enter 2>/dev/null
	sleep 1
	tmux -S "$sock" capture-pane -p >"$tmp/pane" 2>/dev/null
	tmux -S "$sock" send-keys -l '\q' 2>/dev/null
	tmux -S "$sock" send-keys Enter 2>/dev/null
	sleep 1
	tmux -S "$sock" kill-server >/dev/null 2>&1
	if grep -q '^floe=> select 1 as a,$' "$tmp/pane" && grep -q "^floe-> 'x' as b;$" "$tmp/pane" &&
		grep -q '^ 1 | x$' "$tmp/pane" && grep -q '^ERROR:  syntax error' "$tmp/pane" &&
		grep -q 'after_error' "$tmp/pane" && grep -q '^           2$' "$tmp/pane" &&
		grep -q '^^CERROR:  canceling statement due to user request$' "$tmp/pane" &&
		grep -q '^            3$' "$tmp/pane"; then
		pass interactive
	else
		fail interactive "unexpected screen" "$tmp/pane"
	fi
fi
# ---- 9. COPY FROM STDIN / TO STDOUT in scripts (psql's handling) ---------------------------
# Data follows the COPY in the script up to "\."; COPY TO STDOUT prints the
# data and no status (as psql).  Same output as psql against PostgreSQL 15,
# CONTEXT lines included.
cat >"$tmp/copy.sql" <<'SQL'
CREATE TABLE ct (a int NOT NULL, b text, c double precision DEFAULT 1.5, d date);
COPY ct (a, b, d) FROM STDIN;
1	hello	2024-01-02
2	\N	\N
3	tab\there, "q" \\ back	2020-02-29
\.
COPY ct FROM STDIN WITH (FORMAT csv, HEADER);
a,b,c,d
4,"x,y",2.5,2021-01-01
5,,,
6,"multi
line ""quoted""",3,
7,"",-0.25,
\.
COPY ct FROM STDIN (FORMAT csv, DELIMITER ';', NULL 'NULL', FORCE_NOT_NULL (b));
8;;NULL;NULL
9;NULL;1e3;2000-02-29
\.
SELECT * FROM ct ORDER BY a;
COPY (SELECT * FROM ct ORDER BY a) TO STDOUT;
COPY (SELECT * FROM ct ORDER BY a) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT a, b FROM ct ORDER BY a) TO STDOUT (FORMAT csv, FORCE_QUOTE (b), NULL 'N', DELIMITER '|');
COPY (SELECT b FROM ct WHERE a < 3 ORDER BY a) TO STDOUT (FORMAT csv, FORCE_QUOTE *);
COPY (SELECT a, b FROM ct ORDER BY a) TO STDOUT (DELIMITER ',', HEADER);
\set ON_ERROR_STOP 0
COPY ct FROM STDIN;
10	a	1	2000-01-01
x	b	2	2000-01-01
\.
COPY ct (a, b) FROM STDIN;
11	a
\N	b
\.
COPY ct (a, b) FROM STDIN;
12
\.
COPY ct (a, b) FROM STDIN;
13	a	b
\.
COPY ct (zz) FROM STDIN;
COPY ct TO STDOUT (QUOTE '"');
COPY ct FROM STDIN (FORMAT csv, FORCE_QUOTE *);
COPY nosuch TO STDOUT;
SELECT count(*) FROM ct;
SQL
if floe_run -f "$tmp/copy.sql" >"$tmp/copy.floe" 2>&1; then :; fi
if [ $have_pg = 1 ]; then
	psql_run -q -c 'DROP TABLE IF EXISTS ct' >/dev/null 2>&1
	psql_run -f "$tmp/copy.sql" 2>&1 | sed -e 's/^psql:/floe:/' >"$tmp/copy.pg"
	psql_run -q -c 'DROP TABLE IF EXISTS ct' >/dev/null 2>&1
	if cmp -s "$tmp/copy.pg" "$tmp/copy.floe"; then
		pass "copy script same as psql"
	else
		diff "$tmp/copy.pg" "$tmp/copy.floe" >"$tmp/copy.diff"
		fail "copy script same as psql" "differs" "$tmp/copy.diff"
	fi
fi
if grep -q '^6,"multi$' "$tmp/copy.floe" && grep -q '^floe:.*:29: ERROR:  invalid input syntax for type integer: "x"$' "$tmp/copy.floe" &&
	grep -q '^CONTEXT:  COPY ct, line 2, column a: "x"$' "$tmp/copy.floe" &&
	grep -qx '     9' "$tmp/copy.floe"; then
	pass "copy script"
else
	fail "copy script" "unexpected output" "$tmp/copy.floe"
fi
# -c: COPY FROM STDIN reads the data from stdin
out=$(printf '1\n2\n\\.\n' | floe_run -c 'CREATE TABLE s (a int)' -c 'COPY s FROM STDIN' -c 'SELECT sum(a) FROM s' -At 2>&1)
if [ "$out" = "$(printf 'CREATE TABLE\nCOPY 2\n3')" ]; then
	pass "copy -c from stdin"
else
	fail "copy -c from stdin" "got: $out"
fi

# \copy: client-side files, same output and file bytes as psql's
printf 'a,b,c\n1,hello,2024-01-02\n2,"comma, ""quoted""",\n3,,1999-12-31\n' >"$tmp/cin.csv"
printf '7\tseven\n8\t\\N\n' >"$tmp/cin2.txt"
for who in floe pg; do
	cat >"$tmp/cm_$who.sql" <<SQL
CREATE TABLE cm (a int NOT NULL, b text, c date);
\copy cm FROM '$tmp/cin.csv' CSV HEADER
\copy cm (a, b) from $tmp/cin2.txt
\copy (SELECT * FROM cm ORDER BY a) TO '$tmp/cout_$who.csv' WITH (FORMAT csv, HEADER)
\copy (SELECT a, b FROM cm ORDER BY a DESC) to stdout
DROP TABLE cm;
SQL
done
floe_run -f "$tmp/cm_floe.sql" >"$tmp/cm_floe.out" 2>&1
if [ $have_pg = 1 ]; then
	psql_run -f "$tmp/cm_pg.sql" >"$tmp/cm_pg.out" 2>&1
	if cmp -s "$tmp/cm_pg.out" "$tmp/cm_floe.out" && cmp -s "$tmp/cout_pg.csv" "$tmp/cout_floe.csv"; then
		pass "\\copy same as psql"
	else
		diff "$tmp/cm_pg.out" "$tmp/cm_floe.out" >"$tmp/cm.diff" 2>&1
		diff "$tmp/cout_pg.csv" "$tmp/cout_floe.csv" >>"$tmp/cm.diff" 2>&1
		fail "\\copy same as psql" "differs" "$tmp/cm.diff"
	fi
elif grep -qx 'COPY 5' "$tmp/cm_floe.out" && grep -q '^2,"comma, ""quoted""",$' "$tmp/cout_floe.csv"; then
	pass "\\copy"
else
	fail "\\copy" "unexpected output" "$tmp/cm_floe.out"
fi

# statement_timeout in the shell: a statement that would run for many
# seconds stops with 57014 and PostgreSQL's message; the next one runs
out=$("$FLOE_BIN" -D "$tmp/tmo" -c "SET statement_timeout = '200ms'" \
	-c "SELECT count(*) FROM generate_series(1, 2000000000) g WHERE g % 7 = 1" 2>&1)
if printf '%s\n' "$out" | grep -qx 'ERROR:  canceling statement due to statement timeout'; then
	pass "statement_timeout"
else
	fail "statement_timeout" "$(printf '%s' "$out" | tr '\n' '|')"
fi

[ $nfail -eq 0 ]
