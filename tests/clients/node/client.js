'use strict';
/*
 * client.js -- node-postgres (npm pg 8.13, pg-copy-streams 6) against a
 * server: simple queries (several statements in one), extended queries with
 * parameters of every type floe has (text; Buffers go binary), named
 * prepared statements, RowDescription OIDs/sizes/typmods, errors
 * with SQLSTATEs and positions, COPY FROM STDIN / TO STDOUT, cancel
 * (pg's Client.cancel: a CancelRequest), and with --password-check a wrong
 * password refused with 28P01.  The expectations are node-postgres's own
 * parsing of PostgreSQL values, and this script passes against
 * PostgreSQL 15.
 *
 * Usage: node client.js HOST PORT USER DATABASE [PASSWORD [--password-check]]
 * Prints "ok NAME" / "not ok NAME: why"; exit status 1 if anything failed.
 */
const pg = require('pg');
const { from: copyFrom, to: copyTo } = require('pg-copy-streams');

const [host, port, user, database, password, flag] = process.argv.slice(2);
const cfg = { host, port: Number(port), user, database, password: password || undefined,
	connectionTimeoutMillis: 10000 };
let failures = 0;
function check(cond, name, why) {
	if (cond) {
		console.log('ok ' + name);
	} else {
		failures++;
		console.log('not ok ' + name + ': ' + (why === undefined ? '' : JSON.stringify(why)));
	}
}
async function expectError(c, q, values, code, name) {
	try {
		await c.query(q, values);
		check(false, name, 'no error');
		return null;
	} catch (e) {
		check(e.code === code, name, e.code + ' ' + e.message);
		return e;
	}
}
function streamToString(s) {
	return new Promise((resolve, reject) => {
		const parts = [];
		s.on('data', (d) => parts.push(d));
		s.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
		s.on('error', reject);
	});
}
function writeAll(s, text) {
	return new Promise((resolve, reject) => {
		s.on('finish', resolve);
		s.on('error', reject);
		s.end(text);
	});
}

