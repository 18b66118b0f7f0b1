/*
 * floe.c — the floe binary: parses the command line and dispatches to the
 * shell (shell.c) or, later, the server.
 *
 *   floe [shell] [-D DIR | --warehouse DIR] [-c SQL]... [-f FILE]...
 *                [-A | --csv] [-t] [-x] [-F SEP] [-q] [-b | --echo-errors] [-v NAME=VALUE]...
 *   floe serve [-D DIR] [--port N] [--host ADDR] [--auth METHOD] [--auth-file FILE]
 *              [--auth-timeout S] [--idle-timeout S] [--max-connections N] [--tls-cert FILE --tls-key FILE [--tls-required]]
 *              [--allow-dir DIR]... [--http-port N|0|off] [--http-session-idle S]
 *                                  the PostgreSQL wire-protocol server
 *                                  (server/server.h); runs until SIGINT/SIGTERM;
 *                                  at start removes stale temporary files
 *                                  of killed writes (fileio_sweep_tmp)
 *   floe serve --make-verifier     read a password on stdin, print its
 *                                  SCRAM-SHA-256 verifier (for --auth-file)
 *   floe user add NAME [-D DIR] [--password-file FILE] [--md5] [--superuser]
 *   floe user remove NAME [-D DIR]
 *   floe user list [-D DIR]        the users of `floe serve`, kept in
 *                                  <warehouse>/users, and their roles in
 *                                  <warehouse>/roles (server/users.h): the
 *                                  first user is a superuser
 *   floe serve ... --allow-dir DIR  (repeatable) a directory server-side
 *                                  files may be in besides the warehouse
 *                                  (sql/acl.h)
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

#include "common/stack.h"
#include "main/shell.h"
#include <sys/stat.h>
#include <termios.h>
#include <time.h>

#include "server/auth_md5.h"
#include "server/auth_scram.h"
#include "server/http.h"
#include "server/server.h"
#include "server/users.h"
#include "storage/fileio.h"
#include "sql/acl.h"
#include "sql/warehouse.h"

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
		"  floe serve [-D DIR] [--port N] [--host ADDR] [--auth METHOD] [--tls-cert F --tls-key F]\n"
		"                             run the PostgreSQL wire-protocol server (default port 5433)\n"
		"  floe user add|remove|list [NAME] [-D DIR]\n"
		"                             manage the server's users (floe user --help)\n"
		"\n"
		"Options:\n"
		"  -D, --warehouse=DIR      warehouse folder (default: $FLOE_WAREHOUSE, else ./floe-data),\n"
		"                           or s3://bucket/prefix (docs/s3.md)\n"
		"      --catalog=URI|DIR    a PostgreSQL catalog, rest+http(s)://host:port/path (an\n"
		"                           Iceberg REST catalog, docs/rest-client.md); for s3://\n"
		"                           the local state folder\n"
		"      --catalog-credential=ID:SECRET  OAuth2 client credentials of a REST catalog\n"
		"      --fileio-property=K=V  an Iceberg S3 property (s3.endpoint, ...; docs/s3.md)\n"
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

/* For an s3:// warehouse, --catalog DIR that is not a PostgreSQL catalog
 * (postgres:// URI or libpq "key=value" conninfo) names the local state
 * folder (sql/warehouse.h): returned, and *catalog_uri cleared. */
