package dev.fsm.store.postgres;

import dev.fsm.store.MachineVersion;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Machine versions in their table; a registration holds an advisory lock per machine. */
final class PgVersions {

  private static final String COLUMNS = "machine, version, number, registered, definition";

  private final PgTables tables;
  private final String schema;

  PgVersions(PgTables tables, String schema) {
    this.tables = tables;
    this.schema = schema;
  }

  MachineVersion register(Connection c, String machine, String definition, Instant now)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
      s.setString(1, "fsm.register:" + schema + ":" + machine);
      s.execute();
    }
    List<MachineVersion> known = versions(c, machine);
    MachineVersion added = MachineVersion.next(machine, definition, PgRows.micros(now), known);
    if (added.isAfter(known)) {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO " + tables.machineVersion()
          + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)")) {
        s.setString(1, added.machine());
        s.setString(2, added.version());
        s.setInt(3, added.number());
        PgRows.setTime(s, 4, added.registered());
        s.setString(5, added.definition());
        s.executeUpdate();
      }
    }
    return added;
  }

  List<MachineVersion> versions(Connection c, String machine) throws SQLException {
    return read(c, " WHERE machine = ? ORDER BY number", machine);
  }

  List<MachineVersion> allVersions(Connection c) throws SQLException {
    List<MachineVersion> all = new ArrayList<>(read(c, "", null));
    all.sort(Comparator.comparing(MachineVersion::machine)
        .thenComparingInt(MachineVersion::number));
    return all;
  }

  private List<MachineVersion> read(Connection c, String where, String machine)
      throws SQLException {
    List<MachineVersion> versions = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM "
        + tables.machineVersion() + where)) {
      if (machine != null) {
        s.setString(1, machine);
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          versions.add(new MachineVersion(r.getString(1), r.getString(2), r.getInt(3),
              PgRows.time(r, 4), r.getString(5)));
        }
      }
    }
    return versions;
  }
}
