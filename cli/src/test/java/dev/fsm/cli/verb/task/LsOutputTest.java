package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code fsm ls} prints as it reads: the same documents, and it stops when nobody reads. */
class LsOutputTest {

  private static final Instant T = Instant.parse("2030-01-31T09:00:00Z");

  private static Task task(int n) {
    return new Task(String.format("t%04d", n), "order", "v1", "pay", TaskStatus.PAUSED,
        "{\"n\":" + n + "}", 0, List.of(), T, T, null, null, null);
  }

  private static GlobalOptions json() {
    return GlobalOptions.given(Map.of(), null, null, GlobalOptions.Output.json, true, false);
  }

  @Test
  void jsonPrintedAsReadIsTheDocumentPrintedWhole() {
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      tasks.add(task(i));
    }
    StringWriter text = new StringWriter();
    LsOutput out = LsOutput.of(false, json(), new PrintWriter(text));
    tasks.forEach(t -> assertThat(out.add(t, ShownStatus.PAUSED)).isTrue());
    out.end(false);

    StringWriter whole = new StringWriter();
    JsonDocument.print(new PrintWriter(whole, true),
        g -> TaskJson.tasks(g, tasks, t -> ShownStatus.PAUSED));
    assertThat(text.toString()).isEqualTo(whole.toString());
  }

  @Test
  void anEmptyJsonListIsAnEmptyArray() {
    StringWriter text = new StringWriter();
    LsOutput out = LsOutput.of(false, json(), new PrintWriter(text));
    out.end(true);
    assertThat(text.toString()).isEqualTo("[ ]" + System.lineSeparator());
  }

  @Test
  void idsStopOnceTheirReaderIsGone() {
    OutputStream closedPipe = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    };
    LsOutput out = LsOutput.of(true, GlobalOptions.given(Map.of(), null, null,
        GlobalOptions.Output.text, true, false), new PrintWriter(closedPipe));
    int added = 0;
    while (out.add(task(added), ShownStatus.PAUSED)) {
      added++;
      assertThat(added).isLessThan(10_000);
    }
    assertThat(added + 1).isEqualTo(LsOutput.CHECK_EVERY);
  }
}
