package dev.fsm.store.postgres;

import dev.fsm.store.ServerActivity;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The server's commit count for the store's database and its write-ahead log position, for
 * {@code fsm bench --runners}: commits and log bytes per transition are what a queue on
 * PostgreSQL costs the server.
 */
final class PgActivity {

  private PgActivity() {}

  /** One reading, on a connection of its own (its own commit is one of those counted). */
  static ServerActivity read(PgUrl url) {
    try (Connection c = PgLink.connect(url); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT xact_commit,"
            + " (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint,"
            + " current_setting('server_version_num')::int"
            + " FROM pg_stat_database WHERE datname = current_database()")) {
      if (!r.next()) {
        throw new SQLException("pg_stat_database has no row for the current database");
      }
      long commits = r.getLong(1);
      long walBytes = r.getLong(2);
      // pg_stat_wal came with PostgreSQL 14.
      return new ServerActivity(commits, walBytes, r.getInt(3) >= 140_000 ? walSyncs(c) : -1);
    } catch (SQLException e) {
      throw PgErrors.during(url, "read the server's commit and log counters", e);
    }
  }

  private static long walSyncs(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
      return r.next() ? r.getLong(1) : -1;
    }
  }
}
