/*
 * JdbcClient.java — the PostgreSQL JDBC driver (Debian libpostgresql-jdbc-java)
 * against a server: connection setup (the driver checks ParameterStatus),
 * server-side prepared statements (prepareThreshold=1: named statements and
 * binary transfer), parameters of every common Java type, result getters,
 * batches, and SQLSTATEs; parameters of every floe type (smallint .. uuid,
 * interval as PGInterval, timestamptz as OffsetDateTime) inserted and read
 * back over a binary-transfer connection and a text-only one
 * (prepareThreshold=0, binaryTransfer=false), the result formats checked
 * column by column (PGResultSetMetaData.getFormat; pgjdbc itself picks
 * which parameters go in binary (numbers, bytea, uuid), sends dates and
 * timestamps as untyped text, and reads interval only as text); COPY
 * FROM STDIN / TO STDOUT
 * through CopyManager in text and CSV (a bad row: 22P02 naming its line,
 * nothing committed); Statement.cancel() from another thread and
 * setQueryTimeout (57014).  The expectations are Java's values; this
 * program passes against PostgreSQL 15 too.
 *
 * Run: java -cp /usr/share/java/postgresql.jar tests/clients/JdbcClient.java URL USER [PASSWORD [--password-check]]
 * With --password-check, a login with a wrong password must fail with 28P01.
 * Prints "ok NAME" / "not ok NAME: why"; exit status 1 if anything failed.
 */
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.sql.*;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Properties;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PGInterval;
import org.postgresql.util.PSQLException;

public class JdbcClient {
	static int failures = 0;

	static void check(boolean ok, String name, Object why) {
		if (ok) {
			System.out.println("ok " + name);
		} else {
			failures++;
			System.out.println("not ok " + name + ": " + why);
		}
	}

	static void expectState(Connection c, String sql, String state, String name) {
		try (Statement st = c.createStatement()) {
			st.execute(sql);
			check(false, name, "no error");
		} catch (SQLException e) {
			check(state.equals(e.getSQLState()), name, e.getSQLState() + " " + e.getMessage());
		}
	}

