package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One owner at a time, a clear message naming it, and no stale lock after kill -9. */
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
}
