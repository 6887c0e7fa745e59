package dev.fsm.store.postgres;

import dev.fsm.store.AnnouncedBreaker;
import dev.fsm.store.BreakerNews;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * Each machine's latest breaker news, kept in a row (schema version 5) besides being told to the
 * listening runners, so that a command with no runner of its own shows what the runners hold.
 * On an older schema, which only a process that may not migrate it sees, nothing is kept.
 */
final class PgBreakers {

  /** The schema version that has the table. */
  static final int SINCE = 5;

  private final String table;
  private final boolean kept;

  PgBreakers(String schema, int version) {
    this.table = PgSchema.quoted(schema) + ".breaker";
    this.kept = version >= SINCE;
  }

  /** Keeps {@code news} as the machine's latest. */
  void write(Connection c, BreakerNews news) throws SQLException {
    if (!kept) {
      return;
    }
    try (PreparedStatement s = c.prepareStatement("INSERT INTO " + table + " (machine, open,"
        + " until, cooldown_ms, error_rate, attempts, announced) VALUES (?, ?, ?, ?, ?, ?, now())"
        + " ON CONFLICT (machine) DO UPDATE SET open = EXCLUDED.open, until = EXCLUDED.until,"
        + " cooldown_ms = EXCLUDED.cooldown_ms, error_rate = EXCLUDED.error_rate,"
        + " attempts = EXCLUDED.attempts, announced = EXCLUDED.announced")) {
      s.setString(1, news.machine());
      s.setBoolean(2, news.open());
      PgRows.setTime(s, 3, news.until());
      s.setObject(4, news.cooldown() == null ? null : news.cooldown().toMillis());
      s.setDouble(5, news.errorRate());
      s.setInt(6, news.attempts());
      s.executeUpdate();
    }
  }

  /** The machine's latest news, if any runner announced one, and when. */
  Optional<AnnouncedBreaker> latest(Connection c, String machine) throws SQLException {
    if (!kept) {
      return Optional.empty();
    }
    try (PreparedStatement s = c.prepareStatement("SELECT open, until, cooldown_ms, error_rate,"
        + " attempts, announced FROM " + table + " WHERE machine = ?")) {
      s.setString(1, machine);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        long cooldown = r.getLong(3);
        boolean noCooldown = r.wasNull();
        return Optional.of(new AnnouncedBreaker(new BreakerNews(machine, r.getBoolean(1),
            PgRows.time(r, 2), noCooldown ? null : Duration.ofMillis(cooldown), r.getDouble(4),
            r.getInt(5)), PgRows.time(r, 6)));
      }
    }
  }
}
