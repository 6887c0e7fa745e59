package dev.fsm.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fsm.FsmException;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.StoreDamagedException;
import dev.fsm.store.TaskExistsException;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.embedded.journal.JournalDamagedException;
import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.task.Command;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whatever the owner's control throws, the client throws alike; nothing leaves it hanging. */
class ControlErrorsTest {

  @TempDir Path store;
  private final FakeControl fake = new FakeControl();
  private ControlServer server;
  private SocketControl client;

  @BeforeEach
  void serve() {
    server = ControlServer.start(store, fake, "runner");
    client = SocketControl.connect(store).orElseThrow();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  /** The exception the client threw for {@code thrown}; the connection must still work after. */
  private Throwable across(RuntimeException thrown) {
    fake.failure = thrown;
    Throwable caught = catchThrowable(() -> client.send("t1", Command.PAUSE, null, null));
    fake.failure = null;
    assertThat(client.get("t1")).isPresent();
    return caught;
  }

  @Test
  void taskNotFound() {
    Throwable e = across(new TaskNotFoundException("t9"));
    assertThat(e).isExactlyInstanceOf(TaskNotFoundException.class)
        .hasMessage(new TaskNotFoundException("t9").getMessage());
    assertThat(((TaskNotFoundException) e).id()).isEqualTo("t9");
  }

  @Test
  void taskExists() {
    Throwable e = across(new TaskExistsException("ü-1"));
    assertThat(e).isExactlyInstanceOf(TaskExistsException.class)
        .hasMessage(new TaskExistsException("ü-1").getMessage());
  }

  @Test
  void leaseLost() {
    Throwable e = across(new LeaseLostException("t1", "runner 9/w1"));
    assertThat(e).isExactlyInstanceOf(LeaseLostException.class)
        .hasMessage(new LeaseLostException("t1", "runner 9/w1").getMessage());
    assertThat(((LeaseLostException) e).owner()).isEqualTo("runner 9/w1");
  }

  @Test
  void journalDamaged() {
    JournalDamagedException sent = new JournalDamagedException("journal damaged at 12",
        Path.of("/s/journal/0001.log"), 12, "CRC mismatch");
    StoreDamagedException got = (StoreDamagedException) across(sent);
    assertThat(got).hasMessage(sent.getMessage());
    assertThat(List.of(got.place(), got.offset(), got.reason()))
        .isEqualTo(List.of(sent.file().toString(), sent.offset(), sent.reason()));
  }

  @Test
  void refusalKeepsItsMessage() {
    Throwable e = across(new FsmException("task `t1` is completed; no command changes it"));
    assertThat(e).isExactlyInstanceOf(FsmException.class)
        .hasMessage("task `t1` is completed; no command changes it");
  }

  @Test
  void otherFsmExceptionsArriveAsFsmExceptionWithTheirMessage() throws Exception {
    Constructor<StoreInUseException> c = StoreInUseException.class
        .getDeclaredConstructor(String.class, OptionalLong.class);
    c.setAccessible(true);
    Throwable e = across(c.newInstance("store is in use by process 1", OptionalLong.of(1)));
    assertThat(e).isExactlyInstanceOf(FsmException.class)
        .hasMessage("store is in use by process 1");
  }

  @Test
  void unexpectedFailureSaysWhichRunnerFailed() {
    // The runner's log gets the stack trace; kept here rather than printed into the build log.
    Logger log = Logger.getLogger(Connection.class.getName());
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        logged.add(r);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(capture);
    log.setUseParentHandlers(false);
    try {
      Throwable e = across(new IllegalStateException("boom"));
      assertThat(e).isExactlyInstanceOf(FsmException.class).hasMessage("runner pid "
          + ProcessHandle.current().pid()
          + " failed the request (IllegalStateException: boom); its log has the details");
    } finally {
      log.removeHandler(capture);
      log.setUseParentHandlers(true);
    }
    assertThat(logged).singleElement().satisfies(r -> {
      assertThat(r.getMessage()).contains("failed a control request");
      assertThat(r.getThrown()).hasMessage("boom");
    });
  }

  @Test
  void anotherProtocolVersionIsRefused() throws IOException {
    try (Raw raw = new Raw(server.socket())) {
      String answer = raw.ask("{\"v\":2,\"op\":\"machineNames\"}");
      assertThat(answer).contains("\"ok\":false").contains("speaks control protocol v1");
      assertThat(raw.ask("{\"v\":1,\"op\":\"machineNames\"}"))
          .isEqualTo("{\"v\":1,\"ok\":true,\"result\":[\"order\",\"ünïcødé\"]}");
    }
  }

  @Test
  void unknownOperationIsRefused() throws IOException {
    try (Raw raw = new Raw(server.socket())) {
      assertThat(raw.ask("{\"v\":1,\"op\":\"reboot\"}"))
          .contains("does not know the control operation `reboot`");
    }
  }

  @Test
  void unreadableRequestIsAnsweredThenHungUp() throws IOException {
    try (Raw raw = new Raw(server.socket())) {
      assertThat(raw.ask("{\"v\":1,\"op\":\"send\",\"command\":\"explode\"}"))
          .contains("\"kind\":\"bad_request\"").contains("unknown command explode");
      assertThat(raw.reader.readLine()).isNull();
    }
  }

  @Test
  void silentOwnerIsAnErrorNotAHang(@TempDir Path other) throws IOException {
    try (ServerSocketChannel mute = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      mute.bind(UnixDomainSocketAddress.of(other.resolve(SocketLocation.SOCKET)));
      Thread answerHelloOnly = new Thread(() -> {
        try (SocketChannel c = mute.accept()) {
          new BufferedReader(new InputStreamReader(Channels.newInputStream(c))).readLine();
          c.write(ByteBuffer.wrap(("{\"v\":1,\"ok\":true,\"result\":{\"pid\":1,"
              + "\"owner\":\"runner pid 1\"}}\n").getBytes(StandardCharsets.UTF_8)));
          c.read(ByteBuffer.allocate(1 << 16));
          c.read(ByteBuffer.allocate(1));
        } catch (IOException e) {
          // The client hung up, as it should.
        }
      });
      answerHelloOnly.start();
      try (SocketControl quick = SocketControl.connect(other, 300_000_000L).orElseThrow()) {
        assertThatThrownBy(() -> quick.send("t1", Command.RUN, null, null))
            .isExactlyInstanceOf(OwnerLostException.class)
            .hasMessageStartingWith("runner pid 1 did not answer for 0 s");
        assertThatThrownBy(quick::counts).hasMessageContaining("runner pid 1 did not answer");
      }
    }
  }

  /** A hand-written client, to send what {@link SocketControl} never would. */
  private static final class Raw implements AutoCloseable {
    final SocketChannel channel;
    final BufferedReader reader;

    Raw(Path socket) throws IOException {
      channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
      reader = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel),
          StandardCharsets.UTF_8));
    }

    String ask(String line) throws IOException {
      channel.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
      String answer = reader.readLine();
      while (answer != null && answer.isBlank()) {
        answer = reader.readLine();
      }
      return answer;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
