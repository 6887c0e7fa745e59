package dev.fsm.store.postgres;

import dev.fsm.store.ClaimLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Makes {@code concurrency:} caps hold across every runner of a schema (SPEC section 4). A
 * runner's limits count only the attempts it holds; here, inside the claim's transaction, the
 * live leases of other owners are taken off too, under a transaction-scoped advisory lock per
 * capped machine, so two runners claiming at once cannot both take the last place.
 */
final class PgCaps {

  private PgCaps() {}

  /** {@code limits} less what other owners hold now; call in a transaction. */
  static ClaimLimits minusOthers(Connection c, PgTables tables, String owner, Instant now,
      ClaimLimits limits) throws SQLException {
    TreeSet<String> capped = new TreeSet<>(limits.machinesWithRoom());
    // In name order, so two claims never wait on each other's locks in a cycle.
    try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
      for (String machine : capped) {
        s.setString(1, "fsm caps " + tables.task() + " " + machine);
        s.executeQuery().close();
      }
    }
    Map<String, Integer> machines = new HashMap<>(limits.machines());
    Map<String, Map<String, Integer>> states = new HashMap<>();
    limits.states().forEach((m, st) -> states.put(m, new HashMap<>(st)));
    // Live leases are few (one per running attempt), and the partial index on leased tasks
    // finds them without reading the rest.
    try (PreparedStatement s = c.prepareStatement("SELECT machine, state, count(*) FROM "
        + tables.task() + " WHERE lease_owner IS NOT NULL AND lease_until > ?"
        + " AND lease_owner <> ? AND machine = ANY(?) GROUP BY machine, state")) {
      PgRows.setTime(s, 1, now);
      s.setString(2, owner);
      s.setArray(3, c.createArrayOf("text", capped.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String machine = r.getString(1);
          String state = r.getString(2);
          int held = r.getInt(3);
          machines.computeIfPresent(machine, (k, room) -> Math.max(0, room - held));
          Map<String, Integer> ofMachine = states.get(machine);
          if (ofMachine != null) {
            ofMachine.computeIfPresent(state, (k, room) -> Math.max(0, room - held));
          }
        }
      }
    }
    return new ClaimLimits(machines, states, limits.only());
  }
}