	/* Every floe type as a parameter and a result, in the transfer mode of c. */
	static void allTypes(Connection c, String mode) throws SQLException {
		String tab = "jtypes_" + mode;
		try (Statement st = c.createStatement()) {
			st.execute("CREATE TABLE " + tab + " (k int, sm smallint, b bigint, r real, f double precision, "
				   + "n numeric(12,3), ok boolean, t text, v varchar(20), by bytea, d date, tm time, "
				   + "ts timestamp, tz timestamptz, u uuid)");
		}
		Date day = Date.valueOf("1999-12-31");
		Time tm = Time.valueOf("23:59:58");
		Timestamp ts = Timestamp.valueOf("2024-02-29 12:34:56.123456");
		OffsetDateTime tz = OffsetDateTime.of(2020, 6, 15, 10, 20, 30, 500000000, ZoneOffset.ofHours(2));
		PGInterval iv = new PGInterval(1, 2, 3, 4, 5, 6.5);
		UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
		byte[] by = new byte[] { 0, 1, 2, (byte) 0x80, (byte) 0xff, '\\' };
		try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + tab
				+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
			for (int k = 0; k < 2; k++) {  /* twice: the named statement reused */
				ps.setInt(1, k);
				ps.setShort(2, (short) (-32768 + k));
				ps.setLong(3, Long.MIN_VALUE + k);
				ps.setFloat(4, 1.5f + k);
				ps.setDouble(5, -2.25e300);
				ps.setBigDecimal(6, new BigDecimal("-123456789.125"));
				ps.setBoolean(7, k == 0);
				ps.setString(8, "tab\there 'q' \"dq\" ä€");
				ps.setString(9, "varchar " + k);
				ps.setBytes(10, by);
				ps.setDate(11, day);
				ps.setTime(12, tm);
				ps.setTimestamp(13, ts);
				ps.setObject(14, tz);
				ps.setObject(15, u);
				check(ps.executeUpdate() == 1, mode + "_insert_" + k, "update count");
			}
		}
		try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + tab + " WHERE k = ? AND sm = ? "
				+ "AND b = ? AND ok = ? AND t = ? AND by = ? AND d = ? AND tz = ? AND u = ? AND ts + ? > ts")) {
			for (int rep = 0; rep < 2; rep++) {
				ps.setInt(1, 1);
				ps.setShort(2, (short) -32767);
				ps.setLong(3, Long.MIN_VALUE + 1);
				ps.setBoolean(4, false);
				ps.setString(5, "tab\there 'q' \"dq\" ä€");
				ps.setBytes(6, by);
				ps.setDate(7, day);
				ps.setObject(8, tz);
				ps.setObject(9, u);
				ps.setObject(10, iv);
				try (ResultSet rs = ps.executeQuery()) {
					String n = mode + "_" + rep + "_";
					check(rs.next(), n + "where_params", "no row");
					check(rs.getInt(1) == 1, n + "int", rs.getInt(1));
					check(rs.getShort(2) == -32767, n + "smallint", rs.getShort(2));
					check(rs.getLong(3) == Long.MIN_VALUE + 1, n + "bigint", rs.getLong(3));
					check(rs.getFloat(4) == 2.5f, n + "real", rs.getFloat(4));
					check(rs.getDouble(5) == -2.25e300, n + "double", rs.getDouble(5));
					check(new BigDecimal("-123456789.125").equals(rs.getBigDecimal(6)), n + "numeric", rs.getBigDecimal(6));
					check(!rs.getBoolean(7) && !rs.wasNull(), n + "boolean", rs.getBoolean(7));
					check("tab\there 'q' \"dq\" ä€".equals(rs.getString(8)), n + "text", rs.getString(8));
					check("varchar 1".equals(rs.getString(9)), n + "varchar", rs.getString(9));
					check(Arrays.equals(by, rs.getBytes(10)), n + "bytea", Arrays.toString(rs.getBytes(10)));
					check(day.equals(rs.getDate(11)), n + "date", rs.getDate(11));
					check(tm.equals(rs.getTime(12)), n + "time", rs.getTime(12));
					check(ts.equals(rs.getTimestamp(13)), n + "timestamp", rs.getTimestamp(13));
					OffsetDateTime gtz = rs.getObject(14, OffsetDateTime.class);
					check(gtz != null && tz.isEqual(gtz), n + "timestamptz", gtz);
					check(u.equals(rs.getObject(15)), n + "uuid", rs.getObject(15));
					ResultSetMetaData m = rs.getMetaData();
					check("int2".equals(m.getColumnTypeName(2)) && "float4".equals(m.getColumnTypeName(4))
					      && "timestamptz".equals(m.getColumnTypeName(14)) && "uuid".equals(m.getColumnTypeName(15)),
					      n + "type_names", m.getColumnTypeName(2) + " " + m.getColumnTypeName(14));
					/* the transfer mode really used: 1 binary, 0 text, per column */
					PGResultSetMetaData pm = m.unwrap(PGResultSetMetaData.class);
					StringBuilder fmts = new StringBuilder();
					for (int i = 1; i <= m.getColumnCount(); i++)
						fmts.append(pm.getFormat(i));
					/* (pgjdbc asks for binary once it has seen the statement's row type) */
					check(fmts.toString().equals(mode.equals("binary") && rep > 0 ? "111111111111111" : "000000000000000"),
					      n + "result_formats", fmts);
					check(!rs.next(), n + "one_row", "more rows");
				}
			}
		}
		try (PreparedStatement ps = c.prepareStatement("SELECT ?::real, ?::numeric, ?::time, ?::timestamp, ?::varchar, ?::interval")) {
			ps.setFloat(1, -0.5f);
			ps.setBigDecimal(2, new BigDecimal("0.000001"));
			ps.setTime(3, tm);
			ps.setTimestamp(4, ts);
			ps.setString(5, "v");
			ps.setObject(6, iv);
			ps.executeQuery().close();      /* the second run gets binary results */
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				PGResultSetMetaData pm = rs.getMetaData().unwrap(PGResultSetMetaData.class);
				StringBuilder fmts = new StringBuilder();
				for (int i = 1; i <= 6; i++)
					fmts.append(pm.getFormat(i));
				check(fmts.toString().equals(mode.equals("binary") ? "111110" : "000000"), mode + "_cast_formats", fmts);
				check(rs.getFloat(1) == -0.5f && new BigDecimal("0.000001").equals(rs.getBigDecimal(2))
				      && tm.equals(rs.getTime(3)) && ts.equals(rs.getTimestamp(4)) && "v".equals(rs.getString(5))
				      && iv.equals(rs.getObject(6)) && "interval".equals(rs.getMetaData().getColumnTypeName(6)),
				      mode + "_cast_params", rs.getBigDecimal(2) + " " + rs.getTime(3) + " " + rs.getTimestamp(4) + " " + rs.getObject(6));
			}
		}
		try (Statement st = c.createStatement()) {
			st.execute("DROP TABLE " + tab);
		}
	}

	/* COPY FROM STDIN / TO STDOUT through pgjdbc's CopyManager. */
	static void copy(Connection c) throws Exception {
		CopyManager cm = c.unwrap(PGConnection.class).getCopyAPI();
		try (Statement st = c.createStatement()) {
			st.execute("CREATE TABLE jcopy (a int, b text, c date)");
		}
		long n = cm.copyIn("COPY jcopy FROM STDIN", new StringReader("1\thello\t2024-01-02\n2\t\\N\t1999-12-31\n"));
		check(n == 2, "copy_in_text", n);
		n = cm.copyIn("COPY jcopy FROM STDIN WITH (FORMAT csv, HEADER)",
			      new StringReader("a,b,c\n3,\"comma, \"\"q\"\"\",\n"));
		check(n == 1, "copy_in_csv", n);
		StringWriter w = new StringWriter();
		n = cm.copyOut("COPY (SELECT * FROM jcopy ORDER BY a) TO STDOUT WITH (FORMAT csv)", w);
		check(n == 3 && w.toString().equals("1,hello,2024-01-02\n2,,1999-12-31\n3,\"comma, \"\"q\"\"\",\n"),
		      "copy_out_csv", n + " " + w);
		w = new StringWriter();
		n = cm.copyOut("COPY (SELECT * FROM jcopy ORDER BY a) TO STDOUT", w);
		check(n == 3 && w.toString().equals("1\thello\t2024-01-02\n2\t\\N\t1999-12-31\n3\tcomma, \"q\"\t\\N\n"),
		      "copy_out_text", n + " " + w);
		/* round trip: what COPY TO wrote, COPY FROM reads back equal */
		try (Statement st = c.createStatement()) {
			st.execute("CREATE TABLE jcopy2 (a int, b text, c date)");
		}
		n = cm.copyIn("COPY jcopy2 FROM STDIN", new StringReader(w.toString()));
		StringWriter w2 = new StringWriter();
		cm.copyOut("COPY (SELECT * FROM jcopy2 ORDER BY a) TO STDOUT", w2);
		check(n == 3 && w2.toString().equals(w.toString()), "copy_round_trip", w2);
		try {
			cm.copyIn("COPY jcopy FROM STDIN", new StringReader("4\tok\t2001-01-01\nfive\tbad\t2001-01-01\n"));
			check(false, "copy_bad_row", "no error");
		} catch (PSQLException e) {
			/* the line and value in CONTEXT (the Where field), no DETAIL */
			org.postgresql.util.ServerErrorMessage m = e.getServerErrorMessage();
			String where = m == null ? "" : m.getWhere();
			check("22P02".equals(e.getSQLState()) && "COPY jcopy, line 2, column a: \"five\"".equals(where)
			      && m.getDetail() == null, "copy_bad_row", e.getSQLState() + " " + where + " / " + (m == null ? "" : m.getDetail()));
		}
		try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM jcopy")) {
			rs.next();
			check(rs.getLong(1) == 3, "copy_bad_row_nothing_committed", rs.getLong(1));
			st.execute("DROP TABLE jcopy");
			st.execute("DROP TABLE jcopy2");
		}
	}

	/* setFetchSize in a transaction: pgjdbc runs the portal with a row limit
	 * (Execute n, PortalSuspended, Execute again); all rows, in order. */
	static void fetchSize(Connection c) throws Exception {
		c.setAutoCommit(false);
		try (PreparedStatement ps = c.prepareStatement("SELECT g FROM generate_series(1, ?) g ORDER BY g")) {
			ps.setFetchSize(3);
			ps.setInt(1, 10);
			StringBuilder got = new StringBuilder();
			try (ResultSet rs = ps.executeQuery()) {
				while (rs.next())
					got.append(rs.getInt(1)).append(' ');
			}
			check(got.toString().equals("1 2 3 4 5 6 7 8 9 10 "), "fetch_size_portal_suspended", got);
		}
		c.commit();
		c.setAutoCommit(true);
	}

	/* Statement.cancel() from another thread, then setQueryTimeout: 57014. */
	static void cancel(Connection c) throws Exception {
		final String longq = "SELECT count(*) FROM generate_series(1, 2000000000)";
		try (Statement st = c.createStatement()) {
			/* repeated until the query ends: on a loaded machine the first
			 * CancelRequest may arrive before the query started */
			Thread th = new Thread(() -> {
				try {
					while (true) {
						Thread.sleep(500);
						st.cancel();
					}
				} catch (InterruptedException | SQLException e) {
					/* done */
				}
			});
			th.start();
			long t0 = System.nanoTime();
			try {
				st.executeQuery(longq);
				check(false, "cancel_57014", "finished");
			} catch (SQLException e) {
				double secs = (System.nanoTime() - t0) / 1e9;
				check("57014".equals(e.getSQLState()) && secs < 30, "cancel_57014", e.getSQLState() + " " + secs + "s");
			}
			th.interrupt();
			th.join();
			try (ResultSet rs = st.executeQuery("SELECT 2")) {
				check(rs.next() && rs.getInt(1) == 2, "usable_after_cancel", "");
			}
		}
		try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM generate_series(1, ?)")) {
			ps.setQueryTimeout(1);
			ps.setLong(1, 2000000000L);
			long t0 = System.nanoTime();
			try {
				ps.executeQuery();
				check(false, "query_timeout_57014", "finished");
			} catch (SQLException e) {
				double secs = (System.nanoTime() - t0) / 1e9;
				check("57014".equals(e.getSQLState()) && secs < 30, "query_timeout_57014", e.getSQLState() + " " + secs + "s");
			}
		}
		try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 3")) {
			check(rs.next() && rs.getInt(1) == 3, "usable_after_timeout", "");
		}
	}

	public static void main(String[] args) throws Exception {
		Properties p = new Properties();
		p.setProperty("user", args[1]);
		p.setProperty("prepareThreshold", "1");
		p.setProperty("sslmode", "disable");
		/* binary results for every type the driver can decode in binary
		 * (not interval: pgjdbc 42.5 reads a binary interval as null, on
		 * PostgreSQL 15 too) */
		p.setProperty("binaryTransferEnable", "int2,int4,int8,float4,float8,numeric,bool,text,varchar,bytea,"
			      + "date,time,timestamp,timestamptz,uuid");
		if (args.length > 2)
			p.setProperty("password", args[2]);
		try (Connection c = DriverManager.getConnection(args[0], p)) {
			DatabaseMetaData md = c.getMetaData();
			check(md.getDatabaseMajorVersion() == 15, "server_major_version", md.getDatabaseProductVersion());
			try (Statement st = c.createStatement()) {
				st.execute("CREATE TABLE jt (i int, b bigint, s text, n numeric(10,2), d date, "
					   + "ts timestamp, f double precision, ok boolean, by bytea, u uuid)");
			}
			Date day = Date.valueOf("2024-02-29");
			Timestamp ts = Timestamp.valueOf("2001-02-03 04:05:06.789");
			UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO jt VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
				for (int k = 0; k < 3; k++) {
					ps.setInt(1, k);
					ps.setLong(2, 9000000000L + k);
					ps.setString(3, "row " + k + " ünïcode");
					ps.setBigDecimal(4, new BigDecimal("12.34").add(BigDecimal.valueOf(k)));
					ps.setDate(5, day);
					ps.setTimestamp(6, ts);
					ps.setDouble(7, 0.1 * k);
					ps.setBoolean(8, k % 2 == 0);
					ps.setBytes(9, new byte[] { 0, (byte) k, (byte) 0xff });
					ps.setObject(10, u);
					check(ps.executeUpdate() == 1, "insert_" + k, "update count");
				}
				ps.setInt(1, 99);
				for (int i = 2; i <= 10; i++)
					ps.setNull(i, Types.NULL);
				check(ps.executeUpdate() == 1, "insert_nulls", "update count");
			}
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO jt (i, s) VALUES (?, ?)")) {
				for (int k = 0; k < 4; k++) {
					ps.setInt(1, 100 + k);
					ps.setString(2, "batch" + k);
					ps.addBatch();
				}
				int[] n = ps.executeBatch();
				check(Arrays.equals(n, new int[] { 1, 1, 1, 1 }), "batch_insert", Arrays.toString(n));
			}
			try (PreparedStatement ps = c.prepareStatement("SELECT i, b, s, n, d, ts, f, ok, by, u FROM jt WHERE i = ?")) {
				for (int rep = 0; rep < 3; rep++) {     /* named statement reused */
					ps.setInt(1, 1);
					try (ResultSet rs = ps.executeQuery()) {
						check(rs.next(), "select_row_" + rep, "no row");
						check(rs.getInt(1) == 1 && rs.getLong(2) == 9000000001L, "ints_" + rep, rs.getLong(2));
						check("row 1 ünïcode".equals(rs.getString(3)), "text_" + rep, rs.getString(3));
						check(new BigDecimal("13.34").equals(rs.getBigDecimal(4)), "numeric_" + rep, rs.getBigDecimal(4));
						check(day.equals(rs.getDate(5)), "date_" + rep, rs.getDate(5));
						check(ts.equals(rs.getTimestamp(6)), "timestamp_" + rep, rs.getTimestamp(6));
						check(rs.getDouble(7) == 0.1, "float8_" + rep, rs.getDouble(7));
						check(!rs.getBoolean(8), "bool_" + rep, rs.getBoolean(8));
						check(Arrays.equals(rs.getBytes(9), new byte[] { 0, 1, (byte) 0xff }), "bytea_" + rep,
						      Arrays.toString(rs.getBytes(9)));
						check(u.equals(rs.getObject(10)), "uuid_" + rep, rs.getObject(10));
						ResultSetMetaData m = rs.getMetaData();
						check(m.getColumnCount() == 10 && "int4".equals(m.getColumnTypeName(1))
						      && "numeric".equals(m.getColumnTypeName(4)) && m.getPrecision(4) == 10
						      && m.getScale(4) == 2, "metadata_" + rep, m.getColumnTypeName(4));
						check(!rs.next(), "one_row_" + rep, "more rows");
					}
				}
				ps.setInt(1, 99);
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					rs.getLong(2);
					check(rs.wasNull() && rs.getString(3) == null && rs.getBytes(9) == null, "nulls", "not null");
				}
			}
			try (PreparedStatement ps = c.prepareStatement("SELECT count(*), sum(i) FROM jt WHERE s LIKE ?")) {
				ps.setString(1, "batch%");
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					check(rs.getLong(1) == 4 && rs.getLong(2) == 406, "like_param", rs.getLong(1));
				}
			}
			expectState(c, "SELECT 1/0", "22012", "error_22012");
			expectState(c, "SELECT * FROM jdbc_nosuch", "42P01", "error_42P01");
			try (PreparedStatement ps = c.prepareStatement("SELECT ?::int")) {
				ps.setString(1, "abc");
				ps.executeQuery();
				check(false, "error_22P02", "no error");
			} catch (SQLException e) {
				check("22P02".equals(e.getSQLState()), "error_22P02", e.getSQLState());
			}
			try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 'alive'")) {
				check(rs.next() && "alive".equals(rs.getString(1)), "alive_after_errors", "");
				st.execute("DROP TABLE jt");
			}
			allTypes(c, "binary");
			copy(c);
			fetchSize(c);
			cancel(c);
		}
		Properties text = (Properties) p.clone();
		text.setProperty("prepareThreshold", "0");
		text.setProperty("binaryTransfer", "false");
		text.remove("binaryTransferEnable");
		try (Connection c = DriverManager.getConnection(args[0], text)) {
			allTypes(c, "text");
		}
		if (args.length > 3 && args[3].equals("--password-check")) {
			Properties bad = (Properties) p.clone();
			bad.setProperty("password", args[2] + "x");
			try (Connection c = DriverManager.getConnection(args[0], bad)) {
				check(false, "wrong_password_refused", "connected");
			} catch (SQLException e) {
				check("28P01".equals(e.getSQLState()), "wrong_password_refused", e.getSQLState() + " " + e.getMessage());
			}
		}
		System.exit(failures == 0 ? 0 : 1);
	}
}
