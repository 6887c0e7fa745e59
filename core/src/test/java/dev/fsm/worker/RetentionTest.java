package dev.fsm.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.RunListener;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner's retention purges by the newest version's {@code retention:}, machine by machine. */
class RetentionTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final String KEEP_1H = "machine: order\nretention: 1h\nstates:\n"
      + "  pay: {run: builtin:noop, on: {ok: done}}\n  done: {final: completed}\n";
  private static final String KEEP_FOREVER = "machine: order\nstates:\n"
      + "  pay: {run: builtin:noop, on: {ok: done}}\n  done: {final: completed}\n";
  private static final String REFUND_2D = "machine: refund\nretention: 2d\nstates:\n"
      + "  go: {run: builtin:noop, on: {ok: done}}\n  done: {final: completed}\n";

  @TempDir Path machines;

  private final InMemoryStore store = new InMemoryStore();
  private final List<String> heard = new ArrayList<>();
  private final RunListener listener = new RunListener() {
    @Override
    public void purged(String machine, Duration retention, long tasks) {
      heard.add(machine + " " + retention + " " + tasks);
    }

    @Override
    public void problem(String message) {
      heard.add("problem: " + message);
    }
  };

  @Test
  void eachMachinesNewestRetentionPurgesItsOldTerminalTasksAndNothingElse() {
    MachineVersion order = store.register("order", KEEP_FOREVER, T0);
    store.register("order", KEEP_1H, T0);
    MachineVersion refund = store.register("refund", REFUND_2D, T0);
    store.create(List.of(task("o-old", "order", order, "pay"), task("o-new", "order", order,
        "pay"), task("o-running", "order", order, "pay"), task("r-old", "refund", refund, "go"),
        task("r-older", "refund", refund, "go")));
    finish("o-old", T0);
    finish("o-new", T0.plus(Duration.ofMinutes(90)));
    finish("r-old", T0);
    finish("r-older", T0.minus(Duration.ofDays(2)));

    Retention retention = new Retention(store, new MachineLibrary(store, machines),
        Clock.fixed(T0.plus(Duration.ofHours(2)), ZoneOffset.UTC), listener);
    try {
      retention.pass();
    } finally {
      retention.close();
    }

    // The tasks pinned to the version without retention go by the newest version's 1h.
    assertThat(heard).containsExactly("order PT1H 1", "refund PT48H 1");
    assertThat(store.get("o-old")).isEmpty();
    assertThat(store.get("o-new")).isPresent();
    assertThat(store.get("o-running")).isPresent();
    assertThat(store.get("r-old")).isPresent();
    assertThat(store.get("r-older")).isEmpty();
  }

  @Test
  void aMachineWithoutRetentionKeepsItsTasks() {
    MachineVersion order = store.register("order", KEEP_1H, T0);
    store.register("order", KEEP_FOREVER, T0);
    store.create(List.of(task("o-old", "order", order, "pay")));
    finish("o-old", T0);

    Retention retention = new Retention(store, new MachineLibrary(store, machines),
        Clock.fixed(T0.plus(Duration.ofDays(400)), ZoneOffset.UTC), listener);
    try {
      retention.pass();
    } finally {
      retention.close();
    }
    assertThat(heard).isEmpty();
    assertThat(store.get("o-old")).isPresent();
  }

  @Test
  void anOutageIsLeftToTheRunnerToTellAndAnyOtherFailureIsToldOnce() {
    store.register("order", KEEP_1H, T0);
    RuntimeException[] failure = {new StoreUnavailableException("cannot reach PostgreSQL")};
    Store failing = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("purge")) {
            throw failure[0];
          }
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    store.create(List.of(task("o-old", "order", store.versions("order").get(0), "pay")));
    finish("o-old", T0);
    Retention retention = new Retention(failing, new MachineLibrary(failing, machines),
        Clock.fixed(T0.plus(Duration.ofHours(2)), ZoneOffset.UTC), listener);
    try {
      retention.passOrTell();
      assertThat(heard).isEmpty();
      failure[0] = new IllegalStateException("disk on fire");
      retention.passOrTell();
      retention.passOrTell();
    } finally {
      retention.close();
    }
    assertThat(heard).containsExactly("problem: retention: purging stopped for now (disk on"
        + " fire); trying again in 60 s");
  }

  private static Task task(String id, String machine, MachineVersion v, String state) {
    return new Task(id, machine, v.version(), state, TaskStatus.RUNNABLE, "{}", 0, List.of(), T0,
        T0, null, T0, null);
  }

  private void finish(String id, Instant at) {
    store.update(id, t -> new Change(new Task(t.id(), t.machine(), t.version(), "done",
        TaskStatus.COMPLETED, t.context(), 0, t.errors(), t.created(), at, at, null, null),
        new Transition(at, t.state(), "ok", "done", 1, 1, "runner", "")));
  }
}
