package dev.fsm.store.postgres;

import dev.fsm.store.BreakerNews;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.TaskExistsException;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.task.AfterStep;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.postgresql.util.PSQLException;

/**
 * The writes of tasks: creating them, recording runners' outcomes fenced by their leases, and
 * operators' updates, each change a row update plus a history row in one transaction. Operator
 * updates and creations ring the store's channel in the same transaction; runners' writes never
 * do (a notification serialises commits).
 */
final class PgWrites {

  private final PgTables tables;
  private final String origin;

  /** Writes to {@code tables}, signing notifications with {@code origin}. */
  PgWrites(PgTables tables, String origin) {
    this.tables = tables;
    this.origin = origin;
  }

  void create(Connection c, List<Task> tasks) throws SQLException {
    if (tasks.isEmpty()) {
      return;
    }
    Set<String> ids = new HashSet<>();
    for (Task t : tasks) {
      if (!ids.add(t.id())) {
        throw new TaskExistsException(t.id());
      }
    }
    Set<String> taken = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement("SELECT id FROM " + tables.task()
        + " WHERE id = ANY(?)")) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          taken.add(r.getString(1));
        }
      }
    }
    for (Task t : tasks) {
      if (taken.contains(t.id())) {
        throw new TaskExistsException(t.id());
      }
    }
    boolean work = false;
    try (PreparedStatement s = c.prepareStatement("INSERT INTO " + tables.task() + " (id, "
        + tables.columns().fields() + ") VALUES (?, " + tables.columns().values() + ")")) {
      for (Task t : tasks) {
        s.setString(1, t.id());
        tables.columns().bind(s, 2, t);
        s.addBatch();
        work |= PgRows.visibleAt(t) != null;
      }
      s.executeBatch();
    } catch (BatchUpdateException e) {
      // Another process created one of the ids since the check above.
      if ("23505".equals(e.getSQLState()) || e.getNextException() != null
          && "23505".equals(e.getNextException().getSQLState())) {
        throw new TaskExistsException(takenId(e, tasks));
      }
      throw e;
    }
    if (work) {
      notify(c, "work");
    }
  }

  /**
   * Writes tasks as another store held them, without their leases, each with its history in
   * order, refusing taken ids as {@link #create} does; the caller's transaction makes it all or
   * none.
   */
  void restore(Connection c, List<TaskHistory> tasks) throws SQLException {
    create(c, tasks.stream().map(h -> h.task().withLease(null)).toList());
    try (PreparedStatement s = c.prepareStatement("INSERT INTO " + tables.transition()
        + " (task_id, machine, " + PgRows.TRANSITION_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?,"
        + " ?, ?, ?)")) {
      int rows = 0;
      for (TaskHistory h : tasks) {
        for (Transition e : h.history()) {
          s.setString(1, h.task().id());
          s.setString(2, h.task().machine());
          PgRows.bindTransition(s, 3, e);
          s.addBatch();
          rows++;
        }
      }
      if (rows > 0) {
        s.executeBatch();
      }
    }
  }

  /**
   * Records runners' outcomes in order, each only while {@code owner} holds the task's lease at
   * the change's time, with a pending pause settled as {@link AfterStep#settle} says.
   *
   * @return the ids not recorded, each with whether the task existed at all
   */
  Map<String, Boolean> record(Connection c, String owner, List<Change> changes)
      throws SQLException {
    Map<String, Held> held = lockHolders(c, changes);
    Map<String, Boolean> lost = new HashMap<>();
    List<Change> applied = new ArrayList<>();
    for (Change change : changes) {
      String id = change.next().id();
      Held h = held.get(id);
      Instant at = change.entry().time();
      if (h == null || h.lease == null || !h.lease.owner().equals(owner)
          || !h.lease.heldAt(at)) {
        lost.putIfAbsent(id, h != null);
        continue;
      }
      List<Change> settled = AfterStep.settle(h.pausing, change);
      applied.addAll(settled);
      Task last = settled.get(settled.size() - 1).next();
      held.put(id, new Held(last.lease(), last.pausing()));
    }
    write(c, applied);
    return lost;
  }

  /** Reads a task for update, applies {@code change} and writes its result, ringing the bell. */
  Task update(Connection c, String id, Function<Task, Change> change) throws SQLException {
    Task current;
    try (PreparedStatement s = c.prepareStatement("SELECT " + tables.columns().select() + " FROM "
        + tables.task() + " WHERE id = ? FOR UPDATE")) {
      s.setString(1, id);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new TaskNotFoundException(id);
        }
        current = PgRows.task(r);
      }
    }
    Change c1 = change.apply(current).forTask(id);
    write(c, List.of(c1));
    notify(c, id + " " + c1.entry().event());
    Task next = c1.next();
    if (PgRows.visibleAt(next) != null && next.lease() == null) {
      notify(c, "work");
    }
    return next;
  }

  /**
   * Writes changes: each task's new row and its history entry, in order, one statement per
   * change and the statements sent together (one round trip for a batch).
   */
  void write(Connection c, List<Change> changes) throws SQLException {
    if (changes.isEmpty()) {
      return;
    }
    try (PreparedStatement s = c.prepareStatement("WITH u AS (UPDATE " + tables.task() + " SET "
        + tables.columns().assignments() + " WHERE id = ? RETURNING id, machine) INSERT INTO "
        + tables.transition() + " (task_id, machine, " + PgRows.TRANSITION_COLUMNS + ")"
        + " SELECT u.id, u.machine, ?, ?, ?, ?, ?, ?, ?, ? FROM u")) {
      for (Change ch : changes) {
        int i = tables.columns().bind(s, 1, ch.next());
        s.setString(i++, ch.next().id());
        PgRows.bindTransition(s, i, ch.entry());
        s.addBatch();
      }
      if (changes.size() == 1) {
        s.executeUpdate();
      } else {
        s.executeBatch();
      }
    }
  }

  /** Tells the other processes on the channel what a runner's breaker did. */
  void announce(Connection c, BreakerNews news) throws SQLException {
    notify(c, PgBreakerNews.text(news));
  }

  private void notify(Connection c, String payload) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      s.setString(1, tables.channel());
      s.setString(2, origin + " " + payload);
      s.execute();
    }
  }

  /** What a record checks: each task's lease and pending pause, its row locked in id order. */
  private Map<String, Held> lockHolders(Connection c, List<Change> changes) throws SQLException {
    Set<String> ids = new LinkedHashSet<>();
    changes.forEach(ch -> ids.add(ch.next().id()));
    Map<String, Held> held = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT id, lease_owner, lease_until,"
        + " pausing_at, pausing_by, pausing_reason FROM " + tables.task()
        + " WHERE id = ANY(?) ORDER BY id FOR UPDATE")) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String owner = r.getString(2);
          Instant pausingAt = PgRows.time(r, 4);
          held.put(r.getString(1), new Held(
              owner == null ? null : new Lease(owner, PgRows.time(r, 3)),
              pausingAt == null ? null : new Pausing(pausingAt, r.getString(5),
                  r.getString(6))));
        }
      }
    }
    return held;
  }

  /** The id a unique violation names ("Key (id)=(x) already exists."), else the first. */
  private static String takenId(SQLException e, List<Task> tasks) {
    for (SQLException x = e; x != null; x = x.getNextException()) {
      if (x instanceof PSQLException p && p.getServerErrorMessage() != null) {
        String detail = String.valueOf(p.getServerErrorMessage().getDetail());
        int open = detail.indexOf("=(");
        int close = detail.lastIndexOf(") already exists");
        if (open >= 0 && close > open) {
          return detail.substring(open + 2, close);
        }
      }
    }
    return tasks.get(0).id();
  }

  private record Held(Lease lease, Pausing pausing) {}
}
