/*
 * JdbcClient.java — the PostgreSQL JDBC driver (Debian libpostgresql-jdbc-java)
 * against a server: connection setup (the driver checks ParameterStatus),
 * server-side prepared statements (prepareThreshold=1: named statements and
 * binary transfer), parameters of every common Java type, result getters,
 * batches, and SQLSTATEs.  The expectations are Java's values; this program
 * passes against PostgreSQL 15 too.
 *
 * Run: java -cp /usr/share/java/postgresql.jar tests/clients/JdbcClient.java URL USER [PASSWORD [--password-check]]
 * With --password-check, a login with a wrong password must fail with 28P01.
 * Prints "ok NAME" / "not ok NAME: why"; exit status 1 if anything failed.
 */
import java.math.BigDecimal;
import java.sql.*;
import java.util.Arrays;
import java.util.Properties;
import java.util.UUID;

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

	public static void main(String[] args) throws Exception {
		Properties p = new Properties();
		p.setProperty("user", args[1]);
		p.setProperty("prepareThreshold", "1");
		p.setProperty("sslmode", "disable");
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
