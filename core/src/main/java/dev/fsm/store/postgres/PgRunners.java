package dev.fsm.store.postgres;

import dev.fsm.store.RunnerRecord;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runner table ({@code fsm runners}): one row per runner, upserted by its heartbeat. On a
 * schema still at version 2 (a read verb does not migrate) only V2's columns are read and
 * written; the others read as their defaults.
 */
final class PgRunners {

  /** Every this many heartbeats, rows not seen for an hour go: a few a day, never a backlog. */
  private static final int PRUNE_EVERY = 150;

  private static final String V2_COLUMNS = "id, host, pid, workers, started, seen";
  private static final String V3_COLUMNS = V2_COLUMNS + ", machines, held, rate, stopped";

  private final PgTables tables;
  private final boolean v3;
  private final AtomicInteger beats = new AtomicInteger();

  PgRunners(PgTables tables, int schemaVersion) {
    this.tables = tables;
    this.v3 = schemaVersion >= 3;
  }

  void seen(Connection c, RunnerRecord r) throws SQLException {
    String columns = v3 ? V3_COLUMNS : V2_COLUMNS;
    int n = columns.split(", ").length;
    StringBuilder set = new StringBuilder();
    for (String column : columns.split(", ")) {
      if (!column.equals("id")) {
        set.append(set.length() == 0 ? "" : ", ").append(column).append(" = EXCLUDED.")
            .append(column);
      }
    }
    try (PreparedStatement s = c.prepareStatement("INSERT INTO " + tables.runner() + " ("
        + columns + ") VALUES (?" + ", ?".repeat(n - 1) + ") ON CONFLICT (id) DO UPDATE SET "
        + set)) {
      s.setString(1, r.id());
      s.setString(2, r.host());
      s.setLong(3, r.pid());
      s.setInt(4, r.workers());
      PgRows.setTime(s, 5, r.started());
      PgRows.setTime(s, 6, r.seen());
      if (v3) {
        s.setArray(7, c.createArrayOf("text", r.machines().toArray()));
        s.setInt(8, r.held());
        s.setDouble(9, r.rate());
        s.setBoolean(10, r.stopped());
      }
      s.executeUpdate();
    }
    if (beats.getAndIncrement() % PRUNE_EVERY == 0) {
      try (PreparedStatement s = c.prepareStatement("DELETE FROM " + tables.runner()
          + " WHERE seen < ?")) {
        PgRows.setTime(s, 1, r.seen().minus(RunnerRecord.KEPT));
        s.executeUpdate();
      }
    }
  }

  List<RunnerRecord> seenSince(Connection c, Instant since) throws SQLException {
    List<RunnerRecord> found = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT " + (v3 ? V3_COLUMNS : V2_COLUMNS)
        + " FROM " + tables.runner() + " WHERE seen >= ?")) {
      PgRows.setTime(s, 1, since);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.add(new RunnerRecord(r.getString(1), r.getString(2), r.getLong(3), r.getInt(4),
              v3 ? machines(r.getArray(7)) : List.of(), PgRows.time(r, 5), PgRows.time(r, 6),
              v3 ? r.getInt(8) : 0, v3 ? r.getDouble(9) : 0, v3 && r.getBoolean(10)));
        }
      }
    }
    found.sort(RunnerRecord.ORDER);
    return found;
  }

  private static List<String> machines(Array array) throws SQLException {
    return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
  }
}
