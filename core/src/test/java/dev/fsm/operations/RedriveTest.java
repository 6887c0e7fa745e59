package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive} through the operations: where the task goes back to, and who is woken. */
class RedriveTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final String ORDER = """
      machine: order
      states:
        pay:
          run: builtin:noop
          on: {ok: ship, declined: cancelled}
        ship:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
        cancelled: {final: failed}
      """;

  @TempDir Path dir;

  private InMemoryStore store;
  private StoreOperations operations;
  private final List<String> heard = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    Path file = dir.resolve("order.yaml");
    Files.writeString(file, ORDER);
    store = new InMemoryStore();
    MachineLibrary machines = new MachineLibrary(store, dir);
    operations = new StoreOperations(store, machines, Clock.fixed(NOW, ZoneOffset.UTC),
        "user:ann", new OperatorListener() {
          @Override
          public void upgradePending(Task task) {}

          @Override
          public void commandApplied(Task after, Command command) {
            heard.add(command.word() + " " + after.id());
          }

          @Override
          public void workArrived() {
            heard.add("work");
          }
        }, false);
    operations.start(new MachineSource("order", file, ORDER),
        List.of(new NewTask("t1", null, null), new NewTask("t2", null, null),
            new NewTask("t3", null, null)));
    heard.clear();
  }

  /** The engine's record of an attempt: into {@code state} with {@code status}. */
  private void record(String id, String event, String state, TaskStatus status) {
    store.update(id, t -> new Change(new Task(t.id(), t.machine(), t.version(), state, status,
        t.context(), t.attempt() + 1, List.of(new TaskError(NOW, "503 from the bank")),
        t.created(), NOW, NOW, null, null),
        new Transition(NOW, t.state(), event, state, 5, t.attempt(), "runner:r1", "")));
  }

  @Test
  void aRefusalNamesTheStatusATaskIsShownWith() throws IOException {
    String gate = """
        machine: gate
        states:
          closed:
            on: {open: opened}
          opened: {final: completed}
        """;
    Path file = Files.writeString(dir.resolve("gate.yaml"), gate);
    operations.start(new MachineSource("gate", file, gate), List.of(new NewTask("g1", null, null)));

    assertThatThrownBy(() -> operations.send("g1", Command.REDRIVE, null, null))
        .isInstanceOf(FsmException.class)
        .hasMessage("task `g1`: `redrive` is not allowed while the task is waiting (runnable, for"
            + " commands); allowed now: run, pause, sleep, kill, error, complete, checkpoint,"
            + " release");
    assertThatThrownBy(() -> operations.send("t1", Command.REDRIVE, null, null))
        .hasMessageContaining("while the task is runnable; allowed now");
  }

  @Test
  void aTaskThatFailedByItsPolicyIsRunnableAgainWhereItStoppedAndTheRunnerIsWoken() {
    record("t1", "error", "pay", TaskStatus.FAILED);

    Task after = operations.send("t1", Command.REDRIVE, null, "db back");

    assertThat(after.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(after.state()).isEqualTo("pay");
    assertThat(after.errors()).isEmpty();
    assertThat(after.attempt()).isZero();
    assertThat(after.claimableAt(NOW)).isTrue();
    assertThat(heard).containsExactly("redrive t1", "work");
    assertThat(store.history("t1")).containsExactly(
        new Transition(NOW, "pay", "error", "pay", 5, 0, "runner:r1", ""),
        new Transition(NOW, "pay", "redrive", "pay", 0, 1, "user:ann", "db back"));
  }

  @Test
  void aTaskThatEndedInAFailedFinalStateGoesBackToTheStateItCameFrom() {
    record("t1", "ok", "ship", TaskStatus.RUNNABLE);
    record("t1", "declined", "cancelled", TaskStatus.FAILED);

    Task after = operations.send("t1", Command.REDRIVE, null, null);

    assertThat(after.state()).isEqualTo("ship");
    assertThat(after.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(store.history("t1").get(2)).isEqualTo(
        new Transition(NOW, "cancelled", "redrive", "ship", 0, 2, "user:ann", ""));
  }

  @Test
  void aKilledTaskGoesWhereToSays() {
    operations.send("t1", Command.KILL, null, null);

    Task after = operations.send("t1", Command.REDRIVE, null, "", "ship");

    assertThat(after.state()).isEqualTo("ship");
    assertThat(after.status()).isEqualTo(TaskStatus.RUNNABLE);
  }

  @Test
  void aToThatIsNoStateOrAFinalOneIsRefusedNamingTheStates() {
    operations.send("t1", Command.KILL, null, null);
    Task before = store.get("t1").orElseThrow();

    assertThatThrownBy(() -> operations.send("t1", Command.REDRIVE, null, null, "shipp"))
        .isInstanceOf(FsmException.class).hasMessage("task `t1`: `shipp` is not a state of"
            + " machine `order` version " + before.version() + "; give --to one of: pay, ship");
    assertThatThrownBy(() -> operations.send("t1", Command.REDRIVE, null, null, "done"))
        .hasMessage("task `t1`: `done` is a final state, where a task cannot run; give --to one"
            + " of: pay, ship");
    assertThatThrownBy(() -> operations.send("t1", Command.REDRIVE, null, null, " "))
        .hasMessage("task `t1`: --to is empty; give --to one of: pay, ship");
    assertThat(store.get("t1")).contains(before);
  }

  @Test
  void aCompletedTaskIsRefusedAndLeftAsItWas() {
    record("t1", "ok", "done", TaskStatus.COMPLETED);
    Task before = store.get("t1").orElseThrow();

    assertThatThrownBy(() -> operations.send("t1", Command.REDRIVE, null, null, "pay"))
        .hasMessage("task `t1`: `redrive` is not allowed: the task is completed, which is"
            + " final; no command changes it");
    assertThat(store.get("t1")).contains(before);
    assertThat(heard).isEmpty();
  }

  @Test
  void bulkRedriveCountsFirstThenChangesTheEndedTasksOnly() {
    record("t1", "error", "pay", TaskStatus.FAILED);
    record("t2", "declined", "cancelled", TaskStatus.FAILED);
    TaskSelector failed = new TaskSelector("order", Optional.empty(),
        Set.of(ShownStatus.FAILED));
    TaskSelector all = new TaskSelector("order", Optional.empty(), Set.of());

    BulkSendReport dry = operations.sendAll(failed, Command.REDRIVE, null, null, true);
    assertThat(dry.matched()).isEqualTo(2);
    assertThat(dry.changed()).containsExactly("t1", "t2");
    assertThat(store.get("t1").orElseThrow().status()).isEqualTo(TaskStatus.FAILED);

    BulkSendReport real = operations.sendAll(all, Command.REDRIVE, null, "db back", false);
    assertThat(real.matched()).isEqualTo(3);
    assertThat(real.changed()).containsExactly("t1", "t2");
    assertThat(real.refused()).extracting(BulkSendReport.Refusal::id).containsExactly("t3");
    assertThat(store.get("t2").orElseThrow().state()).isEqualTo("pay");
  }
}
