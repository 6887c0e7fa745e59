package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.VersionCount;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StoreOperations#versionCounts}: from the counts for one version, by tasks for more. */
class VersionCountsTest {

  private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");
  private static final String V1 = """
      machine: order
      states:
        pay: {run: builtin:noop, on: {ok: done}}
        done: {final: completed}
      """;
  private static final String V2 = """
      machine: order
      states:
        pay: {run: builtin:noop, on: {ok: ship}}
        ship: {run: builtin:noop, on: {ok: done}}
        done: {final: completed}
      """;

  @TempDir Path dir;

  @Test
  void oneVersionIsCountedFromTheStoresCountsAndSeveralByTheirTasks() throws Exception {
    try (InMemoryStore store = new InMemoryStore()) {
      StoreOperations ops = new StoreOperations(store, new MachineLibrary(store, dir),
          Clock.fixed(NOW, ZoneOffset.UTC), "user:ann", OperatorListener.NONE, false);
      Path file = dir.resolve("order.yaml");
      Files.writeString(file, V1);
      ops.start(new MachineSource("order", file, V1), List.of(new NewTask("a", null, null),
          new NewTask("b", null, null), new NewTask("c", null, null)));
      ops.send("b", Command.PAUSE, null, null);
      String v1 = store.versions("order").get(0).version();

      assertThat(ops.versionCounts("order")).containsExactlyInAnyOrder(
          new VersionCount("order", v1, "pay", TaskStatus.RUNNABLE, 2),
          new VersionCount("order", v1, "pay", TaskStatus.PAUSED, 1));
      assertThat(ops.versionCounts("none")).isEmpty();

      Files.writeString(file, V2);
      ops.start(new MachineSource("order", file, V2), List.of(new NewTask("d", null, null)));
      String v2 = store.versions("order").get(1).version();
      assertThat(ops.versionCounts("order")).containsExactlyInAnyOrder(
          new VersionCount("order", v1, "pay", TaskStatus.RUNNABLE, 2),
          new VersionCount("order", v1, "pay", TaskStatus.PAUSED, 1),
          new VersionCount("order", v2, "pay", TaskStatus.RUNNABLE, 1));
    }
  }
}
