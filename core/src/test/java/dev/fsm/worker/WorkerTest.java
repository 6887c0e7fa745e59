package dev.fsm.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.control.SocketControl;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.store.Ownership;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How Worker assembles a store, runner, operator service and socket, and takes them down. */
class WorkerTest {

  private static final String CHAIN = """
      machine: chain
      states:
        a: {run: builtin:noop, on: {ok: b}}
        b: {run: builtin:noop, on: {ok: done}}
        done: {final: completed}
      """;

  @TempDir Path dir;

  private MachineSource chain() throws Exception {
    Path file = Files.writeString(dir.resolve("chain.yaml"), CHAIN);
    return new MachineSource("chain", file, CHAIN);
  }

  private static RunnerOptions untilIdle() {
    return RunnerOptions.of(2, RunnerOptions.Mode.UNTIL_IDLE, "runner:test");
  }

  @Test
  void anAnnouncedRunnerKeepsItsRecordInTheStoreAndMarksItStoppedWhenItCloses()
      throws Exception {
    InMemoryStore store = new InMemoryStore();
    java.time.Instant before = store.clock().instant();
    RunnerOptions options = untilIdle().onlyMachines(java.util.Set.of("chain"));
    try (Worker worker = Worker.builder(store).machines(dir).runner(options, RunListener.NONE)
        .announce("host-a").build()) {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (store.runners(before).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      dev.fsm.store.RunnerRecord seen = store.runners(before).get(0);
      assertThat(seen.id()).isEqualTo("runner:test");
      assertThat(seen.host()).isEqualTo("host-a");
      assertThat(seen.pid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(seen.workers()).isEqualTo(2);
      assertThat(seen.machines()).containsExactly("chain");
      assertThat(seen.stopped()).isFalse();
      assertThat(seen.status(store.clock().instant()))
          .isEqualTo(dev.fsm.store.RunnerRecord.Status.RUNNING);
      worker.runner().orElseThrow().run();
    }
  }

  @Test
  void aWorkerClosingWritesTheCleanStopBeforeTheStoreCloses() throws Exception {
    Path folder = dir.resolve("store");
    java.time.Instant before = java.time.Instant.now().minusSeconds(1);
    try (Worker worker = Worker.builder(dev.fsm.store.embedded.EmbeddedStore.open(folder))
        .machines(dir).runner(untilIdle(), RunListener.NONE).announce("host-b").build()) {
      worker.operations().start(chain(), List.of(new NewTask("t1", null, null)));
      worker.runner().orElseThrow().run();
    }
    try (var reopened = dev.fsm.store.embedded.EmbeddedStore.open(folder)) {
      List<dev.fsm.store.RunnerRecord> runners = reopened.runners(before);
      assertThat(runners).hasSize(1);
      assertThat(runners.get(0).stopped()).isTrue();
      assertThat(runners.get(0).held()).isZero();
      assertThat(runners.get(0).host()).isEqualTo("host-b");
      assertThat(runners.get(0).status(java.time.Instant.now().plusSeconds(3600)))
          .isEqualTo(dev.fsm.store.RunnerRecord.Status.STOPPED);
    }
  }

  @Test
  void aShortRunClosesWithoutTellingOfAFailedRunnerRecord() throws Exception {
    // The first beat is written as the runner starts; a run with nothing to do closes while it
    // may still be writing, and must neither break that write nor tell of a failure.
    List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
    RunListener listener = new RunListener() {
      @Override
      public void problem(String message) {
        problems.add(message);
      }
    };
    for (int i = 0; i < 20; i++) {
      try (Worker worker = Worker.builder(dev.fsm.store.embedded.EmbeddedStore.open(
          dir.resolve("store"))).machines(dir).runner(untilIdle(), listener).announce("host-c")
          .build()) {
        worker.runner().orElseThrow().run();
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void aRunnerRunsWhatItsOperationsStarted() throws Exception {
    AtomicInteger recorded = new AtomicInteger();
    RunListener counting = new RunListener() {
      @Override
      public void recorded(Change change) {
        recorded.incrementAndGet();
      }
    };
    InMemoryStore store = new InMemoryStore();
    try (Worker worker = Worker.builder(store).machines(dir).runner(untilIdle(), counting)
        .operator("user:test").build()) {
      List<Task> started = worker.operations().start(chain(),
          List.of(new NewTask("t1", null, null), new NewTask("t2", null, null)));
      assertThat(started).hasSize(2);
      worker.runner().orElseThrow().run();
      assertThat(worker.store().list(TaskQuery.all(100))).extracting(Task::status)
          .containsOnly(TaskStatus.COMPLETED);
      assertThat(recorded).hasValue(4);
      assertThat(worker.operations().history("t1")).extracting(Transition::by)
          .allMatch(by -> by.startsWith("runner:test/"));
      worker.operations().start(chain(), List.of(new NewTask("t3", null, null)));
      worker.operations().send("t3", Command.KILL, null, "not needed");
      List<Transition> killed = worker.operations().history("t3");
      assertThat(killed.get(killed.size() - 1).by()).isEqualTo("user:test");
      assertThat(worker.server()).isEmpty();
    }
    assertThatThrownBy(() -> store.list(TaskQuery.all(100)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anOwnedStoreIsServedOnItsSocketUntilClosed() throws Exception {
    InMemoryStore store = new InMemoryStore();
    Worker worker = Worker.builder(store).machines(dir)
        .serve(Ownership.OWNER_WITH_SOCKET, dir, "runner").build();
    try (SocketControl client = SocketControl.connect(dir).orElseThrow()) {
      assertThat(client.via()).isEqualTo("runner pid " + ProcessHandle.current().pid());
      client.start(chain(), List.of(new NewTask("t1", null, null)));
      assertThat(worker.store().get("t1")).isPresent();
      assertThat(worker.runner()).isEmpty();
    } finally {
      worker.close();
    }
    assertThat(SocketControl.connect(dir)).isEmpty();
  }

  @Test
  void aProgramLedgerWithNothingLeftStopsNothing() throws Exception {
    Path ledger = Files.createDirectories(dir.resolve("programs"));
    try (Worker worker = Worker.builder(new InMemoryStore()).machines(dir)
        .programLedger(ledger).runner(untilIdle(), RunListener.NONE).build()) {
      assertThat(worker.leftoversStopped()).isZero();
    }
  }

  @Test
  void aSharedStoreGetsNoSocket() {
    try (Worker worker = Worker.builder(new InMemoryStore()).machines(dir)
        .runner(untilIdle(), RunListener.NONE)
        .serve(Ownership.SHARED, dir, "runner").build()) {
      assertThat(worker.server()).isEmpty();
      assertThat(SocketControl.connect(dir)).isEmpty();
    }
  }

  @Test
  void aWorkerThatCannotServeClosesItsStore() {
    InMemoryStore store = new InMemoryStore();
    Path nowhere = dir.resolve("missing").resolve("deeper");
    assertThatThrownBy(() -> Worker.builder(store).machines(dir)
        .runner(untilIdle(), RunListener.NONE)
        .serve(Ownership.OWNER_WITH_SOCKET, nowhere, "runner").build())
        .isInstanceOf(FsmException.class)
        .hasMessageContaining("cannot create the control socket");
    assertThatThrownBy(() -> store.list(TaskQuery.all(100)))
        .isInstanceOf(IllegalStateException.class);
  }
}
