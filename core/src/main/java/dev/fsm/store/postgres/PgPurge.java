package dev.fsm.store.postgres;

import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One batch of a purge: its candidates locked, the old ones deleted with their histories. */
final class PgPurge {

  private final PgTables tables;
  private final PgReads reads;

  PgPurge(PgTables tables, PgReads reads) {
    this.tables = tables;
    this.reads = reads;
  }

  PurgeBatch batch(Connection c, PurgeQuery query, Instant now) throws SQLException {
    long start = System.nanoTime();
    List<Task> candidates = reads.list(c, query.candidates(), true);
    Object[] ids = candidates.stream().map(Task::id).toArray();
    Map<String, Transition> last = new HashMap<>();
    if (ids.length > 0) {
      try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT ON (task_id) task_id, "
          + PgRows.TRANSITION_COLUMNS + " FROM " + tables.transition() + " WHERE task_id ="
          + " ANY(?) ORDER BY task_id, seq DESC")) {
        s.setArray(1, c.createArrayOf("text", ids));
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            last.put(r.getString(1), new Transition(PgRows.time(r, 2), r.getString(3),
                r.getString(4), r.getString(5), r.getLong(6), r.getInt(7), r.getString(8),
                r.getString(9)));
          }
        }
      }
    }
    List<Task> gone = new ArrayList<>();
    for (Task t : candidates) {
      if (query.matches(t, last.get(t.id()), now)) {
        gone.add(t);
      }
    }
    if (!query.dryRun() && !gone.isEmpty()) {
      Object[] goneIds = gone.stream().map(Task::id).toArray();
      for (String table : List.of(tables.transition() + " WHERE task_id",
          tables.task() + " WHERE id")) {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + table + " = ANY(?)")) {
          s.setArray(1, c.createArrayOf("text", goneIds));
          s.executeUpdate();
        }
      }
    }
    Optional<String> resume = candidates.size() < query.batch() ? Optional.empty()
        : Optional.of(candidates.get(candidates.size() - 1).id());
    return new PurgeBatch(PurgeBatch.tally(gone), resume,
        Duration.ofNanos(System.nanoTime() - start));
  }
}
