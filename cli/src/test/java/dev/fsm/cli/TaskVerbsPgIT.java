package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;

/**
 * {@link TaskVerbsIT} on PostgreSQL, each test in a schema of its own: the task verbs print the
 * same as on the embedded store. A missing store's message names a schema instead of a folder
 * ({@code PostgresIT} checks it), so that test is left out.
 */
class TaskVerbsPgIT extends TaskVerbsIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  String store() {
    return url;
  }

  @Override
  void userMistakesAreClearMessagesNeverStackTraces() {}
}
