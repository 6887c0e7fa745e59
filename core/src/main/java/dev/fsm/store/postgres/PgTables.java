package dev.fsm.store.postgres;

/**
 * The qualified names of one store's tables, and its notification channel, so installs that
 * share a database (each in its own schema) neither see nor hear each other.
 */
record PgTables(String task, String transition, String machineVersion, String runner,
    String channel, PgTaskColumns columns) {

  /** PostgreSQL's longest identifier: a longer channel name is refused by pg_notify. */
  private static final int MAX_IDENTIFIER = 63;

  /** The tables of {@code schema} as its {@code schemaVersion} has them. */
  static PgTables of(String schema, int schemaVersion) {
    String q = PgSchema.quoted(schema);
    String channel = "fsm_" + schema;
    return new PgTables(q + ".task", q + ".transition", q + ".machine_version", q + ".runner",
        channel.length() > MAX_IDENTIFIER ? channel.substring(0, MAX_IDENTIFIER) : channel,
        PgTaskColumns.of(schemaVersion));
  }
}
