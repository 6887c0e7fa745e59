package dev.fsm.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.control.ControlServer;
import dev.fsm.control.SocketControl;
import dev.fsm.operations.Operations;
import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.store.embedded.owner.StoreLock;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The choice every verb makes between the owner's socket and opening the store itself. */
class ControlsTest {

  @TempDir Path store;
  private final Operations local = FakeOperations.answering("local");
  private final AtomicInteger localOpens = new AtomicInteger();

  private Operations openLocal() {
    localOpens.incrementAndGet();
    return local;
  }

  @Test
  void missingStoreFolderIsLeftToLocal() {
    try (Operations c = Controls.open(store.resolve("nothing-here"), this::openLocal)) {
      assertThat(c).isSameAs(local);
    }
  }

  @Test
  void noOwnerMeansLocal() {
    try (Operations c = Controls.open(store, this::openLocal)) {
      assertThat(c).isSameAs(local);
    }
  }

  @Test
  void staleSocketMeansLocal() throws IOException {
    try (ServerSocketChannel killed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      killed.bind(UnixDomainSocketAddress.of(store.resolve("control.sock")));
    }
    try (Operations c = Controls.open(store, this::openLocal)) {
      assertThat(c).isSameAs(local);
    }
  }

  @Test
  void liveOwnerInThisProcessIsReachedOverTheSocket() {
    try (ControlServer server = ControlServer.start(store, FakeOperations.answering("local"), "shell");
        Operations c = Controls.open(store, this::openLocal)) {
      assertThat(c).isInstanceOf(SocketControl.class);
      assertThat(c.via()).isEqualTo("shell pid " + ProcessHandle.current().pid());
      assertThat(c.machineNames()).hasSize(2);
      assertThat(localOpens).hasValue(0);
    }
  }

  @Test
  void runnerThatTookTheStoreMeanwhileIsWaitedFor() throws Exception {
    AtomicReference<ControlServer> runner = new AtomicReference<>();
    StoreInUseException inUse = inUse(1);
    // The runner locks the store first and binds its socket a few attempts later.
    try (Operations c = Controls.open(store, () -> {
      if (localOpens.incrementAndGet() == 3) {
        runner.set(ControlServer.start(store, FakeOperations.answering("local"), "runner"));
      }
      throw inUse;
    }, 5_000_000_000L)) {
      assertThat(c).isInstanceOf(SocketControl.class);
      assertThat(localOpens).hasValue(3);
    } finally {
      runner.get().close();
    }
  }

  @Test
  void ownerThatNeverAnswersEndsInTheStoreInUseError() throws Exception {
    StoreInUseException inUse = inUse(1);
    assertThatThrownBy(() -> Controls.open(store, () -> {
      localOpens.incrementAndGet();
      throw inUse;
    }, 200_000_000L)).isSameAs(inUse);
    assertThat(localOpens.get()).isGreaterThan(1);
  }

  @Test
  void storeHeldInThisProcessWithoutASocketFailsAtOnce() {
    try (StoreLock held = StoreLock.acquire(store, "test")) {
      assertThatThrownBy(() -> Controls.open(store, () -> {
        localOpens.incrementAndGet();
        StoreLock.acquire(store, "second").close();
        return local;
      }, 60_000_000_000L)).isInstanceOf(StoreInUseException.class);
      assertThat(localOpens).hasValue(1);
    }
  }

  /** Another process's claim, as the store would report it. */
  private static StoreInUseException inUse(long pid) throws Exception {
    Constructor<StoreInUseException> c = StoreInUseException.class
        .getDeclaredConstructor(String.class, OptionalLong.class);
    c.setAccessible(true);
    return c.newInstance("store is in use by process " + pid + " (fsm run)", OptionalLong.of(pid));
  }
}
