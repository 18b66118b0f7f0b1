#!/usr/bin/env bash
# pg-test-server.sh — a throwaway PostgreSQL 15 for floe's differential tests.
#
#   scripts/pg-test-server.sh start   initdb + start (if not already running),
#                                     print the connection environment
#   scripts/pg-test-server.sh env     print the environment of the running server
#   scripts/pg-test-server.sh stop    stop THAT server (PID from postmaster.pid)
#                                     and remove its folder
#   scripts/pg-test-server.sh status  exit 0 if it is running
#
# Output of start/env, one per line, ready for `eval` or `export`:
#   PGHOST=127.0.0.1 PGPORT=NNNNN PGUSER=postgres PGDATABASE=postgres
#   FLOE_PG_DIR=/tmp/...  (the folder, so a later `stop` finds it)
#
# The folder is $FLOE_PG_DIR (default /tmp/floe-pgtest-<uid>); set it to a
# private path (mktemp -u) to run several servers at once.  Everything the
# server owns lives there: data/, the unix socket, log, port.
#
# Settings: listen on 127.0.0.1 only (+ unix socket in the folder), trust
# auth, fsync=off, full_page_writes=off, TimeZone=UTC, DateStyle 'ISO, MDY',
# lc_messages C, encoding UTF8 with locale C (bytewise text ordering, as floe),
# max_connections 20 ($FLOE_PG_MAX_CONNECTIONS to change it: benchmarks).
#
# PostgreSQL refuses to run as root: as root, initdb and postgres run as the
# `postgres` OS user (runuser, else su); as any other user they run as that
# user.  Both start and stop are idempotent.
set -uo pipefail

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
DIR=${FLOE_PG_DIR:-/tmp/floe-pgtest-$(id -u)}
DATA=$DIR/data

die() { echo "pg-test-server: $*" >&2; exit 1; }

# as_pg CMD...: run CMD as the server's OS user.
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		if command -v runuser >/dev/null 2>&1; then
			runuser -u postgres -- "$@"
		else
			su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
		fi
	else
		"$@"
	fi
}

server_pid() {
	[ -f "$DATA/postmaster.pid" ] || return 1
	local pid
	pid=$(head -1 "$DATA/postmaster.pid" 2>/dev/null)
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	kill -0 "$pid" 2>/dev/null || return 1
	echo "$pid"
}

print_env() {
	echo "PGHOST=127.0.0.1"
	echo "PGPORT=$(cat "$DIR/port")"
	echo "PGUSER=postgres"
	echo "PGDATABASE=postgres"
	echo "FLOE_PG_DIR=$DIR"
}

port_free() {
	! ss -Htln "sport = :$1" 2>/dev/null | grep -q .
}

do_start() {
	[ -x "$PGBIN/postgres" ] || die "no PostgreSQL 15 in $PGBIN (apt-get install postgresql-15)"
	if server_pid >/dev/null && [ -f "$DIR/port" ]; then
		print_env
		return 0
	fi
	if [ "$(id -u)" -eq 0 ] && ! getent passwd postgres >/dev/null; then
		die "running as root and there is no 'postgres' OS user"
	fi
	# A stale folder (server died): start over.
	if [ -e "$DIR" ]; then
		rm -rf "$DIR" || die "cannot remove stale $DIR"
	fi
	mkdir -m 700 "$DIR" || die "cannot create $DIR"
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres: "$DIR" || die "cannot chown $DIR"
	fi
	if ! as_pg "$PGBIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C \
		--no-sync >"$DIR/initdb.log" 2>&1; then
		cat "$DIR/initdb.log" >&2
		die "initdb failed"
	fi
	local tries=0 port
	while :; do
		tries=$((tries + 1))
		[ $tries -le 20 ] || die "could not start PostgreSQL (see $DIR/log)"
		port=$((20000 + RANDOM % 40000))
		port_free "$port" || continue
		cat >"$DIR/floe.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$DIR'
fsync = off
full_page_writes = off
synchronous_commit = off
TimeZone = 'UTC'
log_timezone = 'UTC'
DateStyle = 'ISO, MDY'
IntervalStyle = 'postgres'
extra_float_digits = 1
lc_messages = 'C'
lc_monetary = 'C'
lc_numeric = 'C'
lc_time = 'C'
max_connections = ${FLOE_PG_MAX_CONNECTIONS:-20}
shared_buffers = 16MB
logging_collector = off
EOF
		[ "$(id -u)" -eq 0 ] && chown postgres: "$DIR/floe.conf"
		# include the settings once; a retry only rewrites floe.conf
		grep -q 'floe.conf' "$DATA/postgresql.conf" ||
			as_pg sh -c "echo \"include '$DIR/floe.conf'\" >> '$DATA/postgresql.conf'"
		if as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$DIR/log" -w -t 60 start >/dev/null 2>&1; then
			echo "$port" >"$DIR/port"
			break
		fi
		# port raced away, or a real failure: retry a few times
		grep -q "could not bind\|Address already in use" "$DIR/log" 2>/dev/null || {
			tail -20 "$DIR/log" >&2
			die "PostgreSQL did not start"
		}
	done
	print_env
}

do_stop() {
	local pid
	if pid=$(server_pid); then
		kill -INT "$pid" 2>/dev/null   # fast shutdown
		for _ in $(seq 1 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -QUIT "$pid" 2>/dev/null
	fi
	case "$DIR" in
	/tmp/?*) rm -rf "$DIR" ;;
	*) [ -d "$DATA" ] && rm -rf "$DIR" ;;
	esac
	return 0
}

case "${1:-}" in
start) do_start ;;
stop) do_stop ;;
env)
	server_pid >/dev/null && [ -f "$DIR/port" ] || die "no server running in $DIR"
	print_env
	;;
status) server_pid >/dev/null ;;
*) echo "usage: $0 start|stop|env|status" >&2; exit 2 ;;
esac
