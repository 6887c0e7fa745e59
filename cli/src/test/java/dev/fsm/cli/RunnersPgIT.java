package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;

/**
 * {@link RunnersIT} on PostgreSQL: runners keep their rows in the runner table, read by every
 * process through the database; each test in a schema of its own.
 */
class RunnersPgIT extends RunnersIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  String store() {
    return url;
  }

  @Override
  boolean endsWithItsOwner() {
    return false;
  }
}
