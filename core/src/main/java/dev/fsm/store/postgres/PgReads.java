package dev.fsm.store.postgres;

import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The reads of tasks: by id, pages of a query, histories, id completion and counts. */
final class PgReads {

  /** History entries, and creations, that {@link #recentlyChanged} looks among. */
  static final int CHANGES_READ = 10_000;

  private static final Comparator<TaskCount> COUNT_ORDER = Comparator
      .comparing(TaskCount::machine).thenComparing(TaskCount::state)
      .thenComparing(TaskCount::status);

  private final PgTables tables;

  PgReads(PgTables tables) {
    this.tables = tables;
  }

  Optional<Task> get(Connection c, String id) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT " + tables.columns().select() + " FROM "
        + tables.task() + " WHERE id = ?")) {
      s.setString(1, id);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(PgRows.task(r)) : Optional.empty();
      }
    }
  }

  List<Transition> history(Connection c, String id) throws SQLException {
    List<Transition> entries = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT " + PgRows.TRANSITION_COLUMNS
        + " FROM " + tables.transition() + " WHERE task_id = ? ORDER BY seq")) {
      s.setString(1, id);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          entries.add(PgRows.transition(r));
        }
      }
    }
    if (entries.isEmpty() && get(c, id).isEmpty()) {
      throw new TaskNotFoundException(id);
    }
    return entries;
  }

  /** The histories of those of {@code ids} that have entries, in one statement. */
  Map<String, List<Transition>> histories(Connection c, List<String> ids) throws SQLException {
    Map<String, List<Transition>> out = new LinkedHashMap<>();
    ids.forEach(id -> out.put(id, new ArrayList<>()));
    try (PreparedStatement s = c.prepareStatement("SELECT task_id, " + PgRows.TRANSITION_COLUMNS
        + " FROM " + tables.transition() + " WHERE task_id = ANY(?) ORDER BY seq")) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.get(r.getString(1)).add(new Transition(PgRows.time(r, 2), r.getString(3),
              r.getString(4), r.getString(5), r.getLong(6), r.getInt(7), r.getString(8),
              r.getString(9)));
        }
      }
    }
    return out;
  }

  /** The attempt errors {@code query} matches. */
  List<ErrorEntry> errors(Connection c, ErrorQuery query) throws SQLException {
    List<ErrorEntry> found = new ArrayList<>();
    try (PreparedStatement s = errorStatement(c, tables.transition(), query)) {
      s.setFetchSize(2_000);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.add(new ErrorEntry(r.getString(1), r.getString(2), new Transition(
              PgRows.time(r, 3), r.getString(4), r.getString(5), r.getString(6), r.getLong(7),
              r.getInt(8), r.getString(9), r.getString(10))));
        }
      }
    }
    return found;
  }

  /**
   * The statement that reads {@code query}'s errors from {@code table}, its parameters bound,
   * prefixed by {@code prefix} ({@code EXPLAIN } in a test). The events are written into the
   * statement, not bound, so the planner sees that it implies the predicate of V4's partial
   * index.
   */
  static PreparedStatement errorStatement(Connection c, String table, ErrorQuery query)
      throws SQLException {
    return errorStatement(c, "", table, query);
  }

  static PreparedStatement errorStatement(Connection c, String prefix, String table,
      ErrorQuery query) throws SQLException {
    String events = AttemptErrors.EVENTS.stream().map(e -> "'" + e + "'")
        .collect(Collectors.joining(", "));
    PreparedStatement s = c.prepareStatement(prefix + "SELECT task_id, machine, "
        + PgRows.TRANSITION_COLUMNS + " FROM " + table + " WHERE event IN (" + events + ")"
        + " AND time >= ? AND actor LIKE ?"
        + (query.machine().isPresent() ? " AND machine = ?" : "")
        + (query.state().isPresent() ? " AND from_state = ?" : ""));
    try {
      int i = 1;
      PgRows.setTime(s, i++, query.since());
      s.setString(i++, AttemptErrors.RUNNER + "%");
      if (query.machine().isPresent()) {
        s.setString(i++, query.machine().get());
      }
      if (query.state().isPresent()) {
        s.setString(i, query.state().get());
      }
      return s;
    } catch (SQLException e) {
      s.close();
      throw e;
    }
  }

  /** A page of {@code query}; {@code lock} appends FOR UPDATE (a purge's batch). */
  List<Task> list(Connection c, TaskQuery query, boolean lock) throws SQLException {
    List<String> where = new ArrayList<>();
    List<Object> args = new ArrayList<>();
    filters(c, query, where, args);
    String key = switch (query.sort()) {
      case ID -> null;
      case CREATED -> "created";
      case UPDATED -> tables.columns().updated();
    };
    String cmp = query.descending() ? "<" : ">";
    String dir = query.descending() ? " DESC" : "";
    if (query.afterKey().isPresent()) {
      where.add("(" + key + ", id) " + cmp + " (?, ?)");
      args.add(OffsetDateTime.ofInstant(PgRows.micros(query.afterKey().get()), ZoneOffset.UTC));
      args.add(query.afterId().get());
    } else if (query.afterId().isPresent()) {
      if (key == null) {
        where.add("id " + cmp + " ?");
      } else {
        // No cursor row: the subquery gives NULL and the page is empty, as the contract says.
        where.add("(" + key + ", id) " + cmp + " (SELECT " + key + ", id FROM " + tables.task()
            + " WHERE id = ?)");
      }
      args.add(query.afterId().get());
    }
    String sql = "SELECT " + tables.columns().select() + " FROM " + tables.task()
        + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
        + " ORDER BY " + (key == null ? "" : key + dir + ", ") + "id" + dir
        + " LIMIT " + query.limit() + (lock ? " FOR UPDATE" : "");
    List<Task> page = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        s.setObject(i + 1, args.get(i));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          page.add(PgRows.task(r));
        }
      }
    }
    return page;
  }

  /**
   * {@link dev.fsm.store.Store#recentlyChanged}: among the newest {@link #CHANGES_READ} history
   * entries and as many creations (of the machine, if the filter names one), each task at its
   * latest, by time. Both are read backwards along an index, however many tasks there are.
   */
  List<Task> recentlyChanged(Connection c, TaskQuery filter) throws SQLException {
    List<String> where = new ArrayList<>();
    List<Object> args = new ArrayList<>();
    String ofMachine = filter.machine().isPresent() ? " WHERE machine = ?" : "";
    // The two reads of recent changes come first in the statement.
    filter.machine().ifPresent(m -> {
      args.add(m);
      args.add(m);
    });
    filters(c, filter, where, args);
    String sql = "WITH recent AS ((SELECT task_id AS rid, time AS at FROM " + tables.transition()
        + ofMachine + " ORDER BY seq DESC LIMIT " + CHANGES_READ + ") UNION ALL (SELECT id, created"
        + " FROM " + tables.task() + ofMachine + " ORDER BY created DESC, id DESC LIMIT "
        + CHANGES_READ + ")), newest AS (SELECT rid, max(at) AS at FROM recent GROUP BY rid)"
        + " SELECT " + tables.columns().selectNoContext() + " FROM "
        + tables.task() + " JOIN newest ON rid = id"
        + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
        + " ORDER BY newest.at DESC, id DESC LIMIT " + filter.limit();
    List<Task> found = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        s.setObject(i + 1, args.get(i));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.add(PgRows.task(r));
        }
      }
    }
    return found;
  }

  /** The query's machine, state and status filters, as conditions and their arguments. */
  private static void filters(Connection c, TaskQuery query, List<String> where,
      List<Object> args) throws SQLException {
    query.machine().ifPresent(m -> {
      where.add("machine = ?");
      args.add(m);
    });
    query.state().ifPresent(st -> {
      where.add("state = ?");
      args.add(st);
    });
    if (!query.statuses().isEmpty()) {
      where.add("status = ANY(?)");
      args.add(c.createArrayOf("text",
          query.storedStatuses().stream().map(TaskStatus::word).toArray()));
    }
  }

  List<String> idsStartingWith(Connection c, String prefix, int limit) throws SQLException {
    if (limit <= 0) {
      return List.of();
    }
    Optional<String> end = successor(prefix);
    List<String> ids = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT id FROM " + tables.task()
        + " WHERE id >= ?" + (end.isPresent() ? " AND id < ?" : "") + " ORDER BY id LIMIT ?")) {
      s.setString(1, prefix);
      int i = 2;
      if (end.isPresent()) {
        s.setString(i++, end.get());
      }
      s.setInt(i, limit);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          ids.add(r.getString(1));
        }
      }
    }
    return ids;
  }

  List<TaskCount> counts(Connection c) throws SQLException {
    List<TaskCount> counts = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT machine, state, status, count(*) FROM "
        + tables.task() + " GROUP BY machine, state, status");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        counts.add(new TaskCount(r.getString(1), r.getString(2), PgRows.status(r.getString(3)),
            r.getLong(4)));
      }
    }
    counts.sort(COUNT_ORDER);
    return counts;
  }

  /**
   * The first string after every string starting with {@code prefix} in code point order (what
   * COLLATE "C" keeps), so the prefix is one index range; empty when there is none.
   */
  static Optional<String> successor(String prefix) {
    int[] points = prefix.codePoints().toArray();
    for (int i = points.length - 1; i >= 0; i--) {
      int next = points[i] + 1;
      if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
        next = Character.MAX_SURROGATE + 1;
      }
      if (next <= Character.MAX_CODE_POINT) {
        points[i] = next;
        return Optional.of(new String(points, 0, i + 1));
      }
    }
    return Optional.empty();
  }
}
