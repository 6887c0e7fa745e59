package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.postgres.TestPostgres;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link RunnersIT} on PostgreSQL: runners keep their rows in the runner table, read by every
 * process through the database; each test in a schema of its own. A runner that hangs is told
 * from a live one by its heartbeats alone.
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

  @Test
  void aHungRunnerTurnsGoneAndRunningAgainWhenItWakes() throws Exception {
    ok("start", "nap");
    FsmProcess runner = runInBackground("run", "--workers", "1");
    awaitRunner(runner.pid(), "running", r -> r.get("held").asInt() == 1);
    signal("STOP", runner.pid());
    try {
      Await.until("the stopped runner to show as gone", Duration.ofSeconds(30),
          () -> status(runner.pid()).equals("gone"));
      assertThat(json("runners").get("live").asInt()).isZero();
      assertThat(ok("watch", "-n", "1").out()).contains("no runner");
    } finally {
      signal("CONT", runner.pid());
    }
    awaitRunner(runner.pid(), "running", r -> true);
    assertThat(ok("runners").out()).endsWith("1 runner serves this store\n");
  }

  private static void signal(String name, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -%s %d", name, pid).isZero();
  }
}
