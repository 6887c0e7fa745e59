package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.AnnouncedBreaker;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.Store;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With no runner of its own, a command shows a shared store's breaker as its runners last
 * announced it while they hold it open; replaying the histories could say closed meanwhile.
 */
class AnnouncedBreakerTest {

  private static final Instant NOW = Instant.parse("2026-11-29T19:00:00Z");
  private static final String BANK = """
      machine: bank
      breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 30s}
      states:
        pay:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;

  @Test
  void anOpenBreakerTheRunnersAnnouncedShowsOpenThenHalfOpenThenAsReplayed() throws IOException {
    Path file = dir.resolve("bank.yaml");
    Files.writeString(file, BANK);
    InMemoryStore real = new InMemoryStore();
    AtomicReference<AnnouncedBreaker> news = new AtomicReference<>();
    Store shared = sharing(real, news);
    ops(shared, NOW).start(new MachineSource("bank", file, BANK),
        List.of(new NewTask("t1", null, null)));

    assertThat(breaker(shared, NOW)).isEqualTo(new MachineBreaker("bank", "closed", 0, 0, null));
    Instant until = NOW.plusSeconds(30);
    news.set(new AnnouncedBreaker(
        new BreakerNews("bank", true, until, Duration.ofSeconds(30), 0.5, 20), NOW));
    assertThat(breaker(shared, NOW)).isEqualTo(new MachineBreaker("bank", "open", 0.5, 20, until));
    assertThat(breaker(shared, until.plusSeconds(1)))
        .isEqualTo(new MachineBreaker("bank", "half-open", 0.5, 20, null));
    assertThat(breaker(shared, until.plusSeconds(61))).as("too old to trust: replayed")
        .isEqualTo(new MachineBreaker("bank", "closed", 0, 0, null));
    news.set(new AnnouncedBreaker(BreakerNews.closed("bank"), NOW));
    assertThat(breaker(shared, NOW)).isEqualTo(new MachineBreaker("bank", "closed", 0, 0, null));
  }

  @Test
  void afterTheRunnersClosedItOnlyTheAttemptsSinceCount() throws IOException {
    Path file = dir.resolve("bank.yaml");
    Files.writeString(file, BANK);
    InMemoryStore real = new InMemoryStore();
    AtomicReference<AnnouncedBreaker> news = new AtomicReference<>();
    Store shared = sharing(real, news);
    ops(shared, NOW).start(new MachineSource("bank", file, BANK), List.of());
    String version = real.versions("bank").get(0).version();
    List<Transition> errors = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      errors.add(new Transition(NOW.minusSeconds(50 - i), "pay", "error", "pay", 10, i + 1,
          "runner:1/w1", "down"));
    }
    real.restore(List.of(new TaskHistory(new Task("t1", "bank", version, "pay",
        TaskStatus.RUNNABLE, "{}", 6, List.of(), NOW.minusSeconds(60), NOW.minusSeconds(60),
        NOW.minusSeconds(45), NOW, null), errors)));

    assertThat(breaker(shared, NOW).state()).as("six errors in a row, replayed")
        .isNotEqualTo("closed");
    news.set(new AnnouncedBreaker(BreakerNews.closed("bank"), NOW.minusSeconds(30)));
    assertThat(breaker(shared, NOW)).as("the runners closed it after them")
        .isEqualTo(new MachineBreaker("bank", "closed", 0, 0, null));
  }

  private static Store sharing(InMemoryStore real, AtomicReference<AnnouncedBreaker> news) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("breakerNews")) {
            return Optional.ofNullable(news.get());
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private MachineBreaker breaker(Store store, Instant at) {
    return ops(store, at).breakers().stream().filter(b -> b.machine().equals("bank"))
        .findFirst().orElseThrow();
  }

  private StoreOperations ops(Store store, Instant at) {
    return new StoreOperations(store, new MachineLibrary(store, dir),
        Clock.fixed(at, ZoneOffset.UTC), "user:ann", OperatorListener.NONE, false);
  }
}
