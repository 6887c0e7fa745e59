package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.PendingUpgrades;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.VersionCount;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsm upgrade} through the operations on a store: what it changes, and what it leaves. */
class UpgradeRunTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
  private static final String V1 = """
      machine: order
      states:
        pay:
          run: builtin:noop
          on: {ok: ship}
        ship:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;

  private InMemoryStore store;
  private MachineLibrary machines;
  private StoreOperations operations;
  /** Told from the upgrade's writer threads, so a list that takes concurrent adds. */
  private final List<String> heard = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    store = new InMemoryStore();
    machines = new MachineLibrary(store, dir);
    operations = new StoreOperations(store, machines, Clock.fixed(NOW, ZoneOffset.UTC),
        "user:ann", new OperatorListener() {
          @Override
          public void commandApplied(Task after, Command command) {
            heard.add(command.word() + " " + after.id());
          }

          @Override
          public void upgradePending(Task task) {
            heard.add("pending " + task.id());
          }

          @Override
          public void workArrived() {
            heard.add("work");
          }
        }, false);
    operations.start(source(V1), List.of(new NewTask("a", null, null),
        new NewTask("b", null, null), new NewTask("c", null, null)));
    heard.clear();
  }

  private MachineSource source(String text) throws IOException {
    Path file = dir.resolve("order.yaml");
    Files.writeString(file, text);
    return new MachineSource("order", file, text);
  }

  private static String v2(String strategy) {
    return V1.replace("states:\n", "upgrade: " + strategy + "\nstates:\n")
        .replace("on: {ok: ship}", "on: {ok: send}").replace("  ship:", "  send:");
  }

  private void claim(String id) {
    store.update(id, t -> new Change(t.withLease(new dev.fsm.task.Lease("r1",
        NOW.plus(Duration.ofMinutes(5)))), new Transition(NOW, t.state(), "claim", t.state(), 0,
        t.attempt(), "r1", "")));
  }

  @Test
  void aDryRunChangesNothingNotEvenTheRegistration() throws IOException {
    UpgradeReport plan = operations.upgrade(source(v2("upgrade")), true);
    assertThat(plan.registered()).isTrue();
    assertThat(plan.number()).isEqualTo(2);
    assertThat(plan.older()).containsExactly(new UpgradeReport.FromVersion(1,
        MachineVersion.idOf(V1), 0, 3, 0, Map.of(), Map.of(), 0));
    assertThat(store.versions("order")).hasSize(1);
    assertThat(store.get("a").orElseThrow().version()).isEqualTo(MachineVersion.idOf(V1));
    assertThat(heard).isEmpty();
  }

  @Test
  void upgradeMovesIdleTasksMarksRunningOnesAndIsIdempotent() throws IOException {
    claim("b");
    store.update("c", t -> new Change(new Task(t.id(), t.machine(), t.version(), "ship",
        TaskStatus.PAUSED, t.context(), 0, t.errors(), t.created(), NOW, null, null, null),
        new Transition(NOW, "pay", "ok", "ship", 1, 1, "r1", "")));
    UpgradeReport done = operations.upgrade(source(v2("upgrade")), false);
    String v2 = store.versions("order").get(1).version();
    assertThat(new PendingUpgrades(store, machines).mayOwe(store.get("b").orElseThrow()))
        .isTrue();
    assertThat(done.older()).containsExactly(new UpgradeReport.FromVersion(1,
        MachineVersion.idOf(V1), 0, 1, 1, Map.of("ship", 1), Map.of("ship", 1), 0));
    assertThat(store.get("a").orElseThrow().version()).isEqualTo(v2);
    assertThat(store.get("b").orElseThrow().version()).as("running").isNotEqualTo(v2);
    Task c = store.get("c").orElseThrow();
    assertThat(c.status()).isEqualTo(TaskStatus.FAULT);
    assertThat(c.due()).isNull();
    assertThat(heard).containsExactly("pending b", "work");

    UpgradeReport again = operations.upgrade(source(v2("upgrade")), false);
    assertThat(again.registered()).isFalse();
    assertThat(again.older()).as("b is marked already").containsExactly(
        new UpgradeReport.FromVersion(1, MachineVersion.idOf(V1), 0, 0, 1, Map.of("ship", 1),
            Map.of(), 0));
    assertThat(store.history("b").stream().filter(t -> t.event().equals("upgrade")))
        .as("marked once").hasSize(1);

    // The runner records b's outcome (routed by v1: pay → ship), then finishes the move.
    store.update("b", t -> new Change(new Task(t.id(), t.machine(), t.version(), "ship",
        TaskStatus.RUNNABLE, t.context(), 0, t.errors(), t.created(), NOW, NOW, NOW, null),
        new Transition(NOW, "pay", "ok", "ship", 5, 1, "r1/w1", "")));
    assertThat(new PendingUpgrades(store, machines).finish("b", Clock.fixed(NOW, ZoneOffset.UTC), "r1")).isPresent();
    Task b = store.get("b").orElseThrow();
    assertThat(b.version()).isEqualTo(v2);
    assertThat(b.status()).as("ship is not in v2").isEqualTo(TaskStatus.FAULT);
    assertThat(new PendingUpgrades(store, machines).finish("b", Clock.fixed(NOW, ZoneOffset.UTC), "r1")).isEmpty();
    assertThat(operations.versionCounts("order")).containsExactlyInAnyOrder(
        new VersionCount("order", v2, "pay", TaskStatus.RUNNABLE, 1),
        new VersionCount("order", v2, "ship", TaskStatus.FAULT, 2));
  }

  @Test
  void abortKillsEvenTasksInFaultAndStopsRunningActions() throws IOException {
    claim("b");
    store.update("c", t -> new Change(new Task(t.id(), t.machine(), t.version(), t.state(),
        TaskStatus.FAULT, t.context(), 1, t.errors(), t.created(), NOW, null, null, null),
        new Transition(NOW, "pay", "error", "pay", 1, 1, "r1", "boom")));
    UpgradeReport done = operations.upgrade(source(v2("abort")), false);
    assertThat(done.older().get(0).aborted()).isEqualTo(3);
    for (String id : List.of("a", "b", "c")) {
      assertThat(store.get(id).orElseThrow().status()).isEqualTo(TaskStatus.KILLED);
      List<Transition> h = store.history(id);
      assertThat(h.get(h.size() - 1).reason()).isEqualTo("aborted by upgrade to v2 (v1→v2)");
    }
    assertThat(heard).contains("kill b");
  }

  @Test
  void continueChangesNoTaskAndNewTasksPinToTheNewest() throws IOException {
    UpgradeReport done = operations.upgrade(source(v2("continue")), false);
    assertThat(done.older().get(0).continued()).isEqualTo(3);
    assertThat(store.history("a")).isEmpty();
    assertThat(new PendingUpgrades(store, machines).mayOwe(store.get("a").orElseThrow()))
        .as("no later version upgrades: the claim reads no history for it").isFalse();
    Task d = operations.start(source(v2("continue")), List.of(new NewTask("d", null, null)))
        .get(0);
    assertThat(d.version()).isEqualTo(store.versions("order").get(1).version());
    Task e = operations.start(source(V1), List.of(new NewTask("e", null, null))).get(0);
    assertThat(store.versions("order")).as("a rollback").hasSize(3);
    assertThat(e.version()).isEqualTo(store.versions("order").get(2).version())
        .isNotEqualTo(MachineVersion.idOf(V1));
  }
}
