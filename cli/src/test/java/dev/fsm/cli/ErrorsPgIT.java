package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;

/**
 * {@link ErrorsIT} on PostgreSQL, each test in a schema of its own: the errors are read with one
 * statement over V4's partial index, and a runner shares the store instead of owning it.
 */
class ErrorsPgIT extends ErrorsIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  String store() {
    return url;
  }
}