static const char *
split_catalog(const char *warehouse, const char **catalog_uri)
{
	const char *c = *catalog_uri;

	if (!warehouse_is_remote(warehouse) || !c || !*c || strstr(c, "://") || strchr(c, '='))
		return NULL;
	*catalog_uri = NULL;
	return c;
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
		{"auth", required_argument, NULL, 'M'},
		{"tls-cert", required_argument, NULL, 'C'},
		{"tls-key", required_argument, NULL, 'K'},
		{"tls-required", no_argument, NULL, 'R'},
		{"idle-timeout", required_argument, NULL, 'I'},
		{"max-connections", required_argument, NULL, 'N'},
		{"help", no_argument, NULL, 1000},
		{"catalog", required_argument, NULL, 1001},   /* txn engineer: shared catalog */
		{"allow-dir", required_argument, NULL, 1002},
		{"fileio-property", required_argument, NULL, 1003},
		{"http-port", required_argument, NULL, 1010},
		{"http-session-idle", required_argument, NULL, 1011},
		{"catalog-credential", required_argument, NULL, 1012},
		{NULL, 0, NULL, 0},
	};
	static char *props[64];
	int nprops = 0;
	char local[4096];
	const char *state_dir = NULL;
	const char *warehouse = NULL, *host = "127.0.0.1", *auth_file = NULL;
	const char *catalog_uri = NULL;   /* --catalog (txn engineer) */
	const char *auth_method = NULL, *tls_cert = NULL, *tls_key = NULL;
	int port = 5433, c, auth_timeout = 60, idle_timeout = 0, max_conns = 0;
	bool tls_required = false;
	int http_port_opt = -2;            /* -2: the default (pgwire port + 1), -1: off */
	int http_idle = 0;
	char *end, users_file[4096];
	ServerConfig scfg;
	EngineConfig cfg;
	Engine *engine;
	Server *srv;
	HttpServer *http = NULL;
	HttpConfig hcfg;
	floe_error err;
	struct sigaction sa;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:p:h:", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': warehouse = optarg; break;
		case 1001: catalog_uri = optarg; break;   /* txn engineer */
		case 1012: setenv("FLOE_REST_CREDENTIAL", optarg, 1); break;   /* catalog_rest.c */
		case 1003:
			if (nprops == 64) {
				fprintf(stderr, "floe serve: too many --fileio-property options\n");
				return 2;
			}
			props[nprops++] = optarg;
			break;
		case 1002:
			if (acl_allow_dir(optarg, &err) != FLOE_OK) {
				fprintf(stderr, "floe serve: %s\n", err.message);
				return 2;
			}
			break;
		case 1010:
			if (!strcmp(optarg, "off")) {
				http_port_opt = -1;
				break;
			}
			http_port_opt = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || http_port_opt < 0 || http_port_opt > 65535) {
				fprintf(stderr, "floe serve: invalid --http-port \"%s\" (0..65535 or off)\n", optarg);
				return 2;
			}
			break;
		case 1011:
			http_idle = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || http_idle < 1 || http_idle > 86400 * 7) {
				fprintf(stderr, "floe serve: invalid --http-session-idle \"%s\" (1..604800 seconds)\n", optarg);
				return 2;
			}
			break;
		case 'h': host = optarg; break;
		case 'a': auth_file = optarg; break;
		case 'M': auth_method = optarg; break;
		case 'C': tls_cert = optarg; break;
		case 'K': tls_key = optarg; break;
		case 'R': tls_required = true; break;
		case 'N':
			max_conns = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || max_conns < 1 || max_conns > 100000) {
				fprintf(stderr, "floe serve: invalid --max-connections \"%s\" (1..100000)\n", optarg);
				return 2;
			}
			break;
		case 'I':
			idle_timeout = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || idle_timeout < 0 || idle_timeout > 86400 * 7) {
				fprintf(stderr, "floe serve: invalid --idle-timeout \"%s\" (seconds, 0: none)\n", optarg);
				return 2;
			}
			break;
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
			printf("Usage: floe serve [-D DIR] [--port N] [--host ADDR] [--auth METHOD]\n"
			       "                  [--auth-file FILE] [--tls-cert FILE --tls-key FILE] [--auth-timeout S]\n"
			       "                  [--tls-required] [--idle-timeout S] [--max-connections N]\n"
			       "       floe serve --make-verifier < password\n"
			       "Serve the warehouse over the PostgreSQL protocol (default port 5433;\n"
			       "--port 0 picks a free port).\n"
			       "Users and their password verifiers are in <warehouse>/users (floe user add),\n"
			       "or in --auth-file FILE (lines \"user:SCRAM-SHA-256$...\" or \"user:md5...\").\n"
			       "--auth trust|password|md5|scram-sha-256: default scram-sha-256 when there are\n"
			       "users, else trust; trust is allowed only on loopback addresses.\n"
			       "--tls-cert/--tls-key: PEM certificate and key; SSLRequest is then accepted;\n"
			       "--tls-required: logins without TLS are refused.\n"
			       "--auth-timeout S closes connections that have not logged in after S\n"
			       "seconds (default 60); --idle-timeout S closes sessions idle for S seconds\n"
			       "(idle_session_timeout's default; 0, the default: never).\n"
			       "--max-connections N: logins beyond N open connections are refused (53300;\n"
			       "default 500).\n"
			       "--catalog URI: a PostgreSQL catalog (libpq conninfo or postgresql://...)\n"
			       "shared by several floe serve nodes; default <warehouse>/catalog-uri, else\n"
			       "SQLite <warehouse>/catalog.db (docs/transactions.md); rest+http://host:port/path\n"
			       "(or rest+https) an Iceberg REST catalog, --catalog-credential ID:SECRET its\n"
			       "OAuth2 client credentials, else $FLOE_REST_TOKEN (docs/rest-client.md).\n"
			       "-D s3://bucket/prefix: tables in object storage; --catalog DIR (not a\n"
			       "PostgreSQL URI) is then the local state folder of catalog.db and users,\n"
			       "default $FLOE_STATE_DIR, else ~/.local/state/floe/s3/<bucket>/<prefix>;\n"
			       "--fileio-property KEY=VALUE (repeatable): s3.endpoint, s3.access-key-id,\n"
			       "s3.secret-access-key, s3.session-token, s3.path-style-access,\n"
			       "client.region (docs/s3.md).\n"
			       "--allow-dir DIR (repeatable): besides the warehouse, a directory whose\n"
			       "files COPY ... TO/FROM 'file' and read_parquet may use (docs/security.md).\n"
			       "--http-port N|0|off: the HTTP query API and the Iceberg REST catalog\n"
			       "(docs/http.md; same users, auth method and TLS); default the pgwire port + 1,\n"
			       "or any free port when that one is busy or --port is 0.\n"
			       "--http-session-idle S: HTTP sessions unused for S seconds are closed (300).\n");
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
	state_dir = split_catalog(warehouse, &catalog_uri);
	warehouse_local_dir(local, sizeof local, warehouse, state_dir);
	cfg.warehouse = warehouse;
	cfg.catalog_uri = catalog_uri;   /* txn engineer */
	cfg.state_dir = state_dir;
	cfg.fileio_props = props;
	cfg.nfileio_props = nprops;
	if (engine_open(&engine, &cfg, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		return 2;
	}
	/* table files beneath the warehouse and --allow-dir only, no
	 * symbolic link followed (docs/security.md "Table folders") */
	if (acl_confine_io(engine->io, warehouse, local, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		engine_close(engine);
		return 2;
	}
	if (warehouse_is_remote(warehouse))
		printf("floe serve: local state folder %s (catalog.db, users)\n", local);
	{
		/* what a killed process left half-written (fileio.h) */
		int swept = fileio_sweep_tmp(local, time(NULL));
		if (swept > 0)
			printf("floe serve: removed %d stale temporary file%s\n", swept,
			       swept == 1 ? "" : "s");
	}
	memset(&scfg, 0, sizeof scfg);
	scfg.host = host;
	scfg.port = port;
	if (auth_file) {
		scfg.users_file = auth_file;
		scfg.users_required = true;
	} else {
		users_path(local, users_file, sizeof users_file);
		scfg.users_file = users_file;
	}
	scfg.auth_method = auth_method;
	scfg.tls_cert = tls_cert;
	scfg.tls_key = tls_key;
	scfg.tls_required = tls_required;
	scfg.auth_timeout = auth_timeout;
	scfg.idle_timeout = idle_timeout;
	scfg.max_connections = max_conns;
	if (server_listen(&srv, engine, &scfg, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		if (err.hint[0])
			fprintf(stderr, "HINT:  %s\n", err.hint);
		engine_close(engine);
		return 2;
	}
	if (engine_start_background(engine, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err.message);
		server_free(srv);
		engine_close(engine);
		return 2;
	}
	if (http_port_opt != -1) {
		memset(&hcfg, 0, sizeof hcfg);
		hcfg.host = host;
		hcfg.port = http_port_opt >= 0 ? http_port_opt
			: server_port(srv) && server_port(srv) < 65535 ? server_port(srv) + 1 : 0;
		hcfg.port_fallback = http_port_opt == -2;
		hcfg.users_file = scfg.users_file;
		hcfg.users_required = scfg.users_required;
		hcfg.auth_method = server_auth_method_name(srv);
		hcfg.tls_cert = tls_cert;
		hcfg.tls_key = tls_key;
		hcfg.max_connections = max_conns;
		hcfg.warehouse = warehouse;
		hcfg.session_idle = http_idle;
		if (port == 0 && http_port_opt == -2)
			hcfg.port = 0;     /* --port 0: the HTTP port is any free one too */
		if (http_start(&http, engine, &hcfg, &err) != FLOE_OK) {
			fprintf(stderr, "floe serve: %s\n", err.message);
			if (err.hint[0])
				fprintf(stderr, "HINT:  %s\n", err.hint);
			server_free(srv);
			engine_close(engine);
			return 2;
		}
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	printf("floe serve: warehouse %s, listening on %s port %d\n"
	       "connect with: psql -h %s -p %d -U <user> floe\n"
	       "authentication: %s%s, TLS %s\n",
	       warehouse, host, server_port(srv), host, server_port(srv), server_auth_method_name(srv),
	       !strcmp(server_auth_method_name(srv), "trust") ? " (any user, no password; loopback only)" : "",
	       tls_required ? "required" : tls_cert ? "on" : "off");
	if (http)
		printf("HTTP: %s://%s:%d (query API /v1/query, Iceberg REST catalog /iceberg)%s\n",
		       tls_cert ? "https" : "http", host, http_port(http),
		       http_fell_back(http) ? ", the default port was busy" : "");
	else
		printf("HTTP: off\n");
	fflush(stdout);
	server_run(srv, &serve_stop);
	http_stop(http);
	server_free(srv);
	engine_close(engine);
	return 0;
}

/* A password: the first line of `file` (stdin when NULL; on a terminal,
 * asked twice without echo).  Returns 0, or -1 with a message printed. */
static int
read_password(const char *file, char *pw, size_t n)
{
	FILE *f = stdin;
	bool tty = !file && isatty(STDIN_FILENO);
	struct termios old, quiet;
	char again[1024];
	size_t len;

	if (file && !(f = fopen(file, "r"))) {
		fprintf(stderr, "floe user: could not open \"%s\": %s\n", file, strerror(errno));
		return -1;
	}
	for (int round = 0; round < (tty ? 2 : 1); round++) {
		char *dst = round ? again : pw;
		size_t cap = round ? sizeof again : n;
		bool got;
		if (tty) {
			fprintf(stderr, round ? "Enter it again: " : "Enter password for new user: ");
			tcgetattr(STDIN_FILENO, &old);
			quiet = old;
			quiet.c_lflag &= ~(tcflag_t)ECHO;
			tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
		}
		got = fgets(dst, (int)cap, f) != NULL;
		if (tty) {
			tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
			fputc('\n', stderr);
		}
		if (!got) {
			fprintf(stderr, "floe user: no password given\n");
			if (file)
				fclose(f);
			return -1;
		}
		len = strlen(dst);
		while (len && (dst[len - 1] == '\n' || dst[len - 1] == '\r'))
			dst[--len] = 0;
	}
	if (file)
		fclose(f);
	if (tty && strcmp(pw, again) != 0) {
		fprintf(stderr, "floe user: the passwords do not match\n");
		memset(again, 0, sizeof again);
		return -1;
	}
	memset(again, 0, sizeof again);
	if (!pw[0]) {
		fprintf(stderr, "floe user: empty passwords are not allowed\n");
		return -1;
	}
	return 0;
}

/* floe user add|remove|list [NAME] [-D DIR] [--password-file F] [--md5] */
static int
user_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"warehouse", required_argument, NULL, 'D'},
		{"password-file", required_argument, NULL, 'P'},
		{"md5", no_argument, NULL, '5'},
		{"superuser", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 1000},
		{NULL, 0, NULL, 0},
	};
	const char *warehouse = NULL, *pwfile = NULL, *verb, *name = NULL;
	bool md5 = false, superuser = false;
	char path[4096], rpath[4096], pw[1024], verifier[256], md5s[AUTH_MD5_LEN + 1];
	Roles roles;
	Users users;
	floe_error err;
	int c, lock, rc = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': warehouse = optarg; break;
		case 'S': superuser = true; break;
		case 'P': pwfile = optarg; break;
		case '5': md5 = true; break;
		case 1000:
			printf("Usage: floe user add NAME [-D DIR] [--password-file FILE] [--md5] [--superuser]\n"
			       "       floe user remove NAME [-D DIR]\n"
			       "       floe user list [-D DIR]\n"
			       "Users of floe serve, in <warehouse>/users (mode 0600).  add reads the\n"
			       "password from --password-file, else stdin (asked twice on a terminal), and\n"
			       "stores its SCRAM-SHA-256 verifier, never the password; --md5 also stores\n"
			       "PostgreSQL's md5 secret, for clients of the md5 method (weaker: avoid).\n"
			       "add replaces the secrets of an existing user.\n"
			       "Roles: the first user added is a superuser, later ones ordinary login\n"
			       "roles (GRANT gives them privileges) unless --superuser (docs/security.md).\n");
			return 0;
		default:
			fprintf(stderr, "floe user: invalid option \"%s\"\n"
				"Try \"floe user --help\" for more information.\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "floe user: expected add, remove or list\n");
		return 2;
	}
	verb = argv[optind++];
	if (strcmp(verb, "list") != 0) {
		if (optind >= argc) {
			fprintf(stderr, "floe user %s: expected a user name\n", verb);
			return 2;
		}
		name = argv[optind++];
	}
	if (optind < argc || (strcmp(verb, "add") && strcmp(verb, "remove") && strcmp(verb, "list"))) {
		fprintf(stderr, "floe user: unexpected argument \"%s\"\n", optind < argc ? argv[optind] : verb);
		return 2;
	}
	if (name && !users_valid_name(name)) {
		fprintf(stderr, "floe user: invalid user name \"%s\" (1 to 63 printable characters without ':')\n", name);
		return 2;
	}
	if (!warehouse)
		warehouse = getenv("FLOE_WAREHOUSE");
	if (!warehouse || !*warehouse)
		warehouse = "floe-data";
	{
		static char local[4096];
		warehouse_local_dir(local, sizeof local, warehouse, NULL);
		warehouse = local;           /* users and roles: the local state folder */
	}
	if (mkdir(warehouse, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "floe user: could not create \"%s\": %s\n", warehouse, strerror(errno));
		return 2;
	}
	users_path(warehouse, path, sizeof path);
	if (!strcmp(verb, "add") && read_password(pwfile, pw, sizeof pw) != 0)
		return 2;
	if ((lock = users_lock(path, &err)) < 0 || users_load(path, true, &users, &err) != FLOE_OK) {
		fprintf(stderr, "floe user: %s\n", err.message);
		users_unlock(lock);
		memset(pw, 0, sizeof pw);
		return 2;
	}
	if (!strcmp(verb, "list")) {
		for (int i = 0; i < users.n; i++)
			printf("%s\t%s%s%s\n", users.u[i].name, users.u[i].scram_text ? "scram-sha-256" : "",
			       users.u[i].scram_text && users.u[i].md5[0] ? "," : "", users.u[i].md5[0] ? "md5" : "");
	} else if (roles_path(warehouse, rpath, sizeof rpath), roles_load(rpath, &roles, &err) != FLOE_OK) {
		fprintf(stderr, "floe user: %s\n", err.message);
		rc = 2;
	} else if (!strcmp(verb, "remove")) {
		bool had_role = roles_remove(&roles, name);
		if (!users_remove(&users, name)) {
			fprintf(stderr, "floe user: user \"%s\" does not exist\n", name);
			rc = 1;
		} else if (users_save(path, &users, &err) != FLOE_OK ||
			   (had_role && roles_save(rpath, &roles, &err) != FLOE_OK)) {
			fprintf(stderr, "floe user: %s\n", err.message);
			rc = 2;
		}
		roles_free(&roles);
	} else {
		/* the roles file (server/users.h): the first user is a superuser;
		 * users from before the roles file existed stay superusers */
		if (!roles.exists) {
			for (int i = 0; i < users.n; i++)
				roles_set(&roles, users.u[i].name, true, true);
			if (!users.n)
				superuser = true;
		}
		if (!roles_find(&roles, name) || superuser)
			roles_set(&roles, name, superuser || (roles_find(&roles, name) && roles_find(&roles, name)->super), true);
		if (scram_verifier_make(pw, 4096, verifier, sizeof verifier) != FLOE_OK) {
			fprintf(stderr, "floe user: could not make a verifier\n");
			rc = 2;
		} else {
			if (md5)
				auth_md5_secret(pw, name, md5s);
			if (users_set(&users, name, verifier, md5 ? md5s : NULL, &err) != FLOE_OK ||
			    users_save(path, &users, &err) != FLOE_OK || roles_save(rpath, &roles, &err) != FLOE_OK) {
				fprintf(stderr, "floe user: %s\n", err.message);
				rc = 2;
			}
		}
		roles_free(&roles);
	}
	memset(pw, 0, sizeof pw);
	users_free(&users);
	users_unlock(lock);
	return rc;
}

