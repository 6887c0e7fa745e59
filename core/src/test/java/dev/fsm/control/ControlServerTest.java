package dev.fsm.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's life: where it binds, who may connect, many clients, and a clean close. */
class ControlServerTest {

  @TempDir Path store;
  private final FakeControl fake = new FakeControl();

  @Test
  void socketBesideTheStoreIsOwnerOnly() throws IOException {
    try (ControlServer server = ControlServer.start(store, fake, "runner")) {
      assertThat(server.socket()).isEqualTo(store.toRealPath().resolve("control.sock"));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(server.socket())))
          .isEqualTo("rw-------");
      assertThat(store.resolve("control.addr")).doesNotExist();
    }
    assertThat(store.resolve("control.sock")).doesNotExist();
  }

  @Test
  void longStorePathGetsAShortSocketNamedInTheStore() throws IOException {
    Path deep = Files.createDirectories(store.resolve("a".repeat(60)).resolve("b".repeat(60)));
    try (ControlServer server = ControlServer.start(deep, fake, "runner");
        SocketControl client = SocketControl.connect(deep).orElseThrow()) {
      assertThat(SocketLocation.fits(server.socket())).isTrue();
      assertThat(server.socket().startsWith(deep)).isFalse();
      assertThat(Files.readString(deep.resolve("control.addr"), StandardCharsets.UTF_8).strip())
          .isEqualTo(server.socket().toString());
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
          server.socket().getParent(), LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwx------");
      assertThat(client.machineNames()).hasSize(2);
    }
    assertThat(deep.resolve("control.addr")).doesNotExist();
  }

  @Test
  void staleSocketFileIsNoOwnerAndIsReplaced() throws IOException {
    try (ServerSocketChannel killed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      killed.bind(UnixDomainSocketAddress.of(store.resolve("control.sock")));
    }
    assertThat(store.resolve("control.sock")).exists();
    assertThat(SocketControl.connect(store)).isEmpty();
    try (ControlServer server = ControlServer.start(store, fake, "runner");
        SocketControl client = SocketControl.connect(store).orElseThrow()) {
      assertThat(client.get("t1")).isPresent();
    }
  }

  @Test
  void manyRequestsOnOneConnection() {
    try (ControlServer server = ControlServer.start(store, fake, "runner");
        SocketControl client = SocketControl.connect(store).orElseThrow()) {
      for (int i = 0; i < 2_000; i++) {
        assertThat(client.send("t" + i, Command.RUN, null, null).id()).isEqualTo("t" + i);
      }
    }
  }

  @Test
  void concurrentClients() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (ControlServer server = ControlServer.start(store, fake, "runner");
        SocketControl shared = SocketControl.connect(store).orElseThrow()) {
      List<Future<Integer>> done = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        String prefix = "c" + c + "-";
        boolean ownConnection = c % 2 == 0;
        done.add(pool.submit(() -> {
          try (SocketControl own = SocketControl.connect(store).orElseThrow()) {
            SocketControl client = ownConnection ? own : shared;
            for (int i = 0; i < 300; i++) {
              Task t = client.send(prefix + i, Command.PAUSE, Samples.T, null);
              assertThat(t.id()).isEqualTo(prefix + i);
            }
          }
          return 300;
        }));
      }
      for (Future<Integer> f : done) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(300);
      }
      assertThat(fake.calls).hasSize(8 * 300);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closeFinishesTheRequestInFlightThenHangsUp() throws Exception {
    ControlServer server = ControlServer.start(store, fake, "runner");
    SocketControl waiting = SocketControl.connect(store).orElseThrow();
    SocketControl idle = SocketControl.connect(store).orElseThrow();
    fake.gate = new CountDownLatch(1);
    CompletableFuture<Task> answer = CompletableFuture.supplyAsync(
        () -> waiting.send("t1", Command.KILL, null, "closing"));
    assertThat(fake.entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(server::close);
    // Once the server stopped accepting, nobody new gets in, but the request still runs.
    while (ownerAnswers()) {
      Thread.onSpinWait();
    }
    assertThat(answer).isNotDone();
    fake.gate.countDown();
    assertThat(answer.get(10, TimeUnit.SECONDS).id()).isEqualTo("t1");
    closed.get(10, TimeUnit.SECONDS);
    assertThat(server.socket()).doesNotExist();
    assertThatThrownBy(() -> waiting.send("t2", Command.RUN, null, null))
        .isExactlyInstanceOf(OwnerLostException.class).hasMessageEndingWith(" hung up before"
            + " answering; it may be stopping; whether the request took effect is unknown: check,"
            + " then try again");
    // A read changed nothing, so there is nothing to check before trying again.
    assertThatThrownBy(idle::counts).isExactlyInstanceOf(OwnerLostException.class)
        .hasMessageEndingWith(" hung up before answering; it may be stopping; nothing was"
            + " changed: try again");
    waiting.close();
    idle.close();
  }

  @Test
  void heartbeatsKeepASlowRequestAlive() throws Exception {
    try (ControlServer server = ControlServer.start(store, fake, "runner");
        SocketControl client = SocketControl.connect(store, 4_000_000_000L).orElseThrow()) {
      fake.gate = new CountDownLatch(1);
      CompletableFuture<Task> answer = CompletableFuture.supplyAsync(
          () -> client.send("slow", Command.RUN, null, null));
      assertThat(fake.entered.await(10, TimeUnit.SECONDS)).isTrue();
      // Time itself is under test here: the request must outlast the client's silence limit.
      Thread.sleep(6_000);
      fake.gate.countDown();
      assertThat(answer.get(10, TimeUnit.SECONDS).id()).isEqualTo("slow");
    }
  }

  private boolean ownerAnswers() {
    return SocketControl.connect(store).map(c -> {
      c.close();
      return true;
    }).orElse(false);
  }
}
