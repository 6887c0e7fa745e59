package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;

/**
 * {@link MetricsIT} on PostgreSQL, with fewer tasks: every test in a schema of its own. Left out
 * (overridden without {@code @Test}): the refused addresses, which fail before any store opens.
 */
class MetricsPgIT extends MetricsIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  int tasks() {
    return 60;
  }

  @Override
  String store() {
    return url;
  }

  @Override
  String storeAt() {
    return url;
  }

  @Override
  void badMetricsAddressesAreRefusedInOneLineBeforeTheStoreIsTouched() {}
}