async function main() {
	// dates and timestamps as strings: no local-time-zone conversion in the comparison
	const types = {
		getTypeParser(oid, format) {
			if (format !== 'binary' && [1082, 1083, 1114, 1184].includes(oid))
				return (v) => v;
			return pg.types.getTypeParser(oid, format);
		},
	};
	const c = new pg.Client({ ...cfg, types });
	await c.connect();
	await c.query("SET TimeZone = 'UTC'");

	// ---- simple query, several statements in one message
	const multi = await c.query('SELECT 1 AS a; SELECT 2 AS b, 3 AS c');
	check(Array.isArray(multi) && multi.length === 2 && multi[0].rows[0].a === 1 && multi[1].rows[0].c === 3,
		'simple_multi_statement', multi.map ? multi.map((r) => r.rows) : multi);

	await c.query('DROP TABLE IF EXISTS nodet');
	const created = await c.query('CREATE TABLE nodet (i smallint, j int, k bigint, f real, g double precision, ' +
		'n numeric(12,3), s text, v varchar(20), by bytea, d date, t time, ts timestamp, ' +
		'tz timestamptz, u uuid, ok boolean)');
	check(created.command === 'CREATE', 'create_tag', created.command);

	// ---- extended query: every type as a parameter (text; the Buffer in binary)
	const row = [7, -123456, '9000000000', 1.5, 0.1, '-1234.567', "it's ünïcode", 'short',
		Buffer.from([0, 1, 255]), '2024-02-29', '13:14:15.5', '2001-02-03 04:05:06.789',
		'2001-02-03 04:05:06+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', true];
	const ins = await c.query('INSERT INTO nodet VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)', row);
	check(ins.command === 'INSERT' && ins.rowCount === 1, 'insert_params', [ins.command, ins.rowCount]);
	await c.query('INSERT INTO nodet VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
		new Array(15).fill(null));

	const got = (await c.query('SELECT * FROM nodet WHERE i = $1', [7])).rows[0] || {};
	const want = { i: 7, j: -123456, k: '9000000000', f: 1.5, g: 0.1, n: '-1234.567', s: "it's ünïcode",
		v: 'short', d: '2024-02-29', t: '13:14:15.5', ts: '2001-02-03 04:05:06.789',
		tz: '2001-02-03 04:05:06+00', u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ok: true };
	for (const [k, v] of Object.entries(want))
		check(got[k] === v, 'text_result_' + k, [got[k], v]);
	check(Buffer.isBuffer(got.by) && got.by.equals(Buffer.from([0, 1, 255])), 'text_result_bytea_from_binary_param', got.by);
	const nulls = (await c.query('SELECT * FROM nodet WHERE i IS NULL')).rows;
	check(nulls.length === 1 && Object.values(nulls[0]).every((x) => x === null), 'nulls_roundtrip', nulls);

	// ---- RowDescription: type OIDs node-postgres picks its parsers by.
	// (Binary results: node-postgres 8 cannot decode them, its protocol
	// parser has no binary mode; its binary side is Buffer parameters.)
	const desc = await c.query({ text: 'SELECT i, j, k, f, g, n, s, v, ok, by, d, t, ts, tz, u FROM nodet WHERE j = $1', values: [-123456] });
	check(desc.fields.map((f) => f.dataTypeID).join(',') === '21,23,20,700,701,1700,25,1043,16,17,1082,1083,1114,1184,2950',
		'row_description_oids', desc.fields.map((f) => f.dataTypeID));
	check(desc.fields[1].dataTypeSize === 4 && desc.fields[2].dataTypeSize === 8 && desc.fields[7].dataTypeModifier === 24 &&
		desc.fields[5].dataTypeModifier === ((12 << 16) | 3) + 4, 'row_description_sizes_typmods',
		desc.fields.map((f) => [f.dataTypeSize, f.dataTypeModifier]));

	// ---- parameters typed by their context
	const ctx = await c.query('SELECT $1::int + 1 AS a, $2 || \'!\' AS b, k > $3 AS c FROM nodet WHERE i = 7', ['41', 'hi', '100']);
	check(ctx.rows[0].a === 42 && ctx.rows[0].b === 'hi!' && ctx.rows[0].c === true, 'params_typed_by_context', ctx.rows[0]);

	// ---- named prepared statements, run twice
	const q = { name: 'node_by_i', text: 'SELECT s FROM nodet WHERE i = $1' };
	const p1 = await c.query({ ...q, values: [7] });
	const p2 = await c.query({ ...q, values: [8] });
	check(p1.rows.length === 1 && p1.rows[0].s === "it's ünïcode" && p2.rows.length === 0, 'named_prepared', [p1.rows, p2.rows]);

	// ---- errors with SQLSTATEs
	await expectError(c, 'SELECT 1/0', [], '22012', 'error_division_by_zero');
	await expectError(c, 'SELECT * FROM no_such_table_node', [], '42P01', 'error_undefined_table');
	const se = await expectError(c, 'SELECT * FROMM nodet', [], '42601', 'error_syntax');
	check(se && se.position === '10', 'error_position', se && se.position);
	await expectError(c, 'SELECT $1::int', ['abc'], '22P02', 'error_bad_param');
	check((await c.query('SELECT 1 AS x')).rows[0].x === 1, 'usable_after_errors');

	// ---- COPY FROM STDIN / TO STDOUT
	await c.query('DROP TABLE IF EXISTS nodecopy');
	await c.query('CREATE TABLE nodecopy (a int, b text, c date)');
	await writeAll(c.query(copyFrom('COPY nodecopy FROM STDIN')), '1\thello\t2024-01-02\n2\t\\N\t1999-12-31\n3\ttab\\there\t\\N\n');
	const csv = await streamToString(c.query(copyTo('COPY (SELECT * FROM nodecopy ORDER BY a) TO STDOUT WITH (FORMAT csv, HEADER)')));
	check(csv === 'a,b,c\n1,hello,2024-01-02\n2,,1999-12-31\n3,tab\there,\n', 'copy_in_then_out_csv', csv);
	const txt = await streamToString(c.query(copyTo('COPY nodecopy TO STDOUT')));
	check(txt.split('\n').sort().join('\n') === '\n1\thello\t2024-01-02\n2\t\\N\t1999-12-31\n3\ttab\\there\t\\N',
		'copy_out_text', txt);
	try {
		await writeAll(c.query(copyFrom('COPY nodecopy FROM STDIN')), '4\tok\t2001-01-01\n5\tbad\tnot a date\n');
		check(false, 'copy_bad_row', 'no error');
	} catch (e) {
		check(e.code === '22007' && /line 2/.test(e.where || e.detail || ''), 'copy_bad_row', [e.code, e.where, e.detail, e.message]);
	}
	const cnt = await c.query('SELECT count(*)::int AS n FROM nodecopy');
	check(cnt.rows[0].n === 3, 'copy_bad_row_nothing_committed', cnt.rows[0]);

	// ---- cancel: a CancelRequest from another connection stops the query
	// (repeated until the query ends: on a loaded machine the first
	// CancelRequest may arrive before the query started)
	const long = c.query('SELECT count(*) FROM generate_series(1, 2000000000)');
	const query = c.activeQuery;
	const timer = setInterval(() => new pg.Client(cfg).cancel(c, query), 500);
	try {
		await long;
		check(false, 'cancel_57014', 'finished');
	} catch (e) {
		check(e.code === '57014', 'cancel_57014', e.code + ' ' + e.message);
	}
	clearInterval(timer);
	await new Promise((r) => setTimeout(r, 300));   // a cancel still in flight lands on nothing
	check((await c.query('SELECT 2 AS x')).rows[0].x === 2, 'usable_after_cancel');

	await c.query('DROP TABLE nodet');
	await c.query('DROP TABLE nodecopy');
	await c.end();

	// ---- a wrong password (SCRAM-SHA-256 servers)
	if (flag === '--password-check') {
		const bad = new pg.Client({ ...cfg, password: password + 'x' });
		try {
			await bad.connect();
			check(false, 'wrong_password_refused', 'connected');
			await bad.end();
		} catch (e) {
			check(e.code === '28P01', 'wrong_password_refused', e.code + ' ' + e.message);
		}
	}
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	console.log('not ok fatal: ' + (e.stack || e));
	process.exit(1);
});
