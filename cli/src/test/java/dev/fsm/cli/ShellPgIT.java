package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;
import java.util.Map;

/**
 * {@link ShellIT} on PostgreSQL, named by {@code $FSM_STORE} as a user would: the piped shell,
 * completion of task ids from the store, {@code watch} and {@code tail}.
 */
class ShellPgIT extends ShellIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  Map<String, String> env() {
    return Map.of("FSM_STORE", url);
  }
}
