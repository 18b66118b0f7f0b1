/*
 * floe.c — the floe binary: parses the command line and dispatches to the
 * shell (shell.c) or, later, the server.
 *
 *   floe [shell] [-D DIR | --warehouse DIR] [-c SQL]... [-f FILE]...
 *                [-A | --csv] [-t] [-x] [-F SEP] [-q] [-b | --echo-errors] [-v NAME=VALUE]...
 *   floe serve [-D DIR] [--port N] [--host ADDR] [--auth-file FILE] [--auth-timeout S]
 *   floe serve --make-verifier     read a password on stdin, print its
 *                                  SCRAM-SHA-256 verifier (for --auth-file)
 *                                  the PostgreSQL wire-protocol server
 *                                  (server/server.h); runs until SIGINT/SIGTERM
 *   floe --version | --help
 *
 * The warehouse is -D/--warehouse, else $FLOE_WAREHOUSE, else ./floe-data.
 * -c and -f run in the order given, then floe exits; without them floe
 * reads statements from stdin, interactively (libedit) when stdin is a
 * terminal.  Exit status: 0 success; 1 a statement or meta-command failed
 * in a script (the first error stops the script, like psql with
 * ON_ERROR_STOP=1, unless -v ON_ERROR_STOP=off); 2 bad usage or the
 * warehouse could not be opened.
 *
 * INTERFACE ROUTINES
 *   main(argc, argv)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <signal.h>

#include "main/shell.h"
#include "server/auth_scram.h"
#include "server/server.h"

typedef struct Action {
	char kind;          /* 'c' command string, 'f' file */
	const char *arg;
} Action;

static void
usage(FILE *out)
{
	fprintf(out,
		"floe is a PostgreSQL-compatible SQL database over Apache Iceberg tables.\n"
		"\n"
		"Usage:\n"
		"  floe [shell] [OPTION]...   run the interactive shell or a script\n"
		"  floe serve [-D DIR] [--port N] [--host ADDR] [--auth-file FILE]\n"
		"                             run the PostgreSQL wire-protocol server (default port 5433)\n"
		"\n"
		"Options:\n"
		"  -D, --warehouse=DIR      warehouse folder (default: $FLOE_WAREHOUSE, else ./floe-data)\n"
		"  -c, --command=SQL        run SQL (statements and backslash commands), then exit;\n"
		"                           may be given several times\n"
		"  -f, --file=FILE          run commands from FILE (\"-\" for stdin), then exit\n"
		"  -A, --no-align           unaligned output\n"
		"  -t, --tuples-only        print rows only (no header, no row-count footer)\n"
		"  -F, --field-separator=S  field separator for unaligned output (default \"|\")\n"
		"      --csv                CSV output (RFC 4180, header unless -t)\n"
		"  -q, --quiet              no command tags or banner\n"
		"  -x, --expanded           expanded output (one line per column)\n"
		"  -b, --echo-errors        echo a failed statement to stderr\n"
		"  -v, --set=NAME=VALUE     set a variable, used as :NAME in SQL; ON_ERROR_STOP=off\n"
		"                           lets scripts go on after an error (exit status still 1)\n"
		"  -V, --version            print the version and exit\n"
		"  -?, --help               show this help and exit\n"
		"\n"
		"In scripts (-c, -f, piped stdin) the first error stops floe with exit status 1.\n"
		"Inside the shell, type \\? for help.\n");
}

static volatile sig_atomic_t serve_stop;

