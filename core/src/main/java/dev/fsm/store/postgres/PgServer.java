package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

/** What fsm asks of a server when it opens a store there: fit for fsm, and its clock. */
final class PgServer {

  private static final int MIN_SERVER = 130000;

  private PgServer() {}

  /** Refuses a server fsm cannot use: too old, or not keeping text as UTF-8. */
  static void fits(Connection c, PgUrl url) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "SELECT current_setting('server_version_num')::int, current_setting('server_encoding')")) {
      r.next();
      if (r.getInt(1) < MIN_SERVER) {
        throw new FsmException("PostgreSQL at " + url.where() + " is version "
            + r.getInt(1) / 10000 + "; fsm needs 13 or newer");
      }
      if (!r.getString(2).equalsIgnoreCase("UTF8")) {
        throw new FsmException("database `" + url.database() + "` at " + url.where()
            + " keeps text as " + r.getString(2) + "; fsm needs a UTF8 database (createdb -E"
            + " UTF8)");
      }
    }
  }

  /** How far the server's clock is ahead of this host's, measured around one query. */
  static Duration clockOffset(Connection c) throws SQLException {
    long before = System.currentTimeMillis() * 1000;
    Instant server;
    try (PreparedStatement s = c.prepareStatement("SELECT clock_timestamp()");
        ResultSet r = s.executeQuery()) {
      r.next();
      server = PgRows.time(r, 1);
    }
    long after = System.currentTimeMillis() * 1000;
    long local = (before + after) / 2;
    long serverMicros = server.getEpochSecond() * 1_000_000 + server.getNano() / 1000;
    return Duration.ofNanos((serverMicros - local) * 1000);
  }
}
