package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.Store;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bulk send reaches the tasks its selection matches when the command reaches each of them: one
 * that another operator moved out of it after it was listed is left alone.
 */
class BulkSendSelectionTest {

  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final String JOB = """
      machine: job
      states:
        hold:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;

  @Test
  void aTaskResumedAfterBeingListedIsNotKilledByAKillOfPausedTasks() throws IOException {
    Path file = dir.resolve("job.yaml");
    Files.writeString(file, JOB);
    InMemoryStore real = new InMemoryStore();
    StoreOperations direct = operations(real);
    direct.start(new MachineSource("job", file, JOB), List.of(new NewTask("a", null, null),
        new NewTask("b", null, null), new NewTask("c", null, null)));
    TaskSelector job = new TaskSelector("job", Optional.empty(), Set.of());
    direct.sendAll(job, Command.PAUSE, null, "qa", false);

    // Another operator resumes b just as the kill, which listed it paused, reaches it.
    AtomicBoolean raced = new AtomicBoolean();
    Store racing = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("update") && "b".equals(args[0])
              && raced.compareAndSet(false, true)) {
            direct.send("b", Command.RUN, null, "other operator");
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    BulkSendReport kill = operations(racing).sendAll(
        new TaskSelector("job", Optional.empty(), Set.of(ShownStatus.PAUSED)), Command.KILL,
        null, "clean up", false);

    assertThat(raced).isTrue();
    assertThat(kill.changed()).containsExactly("a", "c");
    assertThat(kill.matched()).isEqualTo(2);
    assertThat(kill.refused()).isEmpty();
    assertThat(real.get("b").orElseThrow().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(real.get("a").orElseThrow().status()).isEqualTo(TaskStatus.KILLED);
  }

  private StoreOperations operations(Store store) {
    return new StoreOperations(store, new MachineLibrary(store, dir),
        Clock.fixed(NOW, ZoneOffset.UTC), "user:ann", OperatorListener.NONE, false);
  }
}