static void
on_stop_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/* floe serve [-D DIR] [--port N] [--host ADDR] */
static int
serve_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"warehouse", required_argument, NULL, 'D'},
		{"port", required_argument, NULL, 'p'},
		{"host", required_argument, NULL, 'h'},
		{"auth-file", required_argument, NULL, 'a'},
		{"make-verifier", no_argument, NULL, 'm'},
		{"auth-timeout", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 1000},
		{NULL, 0, NULL, 0},
	};
	const char *warehouse = NULL, *host = "127.0.0.1", *auth_file = NULL;
	int port = 5433, c, auth_timeout = 60;
	char *end;
	EngineConfig cfg;
	Engine *engine;
	Server *srv;
	floe_error err;
	struct sigaction sa;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:p:h:", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': warehouse = optarg; break;
		case 'h': host = optarg; break;
		case 'a': auth_file = optarg; break;
		case 't':
			auth_timeout = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || auth_timeout < 1 || auth_timeout > 600) {
				fprintf(stderr, "floe serve: invalid --auth-timeout \"%s\" (1..600 seconds)\n", optarg);
				return 2;
			}
			break;
		case 'm': {
			char pw[1024], v[256];
			size_t n;
			if (!fgets(pw, sizeof pw, stdin)) {
				fprintf(stderr, "floe serve: no password on stdin\n");
				return 2;
			}
			n = strlen(pw);
			while (n && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
				pw[--n] = 0;
			if (scram_verifier_make(pw, 4096, v, sizeof v) != FLOE_OK) {
				fprintf(stderr, "floe serve: could not make a verifier\n");
				return 2;
			}
			memset(pw, 0, sizeof pw);
			printf("%s\n", v);
			return 0;
		}
		case 'p':
			port = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || port < 0 || port > 65535) {
				fprintf(stderr, "floe serve: invalid port \"%s\"\n", optarg);
				return 2;
			}
			break;
		case 1000:
			printf("Usage: floe serve [-D DIR] [--port N] [--host ADDR] [--auth-file FILE]\n"
			       "       floe serve --make-verifier < password\n"
			       "Serve the warehouse over the PostgreSQL protocol (default port 5433;\n"
			       "--port 0 picks a free port).  Without --auth-file connections are\n"
			       "trusted and only loopback addresses are allowed; with it, every user\n"
			       "logs in with SCRAM-SHA-256 (lines \"user:SCRAM-SHA-256$...\", as made\n"
			       "by --make-verifier or stored in PostgreSQL's pg_authid).\n"
			       "--auth-timeout S closes connections that have not logged in after S\n"
			       "seconds (default 60).\n");
			return 0;
		default:
			fprintf(stderr, "floe serve: invalid option \"%s\"\n"
				"Usage: floe serve [-D DIR] [--port N] [--host ADDR] [--auth-file FILE]\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "floe serve: unexpected argument \"%s\"\n", argv[optind]);
		return 2;
	}
	if (!warehouse)
		warehouse = getenv("FLOE_WAREHOUSE");
	if (!warehouse || !*warehouse)
		warehouse = "floe-data";
	memset(&cfg, 0, sizeof cfg);
	cfg.warehouse = warehouse;
	if (engine_open(&engine, &cfg, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		return 2;
	}
	if (server_listen(&srv, engine, host, port, auth_file, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		if (err.hint[0])
			fprintf(stderr, "HINT:  %s\n", err.hint);
		engine_close(engine);
		return 2;
	}
	server_set_auth_timeout(srv, auth_timeout);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	printf("floe serve: warehouse %s, listening on %s port %d\n"
	       "connect with: psql -h %s -p %d -U <user> floe\n",
	       warehouse, host, server_port(srv), host, server_port(srv));
	fflush(stdout);
	server_run(srv, &serve_stop);
	server_free(srv);
	engine_close(engine);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"warehouse", required_argument, NULL, 'D'},
		{"command", required_argument, NULL, 'c'},
		{"file", required_argument, NULL, 'f'},
		{"no-align", no_argument, NULL, 'A'},
		{"tuples-only", no_argument, NULL, 't'},
		{"field-separator", required_argument, NULL, 'F'},
		{"quiet", no_argument, NULL, 'q'},
		{"expanded", no_argument, NULL, 'x'},
		{"csv", no_argument, NULL, 1001},
		{"echo-errors", no_argument, NULL, 'b'},
		{"set", required_argument, NULL, 'v'},
		{"variable", required_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 1000},
		{NULL, 0, NULL, 0},
	};
	ShellOptions opts;
	Action *actions;
	int nactions = 0, nvars = 0, c, rc = -1;   /* -1: not decided yet */
	const char **vars;
	const char *warehouse = NULL;
	Engine *engine = NULL;
	Session *session;
	Shell *sh;
	floe_error err;

	if (argc > 1 && argv[1][0] != '-') {
		if (strcmp(argv[1], "serve") == 0)
			return serve_main(argc - 1, argv + 1);
		if (strcmp(argv[1], "shell") != 0) {
			fprintf(stderr, "floe: unknown command \"%s\"\n"
				"Try \"floe --help\" for more information.\n", argv[1]);
			return 2;
		}
		argv[1] = argv[0];
		argv++;
		argc--;
	}

	memset(&opts, 0, sizeof opts);
	opts.print.field_sep = "|";
	actions = xcalloc((size_t)argc + 1, sizeof *actions);
	vars = xcalloc((size_t)argc + 1, sizeof *vars);
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":D:c:f:AtF:qxbv:V?", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': warehouse = optarg; break;
		case 'c':
		case 'f':
			actions[nactions].kind = (char)c;
			actions[nactions].arg = optarg;
			nactions++;
			break;
		case 'A': opts.print.unaligned = true; break;
		case 't': opts.print.tuples_only = true; break;
		case 'F': opts.print.field_sep = optarg; break;
		case 'q': opts.print.quiet = true; break;
		case 'x': opts.print.expanded = true; break;
		case 'b': opts.echo_errors = true; break;
		case 1001: opts.print.csv = true; break;
		case 'v':
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				fprintf(stderr, "floe: -v expects NAME=VALUE, not \"%s\"\n", optarg);
				rc = 2;
			} else
				vars[nvars++] = optarg;
			break;
		case 'V':
			printf("floe " FLOE_VERSION "\n");
			rc = 0;
			break;
		case 1000:
			usage(stdout);
			rc = 0;
			break;
		case '?':
			if (optopt == '?') {
				usage(stdout);
				rc = 0;
				break;
			}
			if (optopt)
				fprintf(stderr, "floe: invalid option -- '%c'\n", optopt);
			else
				fprintf(stderr, "floe: unrecognized option \"%s\"\n", argv[optind - 1]);
			fprintf(stderr, "Try \"floe --help\" for more information.\n");
			rc = 2;
			break;
		case ':':
			fprintf(stderr, "floe: option requires an argument -- '%c'\n"
				"Try \"floe --help\" for more information.\n", optopt);
			rc = 2;
			break;
		default:
			rc = 2;
			break;
		}
	}
	if (rc >= 0)
		goto out;
	/* "floe -D dir shell": the subcommand may also follow the options */
	if (optind < argc && strcmp(argv[optind], "shell") == 0)
		optind++;
	else if (optind < argc && strcmp(argv[optind], "serve") == 0) {
		fprintf(stderr, "floe serve: not implemented yet\n");
		rc = 2;
		goto out;
	}
	if (optind < argc) {
		fprintf(stderr, "floe: unexpected argument \"%s\"\n"
			"Try \"floe --help\" for more information.\n", argv[optind]);
		rc = 2;
		goto out;
	}
	rc = 0;

	if (!warehouse)
		warehouse = getenv("FLOE_WAREHOUSE");
	if (!warehouse || !*warehouse)
		warehouse = "./floe-data";

	floe_error_clear(&err);
	EngineConfig config = {.warehouse = warehouse, .catalog_name = NULL};
	if (engine_open(&engine, &config, &err) != FLOE_OK) {
		fprintf(stderr, "floe: error: could not open warehouse \"%s\": %s\n",
			warehouse, err.message);
		if (err.detail[0])
			fprintf(stderr, "DETAIL:  %s\n", err.detail);
		rc = 2;
		goto out;
	}
	session = session_new(engine);
	sh = shell_new(session, &opts);
	for (int i = 0; i < nvars; i++) {
		const char *eq = strchr(vars[i], '=');
		char *name = xmalloc((size_t)(eq - vars[i]) + 1);
		memcpy(name, vars[i], (size_t)(eq - vars[i]));
		name[eq - vars[i]] = '\0';
		if (shell_set_var(sh, name, eq + 1) != FLOE_OK)
			rc = 2;
		free(name);
	}

	if (rc != 0) {
		/* a bad -v: run nothing */
	} else if (nactions > 0) {
		for (int i = 0; i < nactions && (rc == 0 || !shell_stops_on_error(sh)); i++) {
			if (actions[i].kind == 'c') {
				if (shell_run_string(sh, actions[i].arg) != FLOE_OK)
					rc = 1;
			} else if (strcmp(actions[i].arg, "-") == 0) {
				if (shell_run_stream(sh, stdin, "<stdin>", true) != FLOE_OK)
					rc = 1;
			} else {
				FILE *f = fopen(actions[i].arg, "r");
				if (!f) {
					fprintf(stderr, "floe: error: %s: %s\n", actions[i].arg,
						strerror(errno));
					rc = 1;
					continue;
				}
				if (shell_run_stream(sh, f, actions[i].arg, true) != FLOE_OK)
					rc = 1;
				fclose(f);
			}
		}
	} else if (isatty(STDIN_FILENO)) {
		shell_interactive(sh);
	} else {
		rc = shell_run_stream(sh, stdin, "<stdin>", false) == FLOE_OK ? 0 : 1;
	}

	fflush(stdout);
	shell_free(sh);
	session_free(session);
	engine_close(engine);
out:
	free(actions);
	free(vars);
	return rc;
}
