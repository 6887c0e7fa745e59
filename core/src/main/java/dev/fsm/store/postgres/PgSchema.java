package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * fsm's tables in the store's schema, versioned: plain SQL files {@code V1.sql}, {@code
 * V2.sql}… beside this class, each applied once, in order, by the creating verbs under an
 * advisory lock. Versions up to 5 are recorded in {@code fsm_schema}, which every fsm reads and
 * refuses when it holds a version newer than it knows; from 6 on, a version whose changes an
 * fsm that does not know them may ignore is recorded in {@code fsm_schema_additions} instead,
 * which such an fsm does not read, so the previous release keeps working on the migrated
 * schema during a rolling deploy.
 */
final class PgSchema {

  /** The newest schema version this fsm knows. */
  static final int NEWEST = 6;

  /**
   * The versions an fsm that does not know them may ignore (it neither reads nor writes what
   * they add), recorded in {@code fsm_schema_additions}. Earlier fsms recorded 5, also additive,
   * in {@code fsm_schema}, and it stays there: moving it would make them apply it again.
   */
  private static final Set<Integer> ADDITIVE = Set.of(6);

  private PgSchema() {}

  /** The schema as a quoted identifier (the URL allows only plain names). */
  static String quoted(String schema) {
    return '"' + schema + '"';
  }

  /** The schema's version, additions included: 0 when it holds no fsm store. */
  static int version(Connection c, String schema) throws SQLException {
    return Math.max(required(c, schema), newest(c, schema, "fsm_schema_additions"));
  }

  /** The newest version an fsm must know to use the schema: additions do not count. */
  static int required(Connection c, String schema) throws SQLException {
    return newest(c, schema, "fsm_schema");
  }

  private static int newest(Connection c, String schema, String table) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, quoted(schema) + "." + table);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        if (!r.getBoolean(1)) {
          return 0;
        }
      }
    }
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "SELECT coalesce(max(version), 0) FROM " + quoted(schema) + "." + table)) {
      r.next();
      return r.getInt(1);
    }
  }

  /**
   * Brings the schema to the newest version in the caller's transaction, creating it when
   * missing; another process doing the same waits on the lock and then finds nothing to do.
   */
  static void migrate(Connection c, PgUrl url) throws SQLException {
    String schema = url.schema();
    try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
      s.setString(1, "fsm.migrate:" + schema);
      s.execute();
    }
    boolean present;
    try (PreparedStatement s = c.prepareStatement(
        "SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
      s.setString(1, schema);
      try (ResultSet r = s.executeQuery()) {
        present = r.next();
      }
    }
    try (Statement s = c.createStatement()) {
      if (!present) {
        s.execute("CREATE SCHEMA " + quoted(schema));
      }
      versionsTable(s, schema, "fsm_schema");
    }
    refuseNewer(required(c, schema), url);
    int version = version(c, schema);
    for (int v = version + 1; v <= NEWEST; v++) {
      apply(c, schema, v);
    }
  }

  /** Applies version {@code v}'s file alone, in the caller's transaction (tests start old). */
  static void apply(Connection c, String schema, int v) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(file(v).replace("${schema}", quoted(schema)));
      String table = ADDITIVE.contains(v) ? "fsm_schema_additions" : "fsm_schema";
      versionsTable(s, schema, table);
      s.execute("INSERT INTO " + quoted(schema) + "." + table + " (version) VALUES (" + v + ")");
    }
  }

  /** Creates {@code table}, where applied versions are recorded, unless it is there. */
  private static void versionsTable(Statement s, String schema, String table)
      throws SQLException {
    s.execute("CREATE TABLE IF NOT EXISTS " + quoted(schema) + "." + table + " (version int"
        + " PRIMARY KEY, applied timestamptz NOT NULL DEFAULT clock_timestamp())");
  }

  /**
   * Refuses a schema that a newer fsm made, given the newest version an fsm must know to use it
   * ({@link #required}).
   */
  static void refuseNewer(int version, PgUrl url) {
    if (version > NEWEST) {
      throw new FsmException("schema `" + url.schema() + "` of PostgreSQL at " + url.where()
          + " has fsm schema version " + version + ", newer than this fsm knows (" + NEWEST
          + "); upgrade fsm");
    }
  }

  /** The refusal of a verb that does not create stores, when the schema holds none. */
  static FsmException missing(PgUrl url) {
    return new FsmException("no fsm store in schema `" + url.schema() + "` of database `"
        + url.database() + "` at " + url.host() + ":" + url.port() + "; `fsm start` or `fsm"
        + " run` create it, or name another with ?schema=NAME in --store or $FSM_STORE");
  }

  private static String file(int v) {
    String name = "V" + v + ".sql";
    try (InputStream in = PgSchema.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("fsm's jar lacks its schema file " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read fsm's schema file " + name, e);
    }
  }
}
