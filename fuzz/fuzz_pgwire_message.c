/*
 * fuzz_pgwire_message.c — fuzz target for PostgreSQL protocol messages
 * after startup (server/pgwire.c: simple query, Parse/Bind/Describe/
 * Execute/Close/Sync/Flush, binary parameter decoding, error recovery;
 * server/pgwire_msg.c: framing and bounded readers), without sockets.
 *
 * Property checked: after a valid StartupMessage, any bytes fed in chunks
 * whose sizes come from the input never crash, leak, hang or allocate
 * without bound; every message is either processed, answered with an
 * ErrorResponse, or closes the connection (FATAL); the output is whole
 * messages and every ErrorResponse/NoticeResponse carries S, M and a valid
 * SQLSTATE (stub_write aborts otherwise: corpus bind_binary_text_nul is
 * the NUL-in-a-binary-text-parameter Bind that once sent an unfilled,
 * stale floe_error).
 *
 * INTERFACE ROUTINES
 *   LLVMFuzzerTestOneInput(data, size)
 */
#include "pgwire_fuzz_stub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t startup[] = {
		0, 0, 0, 24, 0, 3, 0, 0, 'u', 's', 'e', 'r', 0, 'f', 'u', 'z', 'z', 0,
		'd', 'b', 0, 'x', 0, 0,
	};
	PgConn *c = pgwire_conn_new(&stub_backend, NULL, 1, 2);
	size_t off = 0, chunk;
	int closed;

	closed = pgwire_feed(c, startup, sizeof startup);
	if (closed || pgwire_state(c) != PG_READY)
		abort();
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
	pgwire_conn_free(c);
	return 0;
}
