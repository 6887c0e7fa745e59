package dev.fsm.store.embedded.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner at a time, a clear message naming it, no stale lock after kill -9, and waiters served
 * in the order they came.
 */
class StoreLockTest {

  @TempDir Path store;

  @Test
  void aSecondOpenInTheSameProcessIsRefusedUntilTheFirstCloses() {
    try (StoreLock first = StoreLock.acquire(store, "test")) {
      assertThatThrownBy(() -> StoreLock.acquire(store, "again"))
          .isInstanceOf(StoreInUseException.class)
          .hasMessage("store " + store + " is already open in this process");
    }
    StoreLock.acquire(store, "after close").close();
  }

  @Test
  void anotherProcessNamesItsPidAndAKilledOwnerNeverBlocks() throws Exception {
    Process holder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
        store.toString())
        .redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
          StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("locked");

      assertThatThrownBy(() -> StoreLock.acquire(store, "test"))
          .isInstanceOfSatisfying(StoreInUseException.class,
              e -> assertThat(e.ownerPid()).hasValue(holder.pid()))
          .hasMessage("store " + store + " is in use by process " + holder.pid()
              + " (lock holder); wait for it to finish, or stop it, then try again");

      holder.destroyForcibly();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      StoreLock.acquire(store, "after kill -9").close();
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  void waitersInLineGetTheStoreInTheOrderTheyCame() throws Exception {
    List<Held> all = new ArrayList<>();
    try {
      Held holder = Held.start(store, false);
      all.add(holder);
      assertThat(holder.next()).isEqualTo("locked");
      List<Held> line = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        Held waiter = Held.start(store, true);
        all.add(waiter);
        line.add(waiter);
        long ticket = i;
        awaitUntil(() -> lastTicket() == ticket);
      }
      holder.release();
      for (int i = 0; i < line.size(); i++) {
        Held turn = line.get(i);
        assertThat(turn.nextBesideNotices()).as("waiter %d", i + 1).isEqualTo("locked");
        for (Held later : line.subList(i + 1, line.size())) {
          assertThat(later.lines).as("a waiter behind %d", i + 1).doesNotContain("locked");
        }
        turn.release();
      }
    } finally {
      all.forEach(Held::kill);
    }
  }

  @Test
  void aWaiterKilledInLineHoldsNobodyUp() throws Exception {
    List<Held> all = new ArrayList<>();
    try {
      Held holder = Held.start(store, false);
      all.add(holder);
      assertThat(holder.next()).isEqualTo("locked");
      for (int i = 1; i <= 3; i++) {
        all.add(Held.start(store, true));
        long ticket = i;
        awaitUntil(() -> lastTicket() == ticket);
      }
      all.get(2).kill();
      assertThat(all.get(2).process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      holder.release();
      assertThat(all.get(1).nextBesideNotices()).isEqualTo("locked");
      all.get(1).release();
      assertThat(all.get(3).nextBesideNotices()).isEqualTo("locked");
    } finally {
      all.forEach(Held::kill);
    }
  }

  @Test
  void aWaitOverASecondSaysWhomItWaitsFor() throws Exception {
    Held holder = Held.start(store, false);
    Held waiter = null;
    try {
      assertThat(holder.next()).isEqualTo("locked");
      waiter = Held.start(store, true);
      assertThat(waiter.next()).isEqualTo("notice: waiting for process " + holder.process.pid()
          + " (lock holder) to release store " + store);
      holder.release();
      assertThat(waiter.next()).isEqualTo("locked");
    } finally {
      holder.kill();
      if (waiter != null) {
        waiter.kill();
      }
    }
  }

  @Test
  void aHolderThatServesOthersEndsTheWait() throws Exception {
    Held holder = Held.start(store, false);
    try {
      assertThat(holder.next()).isEqualTo("locked");
      AtomicInteger asked = new AtomicInteger();
      assertThatThrownBy(() -> StoreLock.acquire(store, "test",
          StoreWaiting.inLine(n -> { }, () -> asked.incrementAndGet() == 3)))
          .isInstanceOfSatisfying(StoreInUseException.class,
              e -> assertThat(e.ownerPid()).hasValue(holder.process.pid()));
      assertThat(asked).hasValue(3);
    } finally {
      holder.kill();
    }
  }

  private long lastTicket() {
    try {
      byte[] bytes = Files.readAllBytes(store.resolve(StoreQueue.FILE));
      return bytes.length < 8 ? 0 : ByteBuffer.wrap(bytes).getLong();
    } catch (IOException e) {
      return 0;
    }
  }

  private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waited 60 s").isNegative();
      Thread.sleep(10);
    }
  }

  /** A {@link LockHolder} process, its output lines gathered as they come. */
  private static final class Held {
    final Process process;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private Held(Process process) {
      this.process = process;
      Thread reader = new Thread(() -> {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(
            process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = out.readLine()) != null; ) {
            lines.add(line);
          }
        } catch (IOException e) {
          // The process ended.
        }
      });
      reader.setDaemon(true);
      reader.start();
    }

    static Held start(Path store, boolean inLine) throws IOException {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
          store.toString()));
      if (inLine) {
        command.add("line");
      }
      return new Held(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
          .start());
    }

    String next() throws InterruptedException {
      String line = lines.poll(60, TimeUnit.SECONDS);
      assertThat(line).as("a line within 60 s").isNotNull();
      return line;
    }

    /** The next line that is not a notice: waiters get one after a second. */
    String nextBesideNotices() throws InterruptedException {
      String line = next();
      while (line.startsWith("notice: ")) {
        line = next();
      }
      return line;
    }

    void release() throws IOException, InterruptedException {
      process.getOutputStream().close();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    void kill() {
      process.destroyForcibly();
    }
  }
}
