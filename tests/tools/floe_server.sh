# floe_server.sh — sourced by the suites that run `floe serve` and a
# throwaway PostgreSQL 15 (scripts/pg-test-server.sh); one copy of the
# start-up, wait and shutdown lines they all need.
#
#   floe_serve OUT ARGS...   start "$FLOE_BIN" serve ARGS... with stdout in
#                            OUT.out and stderr in OUT.err; wait up to 15 s for
#                            its banner; set srv_pid and port. Returns 1 (and
#                            leaves port empty) if it did not come up.
#   floe_stop PID            SIGTERM, wait up to 10 s, then SIGKILL; reaps it.
#   floe_stop_clean PID ERR  SIGTERM and wait up to 30 s; set stop_rc to its exit
#                            status (empty if it did not exit: then SIGKILL).
#                            Returns 0 only for exit status 0 with no sanitizer
#                            report in the stderr file ERR.
#   pg_start                 start the test PostgreSQL; set pgport (empty when
#                            none could be started) and return 1 then.
#   pg_stop                  stop it (safe when it never started).
#
# The caller exports FLOE_PG_DIR before pg_start (the cluster's folder) and
# calls floe_stop "$srv_pid" and pg_stop from its cleanup trap.

floe_serve() {
	local out=$1
	shift
	"$FLOE_BIN" serve "$@" >"$out.out" 2>"$out.err" &
	srv_pid=$!
	port=
	local _
	for _ in $(seq 150); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$out.out" 2>/dev/null)
		[ -n "$port" ] && return 0
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$port" ]
}

floe_stop() {
	local pid=$1 _
	[ -n "$pid" ] || return 0
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

floe_stop_clean() {
	local pid=$1 err=$2 _
	stop_rc=
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 150); do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			stop_rc=$?
			break
		fi
		sleep 0.2
	done
	if [ -z "$stop_rc" ]; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 1
	fi
	[ "$stop_rc" = 0 ] && ! grep -qE "AddressSanitizer|LeakSanitizer|runtime error|ThreadSanitizer" "$err"
}

pg_start() {
	local envout
	pgport=
	if envout=$(scripts/pg-test-server.sh start 2>&1); then
		pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	fi
	[ -n "$pgport" ]
}

pg_stop() {
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	return 0
}