static int
floe_main(int argc, char **argv)
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
		{"catalog", required_argument, NULL, 1002},
		{"fileio-property", required_argument, NULL, 1003},
		{"catalog-credential", required_argument, NULL, 1004},
		{NULL, 0, NULL, 0},
	};
	const char *catalog_arg = NULL, *state_dir;
	static char *props[64];
	int nprops = 0;
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
		if (strcmp(argv[1], "user") == 0)
			return user_main(argc - 1, argv + 1);
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
		case 1002: catalog_arg = optarg; break;
		case 1004: setenv("FLOE_REST_CREDENTIAL", optarg, 1); break;   /* catalog_rest.c */
		case 1003:
			if (nprops == 64) {
				fprintf(stderr, "floe: too many --fileio-property options\n");
				rc = 2;
			} else
				props[nprops++] = optarg;
			break;
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
	state_dir = split_catalog(warehouse, &catalog_arg);
	EngineConfig config = {.warehouse = warehouse, .catalog_name = NULL, .catalog_uri = catalog_arg,
			       .state_dir = state_dir, .fileio_props = props, .nfileio_props = nprops};
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

/* The program runs on a thread with STACK_SESSION_SIZE of stack (stack.h
 * invariant 3): the process's own main stack is ulimit -s, 8 MB. */
typedef struct MainArgs {
	int argc;
	char **argv;
	int rc;
} MainArgs;

static void *
main_thread(void *p)
{
	MainArgs *m = p;

	m->rc = floe_main(m->argc, m->argv);
	return NULL;
}

int
main(int argc, char **argv)
{
	MainArgs m = { argc, argv, 1 };

	if (stack_run_session(main_thread, &m) != 0)
		return floe_main(argc, argv);
	return m.rc;
}
