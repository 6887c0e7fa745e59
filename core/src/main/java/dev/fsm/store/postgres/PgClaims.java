package dev.fsm.store.postgres;

import dev.fsm.store.ClaimLimits;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Claims, renewals and the next due time over SQL. A claim locks the first due rows with
 * {@code FOR UPDATE SKIP LOCKED} (in a materialized CTE, so it never locks more than it takes)
 * and leases them in the same statement. Claims and renewals run on connections whose commits
 * need not wait for the disk, as a lost claim only makes a task claimable again.
 */
final class PgClaims {

  /** Rows a claim under positive caps reads per step of its walk. */
  private static final int WALK_STEP = 64;

  /**
   * How often claims put tasks whose lease ended back in their place by due time. Between
   * settlings such tasks are still claimed (their claim key is their lease's end, long past),
   * only perhaps behind tasks due later: a statement per claim saved for an order off by at
   * most this.
   */
  private static final Duration SETTLE_EVERY = Duration.ofMillis(200);

  private final PgTables tables;
  /** When claims last settled ended leases, by the claims' clock; null before the first. */
  private Instant settled;

  PgClaims(PgTables tables) {
    this.tables = tables;
  }

  List<Task> claim(Connection c, String owner, int max, Instant now, Duration lease,
      ClaimLimits limits) throws SQLException {
    Instant at = PgRows.micros(now);
    if (settleDue(at)) {
      settleEndedLeases(c, at);
    }
    if (max <= 0) {
      return List.of();
    }
    Lease granted = new Lease(owner, PgRows.micros(now.plus(lease)));
    if (!positiveRoom(limits)) {
      return claimFirst(c, max, at, granted, Blocked.of(limits));
    }
    // Caps hold across runners: other owners' live leases are counted under a lock per capped
    // machine, and the walk's row locks must hold until its update: one transaction.
    c.setAutoCommit(false);
    ClaimLimits left = PgCaps.minusOthers(c, tables, owner, at, limits);
    List<Task> taken = positiveRoom(left) ? walk(c, max, at, granted, left, Blocked.of(left))
        : claimFirst(c, max, at, granted, Blocked.of(left));
    c.commit();
    return taken;
  }

  private static boolean positiveRoom(ClaimLimits limits) {
    return !limits.machinesWithRoom().isEmpty();
  }

  /** Whether a claim at {@code now} settles ended leases first; claims run one at a time. */
  private synchronized boolean settleDue(Instant now) {
    if (settled != null && !now.isBefore(settled)
        && Duration.between(settled, now).compareTo(SETTLE_EVERY) < 0) {
      return false;
    }
    settled = now;
    return true;
  }

