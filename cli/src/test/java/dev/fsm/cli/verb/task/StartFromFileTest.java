package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.store.embedded.journal.JournalOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
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

  /** The sizes of the chunks a file is started in. */
  private List<Integer> chunks(String text) throws Exception {
    Path file = dir.resolve("tasks.jsonl");
    Files.writeString(file, text);
    List<Integer> sizes = new ArrayList<>();
    Operations control = (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(),
        new Class<?>[] {Operations.class}, (proxy, method, args) -> {
          if (method.getName().equals("start")) {
            @SuppressWarnings("unchecked")
            List<NewTask> tasks = (List<NewTask>) args[1];
            sizes.add(tasks.size());
            return List.of();
          }
          throw new UnsupportedOperationException(method.getName());
        });
    StartFromFile from = new StartFromFile(file, Clock.systemUTC());
    PrintWriter err = new PrintWriter(new StringWriter());
    long total = from.check(err);
    from.start(control, new MachineSource("m", dir.resolve("m.yaml"), "machine: m\n"), total,
        err, true, started -> { });
    return sizes;
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
