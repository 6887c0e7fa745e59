package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many fsm processes on one embedded store at once, on the real jar: short-lived commands wait
 * their turn (SPEC section 5), runners race for the store, and a stranger writes garbage to the
 * control socket.
 */
class ConcurrentCommandsIT {

  @TempDir Path dir;

  private final List<FsmProcess> processes = new ArrayList<>();

  @BeforeEach
  void machine() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/order.yaml"), """
        machine: order
        states:
          pay:
            on: {paid: done}
          done: {final: completed}
        """);
  }

  @AfterEach
  void stop() {
    processes.forEach(FsmProcess::close);
  }

  @Test
  void thirtyConcurrentStartsWithNoRunnerAllSucceed() {
    for (int i = 0; i < 30; i++) {
      processes.add(FsmProcess.start(dir, "start", "order", "--id", "t" + i, "--store", "store"));
    }
    for (FsmProcess p : processes) {
      // 30 JVMs on a busy 2-core machine: each waits for those ahead of it in line.
      assertThat(p.awaitExit(Duration.ofSeconds(240))).as(p.err()).isZero();
      assertThat(p.err()).doesNotContain("in use");
    }
    FsmJar.Result listed = new StoreCommands(dir, "store").ok("ls", "--limit", "100");
    Set<String> ids = new HashSet<>();
    listed.outLines().stream().skip(1).forEach(l -> ids.add(l.split(" +")[0]));
    for (int i = 0; i < 30; i++) {
      assertThat(ids).contains("t" + i);
    }
  }

  @Test
  void aCommandWaitingLongSaysForWhom() throws IOException {
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "t1");
    // Holds the store until its stdin closes, as a long `start --from` would.
    try (Holder holder = Holder.start(dir.resolve("store"))) {
      FsmProcess waiting = FsmProcess.start(dir, "ls", "--store", "store");
      processes.add(waiting);
      Await.until("ls to say whom it waits for; stderr: " + waiting.err(), Duration.ofSeconds(60),
          () -> waiting.err().contains("waiting for"));
      assertThat(waiting.err()).isEqualTo("fsm: waiting for process " + holder.pid()
          + " (fsm) to release store store\n");
      assertThat(waiting.alive()).isTrue();
      holder.release();
      assertThat(waiting.awaitExit(Duration.ofSeconds(60))).isZero();
      assertThat(waiting.out()).contains("t1");
    }
  }

  @Test
  void twoRunnersStartedAtOnceOneServesTheOtherIsRefused() {
    FsmProcess a = FsmProcess.start(dir, "run", "--store", "store");
    FsmProcess b = FsmProcess.start(dir, "run", "--store", "store");
    processes.add(a);
    processes.add(b);
    Await.until("one runner to give up; a: " + a.err() + " b: " + b.err(),
        Duration.ofSeconds(60), () -> !a.alive() || !b.alive());
    FsmProcess loser = a.alive() ? b : a;
    FsmProcess winner = loser == a ? b : a;
    assertThat(loser.awaitExit(Duration.ofSeconds(10))).isEqualTo(1);
    assertThat(loser.err()).endsWith("fsm: store store is already served by runner pid "
        + winner.pid() + "; one runner per embedded store: stop it first, or send it work with"
        + " `fsm start`\n");
    winner.awaitServing();
    winner.terminate();
    assertThat(winner.awaitExit(Duration.ofSeconds(30))).isZero();
  }

  @Test
  void garbageOnTheControlSocketIsAnsweredAndTheRunnerKeepsServing() throws IOException {
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    Path socket = dir.resolve("store/control.sock");

    List<byte[]> garbages = List.of(
        "\u0000\u00ff\u00fe garbage\n".getBytes(StandardCharsets.ISO_8859_1),
        "{\"op\": [1, 2, {\"nested\": true}]}\n".getBytes(StandardCharsets.UTF_8),
        "}}}}\n".getBytes(StandardCharsets.UTF_8));
    for (byte[] garbage : garbages) {
      try (SocketChannel stranger = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        stranger.connect(UnixDomainSocketAddress.of(socket));
        stranger.write(ByteBuffer.wrap(garbage));
        // As `printf ... | nc -U` does: the owner may wait for more bytes to decode until then.
        stranger.shutdownOutput();
        String answer = new String(Channels.newInputStream(stranger).readAllBytes(),
            StandardCharsets.UTF_8);
        assertThat(answer).as("answer to %s", new String(garbage, StandardCharsets.ISO_8859_1))
            .contains("\"ok\":false").contains("could not read the request");
      }
    }

    assertThat(runner.alive()).isTrue();
    StoreCommands store = new StoreCommands(dir, "store");
    store.ok("start", "order", "--id", "after-garbage");
    assertThat(store.ok("ls").out()).contains("after-garbage");
    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(30))).isZero();
  }
}