  /** Renews {@code owner}'s leases; returns the ids it no longer holds. */
  Set<String> renew(Connection c, String owner, Collection<String> ids, Instant until)
      throws SQLException {
    if (ids.isEmpty()) {
      return Set.of();
    }
    // Locked in id order first, as records lock them, so the two never deadlock.
    String sql = "WITH r AS MATERIALIZED (SELECT id FROM " + tables.task()
        + " WHERE id = ANY(?) AND lease_owner = ? ORDER BY id FOR UPDATE)"
        + " UPDATE " + tables.task() + " t SET lease_until = ?, visible_at = CASE WHEN"
        + " t.visible_at IS NULL THEN NULL ELSE GREATEST(t.due, ?) END FROM r WHERE t.id = r.id"
        + " RETURNING t.id";
    Set<String> lost = new HashSet<>(ids);
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      s.setString(2, owner);
      PgRows.setTime(s, 3, until);
      PgRows.setTime(s, 4, until);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          lost.remove(r.getString(1));
        }
      }
    }
    return lost;
  }

  /** The first time a claim could find work, leaving out groups {@code limits} hold back. */
  Optional<Instant> nextDue(Connection c, ClaimLimits limits) throws SQLException {
    Blocked blocked = Blocked.of(limits);
    String held = blocked.none() ? "" : " AND ((lease_owner IS NOT NULL AND visible_at ="
        + " lease_until) OR (" + blocked.sql() + "))";
    try (PreparedStatement s = c.prepareStatement("SELECT min(visible_at) FROM "
        + tables.task() + " WHERE visible_at IS NOT NULL" + held)) {
      blocked.bind(c, s, 1);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return Optional.ofNullable(PgRows.time(r, 1));
      }
    }
  }

  /**
   * Puts tasks whose lease ended unrenewed back in their place by due time, as if never claimed
   * (their owner may still renew them until someone else claims them).
   */
  private void settleEndedLeases(Connection c, Instant now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("WITH e AS MATERIALIZED (SELECT id FROM "
        + tables.task() + " WHERE lease_owner IS NOT NULL AND lease_until <= ? AND visible_at >"
        + " due FOR UPDATE SKIP LOCKED) UPDATE " + tables.task() + " t SET visible_at = t.due"
        + " FROM e WHERE t.id = e.id")) {
      PgRows.setTime(s, 1, now);
      s.executeUpdate();
    }
  }

  /** The one-statement claim: no caps to count, only whole groups left out. */
  private List<Task> claimFirst(Connection c, int max, Instant now, Lease granted,
      Blocked blocked) throws SQLException {
    String sql = "WITH c AS MATERIALIZED (SELECT id, visible_at FROM " + tables.task()
        + " WHERE visible_at <= ? AND (lease_until IS NULL OR lease_until <= ?)"
        + (blocked.none() ? "" : " AND " + blocked.sql())
        + " ORDER BY visible_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " UPDATE " + tables.task() + " t SET lease_owner = ?, lease_until = ?,"
        + " visible_at = GREATEST(t.due, ?) FROM c WHERE t.id = c.id"
        + " RETURNING " + tables.columns().select("t") + ", c.visible_at";
    record Claimed(Task task, Instant key) {}
    List<Claimed> claimed = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      PgRows.setTime(s, 1, now);
      PgRows.setTime(s, 2, now);
      int i = blocked.bind(c, s, 3);
      s.setInt(i++, max);
      s.setString(i++, granted.owner());
      PgRows.setTime(s, i++, granted.until());
      PgRows.setTime(s, i, granted.until());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          claimed.add(new Claimed(PgRows.task(r), PgRows.time(r, PgRows.TASK_COLUMN_COUNT + 1)));
        }
      }
    }
    // RETURNING keeps no order: back to the claim's, oldest due first.
    claimed.sort(Comparator.comparing(Claimed::key)
        .thenComparing(x -> x.task().id(), dev.fsm.store.TaskQuery::compareIds));
    return claimed.stream().map(Claimed::task).toList();
  }

  /**
   * The claim under caps: reads due rows in claim order a step at a time, takes those the caps
   * leave room for, and leaves out each group as it fills, so tasks far behind a full group are
   * reached in a few steps; the rows passed over stay as they were, in their place.
   */
  private List<Task> walk(Connection c, int max, Instant now, Lease granted, ClaimLimits limits,
      Blocked blocked) throws SQLException {
    ClaimLimits.Budget budget = limits.budget();
    Map<String, Integer> machinesTaken = new HashMap<>();
    Map<List<String>, Integer> statesTaken = new HashMap<>();
    List<Task> taken = new ArrayList<>();
    Instant afterKey = null;
    String afterId = null;
    while (taken.size() < max) {
      String sql = "SELECT " + tables.columns().select() + ", visible_at FROM " + tables.task()
          + " WHERE visible_at <= ? AND (lease_until IS NULL OR lease_until <= ?)"
          + (blocked.none() ? "" : " AND " + blocked.sql())
          + (afterId == null ? "" : " AND (visible_at, id) > (?, ?)")
          + " ORDER BY visible_at, id LIMIT " + WALK_STEP + " FOR UPDATE SKIP LOCKED";
      int rows = 0;
      try (PreparedStatement s = c.prepareStatement(sql)) {
        PgRows.setTime(s, 1, now);
        PgRows.setTime(s, 2, now);
        int i = blocked.bind(c, s, 3);
        if (afterId != null) {
          PgRows.setTime(s, i++, afterKey);
          s.setString(i, afterId);
        }
        try (ResultSet r = s.executeQuery()) {
          while (r.next() && taken.size() < max) {
            rows++;
            Task t = PgRows.task(r);
            afterKey = PgRows.time(r, PgRows.TASK_COLUMN_COUNT + 1);
            afterId = t.id();
            if (budget.take(t)) {
              taken.add(t);
              machinesTaken.merge(t.machine(), 1, Integer::sum);
              statesTaken.merge(List.of(t.machine(), t.state()), 1, Integer::sum);
            }
          }
        }
      }
      if (rows < WALK_STEP) {
        break;
      }
      blocked = blocked.withFull(limits, machinesTaken, statesTaken);
    }
    if (taken.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement s = c.prepareStatement("UPDATE " + tables.task() + " SET"
        + " lease_owner = ?, lease_until = ?, visible_at = GREATEST(due, ?) WHERE id = ANY(?)")) {
      s.setString(1, granted.owner());
      PgRows.setTime(s, 2, granted.until());
      PgRows.setTime(s, 3, granted.until());
      s.setArray(4, c.createArrayOf("text", taken.stream().map(Task::id).toArray()));
      s.executeUpdate();
    }
    return taken.stream().map(t -> t.withLease(granted)).toList();
  }

  /**
   * Machines, and states of machines, a claim may take nothing of, and the only machines it may
   * take (empty for all): left out in SQL.
   */
  private record Blocked(List<String> machines, List<String> stateMachines,
      List<String> states, List<String> only) {

    static Blocked of(ClaimLimits limits) {
      return new Blocked(List.of(), List.of(), List.of(), List.copyOf(new TreeSet<>(limits.only())))
          .withFull(limits, Map.of(), Map.of());
    }

    /** These groups and those whose room {@code taken} used up. */
    Blocked withFull(ClaimLimits limits, Map<String, Integer> machinesTaken,
        Map<List<String>, Integer> statesTaken) {
      Set<String> m = new TreeSet<>();
      limits.machines().forEach((machine, room) -> {
        if (machinesTaken.getOrDefault(machine, 0) >= room) {
          m.add(machine);
        }
      });
      List<String> sm = new ArrayList<>();
      List<String> st = new ArrayList<>();
      limits.states().forEach((machine, states) -> states.forEach((state, room) -> {
        if (!m.contains(machine)
            && statesTaken.getOrDefault(List.of(machine, state), 0) >= room) {
          sm.add(machine);
          st.add(state);
        }
      }));
      return new Blocked(List.copyOf(m), sm, st, only);
    }

    boolean none() {
      return machines.isEmpty() && states.isEmpty() && only.isEmpty();
    }

    /** The condition that leaves the groups out; {@link #bind} binds its parameters. */
    String sql() {
      List<String> parts = new ArrayList<>();
      if (!only.isEmpty()) {
        parts.add("machine = ANY(?)");
      }
      if (!machines.isEmpty()) {
        parts.add("machine <> ALL(?)");
      }
      if (!states.isEmpty()) {
        parts.add("NOT EXISTS (SELECT 1 FROM unnest(?::text[], ?::text[]) AS b(m, s)"
            + " WHERE b.m = machine AND b.s = state)");
      }
      return String.join(" AND ", parts);
    }

    int bind(Connection c, PreparedStatement s, int first) throws SQLException {
      int i = first;
      if (!only.isEmpty()) {
        s.setArray(i++, c.createArrayOf("text", only.toArray()));
      }
      if (!machines.isEmpty()) {
        s.setArray(i++, c.createArrayOf("text", machines.toArray()));
      }
      if (!states.isEmpty()) {
        s.setArray(i++, c.createArrayOf("text", stateMachines.toArray()));
        s.setArray(i++, c.createArrayOf("text", states.toArray()));
      }
      return i;
    }
  }
}
