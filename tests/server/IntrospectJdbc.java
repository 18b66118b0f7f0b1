// IntrospectJdbc.java — pgjdbc's DatabaseMetaData against floe serve and
// PostgreSQL 15: the same tables are created in schema "intro", then
// getSchemas, getTables, getColumns, getPrimaryKeys and getIndexInfo
// (primary keys of one and two columns, in key order: _pg_expandarray(indkey)
// as a record and (...).n, indoption[n - 1]) and ResultSetMetaData are
// printed one line per row; tests/suites/introspect.sh compares the two
// outputs (they must be identical).
//
// usage: java -cp postgresql.jar IntrospectJdbc.java URL USER
import java.sql.*;
import java.util.*;

public class IntrospectJdbc {
	static void line(StringBuilder sb, Object... v) {
		for (int i = 0; i < v.length; i++) {
			if (i > 0)
				sb.append('|');
			sb.append(v[i]);
		}
		sb.append('\n');
	}

	public static void main(String[] args) throws Exception {
		Properties p = new Properties();
		p.setProperty("user", args[1]);
		StringBuilder out = new StringBuilder();
		try (Connection c = DriverManager.getConnection(args[0], p)) {
			try (Statement st = c.createStatement()) {
				st.execute("DROP SCHEMA IF EXISTS intro CASCADE");
				st.execute("CREATE SCHEMA intro");
				st.execute("CREATE TABLE intro.people (id bigint NOT NULL, name varchar(40), code char(2), bio text, "
					+ "age integer, score numeric(8,3), ratio double precision, r4 real, s smallint, born date, "
					+ "seen timestamp, seen_tz timestamptz, t time, ok boolean, raw bytea, u uuid)");
				st.execute("CREATE TABLE intro.tags (tag text NOT NULL, n integer)");
				st.execute("CREATE TABLE intro.keyed (a integer, b integer, c text, PRIMARY KEY (b, a))");
				st.execute("CREATE TABLE intro.single (id bigint PRIMARY KEY, v text)");
			}
			DatabaseMetaData md = c.getMetaData();
			line(out, "product", md.getDatabaseProductName(), md.getDatabaseMajorVersion());
			try (ResultSet rs = md.getSchemas(null, "intro")) {
				while (rs.next())
					line(out, "schema", rs.getString("TABLE_SCHEM"));
			}
			try (ResultSet rs = md.getTables(null, "intro", "%", new String[] { "TABLE" })) {
				while (rs.next())
					line(out, "table", rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"),
					     rs.getString("TABLE_TYPE"), rs.getString("REMARKS"));
			}
			try (ResultSet rs = md.getColumns(null, "intro", "%", "%")) {
				while (rs.next())
					line(out, "column", rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME"),
					     rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"), rs.getInt("COLUMN_SIZE"),
					     rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE"), rs.getString("IS_NULLABLE"),
					     rs.getInt("ORDINAL_POSITION"), rs.getString("IS_AUTOINCREMENT"));
			}
			for (String t : new String[] { "keyed", "single", "tags" }) {
				try (ResultSet rs = md.getPrimaryKeys(null, "intro", t)) {
					while (rs.next())
						line(out, "pk", rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"),
						     rs.getString("COLUMN_NAME"), rs.getInt("KEY_SEQ"), rs.getString("PK_NAME"));
				}
				try (ResultSet rs = md.getIndexInfo(null, "intro", t, false, false)) {
					while (rs.next())
						line(out, "index", rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"),
						     rs.getBoolean("NON_UNIQUE"), rs.getString("INDEX_NAME"), rs.getShort("TYPE"),
						     rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"),
						     rs.getString("ASC_OR_DESC"), rs.getString("FILTER_CONDITION"));
				}
			}
			try (Statement st = c.createStatement();
			     ResultSet rs = st.executeQuery("SELECT * FROM intro.people")) {
				ResultSetMetaData m = rs.getMetaData();
				for (int i = 1; i <= m.getColumnCount(); i++)
					line(out, "rsmd", m.getColumnName(i), m.getColumnType(i), m.getColumnTypeName(i),
					     m.getPrecision(i), m.getScale(i), m.getColumnClassName(i));
			}
			try (Statement st = c.createStatement()) {
				st.execute("DROP SCHEMA intro CASCADE");
			}
		}
		System.out.print(out);
	}
}
