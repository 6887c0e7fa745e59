package dev.fsm.cli;

import dev.fsm.store.postgres.TestPostgres;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@link RunIT} on PostgreSQL: the same runs, commands from other processes reaching the runner
 * (through the database, with no socket) and stops, each test in a schema of its own. Left out
 * (methods overridden without {@code @Test}): what belongs to the embedded store alone, the
 * program ledger and the one-runner rule, and recovery after a runner's crash, which on
 * PostgreSQL waits for the lease to end (issue 19's failover tests).
 */
@Isolated("asserts on time")
class RunPgIT extends RunIT {

  private final String url = TestPostgres.server().freshUrl();

  @Override
  String store() {
    return url;
  }

  @Override
  String storeAt() {
    return url;
  }

  @Override
  boolean leasesEndWithTheOwner() {
    return false;
  }

  @Override
  void anAtMostOnceStateInterruptedByACrashGoesToFaultAndRunsAgainWhenWoken() {}

  @Override
  void programsThatAKilledRunnerLeftRunningAreStoppedByTheNextRunner() {}

  @Override
  void javaActionsRunFromAPluginJarCompiledNow() {}

  @Override
  void badOptionsAndASecondRunnerAreRefused() {}
}
