package dev.fsm.store.postgres;

import dev.fsm.store.StoreHealth;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code fsm store check} on PostgreSQL: the schema version, the server, how many tasks and
 * history rows there are, and the two things that slow a queue table down over time (dead rows
 * vacuum has not reclaimed, and a long transaction that keeps vacuum from reclaiming them).
 */
final class PgHealth {

  /** Dead rows above this share of live ones, and above {@link #DEAD_FLOOR}, need a look. */
  static final double DEAD_SHARE = 0.2;
  static final long DEAD_FLOOR = 10_000;
  /** A transaction open longer than this holds vacuum back enough to matter. */
  static final Duration LONG_TRANSACTION = Duration.ofMinutes(5);

  private PgHealth() {}

  /** The health of the store at {@code url}, shown as {@code shown} (its password masked). */
  static StoreHealth of(PgUrl url, String shown) {
    try (Connection c = PgLink.connect(url)) {
      c.setAutoCommit(true);
      List<StoreHealth.Fact> facts = new ArrayList<>();
      List<String> problems = new ArrayList<>();
      int version = PgSchema.version(c, url.schema());
      if (version == 0) {
        throw PgSchema.missing(url);
      }
      facts.add(fact("schema", "`" + url.schema() + "` of database `" + url.database() + "` at "
          + url.host() + ":" + url.port()));
      facts.add(fact("schema version", version + " (this fsm's: " + PgSchema.NEWEST + ")"));
      if (version < PgSchema.NEWEST) {
        problems.add("schema `" + url.schema() + "` is at version " + version + "; this fsm"
            + " uses " + PgSchema.NEWEST + ": `fsm start`, `fsm run`, `fsm upgrade` or `fsm store"
            + " import` migrate it");
      } else if (PgSchema.required(c, url.schema()) > PgSchema.NEWEST) {
        problems.add("schema `" + url.schema() + "` is at version " + version + ", newer than"
            + " this fsm knows (" + PgSchema.NEWEST + "); upgrade fsm");
      }
      facts.add(fact("server",
          one(c, "SELECT 'PostgreSQL ' || current_setting('server_version')")));
      String q = PgSchema.quoted(url.schema());
      facts.add(fact("tasks", one(c, "SELECT count(*) FROM " + q + ".task")));
      facts.add(fact("history rows", one(c, "SELECT count(*) FROM " + q + ".transition")));
      dead(c, url.schema(), facts, problems);
      oldestTransaction(c, facts, problems);
      return new StoreHealth(shown, facts, problems);
    } catch (SQLException e) {
      throw PgErrors.during(url, "check the store", e);
    }
  }

  private static void dead(Connection c, String schema, List<StoreHealth.Fact> facts,
      List<String> problems) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT relname, n_live_tup, n_dead_tup,"
        + " greatest(last_vacuum, last_autovacuum) FROM pg_stat_user_tables"
        + " WHERE schemaname = ? AND relname IN ('task', 'transition') ORDER BY relname")) {
      s.setString(1, schema);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String table = r.getString(1);
          long live = r.getLong(2);
          long dead = r.getLong(3);
          String vacuumed = r.getObject(4) == null ? "never vacuumed" : "vacuumed "
              + r.getObject(4, OffsetDateTime.class).toInstant();
          facts.add(fact("dead rows in " + table, String.format(Locale.ROOT,
              "%d (%d live; %s)", dead, live, vacuumed)));
          if (dead > DEAD_FLOOR && dead > DEAD_SHARE * Math.max(live, 1)) {
            problems.add("table " + table + " holds " + dead + " dead rows for " + live
                + " live ones: vacuum is falling behind; look for long transactions and the"
                + " table's autovacuum settings (docs/postgres-store.md)");
          }
        }
      }
    }
  }

  private static void oldestTransaction(Connection c, List<StoreHealth.Fact> facts,
      List<String> problems) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "SELECT pid, coalesce(application_name, ''), state,"
            + " extract(epoch FROM clock_timestamp() - xact_start)::bigint"
            + " FROM pg_stat_activity WHERE xact_start IS NOT NULL"
            + " AND pid <> pg_backend_pid() AND datname = current_database()"
            + " ORDER BY xact_start LIMIT 1")) {
      if (!r.next()) {
        facts.add(fact("oldest transaction", "none open"));
        return;
      }
      Duration age = Duration.ofSeconds(r.getLong(4));
      String who = "pid " + r.getInt(1) + (r.getString(2).isEmpty() ? "" : ", " + r.getString(2))
          + ", " + r.getString(3);
      facts.add(fact("oldest transaction", age.toSeconds() + " s (" + who + ")"));
      if (age.compareTo(LONG_TRANSACTION) > 0) {
        problems.add("a transaction has been open for " + age.toMinutes() + " min (" + who
            + "): it keeps vacuum from reclaiming dead rows; end it");
      }
    }
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  private static StoreHealth.Fact fact(String name, String value) {
    return new StoreHealth.Fact(name, value);
  }
}
