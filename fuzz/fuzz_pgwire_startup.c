/*
 * fuzz_pgwire_startup.c — fuzz target for the start of a PostgreSQL
 * protocol connection (server/pgwire.c: startup_packet, SSLRequest,
 * GSSENCRequest, CancelRequest, protocol negotiation), without sockets.
 *
 * Property checked: any bytes, fed as the first bytes of a connection in
 * chunks whose sizes come from the input, are answered or refused cleanly:
 * no crash, leak, hang or unbounded allocation (a startup packet is framed
 * against PGWIRE_MAX_STARTUP before it is buffered whole), and the state
 * machine ends in a valid state; every ErrorResponse carries a valid
 * SQLSTATE (stub_write, pgwire_fuzz_stub.h).
 *
 * INTERFACE ROUTINES
 *   LLVMFuzzerTestOneInput(data, size)
 */
#include "pgwire_fuzz_stub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PgConn *c = pgwire_conn_new(&stub_backend, NULL, 1, 2);
	size_t off = 0, chunk;

	/* first byte: chunk size (0 = everything at once) */
	chunk = size ? data[0] : 0;
	if (size) {
		data++;
		size--;
	}
	while (off < size) {
		size_t n = chunk ? chunk : size;
		if (n > size - off)
			n = size - off;
		if (pgwire_feed(c, data + off, n))
			break;
		off += n;
	}
	if (pgwire_state(c) > PG_CLOSED)
		abort();
	pgwire_conn_free(c);
	return 0;
}
