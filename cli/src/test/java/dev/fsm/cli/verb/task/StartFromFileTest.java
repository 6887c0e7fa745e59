package dev.fsm.cli.verb.task;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.store.embedded.journal.JournalOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code start --from} cuts a file into all-or-none chunks: by lines and by bytes. */
class StartFromFileTest {

  @TempDir Path dir;

  private final MachineSource machine = new MachineSource("m", Path.of("m.yaml"), "machine: m\n");

  /** The sizes of the chunks a file is started in. */
  private List<Integer> chunks(String text) throws Exception {
    Path file = dir.resolve("tasks.jsonl");
    Files.writeString(file, text);
    List<Integer> sizes = new ArrayList<>();
    try (StartFromFile from = StartFromFile.open(file, Clock.systemUTC(),
        InputStream.nullInputStream())) {
      PrintWriter err = new PrintWriter(new StringWriter());
      long total = from.check(err);
      from.start(recording(sizes), machine, total, err, true, started -> { });
    }
    return sizes;
  }

  /** A store that notes the size of each batch it is asked to start, and starts nothing. */
  private static Operations recording(List<Integer> sizes) {
    return (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(),
        new Class<?>[] {Operations.class}, (proxy, method, args) -> {
          if (method.getName().equals("start")) {
            @SuppressWarnings("unchecked")
            List<NewTask> tasks = (List<NewTask>) args[1];
            sizes.add(tasks.size());
            return List.of();
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void stdinIsReadOnceIntoACopyThatCloseRemoves() {
    InputStream stdin = new ByteArrayInputStream("{\"id\": \"a\"}\n{}\n".getBytes(UTF_8));
    List<Integer> sizes = new ArrayList<>();
    StartFromFile from = StartFromFile.open(Path.of("-"), Clock.systemUTC(), stdin);
    PrintWriter err = new PrintWriter(new StringWriter());
    assertThat(from.name()).isEqualTo("stdin");
    assertThat(from.check(err)).isEqualTo(2);
    from.start(recording(sizes), machine, 2, err, true, started -> { });
    assertThat(sizes).containsExactly(2);
    Path copy = from.source();
    assertThat(copy).exists();
    from.close();
    assertThat(copy).doesNotExist();
  }

  @Test
  void aNamedPipeIsReadOnce() throws Exception {
    Path fifo = dir.resolve("tasks.fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    Thread writer = new Thread(() -> {
      try {
        Files.writeString(fifo, "{\"id\": \"f1\"}\n{\"id\": \"f2\"}\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    writer.start();
    List<Integer> sizes = new ArrayList<>();
    try (StartFromFile from = StartFromFile.open(fifo, Clock.systemUTC(),
        InputStream.nullInputStream())) {
      PrintWriter err = new PrintWriter(new StringWriter());
      long total = from.check(err);
      from.start(recording(sizes), machine, total, err, true, started -> { });
    }
    writer.join();
    assertThat(sizes).containsExactly(2);
  }

  @Test
  void aFileCutShortAfterTheCheckIsAnErrorNotASilentlyShorterStart() throws Exception {
    Path file = dir.resolve("tasks.jsonl");
    Files.writeString(file, "{}\n{}\n{}\n");
    try (StartFromFile from = StartFromFile.open(file, Clock.systemUTC(),
        InputStream.nullInputStream())) {
      PrintWriter err = new PrintWriter(new StringWriter());
      long total = from.check(err);
      Files.writeString(file, "{}\n");
      assertThatThrownBy(() -> from.start(recording(new ArrayList<>()), machine, total, err,
          true, started -> { }))
          .isInstanceOf(FsmException.class)
          .hasMessage(file + " changed after it was checked: it held 3 tasks and 1 were started"
              + " from it; `fsm ls --machine m` lists them");
    }
  }

  @Test
  void smallTasksGoAThousandAtATime() throws Exception {
    assertThat(chunks("{\"context\": {\"n\": 1}}\n".repeat(2500)))
        .containsExactly(1000, 1000, 500);
  }

  @Test
  void largeContextsCutChunksBeforeTheyOutgrowOneJournalChange() throws Exception {
    String big = "{\"context\": {\"blob\": \"" + "x".repeat(800_000) + "\"}}\n";
    String small = "{\"id\": \"s\"}\n";
    assertThat(chunks(big + big + big + small.replace("s", "s1") + small.replace("s", "s2")))
        .containsExactly(1, 1, 3);
    // Every chunk stays within half the journal's limit for one change, as estimated.
    assertThat(StartFromFile.weight(new NewTask(null, "x".repeat(800_000), null)) * 2)
        .isGreaterThan(StartFromFile.CHUNK_BYTES);
  }

  @Test
  void aChunkIsAtMostHalfTheJournalsLimitForOneChange() {
    assertThat(StartFromFile.CHUNK_BYTES * 2)
        .isLessThanOrEqualTo(JournalOptions.DEFAULT_MAX_RECORD_BYTES);
  }
}
